"""JSON Resume candidates and JSON job postings become readable Markdown, or a one-line error."""

from __future__ import annotations

import copy
import json

import pytest

from agent.ingest.json_common import FormatError, looks_like_json, parse_json_document
from agent.ingest.json_job import job_to_parts
from agent.ingest.json_resume import resume_to_markdown

RESUME: dict = {
    "$schema": "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json",
    "basics": {
        "name": "Ada Nakamura",
        "label": "Senior Backend Engineer",
        "image": "https://example.com/ada.png",
        "email": "ada.nakamura@example.com",
        "phone": "+49 30 1234567",
        "url": "https://ada.example.com",
        "summary": "Backend engineer focused on payment systems and reliability.",
        "location": {
            "address": "Torstrasse 1",
            "postalCode": "10119",
            "city": "Berlin",
            "countryCode": "DE",
            "region": "Berlin",
        },
        "profiles": [
            {"network": "GitHub", "username": "adanak", "url": "https://github.com/adanak"}
        ],
    },
    "work": [
        {
            "name": "PayFlow GmbH",
            "position": "Senior Backend Engineer",
            "url": "https://payflow.example.com",
            "startDate": "2016-01-01",
            "summary": "Leads the settlement team of six engineers.",
            "highlights": [
                "Cut settlement latency by 40% by moving batch jobs to Kafka streams",
                "Designed the idempotent payments API used by 300 merchants",
            ],
        },
        {
            "name": "Shoply",
            "position": "Software Engineer",
            "startDate": "2012-03",
            "endDate": "2015-12-31",
            "highlights": ["Built the order service in Python and PostgreSQL"],
        },
    ],
    "education": [
        {
            "institution": "Technische Universität München",
            "area": "Computer Science",
            "studyType": "Master",
            "startDate": "2009-10-01",
            "endDate": "2011-09-30",
            "score": "1.3",
            "courses": ["Distributed Systems"],
        }
    ],
    "skills": [
        {"name": "Backend", "level": "Expert", "keywords": ["Python", "Go", "PostgreSQL"]},
        {"name": "Streaming", "keywords": ["Kafka"]},
    ],
    "languages": [{"language": "English", "fluency": "Fluent"}],
    "references": [{"name": "Jane Roe", "reference": "Ada is great."}],
    "interests": [{"name": "Chess"}],
    "futureKey": {"ignored": True},
}

JOB: dict = {
    "title": "Backend Engineer",
    "company": "PayFlow GmbH",
    "type": "Full-time",
    "date": "2024-03-01",
    "description": "Join the team that moves money for 300 merchants.",
    "location": {
        "address": "Torstrasse 1",
        "postalCode": "10119",
        "city": "Berlin",
        "countryCode": "DE",
    },
    "remote": "None",
    "salary": "70,000-85,000 EUR",
    "experience": "Senior or more",
    "responsibilities": ["Own the settlement service", "Review designs"],
    "qualifications": ["5+ years building backend services", "Fluent English"],
    "skills": [{"name": "Databases", "level": "Advanced", "keywords": ["PostgreSQL", "Redis"]}],
    "tools": [{"name": "Docker", "keywords": ["Compose", "Swarm"]}],
    "projects": [{"name": "Ledger", "description": "A double-entry ledger"}],
    "meta": {"version": "v1.0.0"},
}


def _resume(**changes: object) -> dict:
    """A copy of RESUME with top-level keys replaced (None removes the key)."""
    data = copy.deepcopy(RESUME)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def _job(**changes: object) -> dict:
    """A copy of JOB with top-level keys replaced (None removes the key)."""
    data = copy.deepcopy(JOB)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


# --- resumes ---------------------------------------------------------------------------------


def test_resume_renders_name_headline_and_summary():
    name, text = resume_to_markdown(_resume())
    assert name == "Ada Nakamura"
    assert text.startswith("# Ada Nakamura\n")
    assert "Senior Backend Engineer" in text
    assert "Location: Berlin, DE" in text
    assert "Backend engineer focused on payment systems and reliability." in text


def test_resume_renders_positions_with_periods_and_highlight_bullets():
    _, text = resume_to_markdown(_resume())
    assert "### Senior Backend Engineer, PayFlow GmbH (2016-01 – Present)" in text
    assert "### Software Engineer, Shoply (2012-03 – 2015-12)" in text
    assert "Leads the settlement team of six engineers." in text
    assert "\n- Cut settlement latency by 40% by moving batch jobs to Kafka streams\n" in text
    assert "\n- Built the order service in Python and PostgreSQL" in text
    assert text.index("PayFlow GmbH") < text.index("Shoply") < text.index("## Education")


def test_resume_renders_education_skills_and_languages():
    _, text = resume_to_markdown(_resume())
    assert "### Master in Computer Science, Technische Universität München" in text
    assert "Courses: Distributed Systems" in text
    assert "- Backend (Expert): Python, Go, PostgreSQL" in text
    assert "- Streaming: Kafka" in text
    assert "- English (Fluent)" in text


def test_resume_text_is_blind_to_contacts_graduation_dates_and_scores():
    _, text = resume_to_markdown(_resume())
    for hidden in (
        "ada.nakamura@example.com",
        "+49 30 1234567",
        "1234567",
        "https://",
        "adanak",
        "Torstrasse",
        "10119",
        "2011",
        "2009",
        "1.3",
        "Jane Roe",
        "ignored",
    ):
        assert hidden not in text, hidden


def test_resume_with_only_skills_omits_missing_sections():
    data = {"skills": [{"name": "Python", "keywords": ["asyncio", "pydantic"]}]}
    name, text = resume_to_markdown(data)
    assert name == ""
    assert text == "# Candidate\n\n## Skills\n\n- Python: asyncio, pydantic"


def test_resume_renders_volunteer_certificates_and_projects():
    data = _resume(
        volunteer=[{"organization": "Code Club", "position": "Mentor", "startDate": "2019-05"}],
        certificates=[{"name": "CKA", "issuer": "CNCF", "date": "2021-05-02"}],
        projects=[
            {
                "name": "pgtail",
                "description": "CLI that tails PostgreSQL logical replication.",
                "highlights": ["1,000 GitHub stars"],
                "keywords": ["Go"],
            }
        ],
    )
    _, text = resume_to_markdown(data)
    assert "## Volunteering\n\n### Mentor, Code Club (2019-05 – Present)" in text
    assert "- CKA, CNCF (2021-05)" in text
    assert "### pgtail\n\nCLI that tails PostgreSQL logical replication." in text
    assert "- 1,000 GitHub stars" in text
    assert "Keywords: Go" in text


@pytest.mark.parametrize(
    "data",
    [
        {"name": "Ada", "email": "ada@example.com"},
        {"basics": {}, "work": [], "education": [], "skills": []},
        {"awards": [{"title": "Best paper"}]},
    ],
)
def test_non_resume_json_is_refused(data):
    with pytest.raises(FormatError, match="not a JSON Resume: no basics, work, education or"):
        resume_to_markdown(data)


def test_resume_that_is_not_an_object_is_refused():
    with pytest.raises(FormatError, match="not a JSON Resume"):
        resume_to_markdown(["basics"])  # type: ignore[arg-type]


def test_resume_with_contacts_only_is_refused():
    with pytest.raises(FormatError, match="nothing to analyse"):
        resume_to_markdown({"basics": {"name": "Ada", "email": "ada@example.com"}})


def test_resume_section_of_wrong_type_is_refused():
    with pytest.raises(FormatError, match="'work' must be a list"):
        resume_to_markdown(_resume(work={"name": "Acme"}))


# --- JSON parsing ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("{}", True), ('  \n\t{"basics": {}}', True), ("# Title\n{", False), ("[{}]", False)],
)
def test_looks_like_json(text, expected):
    assert looks_like_json(text) is expected


def test_parse_json_document_returns_the_object():
    assert parse_json_document(json.dumps(RESUME), "candidate") == RESUME


def test_invalid_json_names_the_file_kind_and_position():
    with pytest.raises(FormatError, match=r"^candidate file is not valid JSON: .*line 3, column"):
        parse_json_document('{\n  "basics": {"name": "Ada"},\n  "work": [,]\n}', "candidate")


def test_json_error_message_is_one_line():
    with pytest.raises(FormatError) as caught:
        parse_json_document('{"title": "x",\n\n', "job")
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith("job file is not valid JSON: ")


def test_json_array_at_top_level_is_refused():
    with pytest.raises(FormatError, match=r"^job file is not valid JSON: .*object.*array"):
        parse_json_document("[1, 2]", "job")


# --- jobs ------------------------------------------------------------------------------------


def test_job_parts_title_company_location():
    parts = job_to_parts(_job())
    assert parts["title"] == "Backend Engineer"
    assert parts["company"] == "PayFlow GmbH"
    assert parts["location"] == "Berlin, DE"


def test_job_text_renders_the_whole_posting():
    text = job_to_parts(_job())["text"]
    assert text.startswith("# Backend Engineer\n")
    for expected in (
        "Company: PayFlow GmbH",
        "Location: Berlin, DE",
        "Employment type: Full-time",
        "Salary: 70,000-85,000 EUR",
        "Join the team that moves money for 300 merchants.",
        "## Responsibilities\n\n- Own the settlement service\n- Review designs",
        "- 5+ years building backend services",
        "- Databases (Advanced): PostgreSQL, Redis",
        "- Docker: Compose, Swarm",
        "- Ledger: A double-entry ledger",
    ):
        assert expected in text, expected
    assert "Torstrasse" not in text
    assert "v1.0.0" not in text


def test_job_requirements_carry_kinds_and_skip_responsibilities():
    requirements = job_to_parts(_job())["requirements"]
    assert requirements == [
        {"text": "5+ years building backend services", "kind": "must_have"},
        {"text": "Fluent English", "kind": "must_have"},
        {"text": "Experience: Senior or more", "kind": "must_have"},
        {"text": "Databases (Advanced): PostgreSQL, Redis", "kind": "must_have"},
        {"text": "Docker: Compose, Swarm", "kind": "nice_to_have"},
    ]
    texts = " ".join(r["text"] for r in requirements)
    assert "settlement service" not in texts
    assert "Review designs" not in texts


@pytest.mark.parametrize(
    ("changes", "location"),
    [
        ({"location": None, "remote": "Full"}, "Remote (Full)"),
        ({"remote": "Hybrid"}, "Berlin, DE · Remote (Hybrid)"),
        ({"location": None, "remote": "None"}, None),
        ({"location": {"city": "Austin", "region": "TX", "countryCode": "US"}}, "Austin, TX, US"),
    ],
)
def test_job_location_variants(changes, location):
    assert job_to_parts(_job(**changes))["location"] == location


def test_job_without_company_or_extras_is_minimal():
    parts = job_to_parts({"title": "Data Analyst", "description": "Analyse sales data."})
    assert parts["company"] is None
    assert parts["location"] is None
    assert parts["requirements"] == []
    assert parts["text"] == "# Data Analyst\n\n## Description\n\nAnalyse sales data."


@pytest.mark.parametrize("title", [None, "", "   "])
def test_job_without_title_is_refused(title):
    with pytest.raises(FormatError, match="no 'title'"):
        job_to_parts(_job(title=title))


def test_job_without_description_qualifications_or_skills_is_refused():
    data = _job(description=None, qualifications=None, skills=None)
    with pytest.raises(FormatError, match="no description, qualifications or skills"):
        job_to_parts(data)
