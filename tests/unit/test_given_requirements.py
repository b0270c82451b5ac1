"""A recruiter sees the requirements (`requirements JOB`) and can give their own (a file)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agent.cli.app import app
from agent.errors import InputError
from agent.ingest.files import load_requirements
from tests.conftest import job_path

runner = CliRunner()


def test_one_per_line_with_markers_and_nice_to_have(tmp_path):
    path = tmp_path / "reqs.txt"
    path.write_text(
        "- 5+ years of Python\n\n* Django REST framework\n- Kubernetes (nice to have)\n"
    )
    reqs = load_requirements(path)
    assert [(r.id, r.text, r.kind) for r in reqs] == [
        ("R1", "5+ years of Python", "must_have"),
        ("R2", "Django REST framework", "must_have"),
        ("R3", "Kubernetes (nice to have)", "nice_to_have"),
    ]
    assert reqs[0].dimension == "seniority"


def test_json_texts_or_objects_with_kind_and_weight(tmp_path):
    path = tmp_path / "reqs.json"
    entries = ["SQL", {"text": "Docker", "kind": "nice_to_have", "weight": 2}]
    path.write_text(json.dumps(entries))
    reqs = load_requirements(path)
    assert [(r.text, r.kind, r.weight) for r in reqs] == [
        ("SQL", "must_have", 1.0),
        ("Docker", "nice_to_have", 2.0),
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1, 2]", "each entry must be a text"),
        ('[{"text": "SQL", "kind": "maybe"}]', "kind must be"),
        ('[{"text": "SQL", "weight": 99}]', "weight must be a number"),
        ("[", "not valid JSON"),
        ("\n\n", "is empty"),
        ("- \n-\n", "no requirements"),
    ],
)
def test_bad_files_get_one_line(tmp_path, content, message):
    path = tmp_path / "reqs.json"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        load_requirements(path)


def test_requirements_command_prints_them_and_json_round_trips(tmp_path):
    shown = runner.invoke(app, ["requirements", str(job_path("job_008"))])
    assert shown.exit_code == 0, shown.output
    assert "8 requirements, found under the posting's headings" in shown.output
    assert "Expert Python skills" in shown.output
    as_json = runner.invoke(app, ["requirements", str(job_path("job_008")), "--json"])
    path = tmp_path / "reqs.json"
    path.write_text(as_json.output)
    again = load_requirements(path)
    assert [r.text for r in again][:2] == [
        json.loads(as_json.output)[0]["text"],
        "Looking for 5 + years experience in Full stack web development with expertise in "
        "Python Django",
    ]
    missing = runner.invoke(app, ["requirements", str(tmp_path / "nope.md")])
    assert missing.exit_code == 2 and "job file not found" in missing.output
