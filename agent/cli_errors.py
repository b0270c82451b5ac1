"""How the command line reports the product's known failures: one line on stderr, an exit code."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer


def say(message: str) -> None:
    typer.echo(message, err=True)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn the product's known failures into one line on stderr and a non-zero exit.

    Exit 2: the user's input is wrong (bad file, unknown id). Exit 1: the model, the engine,
    the database, or the analysis failed.
    """
    from agent.analysis import AnalysisFailedError
    from agent.inputs import InputError
    from agent.store import DatabaseError
    from agent.store.repository import NotFoundError
    from serving.embedded_model import ModelNotReadyError
    from serving.engine import EngineError

    try:
        yield
    except (InputError, NotFoundError) as exc:
        say(f"error: {exc}")
        raise typer.Exit(2) from None
    except (ModelNotReadyError, EngineError, DatabaseError, AnalysisFailedError) as exc:
        say(f"error: {exc}")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        say("interrupted")
        raise typer.Exit(130) from None
