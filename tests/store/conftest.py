"""Every store test runs twice: on a fresh SQLite file and on a fresh PostgreSQL schema.

PostgreSQL is the server these machines run at 127.0.0.1:5432 (trust auth, database ``test``;
``HIRING_ASSISTANT_TEST_POSTGRES`` overrides the URL). Each test gets its own schema, dropped
afterwards. If the server is not reachable the PostgreSQL tests fail saying so: never skipped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from agent.ingest.files import load_candidate, load_job
from agent.service import analyze, prepare_request
from agent.store import Database, open_database
from schemas.inputs import CandidateProfile, JobPosting
from schemas.report import MatchReport
from serving.fake_engine import ScriptedEngine
from tests.conftest import candidate_path, job_path
from tests.unit.fake_answers import valid_answer

POSTGRES = os.environ.get(
    "HIRING_ASSISTANT_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def _postgres_schema_url() -> Iterator[str]:
    schema = f"ha_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    except OperationalError as exc:
        admin.dispose()
        pytest.fail(
            f"PostgreSQL is not reachable at {POSTGRES} ({str(exc.orig).strip()}): the "
            "PostgreSQL tests need it running (or HIRING_ASSISTANT_TEST_POSTGRES set)",
            pytrace=False,
        )
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
    else:
        yield from _postgres_schema_url()


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    db = open_database(database_url)
    yield db
    db.close()


@pytest.fixture(scope="session")
def job() -> JobPosting:
    return load_job(job_path("job_008"))


@pytest.fixture(scope="session")
def candidate() -> CandidateProfile:
    return load_candidate(candidate_path("cand_033"))


def make_report(job: JobPosting, candidate: CandidateProfile) -> MatchReport:
    """A real report from the graph, answered by the scripted engine."""
    request = prepare_request(job, candidate, ScriptedEngine())
    return analyze(job, candidate, ScriptedEngine().enqueue(valid_answer(request)))


@pytest.fixture(scope="session")
def report(job, candidate) -> MatchReport:
    return make_report(job, candidate)
