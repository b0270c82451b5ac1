import os
from pathlib import Path

import pytest
from jinja2 import UndefinedError

from agent.ingest.files import load_candidate, load_job
from agent.ingest.profile_view import profile_view
from agent.service import prepare_request
from prompts import render, template_version
from serving.fake_engine import ScriptedEngine
from tests.conftest import candidate_path

GOLDEN = Path(__file__).parent / "golden"


def _first_request(job_path, candidate_path):
    candidate = load_candidate(candidate_path)
    return prepare_request(load_job(job_path), candidate, ScriptedEngine()), candidate


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
    # the model reads the profile blinded: "Name: Candidate 033" becomes "Name: [name]"
    assert f"<profile>\n{profile_view(candidate).text}\n</profile>" in user["content"]
    assert "Name: [name]" in user["content"] and "Candidate 033" not in user["content"]
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


def test_template_version_covers_every_template(tmp_path, monkeypatch):
    """A change to any template an analysis may use (repair, requirements) changes the version."""
    import prompts

    for path in prompts.TEMPLATE_DIR.glob("*.j2"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(prompts, "TEMPLATE_DIR", tmp_path)
    before = template_version()
    (tmp_path / "repair_user.j2").write_text("changed")
    assert template_version() != before


@pytest.mark.parametrize("role", ["system", "user"])
def test_golden_requirements_prompt(role):
    """The prose-job requirements prompt for job_011; update the golden file when meant."""
    from agent.ingest.files import load_job
    from agent.rubric.prose_requirements import extraction_request, job_sentences
    from tests.conftest import job_path

    job = load_job(job_path("job_011"))
    request = extraction_request(job.title, job_sentences(job.text))
    content = {m["role"]: m["content"] for m in request.messages}[role]
    assert content == (GOLDEN / f"requirements_{role}.txt").read_text()


def test_the_job_comes_first_so_candidates_share_its_prefix(django_job_path):
    """Everything about the job (title, every requirement) precedes anything about the
    candidate, so vLLM's prefix cache computes it once for a whole batch."""
    job = load_job(django_job_path)
    users = [
        prepare_request(job, load_candidate(candidate_path(cid)), ScriptedEngine()).messages[1]
        for cid in ("cand_033", "cand_012")
    ]
    shared = os.path.commonprefix([u["content"] for u in users])  # noqa: RUF071 (characters)
    for requirement in job.requirements:
        assert f"{requirement.id} ({requirement.kind.replace('_', '-')}): {requirement.text}" in (
            shared
        )
    assert "Computed facts about the profile" in shared  # the first candidate part's heading
