"""The one place an engine is made: in-process vLLM, or a vLLM server when a URL is set.

The scripted engine (``serving.fake_engine``) is for unit tests, which build it themselves; this
factory never returns it, so the product never falls back to canned answers.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from serving.config import EngineSettings, data_dir
from serving.engine import Engine

ENGINE_LOG = "engine.log"
LOG_ROTATE_BYTES = 5_000_000

EngineKind = Literal["in_process", "server"]


def engine_kind(settings: EngineSettings) -> EngineKind:
    """``server`` when ``HIRING_ASSISTANT_ENGINE_URL`` is set, else the in-process engine."""
    return "server" if settings.engine_url else "in_process"


def describe(settings: EngineSettings) -> str:
    """One line for the terminal: which engine, which speculation."""
    if engine_kind(settings) == "server":
        return f"vLLM server at {settings.engine_url}"
    return f"vLLM in-process (speculation {settings.speculation.label})"


def open_engine(settings: EngineSettings, say: Callable[[str], None] | None = None) -> Engine:
    """Start (or connect to) the engine the settings name; raises EngineError with one line."""
    if engine_kind(settings) == "server":
        from serving.remote_engine import RemoteEngine

        if say:
            say(f"Using the vLLM server at {settings.engine_url}…")
        return RemoteEngine(settings)
    from serving.vllm_engine import VLLMEngine

    log = data_dir(settings) / ENGINE_LOG
    if say:
        say(f"Starting {describe(settings)}; this takes about a minute (its log: {log})…")
    with engine_output_to(log):
        return VLLMEngine(settings)


@contextmanager
def engine_output_to(log: Path) -> Iterator[None]:
    """Send what vLLM prints while it starts (warnings, loading bars) to ``log``, not the
    terminal. Its processes start meanwhile and keep writing there: the terminal shows the
    product's own progress and answers, and the log keeps vLLM's for when something fails."""
    log.parent.mkdir(parents=True, exist_ok=True)
    if log.exists() and log.stat().st_size > LOG_ROTATE_BYTES:
        log.replace(log.with_suffix(".log.1"))
    sys.stdout.flush()
    sys.stderr.flush()
    with log.open("ab") as sink:
        sink.write(f"\n== {time.strftime('%Y-%m-%d %H:%M:%S')} pid {os.getpid()}\n".encode())
        sink.flush()
        saved = [os.dup(1), os.dup(2)]
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, original in zip((1, 2), saved, strict=True):
                os.dup2(original, fd)
                os.close(original)
