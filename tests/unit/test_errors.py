"""One error hierarchy, mapped once: exit codes for the CLI, HTTP statuses for the API."""

from __future__ import annotations

import pytest
import typer

from agent.cli.output import friendly_errors
from agent.errors import (
    AnalysisFailedError,
    DatabaseError,
    InputError,
    NotFoundError,
    classify,
)
from serving.embedded_model import ModelNotReadyError
from serving.engine import EngineError, TransientEngineError


@pytest.mark.parametrize(
    ("error", "exit_code", "http_status"),
    [
        (InputError("bad file"), 2, 422),
        (NotFoundError("no analysis 9"), 2, 404),
        (AnalysisFailedError(["bad json"], "{", 3), 1, 502),
        (EngineError("vLLM could not start"), 1, 502),
        (TransientEngineError("server busy"), 1, 503),
        (ModelNotReadyError("run model prepare"), 1, 503),
        (DatabaseError("unreachable"), 1, 503),
        (KeyboardInterrupt(), 130, 499),
    ],
)
def test_each_known_failure_has_one_exit_code_and_status(error, exit_code, http_status):
    kind = classify(error)
    assert kind is not None
    assert (kind.exit_code, kind.http_status) == (exit_code, http_status)


def test_anything_else_is_a_bug_and_keeps_its_traceback(capsys):
    assert classify(ZeroDivisionError()) is None
    with pytest.raises(ZeroDivisionError), friendly_errors():
        raise ZeroDivisionError
    assert capsys.readouterr().err == ""


def test_the_cli_prints_one_line_and_exits_with_the_code(capsys):
    with pytest.raises(typer.Exit) as info, friendly_errors():
        raise NotFoundError("no analysis with id 9")
    assert info.value.exit_code == 2
    assert capsys.readouterr().err == "error: no analysis with id 9\n"


def test_the_failure_keeps_the_last_output_and_the_attempts():
    error = AnalysisFailedError(["e1", "e2", "e3", "e4"], "{", 3)
    assert str(error) == "no valid analysis after 3 attempt(s): e1; e2; e3 (+1 more)"
    assert (error.last_output, error.attempts) == ("{", 3)
