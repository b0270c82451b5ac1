"""Cancelling an engine's waiting requests: what the chat's Ctrl-C relies on."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from serving.engine import EngineError, Generation, GenerationRequest
from serving.lazy_engine import LazyEngine
from serving.loop_engine import LoopThreadEngine


class _Stuck(LoopThreadEngine):
    """Each request waits until cancelled, and records that it was."""

    def __init__(self) -> None:
        self.cancelled: list[str] = []
        self.started = threading.Semaphore(0)
        self._start_loop("stuck")

    async def _agenerate(self, request: GenerationRequest) -> Generation:
        self.started.release()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            self.cancelled.append(request.messages[0]["content"])
            raise
        raise AssertionError("not reached")


def test_cancel_pending_aborts_every_waiting_request_on_the_loop() -> None:
    engine = _Stuck()
    errors: list[BaseException] = []

    def ask(text: str) -> None:
        try:
            engine.generate(GenerationRequest(messages=[{"role": "user", "content": text}]))
        except BaseException as exc:  # recorded for the assertions
            errors.append(exc)

    threads = [threading.Thread(target=ask, args=(f"q{i}",)) for i in range(3)]
    for thread in threads:
        thread.start()
    for _ in threads:
        assert engine.started.acquire(timeout=5)
    cancelled = 0  # as the chat does: cancel until the callers have let go (a request just
    deadline = time.monotonic() + 5  # sent may not be waited for yet)
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        cancelled += engine.cancel_pending()
        time.sleep(0.01)
    assert not any(t.is_alive() for t in threads)
    assert cancelled == 3
    deadline = time.monotonic() + 5  # the loop cancels the coroutines just after the callers
    while len(engine.cancelled) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(engine.cancelled) == ["q0", "q1", "q2"]  # vLLM's generate sees the cancel
    assert [str(e) for e in errors] == ["the request was cancelled"] * 3
    assert all(isinstance(e, EngineError) for e in errors)
    assert engine.cancel_pending() == 0
    engine.close()


def test_a_lazy_engine_does_not_start_to_cancel() -> None:
    def start() -> _Stuck:
        pytest.fail("cancel_pending started the engine")

    assert LazyEngine(start).cancel_pending() == 0  # type: ignore[arg-type]
