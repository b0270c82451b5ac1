"""The README's Python API examples run as written (the engine factory answers with the
scripted engine: these test the API's logic, the integration tests the real engine)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from serving.fake_engine import ScriptedEngine
from tests.conftest import candidate_path, job_path
from tests.unit.fake_answers import valid_answer

README = Path(__file__).resolve().parents[2] / "README.md"


def python_api_examples() -> list[str]:
    text = README.read_text()
    section = text.split("### Python API", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def test_the_readme_has_python_api_examples():
    assert len(python_api_examples()) >= 2


@pytest.mark.parametrize("index", range(2))
def test_a_readme_example_runs(index, tmp_path, monkeypatch, capsys):
    shutil.copy(job_path("job_008"), tmp_path / "job.md")
    shutil.copy(candidate_path("cand_033"), tmp_path / "cv.md")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'readme.db'}")
    engines: list[ScriptedEngine] = []

    def scripted(settings, say=None):
        engines.append(ScriptedEngine(responder=valid_answer))
        return engines[-1]

    monkeypatch.setattr("serving.factory.open_engine", scripted)
    code = python_api_examples()[index]
    exec(compile(code, f"README example {index + 1}", "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out
    assert engines and engines[0].history, "the example analyzed nothing"
    if index == 0:
        score, greenhouse, counts = printed.splitlines()[0].split(" ", 2)
        assert 0 <= int(score) <= 100 and greenhouse in (
            "strong_yes",
            "yes",
            "no",
            "definitely_not",
            "no_decision",
        )
        assert "required" in counts
    else:
        assert "overall_recommendation" in printed
        assert "rank,candidate_id" in printed
