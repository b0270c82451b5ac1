"""Percentiles and per-level summaries of request metrics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from serving.metrics import RequestMetrics


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100) of a non-empty sequence, by numpy."""
    if len(values) == 0:
        raise ValueError("percentile of no values")
    return float(np.percentile(values, q))


def summarize(metrics: list[RequestMetrics], wall_s: float) -> dict[str, Any]:
    """P50/P90/P99 of TTFT, TPOT and end-to-end latency; throughput over the level's wall time."""
    out: dict[str, Any] = {"requests": len(metrics), "wall_s": round(wall_s, 3)}
    series = {
        "ttft_s": [m.ttft_s for m in metrics],
        "tpot_ms": [m.tpot_ms for m in metrics],
        "e2e_s": [m.e2e_s for m in metrics],
    }
    for name, values in series.items():
        for q in (50, 90, 99):
            out[f"{name}_p{q}"] = round(percentile(values, q), 4)
    tokens = sum(m.output_tokens for m in metrics)
    out["output_tokens"] = tokens
    out["output_tok_per_s"] = round(tokens / wall_s, 3) if wall_s > 0 else 0.0
    out["requests_per_s"] = round(len(metrics) / wall_s, 4) if wall_s > 0 else 0.0
    out["e2e_s_values"] = [round(v, 3) for v in series["e2e_s"]]  # for latency CDFs
    return out
