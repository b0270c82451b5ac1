"""`bench --autotune`: search n-gram settings on a sample of the workload, one pick per profile.

``interactive`` (one recruiter, latency first): the configuration with the lowest median TPOT
at concurrency 1 whose throughput at full concurrency is no worse than ``off``'s (a setting
that wins alone but loses under load is not worth shipping). ``batch`` (throughput first): the
highest output tokens/s with every request at once. When nothing beats ``off`` the pick is
``off``. Draft-length schedules by batch size (``--batch``) join the grid with every draft
length they fit.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from agent.benchmark.configs import BenchConfig, parse_config
from serving.config import parse_schedule

AUTOTUNE_LEVELS = ("concurrency_1", "max_concurrency")
DEFAULT_K = (3, 5, 8)
DEFAULT_MIN = (1, 2)
DEFAULT_MAX = (3, 5)


def search_grid(
    ks: tuple[int, ...],
    mins: tuple[int, ...],
    maxs: tuple[int, ...],
    schedules: tuple[str, ...] = (),
) -> list[BenchConfig]:
    """``off`` first, then every k × min × max with min ≤ max, each also with every schedule
    (``1-2:16/3-64:4``) whose longest draft is at most k."""
    grid = [parse_config("off")]
    for k, low, high in product(sorted(set(ks)), sorted(set(mins)), sorted(set(maxs))):
        if low <= high:
            base = f"ngram:k={k},min={low},max={high}"
            grid.append(parse_config(base))
            for schedule in schedules:
                if max(row[2] for row in parse_schedule(schedule)) <= k:
                    grid.append(parse_config(f"{base},batch={schedule}"))
    return grid


def choose(configs: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, str]:
    """The winning config result (None means ``off``) and a sentence saying why."""
    off = next((c for c in configs if c["method"] == "off"), None)
    if off is None:
        raise ValueError("autotune needs the 'off' configuration to compare with")
    floor = off["max_concurrency"]["output_tok_per_s"]
    eligible = [
        c
        for c in configs
        if c["method"] != "off" and c["max_concurrency"]["output_tok_per_s"] >= floor
    ]
    if not eligible:
        return None, (
            f"no n-gram setting kept full-concurrency throughput at or above off's "
            f"{floor:.1f} tok/s: keep speculation off for this workload"
        )
    best = min(eligible, key=lambda c: c["concurrency_1"]["tpot_ms_p50"])
    speedup = off["concurrency_1"]["tpot_ms_p50"] / best["concurrency_1"]["tpot_ms_p50"]
    gain = best["max_concurrency"]["output_tok_per_s"] / floor
    return best, (
        f"{best['name']}: lowest TPOT at concurrency 1 ({best['concurrency_1']['tpot_ms_p50']:.1f}"
        f" ms, {speedup:.2f}x faster than off) among the {len(eligible)} of "
        f"{len(configs) - 1} settings whose full-concurrency throughput is at least off's "
        f"({gain:.2f}x)"
    )


def choose_batch(configs: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, str]:
    """The ``batch`` profile's pick (None means ``off``): the most tokens/s at full load."""
    off = next((c for c in configs if c["method"] == "off"), None)
    if off is None:
        raise ValueError("autotune needs the 'off' configuration to compare with")
    best = max(configs, key=lambda c: c["max_concurrency"]["output_tok_per_s"])
    rate = best["max_concurrency"]["output_tok_per_s"]
    if best["method"] == "off":
        return None, f"nothing beat off's {rate:.1f} tok/s at full load: batch runs without"
    gain = rate / off["max_concurrency"]["output_tok_per_s"]
    return best, (
        f"{best['name']}: the most output tokens/s with every request at once ({rate:.1f}, "
        f"{gain:.2f}x off's) of the {len(configs) - 1} settings"
    )
