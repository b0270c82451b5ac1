"""`hiring-assistant audit`: a bias audit of a batch run's scores (NYC Local Law 144 style)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from agent.cli.output import friendly_errors, say

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from agent.fairness.audit import AuditResult, RunScores

_UNSCORED = {
    "failed": "failed",
    "duplicate": "duplicate",
    "pending": "not analyzed yet",
    "running": "not analyzed yet",
    "done": "analysis deleted",  # done, but its analysis was deleted since (candidate forgotten)
}


def load_run_scores(session: Session, run_id: int) -> RunScores:
    """Each candidate's score from its saved analysis in the run; why the others have none."""
    from sqlalchemy import select

    from agent.fairness.audit import RunScores
    from agent.store.batches import get_batch_run
    from agent.store.tables import Analysis, BatchItem

    run = get_batch_run(session, run_id=run_id)
    rows = session.execute(
        select(BatchItem.candidate_ref, BatchItem.status, Analysis.score)
        .outerjoin(Analysis, BatchItem.analysis_id == Analysis.id)
        .where(BatchItem.run_id == run_id)
        .order_by(BatchItem.id)
    ).all()
    scores: dict[str, int] = {}
    unscored: dict[str, str] = {}
    for ref, status, score in rows:
        if status == "done" and score is not None:
            scores[ref] = score
            continue
        key = ref
        if status == "duplicate":  # its ref reads "<candidate id> (<file>)" (agent/batch/runs.py)
            bare = ref.rsplit(" (", 1)[0]
            key = ref if bare in unscored or bare in scores else bare
        unscored[key] = _UNSCORED.get(status, status)
    return RunScores(
        run_id=run.id,
        job_title=run.job.title,
        scores=scores,
        unscored=unscored,
        complete=run.status == "finished",
    )


def audit(
    run: Annotated[
        int, typer.Option("--run", metavar="RUN", help="The batch run's number (`batch list`).")
    ],
    demographics: Annotated[
        Path,
        typer.Option(
            "--demographics",
            metavar="FILE.csv",
            help="CSV with candidate_id,sex,race_ethnicity (the ids the batch stored).",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for audit.csv, audit.json, audit.html (default: audit-run-RUN)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the audit as JSON instead of the tables.")
    ] = False,
) -> None:
    """Bias audit of a batch run's scores by sex, race/ethnicity and both (NYC LL144 rules).

    Scoring rate: share above the sample median; impact ratio: rate / the highest rate.

    Decision support for human review (docs/bias-audit.md)."""
    from agent.fairness.audit import read_demographics, run_audit
    from agent.fairness.audit_exports import audit_json, write_audit
    from agent.store import open_database
    from agent.store.repository import record_event

    with friendly_errors():
        people = read_demographics(demographics)
        with open_database() as database, database.session() as session:
            result = run_audit(load_run_scores(session, run), people)
            paths = write_audit(result, out or Path(f"audit-run-{run}"))
            record_event(session, event="bias_audit", details=_event_details(result, paths))
    if as_json:
        typer.echo(audit_json(result, {fmt: str(p) for fmt, p in paths.items()}), nl=False)
        for path in paths.values():
            say(f"Wrote {path}")
        return
    typer.echo(format_audit(result))
    typer.echo("Files:")
    for fmt, path in paths.items():
        typer.echo(f"  {fmt:<5} {path}")


def _event_details(result: AuditResult, paths: dict[str, Path]) -> dict[str, object]:
    """Counts and paths only: no candidate, no category name, no individual's value."""
    return {
        "run": result.run_id,
        "scored": result.scored,
        "excluded_no_score": sum(result.excluded_no_score.values()),
        "demographics_rows": result.demographics_rows,
        "demographics_not_in_run": result.demographics_not_in_run,
        "unknown": {t.key: t.unknown for t in result.tables},
        "categories": {t.key: len(t.categories) for t in result.tables},
        "files": {fmt: str(path) for fmt, path in paths.items()},
    }


def _wrapped(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, width=100, initial_indent=indent, subsequent_indent=indent + "  ")


def format_audit(result: AuditResult) -> str:
    """The audit as plain text: the sample, one table per dimension, the definitions."""
    from agent.text_tables import new_table, render_table

    excluded = sum(result.excluded_no_score.values())
    why = ", ".join(f"{n} {s}" for s, n in sorted(result.excluded_no_score.items()))
    lines = [
        f"Bias audit of batch run {result.run_id}: {result.job_title}",
        *_wrapped(result.notice),
        "",
        f"Scored candidates: {result.scored}; median score {result.median:g}; "
        f"{result.above_median} strictly above it.",
        f"Excluded, no score: {excluded}" + (f" ({why})." if why else "."),
        f"Demographics file: {result.demographics_rows} row(s); "
        f"{result.demographics_not_in_run} not in this run; "
        f"{result.scored_not_in_demographics} scored candidate(s) without a row (unknown).",
    ]
    if not result.run_complete:
        lines.append("The run is in progress: this covers the candidates scored so far.")
    for table in result.tables:
        grid = new_table()
        for column in ("category", "candidates", "above median", "scoring rate", "impact ratio"):
            grid.add_column(column, justify="left" if column == "category" else "right")
        for c in table.categories:
            ratio = "—" if c.impact_ratio is None else f"{c.impact_ratio:.3f}"
            mark = " *" if c.under_2_percent else ""
            grid.add_row(
                c.category + mark,
                str(c.candidates),
                str(c.above_median),
                f"{c.scoring_rate:.1%}",
                ratio,
            )
        lines += ["", f"{table.title} (unknown: {table.unknown})"]
        lines += render_table(grid) if table.categories else ["  no known category"]
        marked = [c for c in table.categories if c.excluded_reason]
        lines += [f"  * {c.category}: {c.excluded_reason}" for c in marked]
        if table.note:
            lines.append(f"  {table.note}")
    lines += ["", "Definitions:"]
    for name, text in result.definitions.items():
        lines += _wrapped(f"{name.replace('_', ' ')}: {text}", indent="  ")
    lines += [*_wrapped(f"Source: {result.source}."), ""]
    return "\n".join(lines)
