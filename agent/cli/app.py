"""The `hiring-assistant` command line: one Typer app; each command group in its own module."""

from __future__ import annotations

import os
import sys

import typer
from pydantic import ValidationError

from agent.cli.analyze import analyze
from agent.cli.audit import audit
from agent.cli.batch import batch_app
from agent.cli.bench import bench
from agent.cli.chat import chat
from agent.cli.evaluate import evaluate
from agent.cli.fairness import fairness_app
from agent.cli.loadtest import loadtest
from agent.cli.model import model_app
from agent.cli.output import say
from agent.cli.requirements import requirements
from agent.cli.serve import apikey_app, serve
from agent.cli.store import candidate_app, db_app, history, show

app = typer.Typer(
    help="Recruiter match analysis on a local vLLM engine with n-gram speculative decoding.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command()(analyze)
app.command()(requirements)
app.command("eval")(evaluate)
app.command()(bench)
app.command()(history)
app.command()(show)
app.command()(serve)
app.command()(chat)
app.command()(loadtest)
app.command()(audit)
app.add_typer(batch_app, name="batch")
app.add_typer(fairness_app, name="fairness")
app.add_typer(model_app, name="model")
app.add_typer(db_app, name="db")
app.add_typer(candidate_app, name="candidate")
app.add_typer(apikey_app, name="apikey")


def main() -> None:
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        app()
    except ValidationError as exc:  # settings from the environment
        say(f"error: invalid settings: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}")
        sys.exit(2)


if __name__ == "__main__":
    main()
