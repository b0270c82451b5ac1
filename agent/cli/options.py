"""Options several commands share: speculation overrides and the engine they start."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from agent.cli.output import say
from serving.config import EngineSettings, SpeculationConfig
from serving.engine import Engine


def with_speculation(settings: EngineSettings, **overrides: Any) -> EngineSettings:
    """The settings with speculation fields overridden (None leaves a field as it is)."""
    from agent.errors import InputError

    changes = {k: v for k, v in overrides.items() if v is not None}
    try:
        spec = SpeculationConfig(**{**settings.speculation.model_dump(), **changes})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"invalid speculation setting {where}: {first['msg']}".strip()) from None
    return settings.model_copy(update={"speculation": spec})


def start_engine(settings: EngineSettings) -> Engine:
    """The engine the settings name (in-process, or the vLLM server at the URL), with a word."""
    from serving.factory import open_engine

    return open_engine(settings, say=say)
