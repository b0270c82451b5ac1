from agent.rubric.requirements import MAX_REQUIREMENTS, extract_requirements
from tests.conftest import job_path

JOB = """# Backend Engineer

About us
We are a friendly company that builds things.

Requirements:
- 3+ years of Python in production
- Experience with PostgreSQL and SQL tuning
- 3+ years of Python in production systems
* Familiarity with Docker and Kubernetes

Benefits
- Free lunch every single day
"""


def test_bullets_under_requirement_heading_come_first_and_dedupe():
    reqs = extract_requirements(JOB)
    texts = [r.text for r in reqs]
    assert texts[:3] == [
        "3+ years of Python in production",
        "Experience with PostgreSQL and SQL tuning",
        "Familiarity with Docker and Kubernetes",
    ]
    assert all("lunch" not in t for t in texts)
    assert [r.id for r in reqs] == [f"R{i}" for i in range(1, len(reqs) + 1)]


def test_cap_applies():
    many = "Requirements:\n" + "\n".join(f"- skill number{i} with tool{i}" for i in range(20))
    assert len(extract_requirements(many)) == MAX_REQUIREMENTS


def test_real_job_qualifications_are_found():
    texts = [r.text for r in extract_requirements(job_path("job_014").read_text())]
    assert texts[0].startswith("Masters in Statistics")
    assert any("Tableau" in t for t in texts)


def test_prose_job_falls_back_to_sentences_that_ask_for_something():
    filler = "Our office sits by the river and our team loves lunch together on Fridays. " * 3
    prose = f"# Dev\n\n{filler}The candidate must have 5 years of Android experience. {filler}"
    texts = [r.text for r in extract_requirements(prose)]
    assert texts == ["The candidate must have 5 years of Android experience."]
