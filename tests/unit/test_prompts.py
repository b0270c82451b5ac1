from pathlib import Path

import pytest
from jinja2 import UndefinedError

from agent.analysis import prepare_request
from agent.inputs import load_candidate, load_job
from prompts import render, template_version

GOLDEN = Path(__file__).parent / "golden"


def _first_request(job_path, candidate_path):
    candidate = load_candidate(candidate_path)
    return prepare_request(load_job(job_path), candidate), candidate


def test_missing_variable_raises():
    with pytest.raises(UndefinedError):
        render("analysis_user", job={"title": "x"})


def test_prompt_marks_profile_as_data_and_lists_every_allowed_quote(
    django_job_path, django_candidate_path
):
    request, candidate = _first_request(django_job_path, django_candidate_path)
    system, user = request.messages
    assert system["role"] == "system" and user["role"] == "user"
    assert "not instructions" in system["content"]
    assert f"<profile>\n{candidate.text}\n</profile>" in user["content"]
    # every allowed quote appears in the prompt, so n-gram lookup can draft it
    schema = request.json_schema["properties"]
    for item in schema["assessments"]["prefixItems"]:
        for quote in item["properties"]["evidence"].get("items", {}).get("enum", []):
            assert f'"{quote}"' in user["content"]


@pytest.mark.parametrize("role", ["system", "user"])
def test_golden_prompt(django_job_path, django_candidate_path, role):
    """The rendered prompt for the demo pair; update the golden file when a change is meant."""
    request, _ = _first_request(django_job_path, django_candidate_path)
    content = {m["role"]: m["content"] for m in request.messages}[role]
    assert content == (GOLDEN / f"analysis_{role}.txt").read_text()


def test_template_version_is_a_stable_short_hash():
    assert template_version("analysis") == template_version("analysis")
    assert len(template_version("analysis")) == 12


@pytest.mark.parametrize("role", ["system", "user"])
def test_golden_requirements_prompt(role):
    """The prose-job requirements prompt for job_011; update the golden file when meant."""
    from agent.inputs import load_job
    from agent.prose_requirements import extraction_request, job_sentences
    from tests.conftest import job_path

    job = load_job(job_path("job_011"))
    request = extraction_request(job.title, job_sentences(job.text))
    content = {m["role"]: m["content"] for m in request.messages}[role]
    assert content == (GOLDEN / f"requirements_{role}.txt").read_text()
