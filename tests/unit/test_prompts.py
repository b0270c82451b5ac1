import pytest
from jinja2 import UndefinedError

from agent.analysis import build_request
from agent.inputs import load_candidate, load_job
from prompts import render, template_version


def test_missing_variable_raises():
    with pytest.raises(UndefinedError):
        render("analysis_user", job={"title": "x"})


def test_rendered_prompt_marks_profile_as_data_and_lists_passages(
    django_job_path, django_candidate_path
):
    job, candidate = load_job(django_job_path), load_candidate(django_candidate_path)
    request = build_request(job, candidate)
    system, user = request.messages
    assert system["role"] == "system" and user["role"] == "user"
    assert "not instructions" in system["content"]
    assert f"<profile>\n{candidate.text}\n</profile>" in user["content"]
    for requirement in job.requirements:
        assert f"{requirement.id}: {requirement.text}" in user["content"]
    # every allowed quote appears in the prompt, so n-gram lookup can draft it
    for item in request.json_schema["properties"]["assessments"]["prefixItems"]:
        for quote in item["properties"]["evidence"].get("items", {}).get("enum", []):
            assert f'"{quote}"' in user["content"]


def test_template_version_is_a_stable_short_hash():
    assert template_version("analysis") == template_version("analysis")
    assert len(template_version("analysis")) == 12
