"""A scripted engine for fast unit tests of graph logic. Never used by the product itself.

Queue canned outputs with :meth:`ScriptedEngine.enqueue` (a string, a dict turned into JSON,
or an exception to raise); every request is kept in :attr:`ScriptedEngine.history`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from serving.config import SpeculationConfig
from serving.engine import EngineError, EngineInfo, Generation, GenerationRequest, Message
from serving.metrics import RequestMetrics, SpeculationCounters


class ScriptedEngine:
    """Answers from a queue; fails loudly when the queue is empty."""

    def __init__(
        self,
        *,
        max_model_len: int = 8192,
        tokens_per_char: float = 0.25,
        responder: Callable[[GenerationRequest], str | dict[str, Any] | BaseException]
        | None = None,
        delay_s: float = 0.0,
    ) -> None:
        """``responder`` answers a request when the queue is empty (for many requests in flight
        at once, in any order); ``delay_s`` is how long each answer takes."""
        self.info = EngineInfo(
            name="scripted",
            model="scripted-fake",
            speculation=SpeculationConfig(method="off"),
            max_model_len=max_model_len,
        )
        self.history: list[GenerationRequest] = []
        self._queue: deque[str | BaseException] = deque()
        self._tokens_per_char = tokens_per_char
        self._responder = responder
        self._delay_s = delay_s

    def enqueue(self, *outputs: str | dict[str, Any] | BaseException) -> ScriptedEngine:
        for out in outputs:
            self._queue.append(json.dumps(out) if isinstance(out, dict) else out)
        return self

    @property
    def pending(self) -> int:
        return len(self._queue)

    def count_prompt_tokens(self, messages: list[Message]) -> int:
        chars = sum(len(m["content"]) for m in messages)
        return int(chars * self._tokens_per_char)

    def generate(self, request: GenerationRequest) -> Generation:
        self.history.append(request)
        if self._delay_s:
            time.sleep(self._delay_s)
        out = self._next(request)
        if isinstance(out, BaseException):
            raise out
        n_out = max(1, int(len(out) * self._tokens_per_char))
        metrics = RequestMetrics(
            prompt_tokens=self.count_prompt_tokens(request.messages),
            output_tokens=n_out,
            ttft_s=0.001,
            e2e_s=0.001 * n_out,
        )
        return Generation(text=out, token_ids=[], finish_reason="stop", metrics=metrics)

    def _next(self, request: GenerationRequest) -> str | BaseException:
        if self._queue:
            return self._queue.popleft()
        if self._responder is None:
            raise EngineError("ScriptedEngine has no output queued for this request")
        out = self._responder(request)
        return json.dumps(out) if isinstance(out, dict) else out

    async def agenerate(self, request: GenerationRequest) -> Generation:
        await asyncio.sleep(0)
        return self.generate(request)

    def generate_many(self, requests: list[GenerationRequest]) -> list[Generation]:
        return [self.generate(r) for r in requests]

    def speculation_counters(self) -> SpeculationCounters:
        return SpeculationCounters()

    def close(self) -> None:
        self._queue.clear()

    def __enter__(self) -> ScriptedEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
