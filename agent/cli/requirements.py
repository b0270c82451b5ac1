"""`hiring-assistant requirements`: the requirements an analysis of this job would use."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from agent.cli.output import friendly_errors

_SOURCES = {
    "sections": "found under the posting's headings",
    "given": "listed in the job file",
    "prose": "a stand-in from the posting's sentences: the posting is prose, so at analysis time "
    "the model picks its requirements among those sentences",
}


def requirements(
    job: Annotated[Path, typer.Argument(help="Job: text, Markdown or JSON job schema.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print them as JSON.")] = False,
) -> None:
    """Print the requirements found in a job; fix them in a file and pass it to
    `analyze --requirements FILE` (JSON, or one per line)."""
    from agent.ingest.files import load_job
    from agent.text_tables import new_table, render_table

    with friendly_errors():
        posting = load_job(job)
    if as_json:
        payload = [r.model_dump(include={"text", "kind", "weight"}) for r in posting.requirements]
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    table = new_table()
    for name in ("id", "kind", "dimension"):
        table.add_column(name, no_wrap=True)
    table.add_column("requirement", overflow="fold")
    for r in posting.requirements:
        table.add_row(r.id, r.kind.replace("_", "-"), r.dimension, r.text)
    typer.echo(
        f"{posting.title}: {len(posting.requirements)} requirements, "
        f"{_SOURCES[posting.requirements_source]}"
    )
    typer.echo("\n".join(render_table(table)))
    typer.echo(
        f"\nTo change them: hiring-assistant requirements {job} --json > reqs.json, edit, then "
        f"hiring-assistant analyze --job {job} --requirements reqs.json --candidate …"
    )
