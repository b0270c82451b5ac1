"""Speed figures: per-request timings, and speculation counters per request or per engine."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class RequestMetrics:
    """Timings of one request, measured around the engine's output stream."""

    prompt_tokens: int
    output_tokens: int
    ttft_s: float
    e2e_s: float
    cached_prompt_tokens: int | None = None  # prompt tokens served by the prefix cache

    @property
    def tpot_ms(self) -> float:
        """Time per output token after the first, in milliseconds."""
        if self.output_tokens <= 1:
            return 0.0
        return 1000.0 * (self.e2e_s - self.ttft_s) / (self.output_tokens - 1)

    @property
    def output_tok_per_s(self) -> float:
        return self.output_tokens / self.e2e_s if self.e2e_s > 0 else 0.0

    def to_dict(self) -> dict[str, float | int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "cached_prompt_tokens": self.cached_prompt_tokens,
            "output_tokens": self.output_tokens,
            "ttft_s": round(self.ttft_s, 4),
            "tpot_ms": round(self.tpot_ms, 3),
            "e2e_s": round(self.e2e_s, 4),
            "output_tok_per_s": round(self.output_tok_per_s, 2),
        }


@dataclass(frozen=True)
class SpeculationCounters:
    """N-gram speculation counters: one request's, or an engine's cumulative (vLLM's
    spec_decode metrics)."""

    drafts: int = 0
    draft_tokens: int = 0
    accepted_tokens: int = 0
    accepted_per_position: tuple[int, ...] = field(default_factory=tuple)

    @classmethod
    def from_histogram(cls, histogram: list[int], draft_tokens: int) -> SpeculationCounters:
        """One request's figures from vLLM's per-request acceptance histogram.

        ``histogram[j]`` counts the verify steps that accepted ``j`` draft tokens (vLLM's
        ``RequestSpecDecodeMetrics``, or ``metrics.speculative_decoding.acceptance_histogram``
        in a server's response); position ``i`` was accepted in every step with ``j > i``.
        """
        accepted_per_position = tuple(
            sum(histogram[i + 1 :]) for i in range(max(len(histogram) - 1, 0))
        )
        return cls(
            drafts=sum(histogram),
            draft_tokens=draft_tokens,
            accepted_tokens=sum(j * count for j, count in enumerate(histogram)),
            accepted_per_position=accepted_per_position,
        )

    def _combine(self, other: SpeculationCounters, sign: int) -> SpeculationCounters:
        width = max(len(self.accepted_per_position), len(other.accepted_per_position))
        mine = list(self.accepted_per_position) + [0] * (width - len(self.accepted_per_position))
        theirs = list(other.accepted_per_position)
        theirs += [0] * (width - len(theirs))
        return SpeculationCounters(
            drafts=self.drafts + sign * other.drafts,
            draft_tokens=self.draft_tokens + sign * other.draft_tokens,
            accepted_tokens=self.accepted_tokens + sign * other.accepted_tokens,
            accepted_per_position=tuple(a + sign * b for a, b in zip(mine, theirs, strict=True)),
        )

    def __sub__(self, earlier: SpeculationCounters) -> SpeculationCounters:
        """Counts between two snapshots of the same engine."""
        return self._combine(earlier, -1)

    def __add__(self, other: SpeculationCounters) -> SpeculationCounters:
        """Counts of two spans together (e.g. a first attempt and its repair)."""
        return self._combine(other, +1)

    @property
    def acceptance_rate(self) -> float | None:
        """Accepted draft tokens / proposed draft tokens (None when nothing was drafted)."""
        return self.accepted_tokens / self.draft_tokens if self.draft_tokens else None

    @property
    def mean_acceptance_length(self) -> float | None:
        """Tokens produced per verification step: 1 + accepted / drafts."""
        return 1.0 + self.accepted_tokens / self.drafts if self.drafts else None

    @property
    def acceptance_per_position(self) -> list[float]:
        """Share of drafts whose token at position i was accepted."""
        if not self.drafts:
            return []
        return [round(n / self.drafts, 4) for n in self.accepted_per_position]

    def to_dict(self) -> dict[str, object]:
        rate = self.acceptance_rate
        length = self.mean_acceptance_length
        return {
            **{k: v for k, v in asdict(self).items() if k != "accepted_per_position"},
            "accepted_per_position": list(self.accepted_per_position),
            "acceptance_rate": None if rate is None else round(rate, 4),
            "mean_acceptance_length": None if length is None else round(length, 3),
            "acceptance_per_position": self.acceptance_per_position,
        }
