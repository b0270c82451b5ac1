"""`hiring-assistant serve` (the HTTP API) and `hiring-assistant apikey` (its keys)."""

from __future__ import annotations

import logging
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from agent.cli.output import friendly_errors, say

apikey_app = typer.Typer(help="Keys for the HTTP API.", no_args_is_help=True)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port.")] = 8000,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
) -> None:
    """Serve the HTTP API (OpenAPI docs at /docs) on the engine the settings name.

    Calls need `Authorization: Bearer KEY` (see `hiring-assistant apikey create`, or set
    HIRING_ASSISTANT_API_KEYS). Ctrl-C or SIGTERM finishes accepted analyses, then stops."""
    import uvicorn

    from agent.api.app import create_app
    from agent.api.settings import ApiSettings
    from agent.assistant import HiringAssistant
    from agent.store.api_keys import api_keys

    level = log_level.upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        say(f"error: unknown log level {log_level!r}")
        raise typer.Exit(2)
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("hiring_assistant").setLevel(level)
    with friendly_errors():
        settings = ApiSettings()
        with HiringAssistant(say=say, concurrency=settings.workers, profile="batch") as assistant:
            with assistant.database.session() as session:
                stored = [k for k in api_keys(session) if k.revoked_at is None]
            if not stored and not settings.bootstrap_keys():
                say(
                    "No API key exists yet: every call will get 401. Create one with "
                    "`hiring-assistant apikey create NAME`."
                )
            app = create_app(assistant, settings)
            say(f"Serving on http://{host}:{port} (API docs: http://{host}:{port}/docs)")
            try:
                with _stop_on_signals():
                    uvicorn.run(
                        app, host=host, port=port, log_level=log_level.lower(), access_log=False
                    )
            except _Stopped:
                say("Stopped: the analyses it had accepted are finished.")


class _Stopped(Exception):
    pass


@contextmanager
def _stop_on_signals() -> Iterator[None]:
    """Uvicorn shuts down gracefully on SIGINT/SIGTERM, then raises the signal again: here that
    ends the serve command normally, so the engine and the database are closed in order."""

    def stop(signum: int, frame: object) -> None:
        raise _Stopped

    saved = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


@apikey_app.command("create")
def apikey_create(
    name: Annotated[str, typer.Argument(help="Who or what the key is for, e.g. greenhouse-sync.")],
) -> None:
    """Make a key and print it once; only its hash is stored."""
    from agent.store import open_database
    from agent.store.api_keys import create_api_key

    with friendly_errors(), open_database() as database, database.session() as session:
        _, key = create_api_key(session, name=name)
    say(f"API key {name!r} (shown once; send it as `Authorization: Bearer KEY`):")
    typer.echo(key)


@apikey_app.command("list")
def apikey_list() -> None:
    """The keys: name, first characters, when made, whether revoked."""
    from agent.store import open_database
    from agent.store.api_keys import api_keys

    with friendly_errors(), open_database() as database, database.session() as session:
        rows = [
            (k.name, k.prefix + "…", f"{k.created_at:%Y-%m-%d %H:%M}", k.revoked_at)
            for k in api_keys(session)
        ]
    if not rows:
        typer.echo("No API keys. Create one with `hiring-assistant apikey create NAME`.")
        return
    table = Table("name", "key", "created", "status", box=None)
    for name, prefix, created, revoked in rows:
        table.add_row(name, prefix, created, f"revoked {revoked:%Y-%m-%d}" if revoked else "active")
    Console(width=100).print(table)


@apikey_app.command("revoke")
def apikey_revoke(name: Annotated[str, typer.Argument(help="The key's name.")]) -> None:
    """Revoke a key: calls with it get 401 from now on."""
    from agent.store import open_database
    from agent.store.api_keys import revoke_api_key

    with friendly_errors(), open_database() as database, database.session() as session:
        revoke_api_key(session, name=name)
    typer.echo(f"API key {name!r} revoked.")
