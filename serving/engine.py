"""The one engine interface the rest of the product uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from serving.config import SpeculationConfig
from serving.metrics import RequestMetrics, SpeculationCounters

Message = dict[str, str]


class EngineError(RuntimeError):
    """The engine failed to start or to generate; the message says what to do."""


class TransientEngineError(EngineError):
    """A failure worth retrying as is (a dropped connection, an overloaded server)."""


@dataclass(frozen=True)
class GenerationRequest:
    """One chat request; ``json_schema`` constrains the output (structured output)."""

    messages: list[Message]
    json_schema: dict[str, Any] | None = None
    max_tokens: int | None = None
    temperature: float = 0.0
    logprobs: int | None = None  # also return the top-N log-probabilities of each output token


@dataclass(frozen=True)
class Generation:
    text: str
    token_ids: list[int]
    finish_reason: str | None
    metrics: RequestMetrics
    logprobs: list[dict[int, float]] | None = None  # per output token: token id → logprob
    # this request's own speculation figures (drafts, draft and accepted tokens)
    speculation: SpeculationCounters = field(default_factory=SpeculationCounters)


@dataclass(frozen=True)
class EngineInfo:
    """What produced an answer: goes into every result's provenance."""

    name: str
    model: str
    speculation: SpeculationConfig
    max_model_len: int
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Engine(Protocol):
    """Generates chat completions: ``VLLMEngine`` (in-process), ``RemoteEngine`` (a vLLM server),
    ``ScriptedEngine`` (unit tests). ``serving.factory.open_engine`` picks one from the settings."""

    info: EngineInfo

    def count_prompt_tokens(self, messages: list[Message]) -> int:
        """Tokens the rendered chat prompt takes (to refuse inputs over the context)."""
        ...

    async def agenerate(self, request: GenerationRequest) -> Generation:
        """Generate one answer; many may run at once (continuous batching)."""
        ...

    def generate(self, request: GenerationRequest) -> Generation:
        """Blocking form of :meth:`agenerate`, safe to call from any thread."""
        ...

    def generate_many(self, requests: list[GenerationRequest]) -> list[Generation]:
        """Submit all requests at once and wait for every answer, in order."""
        ...

    def speculation_counters(self) -> SpeculationCounters:
        """Cumulative speculation counters since the engine started."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Engine: ...

    def __exit__(self, *exc: object) -> None: ...
