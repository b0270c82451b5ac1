"""Commands over the store: `history`, `show`, `candidate forget`, `db upgrade`, `db status`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from agent.cli.output import friendly_errors
from agent.cli.render import speculation_label

db_app = typer.Typer(help="The database: migrations and status.", no_args_is_help=True)
candidate_app = typer.Typer(help="Candidates' data rights.", no_args_is_help=True)


def format_history(rows: list[Any]) -> str:
    """The saved analyses as a plain-text table (rendered by rich, at most 120 columns wide)."""
    if not rows:
        return "No analyses saved yet: run `hiring-assistant analyze`."
    from rich.text import Text  # imported here: this module loads with every CLI command

    from agent.text_tables import new_table, render_table

    def cut(value: str) -> Text:  # one line, cut with an ellipsis when the column is squeezed
        return Text(value, no_wrap=True, overflow="ellipsis")

    table = new_table()
    table.add_column("ID", justify="right", no_wrap=True)
    table.add_column("when (UTC)", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("recommendation", no_wrap=True)
    # only these three give way (widest first) when the table would pass 120 columns
    table.add_column("job", max_width=30)
    table.add_column("candidate", max_width=18)
    table.add_column("model", max_width=24)
    table.add_column("speculation", no_wrap=True)
    for row in rows:
        table.add_row(
            str(row.id),
            f"{row.created_at:%Y-%m-%d %H:%M}",
            str(row.score),
            row.recommendation,
            cut(row.job.title),
            cut(row.candidate.external_id),
            cut(Path(row.model).name),
            speculation_label(row.speculation),
        )
    return "\n".join(render_table(table))


def format_provenance(row: Any) -> str:
    metrics = [
        f"prompt tokens {row.prompt_tokens}",
        f"output tokens {row.output_tokens}",
        f"TTFT {row.ttft_s} s",
        f"TPOT {row.tpot_ms} ms",
        f"total {row.e2e_s} s",
    ]
    if row.acceptance_rate is not None:
        metrics.append(f"acceptance {row.acceptance_rate:.0%}")
    settings = ", ".join(f"{k}={v}" for k, v in sorted(row.engine_settings.items()))
    return "\n".join(
        [
            f"Analysis #{row.id}, saved {row.created_at:%Y-%m-%d %H:%M:%S} UTC",
            f"Model: {row.model} ({row.engine}; {settings})",
            f"Speculation: {speculation_label(row.speculation)}",
            f"Prompt template version: {row.prompt_version}",
            f"Input hashes: job {row.job_hash}, candidate {row.candidate_hash}, "
            f"requirements {row.requirements_hash}",
            "Figures: " + ", ".join(metrics),
        ]
    )


def history(
    limit: Annotated[int, typer.Option(min=1, help="How many, newest first.")] = 20,
) -> None:
    """List recent analyses: job, candidate, score, recommendation, when, model, speculation."""
    from agent.store import open_database
    from agent.store.repository import count_analyses, recent_analyses

    with friendly_errors(), open_database() as database, database.session() as session:
        rows = list(recent_analyses(session, limit=limit))
        total = count_analyses(session)
        typer.echo(format_history(rows))
        if total > len(rows):
            typer.echo(f"({len(rows)} of {total}; --limit for more)")


def show(
    analysis_id: Annotated[int, typer.Argument(help="The ID that `history` lists.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the stored MatchReport.")] = False,
) -> None:
    """Print one saved analysis with its provenance (the view is logged in the audit trail)."""
    from pydantic import ValidationError

    from agent.cli.render import format_report
    from agent.store import open_database
    from agent.store.repository import get_analysis
    from schemas.report import MatchReport

    with friendly_errors(), open_database() as database, database.session() as session:
        row = get_analysis(
            session,
            analysis_id=analysis_id,
            audit="analysis_exported" if as_json else "analysis_viewed",
        )
        if as_json:
            typer.echo(json.dumps(row.report, indent=2, ensure_ascii=False))
        else:
            try:
                typer.echo(format_report(MatchReport.model_validate(row.report)))
            except ValidationError:  # an anonymized report keeps verdicts only
                typer.echo("(anonymized: the verdicts and score are kept, not the evidence)")
                typer.echo(json.dumps(row.report["analysis"], indent=2))
            typer.echo("")
            typer.echo(format_provenance(row))


@candidate_app.command("forget")
def candidate_forget(
    candidate_id: Annotated[str, typer.Argument(help="The candidate's id (or database row id).")],
    anonymize: Annotated[
        bool,
        typer.Option(help="Keep verdicts and scores without personal data instead of deleting."),
    ] = False,
) -> None:
    """Erase a candidate's personal data and analyses; the audit log keeps that it happened."""
    from agent.store import open_database
    from agent.store.repository import forget_candidate

    with friendly_errors():
        mode = "anonymize" if anonymize else "delete"
        with open_database() as database, database.session() as session:
            count = forget_candidate(session, ref=candidate_id, mode=mode)
    done = "anonymized" if anonymize else "deleted with their analyses"
    typer.echo(f"Candidate {candidate_id!r}: {count} record(s) {done}.")


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Apply the migrations to the configured database (DATABASE_URL)."""
    from agent.store import open_database
    from agent.store.database import shown

    with friendly_errors(), open_database(migrate=False) as database:
        revision = database.upgrade()
    typer.echo(f"{shown(database.url)} is at migration {revision} (latest).")


@db_app.command("status")
def db_status() -> None:
    """Print the configured database and its migration."""
    from agent.store import open_database
    from agent.store.database import head_revision, shown

    with friendly_errors(), open_database(migrate=False) as database:
        current = database.revision()
    typer.echo(f"{shown(database.url)}: migration {current or 'none'} (latest {head_revision()})")
