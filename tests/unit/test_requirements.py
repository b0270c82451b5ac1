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


def test_a_scraped_posting_reads_as_its_asks():
    """job_008 as scraped: a heading glued to a tool name, a word cut at its start, template
    debris, and seven one-line tool lists."""
    reqs = extract_requirements(job_path("job_008").read_text())
    texts = [r.text for r in reqs]
    assert not any("Responsibilities" in t or "{" in t or t.startswith("ull ") for t in texts)
    tools = [t for t in texts if t.startswith("Environment, tools: ")]
    assert len(tools) == 1 and "Apache httpd" in tools[0] and "CherryPy" in tools[0]
    assert "Full stack web development (frontend + backend)" in texts  # "ull stack" mended
    for ask in ("5 + years experience", "Expert Python skills", "Relational databases and SQL"):
        assert any(ask in t for t in texts), ask


def test_short_tool_lists_merge_when_a_section_is_made_of_them():
    few = "# X\n\nSkills\n- Python, Django\n- Docker\n- Kubernetes in production at scale\n"
    assert [r.text for r in extract_requirements(few)] == [  # a few names: each its own
        "Python, Django",
        "Docker",
        "Kubernetes in production at scale",
    ]
    many = few + "- Git / Jenkins\n- Redis, Celery\n"
    texts = [r.text for r in extract_requirements(many)]
    assert texts == [
        "Skills: Python, Django; Docker; Git / Jenkins; Redis, Celery",
        "Kubernetes in production at scale",
    ]


def test_scraped_fragments_are_mended_or_dropped_and_template_braces_go():
    job = (
        "# X\n\nRequirements\n- strong communication skills in English\n"
        "- ull stack work daily\n- Strong proficiency with JavaScript {{or CoffeeScript}}\n"
        "\nAbout us\nWe do Full stack work, and strong teams win.\n"
    )
    texts = [r.text for r in extract_requirements(job)]
    assert texts == [
        "strong communication skills in English",  # "strong" is a word the posting uses
        "Full stack work daily",  # mended from "Full stack" elsewhere in the posting
        "Strong proficiency with JavaScript or CoffeeScript",
    ]
    cut = "# X\n\nRequirements\n- pected ratio of design tasks is 80:20\n- Python 3 and Django\n"
    assert [r.text for r in extract_requirements(cut)] == ["Python 3 and Django"]


def test_short_item_lines_are_not_headings_and_swallow_nothing():
    job = (
        "# Network Administrator\n\nResponsibilities\nInstall and configure software\n"
        "Troubleshoot issues and outages\nEducation / Skill Set\nAny B.Tech / BE graduate\n"
        "Minimum 3+ years of experience into IT system administration\n"
        "Strong communication skills\nExperience with Firewall management\n"
        "Handling LAN / WAN networks and coordinating with ISPs\n"
    )
    texts = [r.text for r in extract_requirements(job)]
    assert texts[:5] == [
        "Any B.Tech / BE graduate",
        "Minimum 3+ years of experience into IT system administration",
        "Strong communication skills",
        "Experience with Firewall management",
        "Handling LAN / WAN networks and coordinating with ISPs",
    ]
    assert texts[5:] == ["Install and configure software", "Troubleshoot issues and outages"]


def test_asks_listed_among_the_duties_rank_before_the_duties():
    job = (
        "# JavaScript Developer\n\nResponsibilities\nWork heavily with JavaScript frameworks.\n"
        "Understand business requirements\nStay up-to-date on emerging technologies.\n"
        "A bachelors degree in computer science or a related field.\n"
        "3-5 years development experience with HTML5, JavaScript and CSS3.\n"
        "Experience with XML and XSLT is a plus.\n"
    )
    reqs = extract_requirements(job)
    assert [r.text for r in reqs[:3]] == [
        "A bachelors degree in computer science or a related field",
        "3-5 years development experience with HTML5, JavaScript and CSS3",
        "Experience with XML and XSLT is a plus",
    ]
    assert reqs[2].kind == "nice_to_have"
    assert "Understand business requirements" in [r.text for r in reqs[3:]]


def test_stray_punctuation_before_a_requirement_is_dropped():
    from agent.rubric.requirements import make_requirement

    assert make_requirement(1, ". Proficiency in any programming language").text == (
        "Proficiency in any programming language"
    )


def test_a_lone_short_name_under_an_asking_heading_is_a_requirement():
    job = (
        "# Django Developer\n\n### Requirements\n\n  * 5+ years of Python and Django\n"
        "  * REST APIs\n\n### Nice to have\n\n  * Docker\n\n### Perks\n\n  * Gym\n"
    )
    found = [(r.text, r.kind) for r in extract_requirements(job)]
    assert found == [
        ("5+ years of Python and Django", "must_have"),
        ("REST APIs", "must_have"),
        ("Docker", "nice_to_have"),
    ]
