"""The HTTP API served by uvicorn on 127.0.0.1, over a real database (SQLite file and
PostgreSQL), with the scripted engine answering: real HTTP, real store, no model."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import uvicorn

from agent.api.app import create_app
from agent.api.settings import ApiSettings
from agent.assistant import HiringAssistant
from serving.engine import GenerationRequest
from serving.fake_engine import ScriptedEngine
from tests.conftest import candidate_path, job_path
from tests.store import conftest as store_fixtures
from tests.unit.fake_answers import valid_answer

KEY = "test-key-0123456789"
AUTH = {"Authorization": f"Bearer {KEY}"}


def answer(request: GenerationRequest) -> dict[str, Any]:
    return valid_answer(request)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Served:
    url: str
    client: httpx.Client
    assistant: HiringAssistant
    engine: ScriptedEngine


@contextmanager
def serve(
    database_url: str,
    *,
    engine: ScriptedEngine | None = None,
    **settings: Any,
) -> Iterator[Served]:
    """The API on a free port of 127.0.0.1 until the block ends (then shut down as on SIGTERM)."""
    engine = engine or ScriptedEngine(responder=answer)
    options = {"api_keys": KEY, "webhook_backoff_s": 0.05, **settings}
    assistant = HiringAssistant(engine=engine, database_url=database_url).open()
    app = create_app(assistant, ApiSettings(**options))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the API did not start"
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            yield Served(url, client, assistant, engine)
    finally:
        server.should_exit = True
        thread.join(30)
        assistant.close()


database_url = store_fixtures.database_url  # every API test on SQLite and on PostgreSQL


@pytest.fixture
def api(database_url: str) -> Iterator[Served]:
    with serve(database_url) as served:
        yield served


@pytest.fixture(scope="session")
def job_text() -> str:
    return job_path("job_008").read_text()


@pytest.fixture(scope="session")
def candidate_text() -> str:
    return candidate_path("cand_033").read_text()
