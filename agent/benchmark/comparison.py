"""The same request with speculation off: speed ratio and whether greedy output is identical."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from serving.engine import Engine, GenerationRequest
from serving.metrics import RequestMetrics


@dataclass(frozen=True)
class SpeculationComparison:
    with_speculation: RequestMetrics
    without_speculation: RequestMetrics
    identical_output: bool

    @property
    def tpot_speedup(self) -> float:
        on = self.with_speculation.tpot_ms
        return self.without_speculation.tpot_ms / on if on else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "speculation_off": self.without_speculation.to_dict(),
            "tpot_speedup": round(self.tpot_speedup, 2),
            "identical_output": self.identical_output,
        }

    def describe(self) -> str:
        same = "identical" if self.identical_output else "DIFFERENT"
        return (
            f"Without speculation: TPOT {self.without_speculation.tpot_ms:.1f} ms, "
            f"{self.without_speculation.e2e_s:.1f} s → speculation is "
            f"{self.tpot_speedup:.2f}x faster per output token; greedy output {same}."
        )


def compare_without_speculation(
    request: GenerationRequest, output: str, metrics: RequestMetrics, off_engine: Engine
) -> SpeculationComparison:
    """Replay the analysis's first request on an engine with speculation off."""
    generation = off_engine.generate(request)
    return SpeculationComparison(
        with_speculation=metrics,
        without_speculation=generation.metrics,
        identical_output=generation.text == output,
    )
