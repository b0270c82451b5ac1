"""Killing a writer in the middle of a transaction leaves the database consistent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from sqlalchemy import func, select, text

from agent.store import open_database
from agent.store.repository import save_analysis
from agent.store.tables import Analysis, AuditEvent, Candidate
from tests.conftest import ROOT

KILL_AT = 4  # analyses 0..3 are committed; 4 is inserted but not committed when killed


def _kill_writer_mid_transaction(url: str) -> list[str]:
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.store.writer", url],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[str] = []
    assert writer.stdout is not None
    for line in writer.stdout:
        seen.append(line.strip())
        if line.strip() == f"writing {KILL_AT}":
            os.kill(writer.pid, signal.SIGKILL)
            break
    writer.wait(timeout=30)
    assert seen and seen[-1] == f"writing {KILL_AT}", writer.stderr.read() if writer.stderr else ""
    return seen


def test_kill_in_the_middle_of_a_write_leaves_committed_rows_only(
    database, database_url, report, job, candidate
):
    database.close()  # the writer and the checks below use their own connections
    seen = _kill_writer_mid_transaction(database_url)
    assert f"committed {KILL_AT - 1}" in seen

    reopened = open_database(database_url)
    with reopened.session() as session:
        analyses = session.scalar(select(func.count()).select_from(Analysis))
        people = session.scalars(select(Candidate.external_id).order_by(Candidate.id)).all()
        created = session.scalar(
            select(func.count()).select_from(AuditEvent).filter_by(event="analysis_created")
        )
        orphans = session.scalar(
            select(func.count())
            .select_from(Analysis)
            .outerjoin(Candidate, Analysis.candidate_id == Candidate.id)
            .where(Candidate.id.is_(None))
        )
    assert analyses == KILL_AT
    assert people == [f"writer-{i}" for i in range(KILL_AT)]  # nothing of the killed write
    assert created == KILL_AT
    assert orphans == 0
    if reopened.is_sqlite:
        with reopened.engine.connect() as connection:
            assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
    with reopened.session() as session:  # and the database still takes writes
        assert save_analysis(session, report=report, job=job, candidate=candidate)[1]
    reopened.close()
