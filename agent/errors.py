"""The product's known failures: one hierarchy, mapped once to CLI exit codes and HTTP statuses.

Every front door turns an exception into a user-facing answer through :func:`classify`: the CLI
prints one line and exits with ``exit_code``; the HTTP API answers ``http_status`` with the same
message. Anything :func:`classify` does not know is a bug and is left to surface as one.
"""

from __future__ import annotations

from dataclasses import dataclass

from serving.embedded_model import ModelNotReadyError
from serving.engine import EngineError, TransientEngineError


class HiringAssistantError(Exception):
    """Base of the product's own errors; the message is one line meant for the user."""


class InputError(HiringAssistantError, ValueError):
    """Bad input: a missing file, a wrong format, inputs too long for the model."""


class NotFoundError(InputError, LookupError):
    """No record with that id."""


class DatabaseError(HiringAssistantError):
    """The database cannot be used (unreachable, wrong URL, newer schema)."""


class UpstreamError(HiringAssistantError):
    """A system we read from (an applicant tracking system) failed or refused."""


class AnalysisFailedError(HiringAssistantError):
    """The model's answers failed validation on every attempt; keeps the last one and why."""

    def __init__(self, errors: list[str], last_output: str | None, attempts: int) -> None:
        shown = "; ".join(errors[:3]) + (f" (+{len(errors) - 3} more)" if len(errors) > 3 else "")
        super().__init__(f"no valid analysis after {attempts} attempt(s): {shown}")
        self.errors = errors
        self.last_output = last_output
        self.attempts = attempts


@dataclass(frozen=True)
class ErrorKind:
    exit_code: int
    http_status: int


# Most specific first: the first class an exception is an instance of decides.
_KINDS: tuple[tuple[type[BaseException], ErrorKind], ...] = (
    (NotFoundError, ErrorKind(exit_code=2, http_status=404)),
    (InputError, ErrorKind(exit_code=2, http_status=422)),
    (AnalysisFailedError, ErrorKind(exit_code=1, http_status=502)),
    (UpstreamError, ErrorKind(exit_code=1, http_status=502)),
    (TransientEngineError, ErrorKind(exit_code=1, http_status=503)),
    (EngineError, ErrorKind(exit_code=1, http_status=502)),
    (ModelNotReadyError, ErrorKind(exit_code=1, http_status=503)),
    (DatabaseError, ErrorKind(exit_code=1, http_status=503)),
)
KNOWN: tuple[type[BaseException], ...] = tuple(cls for cls, _ in _KINDS)
INTERRUPTED = ErrorKind(exit_code=130, http_status=499)


def classify(exc: BaseException) -> ErrorKind | None:
    """Exit code and HTTP status of a known failure; None for anything else (a bug)."""
    if isinstance(exc, KeyboardInterrupt):
        return INTERRUPTED
    for cls, kind in _KINDS:
        if isinstance(exc, cls):
            return kind
    return None
