"""`history`, `show`, `candidate forget` and `db` on both databases, through the real CLI app."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agent.cli.app import app
from agent.store.database import head_revision
from agent.store.repository import save_analysis
from agent.store.tables import AuditEvent

runner = CliRunner()


@pytest.fixture
def saved(database, report, job, candidate) -> int:
    with database.session() as session:
        return save_analysis(session, report=report, job=job, candidate=candidate)[0].id


def _run(database_url: str, *args: str):
    return runner.invoke(app, list(args), env={"DATABASE_URL": database_url})


def test_history_on_an_empty_database_says_so(database, database_url):
    result = _run(database_url, "history")
    assert result.exit_code == 0
    assert "No analyses saved yet" in result.output


def test_history_lists_saved_analysis(database_url, saved, report):
    result = _run(database_url, "history")
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.strip().startswith(str(saved)))
    for expected in ("Django Developer", "cand_033", str(report.score), "scripted-fake"):
        assert expected in row


def test_show_prints_report_and_provenance_and_logs_the_view(database, database_url, saved, report):
    result = _run(database_url, "show", str(saved))
    assert result.exit_code == 0, result.output
    assert f"Prompt template version: {report.provenance.prompt_version}" in result.output
    assert f"candidate {report.provenance.candidate_hash}" in result.output
    assert report.analysis.summary[:40] in result.output
    with database.session() as session:
        events = session.query(AuditEvent).filter_by(event="analysis_viewed").all()
        assert [e.analysis_id for e in events] == [saved]


def test_show_json_is_the_stored_report(database_url, saved, report):
    result = _run(database_url, "show", str(saved), "--json")
    assert result.exit_code == 0
    assert json.loads(result.output) == report.model_dump(mode="json")


def test_show_unknown_id_is_one_line(database_url, database):
    result = _run(database_url, "show", "999")
    assert result.exit_code == 2
    assert result.output.strip() == "error: no analysis with id 999"


def test_forget_then_history_is_empty(database_url, saved):
    result = _run(database_url, "candidate", "forget", "cand_033")
    assert result.exit_code == 0, result.output
    assert "deleted" in result.output
    assert "No analyses saved yet" in _run(database_url, "history").output
    again = _run(database_url, "candidate", "forget", "cand_033")
    assert again.exit_code == 2
    assert "no candidate with id 'cand_033'" in again.output


def test_forget_anonymize_keeps_the_row(database_url, saved):
    assert _run(database_url, "candidate", "forget", "cand_033", "--anonymize").exit_code == 0
    history = _run(database_url, "history").output
    assert "anonymized-" in history and "cand_033" not in history
    shown = _run(database_url, "show", str(saved))
    assert shown.exit_code == 0 and "anonymized" in shown.output


def test_db_status_and_upgrade(database_url, database):
    status = _run(database_url, "db", "status")
    assert status.exit_code == 0
    assert f"migration {head_revision()}" in status.output
    upgrade = _run(database_url, "db", "upgrade")
    assert upgrade.exit_code == 0 and "latest" in upgrade.output


def test_unreachable_database_is_one_line_without_password():
    result = runner.invoke(
        app, ["history"], env={"DATABASE_URL": "postgresql://ha:hunter2@127.0.0.1:1/x"}
    )
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot connect to database")
    assert "127.0.0.1:1/x" in lines[0] and "hunter2" not in lines[0]
