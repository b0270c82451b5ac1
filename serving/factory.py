"""The one place an engine is made: in-process vLLM, or a vLLM server when a URL is set.

The scripted engine (``serving.fake_engine``) is for unit tests, which build it themselves; this
factory never returns it, so the product never falls back to canned answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from serving.config import EngineSettings
from serving.engine import Engine

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

    if say:
        say(f"Starting {describe(settings)}; this takes about a minute…")
    return VLLMEngine(settings)
