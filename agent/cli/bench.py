"""`hiring-assistant bench`: speculation settings against `off` on the real workload, in one run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agent.cli.output import friendly_errors, say
from serving.config import get_settings


def _int_list(text: str, option: str) -> tuple[int, ...]:
    from agent.errors import InputError

    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise InputError(f"{option} takes numbers separated by commas, got {text!r}") from None
    if not values or min(values) < 1:
        raise InputError(f"{option} takes positive numbers, got {text!r}")
    return values


def bench(
    pairs: Annotated[
        int | None,
        typer.Option(min=1, help="Job/candidate pairs in the workload [10; autotune: 4]."),
    ] = None,
    config: Annotated[
        list[str] | None,
        typer.Option(
            help="Engine config, repeatable: off | ngram:k=16,min=2,max=5 | server (the vLLM "
            "server at HIRING_ASSISTANT_ENGINE_URL); off and ngram optionally "
            "with ,eager=0|1, ,bind=all|auto|nobind|CPUS, ,dtype=float32|bfloat16, ,cache=0|1 "
            "(e.g. off:eager=0) [off and the configured speculation]."
        ),
    ] = None,
    level: Annotated[
        list[str] | None,
        typer.Option(help="Load level, repeatable: concurrency_1 | fixed_qps | max_concurrency."),
    ] = None,
    qps: Annotated[
        float | None, typer.Option(min=0.001, help="Arrival rate for fixed_qps (default: auto).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the Poisson arrivals.")] = 0,
    sla_p90: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            help="Also find, per config, the highest Poisson rate whose P90 end-to-end latency "
            "stays within SECONDS (adds the max_concurrency level, whose rate bounds the search).",
        ),
    ] = None,
    sla_probes: Annotated[
        int, typer.Option(min=1, max=12, help="SLA search: probes per config, each every pair.")
    ] = 5,
    max_tokens: Annotated[
        int | None,
        typer.Option(
            min=1, help="Cap each answer at N tokens, for a quick run [the schema's budget]."
        ),
    ] = None,
    data: Annotated[Path, typer.Option(help="Folder with jobs/, candidates/, pairs.json.")] = Path(
        "samples"
    ),
    out: Annotated[Path, typer.Option(help="Folder for results.json and plots.")] = Path(
        "bench-out"
    ),
    autotune: Annotated[
        bool, typer.Option(help="Search k × min × max and pick the best setting.")
    ] = False,
    k: Annotated[str, typer.Option(help="Autotune: draft lengths to try.")] = "5,8,16",
    min_n: Annotated[str, typer.Option("--min", help="Autotune: shortest n-grams.")] = "1,2",
    max_n: Annotated[str, typer.Option("--max", help="Autotune: longest n-grams.")] = "3,5",
    batch: Annotated[
        list[str] | None,
        typer.Option(
            "--batch",
            help="Autotune: a draft length by batch size to try with each k, repeatable "
            "(LO-HI:K rows joined by '/', e.g. 1-2:16/3-6:8/7-64:4).",
        ),
    ] = None,
    write: Annotated[
        bool,
        typer.Option(
            help="Autotune: store the picks as the interactive and batch profiles in the "
            "user's settings file (dropping any explicit speculation setting there)."
        ),
    ] = False,
) -> None:
    """Benchmark speculation settings against `off` on the match-analysis workload, in one run."""
    from agent.benchmark.autotune import AUTOTUNE_LEVELS, choose, choose_batch, search_grid
    from agent.benchmark.bench import format_table, run_bench, write_outputs
    from agent.benchmark.configs import default_configs, parse_config
    from agent.benchmark.runner import LEVELS
    from agent.benchmark.sla import SlaSearch
    from agent.benchmark.workload import build_workload
    from agent.errors import InputError
    from serving.config import write_speculation

    with friendly_errors():
        settings = get_settings()
        if (config or level) and autotune:
            raise InputError("--autotune chooses its own configs and levels: drop --config/--level")
        if (write or batch) and not autotune:
            raise InputError("--write and --batch belong to --autotune: add --autotune")
        try:
            if autotune:
                grid = (_int_list(k, "--k"), _int_list(min_n, "--min"), _int_list(max_n, "--max"))
                configs = search_grid(*grid, tuple(batch or ()))
            else:
                names = config or default_configs(settings)
                configs = [parse_config(c, settings.speculation) for c in names]
            workload = build_workload(data, pairs or (4 if autotune else 10), max_tokens)
        except (ValueError, OSError) as exc:
            raise InputError(str(exc)) from None
        levels = AUTOTUNE_LEVELS if autotune else tuple(level or LEVELS)
        unknown = [lv for lv in levels if lv not in LEVELS]
        if unknown:
            raise InputError(f"unknown level(s) {unknown}: use {', '.join(LEVELS)}")
        sla = SlaSearch(sla_p90, sla_probes) if sla_p90 else None
        if sla is not None and "max_concurrency" not in levels:
            levels = (*levels, "max_concurrency")
        shape = f"{len(configs)} configs × {len(workload)} pairs × levels {', '.join(levels)}"
        if sla is not None:
            shape += f", then up to {sla.probes} probes within P90 ≤ {sla.ceiling_s:g} s"
        say(f"Benchmark: {shape}")
        results = run_bench(
            configs, workload, settings, levels=levels, qps=qps, seed=seed, say=say, sla=sla
        )
        picks = {}
        if autotune:
            picks = {
                "interactive": choose(results["configs"]),
                "batch": choose_batch(results["configs"]),
            }
            results["autotune"] = {
                profile: {"chosen": best["name"] if best else "off", "reason": reason}
                for profile, (best, reason) in picks.items()
            }
        written = write_outputs(results, out)
        typer.echo(format_table(results))
        typer.echo(f"Results and plots written to {out}/: {', '.join(p.name for p in written)}")
        for profile, (best, reason) in picks.items():
            typer.echo(f"Autotune pick for the {profile} profile: {reason}")
            if write:
                chosen = best["name"] if best else "off"
                spec = parse_config(chosen).speculation
                path = write_speculation(spec, profile=profile)  # type: ignore[arg-type]
                typer.echo(f"Saved {chosen} as the {profile} profile in {path}")
