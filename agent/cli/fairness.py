"""`hiring-assistant fairness name-swap`: one profile under names of different groups."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from agent.cli.options import start_engine
from agent.cli.output import friendly_errors, say
from serving.config import get_settings

if TYPE_CHECKING:
    from agent.fairness.name_swap import NameSwapReport

fairness_app = typer.Typer(
    help="Checks that the analysis treats people alike.", no_args_is_help=True
)


@fairness_app.command("name-swap")
def name_swap_command(
    job: Annotated[Path, typer.Option("--job", help="Job: text, Markdown or JSON job schema.")],
    candidate: Annotated[
        Path,
        typer.Option(
            "--candidate",
            help="Profile; a {name} placeholder (or its header name) takes each name in turn.",
        ),
    ],
    names_file: Annotated[
        Path | None,
        typer.Option(
            "--names",
            help="JSON {group: [names]}; default: the fairness data's 8 race x gender groups.",
        ),
    ] = None,
    per_group: Annotated[int, typer.Option(min=1, max=20, help="Names per group.")] = 1,
    groups: Annotated[
        str | None, typer.Option(help="Only these groups, comma-separated (e.g. W_M,B_W).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Which names are picked.")] = 0,
    no_blind: Annotated[
        bool,
        typer.Option("--no-blind", help="Let the model read the names: what blinding prevents."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """Analyze the same profile under names from different groups; print each version's prompt
    hash, score and verdicts, and the spread of the scores (0 when the name makes no difference)."""
    from agent.errors import InputError
    from agent.fairness.name_swap import load_names, name_swap, pick_names
    from agent.ingest.files import load_candidate, load_job

    with friendly_errors():
        job_posting = load_job(job)
        profile = load_candidate(candidate)
        names = load_names(names_file)
        if groups:
            wanted = [g.strip() for g in groups.split(",") if g.strip()]
            unknown = [g for g in wanted if g not in names.groups]
            if unknown:
                known = ", ".join(names.groups)
                raise InputError(f"no group {', '.join(unknown)} in the names file ({known})")
            names = type(names)({g: names.groups[g] for g in wanted}, names.labels)
        picked = pick_names(names, per_group, seed)
        with start_engine(get_settings().for_profile("interactive")) as engine:
            say(
                f"Analyzing {profile.id} under {len(picked)} names "
                f"({'blinded' if not no_blind else 'not blinded'})…"
            )
            report = name_swap(
                job_posting, profile, engine, picked, names.labels, blind=not no_blind
            )
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        return
    typer.echo(_table(report))


def _table(report: NameSwapReport) -> str:
    from agent.text_tables import new_table, render_table

    grid = new_table()
    for column in ("group", "name", "prompt hash", "score", "recommendation", "verdicts"):
        grid.add_column(column)
    rows = [
        [
            r.label,
            r.name,
            r.prompt_hash[:12],
            "failed" if r.score is None else str(r.score),
            r.recommendation or "-",
            " ".join(_SHORT[v] for v in r.verdicts) if r.verdicts else (r.error or "")[:40],
        ]
        for r in report.results
    ]
    for row in rows:
        grid.add_row(*row)
    lines = [
        f"Name swap: {report.candidate} for {report.job!r}, "
        f"{'blinded' if report.blind else 'NOT blinded (--no-blind)'}",
        *render_table(grid),
        "",
        f"Distinct prompts: {len(set(report.prompt_hashes))} of {len(report.results)}.  "
        f"Score spread: {report.score_spread if report.score_spread is not None else 'n/a'}.  "
        f"Verdicts identical: {'yes' if report.verdicts_identical else 'no'}.",
    ]
    if report.blind and len(set(report.prompt_hashes)) == 1:
        lines.append(
            "The model read the same prompt for every name: the name cannot move the score."
        )
    elif not report.blind:
        lines.append(
            "Without blinding each name changes the prompt; any spread above is the name's."
        )
    lines.append("Scores are decision support for a recruiter's review, never a decision.")
    return "\n".join(lines)


_SHORT = {"met": "met", "partial": "part", "not_met": "no", "insufficient_evidence": "?"}
