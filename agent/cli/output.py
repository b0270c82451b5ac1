"""How the command line reports the product's known failures: one line on stderr, an exit code."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer


def say(message: str) -> None:
    typer.echo(message, err=True)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn the product's known failures into one line on stderr and their exit code.

    The codes come from :func:`agent.errors.classify`: 2 for wrong input, 1 when the model, the
    engine, the database or the analysis failed, 130 when interrupted. Anything else is a bug and
    keeps its traceback.
    """
    from agent.errors import classify

    try:
        yield
    except (Exception, KeyboardInterrupt) as exc:
        kind = classify(exc)
        if kind is None:
            raise
        say("interrupted" if isinstance(exc, KeyboardInterrupt) else f"error: {exc}")
        raise typer.Exit(kind.exit_code) from None
