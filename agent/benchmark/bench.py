"""Compare engine configurations on the workload in one run; results as a table and JSON."""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agent.benchmark.configs import BenchConfig
from agent.benchmark.runner import ConfigRun, first_difference, run_config
from agent.benchmark.sla import SlaSearch
from agent.benchmark.targets import target_rows
from agent.benchmark.workload import Workload
from agent.text_tables import new_table, render_table
from serving.config import EngineSettings
from serving.cpu import native_bf16

RUN_ORDER = ("concurrency_1", "max_concurrency", "fixed_qps")  # fixed_qps derives from max
QPS_SHARE = 0.7  # auto rate: this share of the first config's throughput at full concurrency
FALLBACK_QPS = 0.05  # auto rate when max_concurrency is not among the levels


def cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo"):  # noqa: SIM115
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _lossless(off: ConfigRun | None, run: ConfigRun, names: list[str]) -> dict[str, Any]:
    if off is None or not run.outputs or not off.outputs:
        return {"exact_match_rate": None, "mismatches": []}
    mismatches = []
    for name, a, b in zip(names, run.outputs, off.outputs, strict=True):
        diff = first_difference(a, b)
        if diff is not None:
            mismatches.append({"pair": name, "first_diff_token": diff})
    rate = 1 - len(mismatches) / len(names)
    return {"exact_match_rate": round(rate, 4), "mismatches": mismatches}


def _cpu_options(run: ConfigRun) -> dict[str, Any]:
    return dict(run.config.engine)


def _baseline(run: ConfigRun, runs: list[ConfigRun]) -> ConfigRun | None:
    """The ``off`` run with the same CPU options (else the first ``off``)."""
    offs = [r for r in runs if not r.config.speculation.enabled]
    same = [r for r in offs if _cpu_options(r) == _cpu_options(run)]
    return (same or offs or [None])[0]


def _config_result(run: ConfigRun, off: ConfigRun | None, names: list[str]) -> dict[str, Any]:
    spec = run.config.speculation
    return {
        "name": run.config.name,
        "baseline": off.config.name if off is not None else None,
        "cpu_options": _cpu_options(run),
        "engine_start_s": run.engine_start_s,
        **spec.described(),
        **run.levels,
        "acceptance_rate": run.speculation.acceptance_rate,
        "mean_acceptance_length": run.speculation.mean_acceptance_length,
        "acceptance_per_position": run.speculation.acceptance_per_position,
        **_lossless(off, run, names),
        **({"sla": _sla_result(run, off)} if run.sla is not None else {}),
    }


def _sla_result(run: ConfigRun, off: ConfigRun | None) -> dict[str, Any]:
    """The search's answer, with the ratio of its rate to ``off``'s (None when off met nothing)."""
    assert run.sla is not None
    out = run.sla.as_dict()
    base = off.sla.max_qps if off is not None and off.sla is not None else 0.0
    out["ratio"] = round(run.sla.max_qps / base, 3) if base else None
    return out


def run_bench(
    configs: list[BenchConfig],
    workload: Workload,
    base: EngineSettings,
    *,
    levels: tuple[str, ...],
    qps: float | None,
    seed: int,
    say: Callable[[str], None],
    sla: SlaSearch | None = None,
) -> dict[str, Any]:
    started = time.perf_counter()
    ordered = tuple(level for level in RUN_ORDER if level in levels)
    runs: list[ConfigRun] = []
    rate: dict[str, float] = {}

    def fixed_rate(current: ConfigRun) -> float:
        """``--qps``, else a share of the first config's full-load rate, then kept for all."""
        if "qps" not in rate:
            measured = current.levels.get("max_concurrency", {}).get("requests_per_s")
            rate["qps"] = qps or (QPS_SHARE * measured if measured else FALLBACK_QPS)
        return rate["qps"]

    for config in configs:
        run = run_config(
            config, workload, base, levels=ordered, qps=fixed_rate, seed=seed, say=say, sla=sla
        )
        runs.append(run)
    configs_out = [_config_result(r, _baseline(r, runs), workload.names) for r in runs]
    return {
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "cores": os.cpu_count(),
            "cpu_model": cpu_model(),
            "native_bf16": native_bf16(),
        },
        "model": base.model or "embedded SmolLM2-135M-Instruct",
        "engine_settings": base.model_dump(
            include={"dtype", "enforce_eager", "cpu_bind", "prefix_caching", "compact_json"}
        ),
        "vllm_version": _vllm_version(),
        "pairs": len(workload),
        "max_tokens": workload.max_tokens,
        "seed": seed,
        "levels": list(ordered),
        **({"sla_p90_s": sla.ceiling_s, "sla_probes": sla.probes} if sla is not None else {}),
        "configs": configs_out,
        "targets": target_rows(configs_out),
        "run_s": round(time.perf_counter() - started, 1),
    }


def write_outputs(results: dict[str, Any], out_dir: Path) -> list[Path]:
    """results.json and the plots into ``out_dir``; returns the files written."""
    from agent.benchmark.plots import write_plots

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "results.json"
    path.write_text(json.dumps(results, indent=2))
    return [path, *write_plots(results, out_dir)]


def _vllm_version() -> str:
    import vllm

    return str(vllm.__version__)


def _ratio(value: float | None, base: float | None) -> str:
    if not value or not base:
        return ""
    return f"{base / value:.2f}x"


def format_table(results: dict[str, Any]) -> str:
    """One row per configuration and level, with speed-ups against `off` (higher is better)."""
    by_name = {c["name"]: c for c in results["configs"]}
    table = new_table()
    table.add_column("config", overflow="fold")
    table.add_column("level", overflow="fold")
    columns = ("TPOT p50 ms", "TPOT p90 ms", "e2e p50 s", "e2e p90 s", "tok/s")
    for name in (*columns, "TPOT↓", "p90↓", "tok/s↑"):
        table.add_column(name, justify="right", no_wrap=True)
    for config in results["configs"]:
        off = by_name.get(config.get("baseline") or "off")
        for level in results["levels"]:
            m = config[level]
            base = off[level] if off else {}
            thr = (
                f"{m['output_tok_per_s'] / base['output_tok_per_s']:.2f}x"
                if base.get("output_tok_per_s")
                else ""
            )
            table.add_row(
                config["name"],
                level,
                f"{m['tpot_ms_p50']:.1f}",
                f"{m['tpot_ms_p90']:.1f}",
                f"{m['e2e_s_p50']:.1f}",
                f"{m['e2e_s_p90']:.1f}",
                f"{m['output_tok_per_s']:.1f}",
                _ratio(m["tpot_ms_p50"], base.get("tpot_ms_p50")),
                _ratio(m["e2e_s_p90"], base.get("e2e_s_p90")),
                thr,
            )
    lines = render_table(table)
    if results.get("sla_p90_s"):
        lines += ["", *_sla_lines(results)]
    if results.get("targets"):
        lines += ["", *_target_lines(results["targets"])]
    lines.append("")
    for config in results["configs"]:
        acc = config["acceptance_rate"]
        exact = config["exact_match_rate"]
        lines.append(
            f"{config['name']:<24} acceptance "
            f"{'n/a' if acc is None else f'{acc:.1%}'}, mean acceptance length "
            f"{round(config['mean_acceptance_length'] or 0, 2) or 'n/a'}, exact match vs "
            f"{config.get('baseline') or 'off'} "
            f"{'n/a' if exact is None else f'{exact:.0%}'}"
            + (f" (first differences: {config['mismatches'][:3]})" if config["mismatches"] else "")
        )
    if results.get("max_tokens"):
        lines.append(f"Answers capped at {results['max_tokens']} tokens (--max-tokens)")
    if "run_s" in results:
        lines.append(f"Run time: {results['run_s'] / 60:.1f} min (engine starts included)")
    return "\n".join(lines)


def _sla_lines(results: dict[str, Any]) -> list[str]:
    """Highest Poisson rate within the P90 ceiling, per config, against its ``off``."""
    table = new_table()
    ceiling = results["sla_p90_s"]
    table.add_column(f"within P90 ≤ {ceiling:g} s", overflow="fold")
    for name in ("max req/s", "tok/s", "vs off", "probes"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("note", overflow="fold")
    for config in results["configs"]:
        sla = config.get("sla")
        if not sla:
            continue
        ratio = sla.get("ratio")
        table.add_row(
            config["name"],
            f"{sla['max_qps']:.3f}",
            f"{sla['output_tok_per_s']:.1f}",
            f"{ratio:.2f}x" if ratio else "",
            str(len(sla["probes"])),
            sla.get("note") or "",
        )
    return render_table(table)


def _target_lines(rows: list[dict[str, Any]]) -> list[str]:
    table = new_table()
    for name in ("config", "target", "goal", "measured", "met"):
        table.add_column(name, overflow="fold")
    for row in rows:
        table.add_row(
            row["config"],
            row["target"],
            row["goal"],
            row["measured"],
            "yes" if row["met"] else "no",
        )
    return render_table(table)
