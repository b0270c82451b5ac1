"""`bench --sla-p90 S`: the highest Poisson arrival rate whose P90 end-to-end latency is ≤ S.

A bounded search per configuration: every probe sends the same requests with the same seed (so
the arrival times of one probe are those of any other scaled by its rate), and the search stops
after a fixed number of probes. Its upper bound is the rate the configuration sustained with
every request at once (its capacity): above it a steady stream's queue only grows, so a short
probe there would flatter it. It probes the capacity first; when that misses the ceiling it
halves the rate until one meets it, then bisects the bracket geometrically. The answer is the
highest probed rate that met the ceiling; 0 when even one request at a time (the lowest rate
there is) is slower than the ceiling, which is checked first and then costs no probe.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

DEFAULT_PROBES = 5


@dataclass(frozen=True)
class SlaSearch:
    """What ``bench --sla-p90`` asks: the P90 ceiling and the probes per configuration."""

    ceiling_s: float
    probes: int = DEFAULT_PROBES


@dataclass(frozen=True)
class Probe:
    """One probe's figures; ``p90_s`` None when it stopped as soon as its P90 was sure to be
    over the ceiling (enough requests were late), which saves waiting out a queue."""

    qps: float
    p90_s: float | None
    wall_s: float = 0.0
    output_tok_per_s: float | None = None
    requests_per_s: float | None = None

    def meets(self, ceiling_s: float) -> bool:
        return self.p90_s is not None and self.p90_s <= ceiling_s


@dataclass
class SlaResult:
    ceiling_s: float
    max_qps: float = 0.0  # 0: no probed rate met the ceiling
    probes: list[Probe] = field(default_factory=list)
    note: str = ""
    bound_by_capacity: bool = False  # met at the full-load rate, the search's upper bound

    @property
    def best(self) -> Probe | None:
        """The probe at ``max_qps`` (None when none met the ceiling)."""
        met = [p for p in self.probes if p.meets(self.ceiling_s)]
        return max(met, key=lambda p: p.qps) if met else None

    def as_dict(self) -> dict[str, Any]:
        best = self.best
        return {
            "p90_ceiling_s": self.ceiling_s,
            "max_qps": round(self.max_qps, 4),
            "output_tok_per_s": best.output_tok_per_s or 0.0 if best else 0.0,
            "probes": [asdict(p) for p in self.probes],
            "note": self.note,
            "bound_by_capacity": self.bound_by_capacity,
        }


def search_max_qps(
    probe: Callable[[float], Probe],
    ceiling_s: float,
    *,
    capacity_qps: float,
    unloaded_p90_s: float | None = None,
    probes: int = DEFAULT_PROBES,
) -> SlaResult:
    """Search with at most ``probes`` calls of ``probe(rate)``, at rates up to ``capacity_qps``.

    ``unloaded_p90_s`` is the P90 one request at a time: when it is above the ceiling no rate
    can meet it, and the answer (0) costs no probe."""
    if ceiling_s <= 0:
        raise ValueError("the P90 ceiling must be positive")
    result = SlaResult(ceiling_s)
    if unloaded_p90_s is not None and unloaded_p90_s > ceiling_s:
        result.note = (
            f"one request at a time already takes {unloaded_p90_s:.1f} s at P90, over the "
            f"{ceiling_s:g} s ceiling"
        )
        return result
    if capacity_qps <= 0:
        raise ValueError("the search needs the full-load rate (the max_concurrency level)")
    capacity = capacity_qps
    low, high = 0.0, math.inf  # the highest rate known to meet the ceiling, the lowest to miss
    rate = capacity
    for _ in range(probes):
        measured = probe(rate)
        result.probes.append(measured)
        if measured.meets(ceiling_s):
            low = rate
        else:
            high = rate
        if low >= capacity:
            result.bound_by_capacity = True
            result.note = "meets the ceiling at its full-load rate: bound by capacity"
            break
        rate = high / 2 if low == 0 else math.sqrt(low * high)
    result.max_qps = low
    if low == 0:
        lowest = min(p.qps for p in result.probes)
        result.note = f"no probed rate down to {lowest:.3g} req/s met it"
    return result
