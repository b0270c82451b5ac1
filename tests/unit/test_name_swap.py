"""`fairness name-swap` through the CLI app, on the scripted engine answering every request."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agent.cli.app import app
from agent.fairness.name_swap import load_names, pick_names, with_name
from serving.fake_engine import ScriptedEngine
from tests.conftest import SAMPLES, candidate_path, job_path
from tests.unit.fake_answers import valid_answer

runner = CliRunner()
TEMPLATES = SAMPLES / "fairness" / "jobs_and_resume_templates.json"


@pytest.fixture(autouse=True)
def scripted(monkeypatch):
    engine = ScriptedEngine(responder=valid_answer)
    monkeypatch.setattr("agent.cli.fairness.start_engine", lambda settings: engine)
    return engine


def _swap(*args: str):
    result = runner.invoke(app, ["fairness", "name-swap", *args])
    assert result.exit_code == 0, result.output
    return result


def _demo_swap(*args: str):
    """The command on the demo pair, whatever its exit code."""
    demo = ["--job", str(job_path("job_008")), "--candidate", str(candidate_path("cand_033"))]
    return runner.invoke(app, ["fairness", "name-swap", *demo, *args])


def _template_profile(tmp_path):
    data = json.loads(TEMPLATES.read_text())
    job = data["jobs"][0]
    (tmp_path / "job.md").write_text(f"# {job['title']}\n\n{job['jd']}\n")
    (tmp_path / "resume.md").write_text(job["resume_templates"][0]["text"])
    return tmp_path / "job.md", tmp_path / "resume.md"


def test_blinded_every_group_s_name_gives_one_prompt_and_no_spread(tmp_path):
    job, resume = _template_profile(tmp_path)
    result = _swap("--job", str(job), "--candidate", str(resume), "--json")
    out = json.loads(result.output[result.output.index("{") :])
    groups = [r["group"] for r in out["results"]]
    assert groups == ["W_M", "W_W", "B_M", "B_W", "A_M", "A_W", "H_M", "H_W"]
    assert len({r["name"] for r in out["results"]}) == 8
    assert len(out["prompt_hashes"]) == 8 and out["distinct_prompts"] == 1
    assert out["score_spread"] == 0 and out["verdicts_identical"] is True
    assert all(r["score"] is not None for r in out["results"])


def test_without_blinding_each_name_changes_the_prompt(tmp_path):
    job, resume = _template_profile(tmp_path)
    result = _swap("--job", str(job), "--candidate", str(resume), "--no-blind", "--json")
    out = json.loads(result.output[result.output.index("{") :])
    assert out["blind"] is False and out["distinct_prompts"] == 8


def test_the_table_names_groups_hashes_scores_and_the_spread():
    result = _demo_swap("--groups", "W_M,B_W,A_M,H_W")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for label in ("White men", "Black women", "Asian men", "Hispanic women"):
        row = next(line for line in lines if line.startswith(label))
        assert len(row.split()) > 5
    assert "Distinct prompts: 1 of 4.  Score spread: 0.  Verdicts identical: yes." in lines
    assert any("decision support" in line for line in lines)


def test_a_profile_s_header_name_is_the_one_swapped():
    text = candidate_path("cand_033").read_text()
    swapped = with_name(text, "LAKISHA DORSEY")
    assert swapped.startswith("Name: LAKISHA DORSEY\n") and "Candidate 033" not in swapped
    assert with_name("Summary:\nI code.", "ADAM ERICKSON").startswith("ADAM ERICKSON\n\n")


def test_names_are_picked_per_group_and_the_same_seed_picks_the_same():
    names = load_names()
    assert len(names.groups) == 8 and names.labels["B_W"] == "Black women"
    picked = pick_names(names, per_group=2, seed=3)
    assert len(picked) == 16 and picked == pick_names(names, per_group=2, seed=3)
    assert {g for g, _ in picked} == set(names.groups)


@pytest.mark.parametrize(
    ("content", "message"),
    [("not json", "cannot read the names file"), ('{"a": "x"}', "expected {group: [names")],
)
def test_a_bad_names_file_is_one_line(tmp_path, content, message):
    bad = tmp_path / "names.json"
    bad.write_text(content)
    result = _demo_swap("--names", str(bad))
    assert result.exit_code != 0
    assert message in result.output and "Traceback" not in result.output


def test_an_unknown_group_is_named():
    result = _demo_swap("--groups", "X_Y")
    assert result.exit_code != 0 and "no group X_Y" in result.output
