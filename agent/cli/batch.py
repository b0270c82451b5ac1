"""`hiring-assistant batch`: score many candidates against one job, resumably, into a shortlist."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from agent.cli.options import start_engine, with_speculation
from agent.cli.output import friendly_errors, say
from agent.cli.terminal import CtrlCAsKey
from serving.config import get_settings

if TYPE_CHECKING:
    from agent.batch.service import RunState
    from agent.batch.sources import CandidateSet
    from agent.batch.worker import BatchWorker, ItemResult
    from agent.store import Database

batch_app = typer.Typer(
    help="Score many candidates against one job: a resumable run and a ranked shortlist.",
    no_args_is_help=True,
)

Out = Annotated[
    Path | None,
    typer.Option(
        "--out", help="Folder for shortlist.csv, results.jsonl, report.html (default: batch-RUN)."
    ),
]
NoSpeculation = Annotated[
    bool, typer.Option("--no-speculation", help="Turn n-gram speculation off.")
]
Concurrency = Annotated[
    int | None,
    typer.Option(
        min=1, max=64, help="Analyses in flight at once (the engine batches them) (default: 8)."
    ),
]
SHOWN = 10  # candidates printed at the end; the files have them all


@batch_app.command("run", context_settings={"allow_extra_args": True})
def run(
    ctx: typer.Context,
    job: Annotated[Path, typer.Option("--job", help="Job: text, Markdown or JSON job schema.")],
    candidates: Annotated[
        list[str],
        typer.Option(
            "--candidates",
            help="Folders, globs, files (Markdown, text, JSON Resume, PDF, Word) or .jsonl/.csv "
            "lists; several may follow one --candidates.",
        ),
    ],
    out: Out = None,
    name: Annotated[str | None, typer.Option(help="A name for the run.")] = None,
    requirements_file: Annotated[
        Path | None,
        typer.Option("--requirements", help="Your own requirements instead of the job's."),
    ] = None,
    concurrency: Concurrency = None,
    no_speculation: NoSpeculation = False,
) -> None:
    """Analyze every candidate against one job and rank them.

    Running the same command again continues the same run; a finished run is not redone."""
    from agent.batch.service import find_existing, open_run, require_candidates
    from agent.batch.sources import collect_candidates
    from agent.errors import InputError
    from agent.ingest.files import load_job, load_requirements
    from agent.store import open_database

    with friendly_errors():
        stray = [arg for arg in ctx.args if arg.startswith("-")]
        if stray:
            raise InputError(f"unknown option {stray[0]} (see `hiring-assistant batch run --help`)")
        posting = load_job(job)
        given = load_requirements(requirements_file) if requirements_file else None
        found = collect_candidates([*candidates, *ctx.args])
        _say_found(found)
        with open_database() as database:
            existing = find_existing(database, posting, found, given)
            if existing is not None and existing.status == "finished":
                say(f"Run {existing.run_id} of this job and these candidates is complete.")
                _finish(database, existing, out)
                return
            if existing is None:
                require_candidates(found)  # before a minute of engine start-up
            with _service(database, no_speculation, concurrency) as service:
                state = open_run(service, posting, found, given=given, name=name)
                _say_opened(state)
                state = _work(service, state)
            _finish(database, state, out)


@batch_app.command("resume")
def resume(
    run_id: Annotated[int, typer.Argument(metavar="RUN", help="The run's number.")],
    out: Out = None,
    concurrency: Concurrency = None,
    no_speculation: NoSpeculation = False,
) -> None:
    """Continue a run that was stopped or whose worker died, then write its outputs."""
    _resume(run_id, out, concurrency, no_speculation, write=True)


@batch_app.command("work")
def work(
    run_id: Annotated[int, typer.Argument(metavar="RUN", help="The run's number.")],
    concurrency: Concurrency = None,
    no_speculation: NoSpeculation = False,
) -> None:
    """Join a run as one more worker; writes no files (see `batch export`).

    On this machine, or on another that reaches the same PostgreSQL database."""
    _resume(run_id, None, concurrency, no_speculation, write=False)


def _resume(
    run_id: int, out: Path | None, concurrency: int | None, no_speculation: bool, *, write: bool
) -> None:
    from agent.batch.service import run_state
    from agent.store import open_database

    with friendly_errors(), open_database() as database:
        state = run_state(database, run_id)
        if state.status != "finished":
            with _service(database, no_speculation, concurrency) as service:
                _say_opened(state)
                state = _work(service, state)
        else:
            say(f"Run {run_id} is complete.")
        if write:
            _finish(database, state, out)
        else:
            say(f"Run {state.run_id}: {_counts_text(state.counts)}.")


@batch_app.command("list")
def list_runs(
    limit: Annotated[int, typer.Option(min=1, help="Runs shown at most.")] = 20,
) -> None:
    """The latest runs: job, status and items."""
    from agent.store import open_database
    from agent.store.batches import batch_runs, item_counts
    from agent.text_tables import new_table, render_table

    with friendly_errors(), open_database() as database, database.session() as session:
        runs = batch_runs(session, limit=limit)
        if not runs:
            typer.echo("No batch runs yet: start one with `hiring-assistant batch run`.")
            return
        table = new_table()
        for column in ("run", "name", "job", "status", "items", "started (UTC)"):
            table.add_column(column, overflow="fold")
        for r in runs:
            counts = item_counts(session, run_id=r.id)
            table.add_row(
                str(r.id),
                r.name or "",
                r.job.title,
                "complete" if r.status == "finished" else "in progress",
                _counts_text(counts),
                r.created_at.strftime("%Y-%m-%d %H:%M"),
            )
    typer.echo("\n".join(render_table(table)))


@batch_app.command("status")
def status(run_id: Annotated[int, typer.Argument(metavar="RUN", help="The run's number.")]) -> None:
    """Where a run stands, and its best candidates so far."""
    from agent.batch.exports import run_view
    from agent.store import open_database

    with friendly_errors(), open_database() as database, database.session() as session:
        view = run_view(session, run_id)
    label = f"Run {view.run_id}" + (f" ({view.name})" if view.name else "")
    state = "complete" if view.status == "finished" else "in progress"
    typer.echo(f"{label}: {view.job.title}, {state}. {_counts_text(view.counts)}.")
    _print_ranking(view.entries)


@batch_app.command("export")
def export(
    run_id: Annotated[int, typer.Argument(metavar="RUN", help="The run's number.")],
    fmt: Annotated[
        str, typer.Option("--format", help="csv (shortlist), jsonl (full reports) or html.")
    ] = "csv",
    out: Annotated[
        Path | None, typer.Option("--out", help="File to write (default: batch-RUN/<file>).")
    ] = None,
) -> None:
    """Write one of a run's outputs now.

    A run in progress lists its unfinished items after the ranked ones."""
    from agent.batch.exports import FILE_NAMES, export_run
    from agent.errors import InputError
    from agent.store import open_database

    with friendly_errors():
        if fmt not in FILE_NAMES:
            raise InputError(f"unknown format {fmt!r}: use csv, jsonl or html")
        target = out or Path(f"batch-{run_id}") / FILE_NAMES[fmt]  # type: ignore[index]
        with open_database() as database, database.session() as session:
            export_run(session, run_id, fmt, target)  # type: ignore[arg-type]
    say(f"Wrote {target}")


# -- the work and its display ---------------------------------------------------------------


@contextmanager
def _service(database: Database, no_speculation: bool, concurrency: int | None) -> Iterator[Any]:
    from agent.service import CONCURRENCY, AnalysisService

    settings = with_speculation(
        get_settings().for_profile("batch"), method="off" if no_speculation else None
    )
    with start_engine(settings) as engine:
        yield AnalysisService(engine, database, concurrency=concurrency or CONCURRENCY)


def _say_found(found: CandidateSet) -> None:
    parts = [f"{len(found.candidates)} candidate(s) to analyze"]
    if found.duplicates:
        parts.append(f"{len(found.duplicates)} duplicate(s) skipped")
    if found.failed:
        parts.append(f"{len(found.failed)} unreadable")
    say("Found " + ", ".join(parts) + ".")
    for failed in found.failed[:5]:
        say(f"  unreadable: {failed.source}: {failed.reason}")
    if len(found.failed) > 5:
        say(f"  … and {len(found.failed) - 5} more (listed in the shortlist)")
    for dup in found.duplicates[:5]:
        say(f"  duplicate: {dup.source} is the same profile as {dup.same_as}")


def _say_opened(state: RunState) -> None:
    label = f"run {state.run_id}" + (f" ({state.name})" if state.name else "")
    if state.created:
        say(f"Started {label}: {state.total} item(s).")
    else:
        say(f"Continuing {label}: {state.ended} of {state.total} item(s) already ended.")


def _work(service: Any, state: RunState) -> RunState:
    from agent.batch.service import run_state, work_run
    from agent.errors import EngineError

    with _progress(state) as on_result, _stop_on_signals() as workers:
        try:
            state = work_run(service, state.run_id, on_result=on_result, on_worker=workers.append)
        except EngineError:
            if not any(worker.stopping for worker in workers):
                raise
            state = run_state(service.database, state.run_id)  # stopped, and the engine with it
    if state.status != "finished" and any(worker.stopping for worker in workers):
        say(
            f"Stopped: {_counts_text(state.counts)}. Run the same command again, or "
            f"`hiring-assistant batch resume {state.run_id}`, to go on."
        )
        raise typer.Exit(130)
    if state.status != "finished":
        say(
            f"Nothing left to claim; other workers still hold {state.counts.get('running', 0)} "
            "item(s). The files below show the run so far."
        )
    return state


@contextmanager
def _stop_on_signals() -> Iterator[list[BatchWorker]]:
    """Ctrl-C or SIGTERM: let the analyses in flight finish and be saved; a second Ctrl-C quits
    at once (the items in flight are taken back by the next run).

    A terminal sends Ctrl-C's SIGINT to every process of the foreground group, vLLM's engine
    processes included, which then die with the analyses in flight. So while a terminal is
    attached, its Ctrl-C is read as a key instead (no signal) and only this process acts on it.
    """
    workers: list[BatchWorker] = []
    presses = 0
    keys = CtrlCAsKey(lambda: stop())

    def stop(*_: object) -> None:
        nonlocal presses
        presses += 1
        if presses > 1:
            _notice("Quitting now; the analyses in flight will be redone by the next run.")
            keys.restore()
            os._exit(130)
        _notice("Stopping after the analyses in flight are saved (Ctrl-C again to quit now)…")
        for worker in workers:
            worker.stop()

    if threading.current_thread() is not threading.main_thread():
        yield workers
        return
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with keys:
            yield workers
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


_live: list[Any] = []  # the progress display's console while it is shown


def _notice(message: str) -> None:
    """A line above the progress bar (or on stderr when there is none)."""
    if _live:
        _live[0].print(message)
    else:
        say(message)


@contextmanager
def _progress(state: RunState) -> Iterator[Any]:
    """A rich progress bar on a terminal (done, failed, ETA, analyses per minute, acceptance);
    one line per candidate otherwise (logs, CI)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    lock = threading.Lock()
    tally = {"done": 0, "failed": 0, "drafted": 0, "accepted": 0}
    started = time.monotonic()

    def extras() -> str:
        minutes = (time.monotonic() - started) / 60
        pace = (tally["done"] + tally["failed"]) / minutes if minutes > 0 else 0.0
        rate = f"{tally['accepted'] / tally['drafted']:.0%}" if tally["drafted"] else "–"
        return f"failed {tally['failed']} · {pace:.1f}/min · acceptance {rate}"

    def count(result: ItemResult) -> None:
        with lock:
            tally[result.status] += 1
            tally["drafted"] += result.draft_tokens
            tally["accepted"] += result.accepted_tokens

    if not console.is_terminal:
        ended = state.ended

        def log(result: ItemResult) -> None:
            nonlocal ended
            count(result)
            with lock:
                ended += 1
                what = f"score {result.score}" if result.status == "done" else result.reason
                say(f"[{ended}/{state.total}] {result.candidate_id}: {what} ({extras()})")

        yield log
        return
    progress = Progress(
        TextColumn("Analyzing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[extras]}"),
        TextColumn("· elapsed"),
        TimeElapsedColumn(),
        TextColumn("· ETA"),
        TimeRemainingColumn(),
        console=console,
    )
    with progress:
        _live[:] = [progress.console]
        task = progress.add_task("batch", total=state.total, completed=state.ended, extras="")

        def advance(result: ItemResult) -> None:
            count(result)
            progress.update(task, advance=1, extras=extras())

        try:
            yield advance
        finally:
            _live.clear()


def _finish(database: Database, state: RunState, out: Path | None) -> None:
    from agent.batch.exports import run_view, write_outputs

    target = out or Path(f"batch-{state.run_id}")
    with database.session() as session:
        view = run_view(session, state.run_id)
        paths = write_outputs(session, state.run_id, target, view=view)
    typer.echo(f"{view.job.title}: {_counts_text(view.counts)}.")
    _print_ranking(view.entries)
    typer.echo("")
    typer.echo(
        "The scores support your review; they are not decisions. "
        "Open report.html for every verdict with its quotes."
    )
    for fmt, path in paths.items():
        typer.echo(f"  {fmt:<5} {path}")


def _print_ranking(entries: list[Any]) -> None:
    from agent.batch.shortlist import rows
    from agent.text_tables import new_table, render_table

    ranked_rows = [row for row in rows(entries) if row.get("status") == "done"]
    if not ranked_rows:
        return
    table = new_table()
    for column in ("#", "candidate", "score", "recommendation", "must-haves", "strongest quote"):
        table.add_column(column, overflow="fold" if column == "strongest quote" else "ellipsis")
    for row in ranked_rows[:SHOWN]:
        quote = str(row["strongest_quote"])
        table.add_row(
            str(row["rank"]),
            str(row["name"] or row["candidate_id"]),
            str(row["score"]),
            str(row["greenhouse"]).replace("_", " "),
            str(row["must_haves_met"]),
            (quote[:55] + "…") if len(quote) > 56 else quote,
        )
    typer.echo("\n".join(render_table(table)))
    if len(ranked_rows) > SHOWN:
        typer.echo(f"… and {len(ranked_rows) - SHOWN} more in shortlist.csv")
    others = [row for row in rows(entries) if row.get("status") != "done"]
    for row in others[:SHOWN]:
        typer.echo(f"  {row['status']}: {row['candidate_id']}: {row['reason']}")
    if len(others) > SHOWN:
        typer.echo(f"  … and {len(others) - SHOWN} more not ranked")


def _counts_text(counts: dict[str, int]) -> str:
    order = ("done", "failed", "duplicate", "running", "pending")
    words = {"done": "analyzed", "duplicate": "duplicate(s)", "running": "in flight"}
    parts = [f"{counts[s]} {words.get(s, s)}" for s in order if counts.get(s)]
    return ", ".join(parts) or "no items"


@batch_app.command("bench")
def bench(
    job: Annotated[Path, typer.Option("--job", help="Job: text, Markdown or JSON job schema.")],
    candidates: Annotated[
        list[str], typer.Option("--candidates", help="Candidates, as for `batch run`.")
    ],
    mode: Annotated[
        list[str] | None,
        typer.Option(
            help="Repeatable: batch (8 in flight, speculation on) | batch-off | one (one at "
            "a time) | one-off (default: batch, batch-off, one)."
        ),
    ] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N candidates.")] = None,
    out: Annotated[Path, typer.Option(help="Folder for batch_speed.json.")] = Path("bench-batch"),
) -> None:
    """Time the batch job itself: analyses per hour by mode, each on a fresh engine and store."""
    from agent.batch.sources import collect_candidates
    from agent.benchmark.batch_speed import (
        COLUMNS,
        MODES,
        compare_outcomes,
        measure_mode,
        write_results,
    )
    from agent.errors import InputError
    from agent.ingest.files import load_job
    from agent.text_tables import new_table, render_table

    with friendly_errors():
        names = mode or ["batch", "batch-off", "one"]
        unknown = [n for n in names if n not in MODES]
        if unknown:
            raise InputError(f"unknown mode {unknown[0]!r}: use {', '.join(MODES)}")
        posting = load_job(job)
        found = collect_candidates(candidates)
        if limit:
            found.candidates = found.candidates[:limit]
        out.mkdir(parents=True, exist_ok=True)
        base = get_settings().for_profile("batch")
        results = []
        for name in names:
            result = measure_mode(MODES[name], posting, found, base, out, say)
            say(f"{name}: {result['analyses']} in {result['wall_s']} s")
            results.append(result)
        compare_outcomes(results)
        path = write_results(results, out, {"job": str(job), "candidates": len(found.candidates)})
    table = new_table()
    for _, title in COLUMNS:
        table.add_column(title)
    for result in results:
        table.add_row(*(str(result.get(key, "")) for key, _ in COLUMNS))
    typer.echo("\n".join(render_table(table, width=160)))
    typer.echo(f"Wrote {path}")
