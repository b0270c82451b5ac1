"""`hiring-assistant analyze`: one candidate against one job, saved with its provenance."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from agent.cli.options import start_engine, with_speculation
from agent.cli.output import friendly_errors, say
from serving.config import EngineSettings, get_settings


def analyze(
    job: Annotated[Path, typer.Option("--job", help="Job: text, Markdown or JSON job schema.")],
    candidate: Annotated[
        Path, typer.Option("--candidate", help="Profile: text, Markdown or JSON Resume.")
    ],
    requirements_file: Annotated[
        Path | None,
        typer.Option(
            "--requirements",
            help="Your own requirements instead of the job's: JSON or one per line "
            "(see `hiring-assistant requirements JOB --json`).",
        ),
    ] = None,
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
    from agent.errors import InputError
    from agent.ingest.files import load_candidate, load_job, load_requirements
    from agent.service import AnalysisService
    from agent.store import open_database

    with friendly_errors():
        job_posting = load_job(job)
        profile = load_candidate(candidate)
        given = load_requirements(requirements_file) if requirements_file else None
        settings = with_speculation(
            get_settings().for_profile("interactive"),
            method="off" if no_speculation else None,
            num_speculative_tokens=num_speculative_tokens,
            prompt_lookup_max=prompt_lookup_max,
            prompt_lookup_min=prompt_lookup_min,
        )
        if compare and settings.engine_url:
            raise InputError("--compare starts in-process engines: unset the engine URL")
        if compare and not settings.speculation.enabled:
            raise InputError("--compare needs speculation on (drop --no-speculation)")
        # the database opens before the engine: a bad DATABASE_URL fails in a second
        with open_database() as database, start_engine(settings) as engine:
            service = AnalysisService(engine, database, max_attempts=max_attempts)
            say(f"Analyzing {profile.id} against {job_posting.title!r}…")
            run, saved = service.analyze_and_save(job_posting, profile, requirements=given)
        state = "Saved as" if saved.created else "Already saved (same inputs and settings) as"
        say(f"{state} analysis #{saved.analysis_id}: `hiring-assistant show {saved.analysis_id}`.")
        comparison = None
        if compare and run.attempts == 1:
            comparison = _compare(settings, run)
        elif compare:
            say("No comparison: the analysis needed a repair, so its requests differ.")
        _print_report(run.report, comparison, as_json)


def _compare(settings: EngineSettings, run: Any) -> Any:
    from agent.benchmark.comparison import compare_without_speculation

    with start_engine(with_speculation(settings, method="off")) as off_engine:
        say("Running the same request with speculation off…")
        return compare_without_speculation(run.request, run.raw_output, run.metrics, off_engine)


def _print_report(report: Any, comparison: Any, as_json: bool) -> None:
    from agent.cli.render import format_report

    if as_json:
        payload = report.model_dump(mode="json")
        if comparison is not None:
            payload["comparison"] = comparison.to_dict()
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    typer.echo(format_report(report))
    if comparison is not None:
        typer.echo(comparison.describe())
