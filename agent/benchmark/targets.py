"""The speed targets, each a ratio against ``off`` measured in the same run (issue 18).

| target                                   | goal          |
|------------------------------------------|---------------|
| throughput within the P90 ceiling        | at least 4x   |
| TPOT one request at a time               | 4x lower      |
| output tokens/s with every request at once | at least 2x |
| P90 end-to-end at the fixed arrival rate | 66% lower     |
| greedy output identical to off           | at least 99%  |
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    goal: float
    goal_text: str
    value: Callable[[dict[str, Any], dict[str, Any]], float | None]  # (config, off) → value
    shown: Callable[[float], str]


def _level(config: dict[str, Any], level: str, metric: str) -> float | None:
    value = config.get(level, {}).get(metric)
    return float(value) if value else None


def _ratio(top: float | None, bottom: float | None) -> float | None:
    return top / bottom if top and bottom else None


def _sla(config: dict[str, Any], _off: dict[str, Any]) -> float | None:
    return (config.get("sla") or {}).get("ratio")


def _tpot(config: dict[str, Any], off: dict[str, Any]) -> float | None:
    metric = ("concurrency_1", "tpot_ms_p50")
    return _ratio(_level(off, *metric), _level(config, *metric))


def _full_load(config: dict[str, Any], off: dict[str, Any]) -> float | None:
    metric = ("max_concurrency", "output_tok_per_s")
    return _ratio(_level(config, *metric), _level(off, *metric))


def _p90_drop(config: dict[str, Any], off: dict[str, Any]) -> float | None:
    metric = ("fixed_qps", "e2e_s_p90")
    ratio = _ratio(_level(config, *metric), _level(off, *metric))
    return None if ratio is None else 1 - ratio


def _identical(config: dict[str, Any], _off: dict[str, Any]) -> float | None:
    return config.get("exact_match_rate")


TARGETS = (
    Target("sla", "throughput within the P90 ceiling", 4.0, "≥ 4x", _sla, "{:.2f}x".format),
    Target("tpot", "TPOT at concurrency 1", 4.0, "≥ 4x lower", _tpot, "{:.2f}x lower".format),
    Target("full_load", "tok/s at full load", 2.0, "≥ 2x", _full_load, "{:.2f}x".format),
    Target(
        "p90_fixed", "P90 at the fixed rate", 0.66, "≥ 66% lower", _p90_drop, "{:.1%} lower".format
    ),
    Target("identical", "greedy output identical", 0.99, "≥ 99%", _identical, "{:.0%}".format),
)


def target_rows(configs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each speculative config, every target its run measured, against its ``off``."""
    by_name = {c["name"]: c for c in configs}
    rows = []
    for config in configs:
        off = by_name.get(config.get("baseline") or "")
        if config["method"] == "off" or off is None:
            continue
        for target in TARGETS:
            value = target.value(config, off)
            if value is None:
                continue
            rows.append(
                {
                    "config": config["name"],
                    "target": target.label,
                    "key": target.key,
                    "goal": target.goal_text,
                    "value": round(value, 4),
                    "measured": target.shown(value),
                    "met": value >= target.goal,
                }
            )
    return rows
