"""The recruiter chat through the real CLI on both databases, the scripted engine answering:
slash commands, routing plain words, memory across processes, a changed role re-ranking."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agent.chat.memory import open_checkpointer, session_names
from agent.chat.tools import TOOLS
from agent.cli.app import app
from serving.engine import GenerationRequest
from serving.fake_engine import ScriptedEngine
from tests.conftest import candidate_path, job_path
from tests.unit.fake_answers import valid_answer

runner = CliRunner()
CANDIDATES = ("cand_033", "cand_001", "cand_056")


def respond(request: GenerationRequest):
    """Analyses get a valid answer; a routing request (its schema has "action") is answered as
    the model would for the messages the tests send."""
    schema = request.json_schema or {}
    if "action" not in schema.get("properties", {}):
        return valid_answer(request)
    message = request.messages[-1]["content"].rsplit("Message:", 1)[1]
    blank = {"candidate": "", "other": "", "requirement": "", "text": "", "nice": False}
    if "cand_001" in message:
        return {**blank, "action": "why", "candidate": "cand_001"}
    if "rank" in message:
        return {**blank, "action": "rank"}
    return {**blank, "action": "why", "candidate": "nobody-real"}  # outside the enum: help


@pytest.fixture
def engine_starts(monkeypatch) -> list[ScriptedEngine]:
    """Each engine the chat starts (lazily: only when a message needs the model)."""
    started: list[ScriptedEngine] = []

    def scripted(settings, say=None):
        started.append(ScriptedEngine(responder=respond))
        return started[-1]

    monkeypatch.setattr("serving.factory.open_engine", scripted)
    return started


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    resumes = tmp_path / "resumes"
    resumes.mkdir()
    for cid in CANDIDATES:
        (resumes / f"{cid}.md").write_text(candidate_path(cid).read_text())
    return resumes


def _chat(database_url: str, lines: str, *args: str):
    env = {"DATABASE_URL": database_url}
    return runner.invoke(app, ["chat", *args], input=lines, env=env)


def _ranked(output: str) -> list[str]:
    return [
        line.split()[1]
        for line in output.splitlines()
        if line.strip()[:1].isdigit() and "cand_" in line
    ]


def test_rank_then_why_from_memory_then_a_new_requirement(
    database, database_url, folder, engine_starts, tmp_path
):
    first = _chat(
        database_url, "/rank\n", "--job", str(job_path("job_008")),
        "--candidates", str(folder), "--session", "s1", "--out", str(tmp_path / "out"),
        "--verbose",
    )  # fmt: skip
    assert first.exit_code == 0, first.output
    assert "Session 's1': Django Developer, 3 candidates" in first.output
    assert "Analyzed 3. 3 candidates, ranked by score" in first.output
    assert "(3 analyses run, " in first.output and "draft acceptance" in first.output
    order = _ranked(first.output)
    assert sorted(order) == sorted(CANDIDATES) and order[-1] == "cand_001"
    assert "Session saved. Resume it with --session s1." in first.output

    second = _chat(database_url, "/why cand_001\n", "--session", "s1")
    assert second.exit_code == 0, second.output
    assert "Resumed session 's1': Django Developer, 3 candidates, 1 earlier messages" in (
        second.output
    )
    assert "cand_001: " in second.output and "/100" in second.output
    quoted = [
        line.split('— "', 1)[1].rstrip('"') for line in second.output.splitlines() if '— "' in line
    ]
    assert quoted and all(q in candidate_path("cand_001").read_text() for q in quoted)
    assert len(engine_starts) == 1  # the second process answered from memory: no engine

    third = _chat(
        database_url,
        "/require Kubernetes in production\n/rank\n/export html\n/export csv\n",
        "--session", "s1", "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert third.exit_code == 0, third.output
    assert "Added R9 (must-have): Kubernetes in production. Re-ranked: Analyzed 3." in third.output
    assert len(engine_starts) == 2 and len(engine_starts[1].history) == 3
    before = {
        line.split()[1]: line.split()[2]
        for line in first.output.splitlines()
        if line.strip()[:1].isdigit() and "cand_" in line
    }
    after = {
        line.split()[1]: line.split()[2]
        for line in third.output.splitlines()
        if line.strip()[:1].isdigit() and "cand_" in line
    }
    assert before != after  # nobody shows Kubernetes: the must-have changes every score
    page = (tmp_path / "out" / "report.html").read_text()
    assert all(f"<b>{cid}</b>" in page for cid in CANDIDATES)
    assert '<li><span class="rid">R9</span>Kubernetes in production' in page  # as edited
    assert "Chat session s1" in page and "batch run" not in page
    assert "scripted-fake" in page  # the model that made the analyses, from their provenance
    shortlist = (tmp_path / "out" / "shortlist.csv").read_text().splitlines()
    assert len(shortlist) == 4 and shortlist[0].startswith("rank,candidate_id")
    with open_checkpointer(database_url) as checkpointer:
        held = checkpointer.get_tuple({"configurable": {"thread_id": "s1"}}).checkpoint
        json.dumps(held["channel_values"])  # plain JSON: no analysis state leaked in
        assert session_names(checkpointer) == ["s1"]


def test_plain_words_are_routed_to_an_action(database, database_url, folder, engine_starts):
    result = _chat(
        database_url,
        "why did cand_001 score lower?\nplease rank them\nwhat about the weather\n",
        "--job", str(job_path("job_008")), "--candidates", str(folder), "--session", "words",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "cand_001: " in result.output  # routed to why
    assert "3 candidates, ranked by score" in result.output  # routed to rank
    assert "Commands (or ask in plain words):" in result.output  # nothing fits: help
    routes = [r for r in engine_starts[0].history if "action" in r.json_schema["properties"]]
    assert len(routes) == 3
    named = routes[0].json_schema["properties"]
    assert named["candidate"]["enum"] == ["cand_001"]  # it names one: picked among those
    assert named["action"]["enum"] == ["why", "note"]  # and what one candidate fits
    unnamed = routes[1].json_schema["properties"]
    assert sorted(unnamed["candidate"]["enum"]) == sorted([*CANDIDATES, ""])  # else all ids
    assert "rank" in unnamed["action"]["enum"] and "help" in unnamed["action"]["enum"]


def test_bad_commands_answer_in_one_line_and_sessions_are_listed(
    database, database_url, folder, engine_starts
):
    result = _chat(
        database_url, "/why\n/drop R42\n/shortlist many\n/frobnicate\n",
        "--job", str(job_path("job_008")), "--candidates", str(folder), "--session", "oops",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for expected in (
        "usage: /why CAND",
        "no requirement R42 (requirements: R1, R2",
        "usage: /shortlist N (N a whole number, 1 or more)",
        "no command /frobnicate: /help lists them",
    ):
        assert expected in result.output
    assert engine_starts == []  # nothing needed the model
    listed = runner.invoke(app, ["chat", "--list"], env={"DATABASE_URL": database_url})
    row = next(line for line in listed.output.splitlines() if line.split()[:1] == ["oops"])
    assert row.split()[1:5] == ["Django", "Developer", "3", "4"]  # role, candidates, messages
    other_job = _chat(database_url, "", "--job", str(job_path("job_014")), "--session", "oops")
    assert other_job.exit_code == 2
    assert "session 'oops' is about 'Django Developer'" in other_job.output


def test_a_killed_session_comes_back_with_its_notes_and_analyses(database_url, folder, tmp_path):
    env = {**os.environ, "DATABASE_URL": database_url}
    killed = subprocess.run(
        [sys.executable, "-m", "tests.store.chat_session_killed", str(folder)],
        env=env, capture_output=True, text=True,
        timeout=120, cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    assert "ranked" in killed.stdout
    back = _chat(database_url, "/rank\n", "--session", "kill-me")
    assert back.exit_code == 0, back.output
    assert "Your notes: wants someone in Berlin" in back.output
    assert "Analyzed" not in back.output  # the analyses made before the kill are reused
    saved = json.loads(killed.stdout.splitlines()[-1])
    assert _ranked(back.output) == saved


def test_a_failing_answer_is_one_line_and_the_session_goes_on(
    database, database_url, folder, engine_starts, monkeypatch
):
    def broken(state, ctx, args):
        raise RuntimeError("boom")

    monkeypatch.setitem(TOOLS, "rank", broken)
    result = _chat(
        database_url, "/rank\n/help\n",
        "--job", str(job_path("job_008")), "--candidates", str(folder), "--session", "bug",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "error: this answer failed (RuntimeError: boom); the session is kept" in result.output
    assert "Traceback" not in result.output
    assert "Commands (or ask in plain words):" in result.output


def test_a_cancelled_answer_leaves_the_session_as_it_was(database, database_url, folder):
    import threading

    from agent.batch.sources import collect_candidates
    from agent.chat.session import ChatSession
    from agent.chat.tools import TurnCancelled
    from agent.ingest.files import load_job
    from agent.service import AnalysisService

    service = AnalysisService(ScriptedEngine(responder=respond), database)
    with open_checkpointer(database_url) as checkpointer:
        talk = ChatSession(service, checkpointer, "cancel", Path("unused"))
        job = load_job(job_path("job_008"))
        talk.start(job, collect_candidates([str(folder)]), job.requirements)
        cancelled = threading.Event()
        cancelled.set()
        with pytest.raises(TurnCancelled):
            talk.send("/require Kubernetes", cancelled)
        assert [r["id"] for r in talk.state["requirements"]][-1] == "R8"
        assert talk.state["messages"] == []
        assert talk.send("/requirements").reply["text"].endswith("8 requirements.")


def test_a_note_is_shown_beside_later_answers_about_candidates(
    database, database_url, folder, engine_starts
):
    result = _chat(
        database_url,
        "/note prefers Berlin\n/why cand_001\n/compare cand_001 cand_033\n/shortlist 1\n",
        "--job", str(job_path("job_008")), "--candidates", str(folder), "--session", "noted",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.count("Your notes: prefers Berlin") == 3  # why, compare, shortlist
