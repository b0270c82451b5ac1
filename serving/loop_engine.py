"""What the in-process and the server engines share: their own event loop in a thread.

An engine's work runs as coroutines on a loop in a background thread, so the same object
serves sync code (CLI, tests, LangGraph nodes in worker threads) through ``generate`` and async
code through ``agenerate``; concurrent requests are batched by vLLM.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, Self, TypeVar

from serving.engine import EngineError, Generation, GenerationRequest

T = TypeVar("T")


class LoopThreadEngine:
    """Base of ``VLLMEngine`` and ``RemoteEngine``: subclasses implement ``_agenerate``."""

    def _start_loop(self, name: str) -> None:
        self._waiting: set[concurrent.futures.Future[Any]] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the engine's loop and wait for it (from any thread but the loop's)."""
        if not self._thread.is_alive():
            coro.close()
            raise EngineError("the engine is closed")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        self._waiting.add(future)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise EngineError("the request was cancelled") from None
        finally:
            self._waiting.discard(future)

    def cancel_pending(self) -> int:
        """Cancel the requests that callers are waiting for (vLLM aborts them, which frees the
        engine at once); each waiting caller gets an ``EngineError``. Returns how many."""
        waiting = list(self._waiting)
        for future in waiting:
            future.cancel()
        return len(waiting)

    def _stop_loop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)

    async def _agenerate(self, request: GenerationRequest) -> Generation:
        raise NotImplementedError

    async def agenerate(self, request: GenerationRequest) -> Generation:
        if asyncio.get_running_loop() is self._loop:
            return await self._agenerate(request)
        future = asyncio.run_coroutine_threadsafe(self._agenerate(request), self._loop)
        return await asyncio.wrap_future(future)

    def generate(self, request: GenerationRequest) -> Generation:
        return self._run(self._agenerate(request))

    def generate_many(self, requests: list[GenerationRequest]) -> list[Generation]:
        async def gather() -> list[Generation]:
            return list(await asyncio.gather(*(self._agenerate(r) for r in requests)))

        return self._run(gather())

    def close(self) -> None:
        self._stop_loop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
