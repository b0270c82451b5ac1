"""`hiring-assistant loadtest`: a bounded load test of a running `hiring-assistant serve`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from agent.cli.output import friendly_errors, say


def loadtest(
    url: Annotated[str, typer.Option(help="The service's base URL.")] = "http://127.0.0.1:8000",
    job: Annotated[Path, typer.Option("--job", help="The job every analysis uses.")] = Path(
        "samples/jobs/job_008.md"
    ),
    candidates: Annotated[
        list[str], typer.Option("--candidates", help="Profiles, used in turn (folders, globs).")
    ] = ["samples/candidates/cand_0[0-3]*.md"],  # noqa: B006
    clients: Annotated[int, typer.Option(min=1, max=256, help="Clients at once.")] = 8,
    per_client: Annotated[
        int, typer.Option(min=1, max=1000, help="Analyses each client sends in turn.")
    ] = 4,
    key: Annotated[
        str | None, typer.Option(help="API key (default: HIRING_ASSISTANT_API_KEY).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for api_load.json.")] = Path("bench-api"),
) -> None:
    """Send CLIENTS × PER_CLIENT analyses (each client waits for its answer before the next) and
    print latency percentiles, throughput, and whether any request was lost."""
    import httpx

    from agent.batch.service import require_candidates
    from agent.batch.sources import collect_candidates
    from agent.benchmark.api_load import run_load
    from agent.errors import InputError
    from agent.ingest.files import read_document

    with friendly_errors():
        api_key = key or os.environ.get("HIRING_ASSISTANT_API_KEY")
        if not api_key:
            raise InputError("give --key or set HIRING_ASSISTANT_API_KEY")
        job_text = read_document(job, "job")
        found = collect_candidates(candidates)
        require_candidates(found)
        profiles = [(c.id, c.text) for c in found.candidates]
        try:
            httpx.get(f"{url.rstrip('/')}/healthz", timeout=10).raise_for_status()
        except httpx.HTTPError as exc:
            raise InputError(f"no service answers at {url}: {type(exc).__name__}") from None
        say(f"{clients} clients × {per_client} analyses against {url}…")
        figures = run_load(
            url.rstrip("/"), api_key, job_text, profiles, clients=clients, per_client=per_client
        )
    out.mkdir(parents=True, exist_ok=True)
    (out / "api_load.json").write_text(json.dumps(figures, indent=2))
    typer.echo(
        f"sent {figures['sent']}, answered {figures['answered']}, ok {figures['ok']}, "
        f"lost {figures['lost']}; statuses {figures['by_status']}; "
        f"busy retries {figures['busy_retries']}"
    )
    if figures["ok"]:
        typer.echo(
            f"latency P50 {figures['latency_p50_s']} s, P90 {figures['latency_p90_s']} s, "
            f"max {figures['latency_max_s']} s; {figures['analyses_per_min']} analyses/min "
            f"over {figures['wall_s']} s"
        )
    typer.echo(f"Wrote {out / 'api_load.json'}")
    if figures["lost"] or figures["ok"] < figures["sent"]:
        raise typer.Exit(1)
