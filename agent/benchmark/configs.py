"""Engine configurations to compare: ``off``, ``ngram:k=5,min=2,max=5`` or ``suffix:k=16``,
optionally with a draft length by batch size (``batch=1-2:16/3-8:8/9-64:4``: vLLM's
``num_speculative_tokens_per_batch_size``), plus CPU options.

CPU serving options can follow either form: ``eager=0`` compiles the model graph (slower
start-up), ``bind=auto|nobind|all`` (or a CPU list such as ``bind=0-1``) sets the model's
OpenMP thread binding (the ``cpu_bind`` setting), ``dtype=float32|bfloat16`` the weights' and
activations' type, ``cache=0`` turns prefix caching off. Examples: ``off:eager=0``,
``ngram:k=5,min=2,max=5,dtype=float32``. Each speculative config is compared with the ``off``
config that has the same CPU options.

``server`` is the vLLM server at ``HIRING_ASSISTANT_ENGINE_URL`` as it was started (with the
configured speculation, as `hiring-assistant model serve` starts it); the other configs always
start an in-process engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from serving.config import EngineSettings, SpeculationConfig, parse_schedule
from serving.cpu import CPU_BIND_PATTERN

_SPEC_KEYS = {"k": "num_speculative_tokens", "min": "prompt_lookup_min", "max": "prompt_lookup_max"}
USAGE = (
    "use 'off', 'server', 'ngram:k=5,min=2,max=5' or 'suffix:k=16' (either with "
    "batch=LO-HI:K/...), optionally with eager=0|1, bind=all|auto|nobind|CPUS, "
    "dtype=float32|bfloat16, cache=0|1"
)
_DTYPES = {"float32", "bfloat16", "float16"}


@dataclass(frozen=True)
class BenchConfig:
    name: str
    speculation: SpeculationConfig
    engine: dict[str, Any] = field(default_factory=dict)  # EngineSettings overrides
    server: bool = False  # the vLLM server at the engine URL, not an in-process engine

    def settings(self, base: EngineSettings) -> EngineSettings:
        """The engine settings of this config: ``base`` with its overrides."""
        if self.server:
            if not base.engine_url:
                raise ValueError("config 'server' needs HIRING_ASSISTANT_ENGINE_URL")
            return base
        update = {"speculation": self.speculation, "engine_url": None, **self.engine}
        return base.model_copy(update=update)


def _cpu_option(key: str, raw: str, text: str, engine: dict[str, Any]) -> None:
    if key == "eager" and raw in {"0", "1"}:
        engine["enforce_eager"] = raw == "1"
    elif key == "cache" and raw in {"0", "1"}:
        engine["prefix_caching"] = raw == "1"
    elif key == "dtype" and raw in _DTYPES:
        engine["dtype"] = raw
    elif key == "bind" and re.match(CPU_BIND_PATTERN, raw):
        engine["cpu_bind"] = raw
    else:
        raise ValueError(f"bad setting {key}={raw!r} in {text!r}: {USAGE}")


def default_configs(settings: EngineSettings) -> tuple[str, ...]:
    """``off`` against what the product would use: the explicitly set speculation, else each
    profile's preset (once when both are the same); the shipped n-gram default where that is
    ``off`` too."""
    if "speculation" in settings.model_fields_set:
        chosen = [settings.speculation]
    else:
        chosen = [settings.profiles.interactive, settings.profiles.batch]
    labels = [(c if c.enabled else SpeculationConfig()).label for c in chosen]
    return ("off", *dict.fromkeys(labels))


def parse_config(text: str, configured: SpeculationConfig | None = None) -> BenchConfig:
    """Parse one ``--config`` value; ValueError with a one-line message when malformed.

    ``configured`` is the speculation a ``server`` config runs with (the settings')."""
    text = text.strip()
    if text == "server":
        return BenchConfig("server", configured or SpeculationConfig(), server=True)
    method, _, params = text.partition(":")
    if method not in {"off", "ngram", "suffix"}:
        raise ValueError(f"unknown config {text!r}: {USAGE}")
    keys = {"ngram": _SPEC_KEYS, "suffix": {"k": _SPEC_KEYS["k"]}}.get(method, {})
    values: dict[str, Any] = {}
    engine: dict[str, Any] = {}
    extras: list[str] = []
    for part in filter(None, params.split(",")):
        key, _, raw = part.partition("=")
        if key in keys:
            if not raw.isdigit():
                raise ValueError(f"bad setting {part!r} in {text!r}: use k=N, min=N, max=N")
            values[keys[key]] = int(raw)
        elif key == "batch" and method != "off":
            values["schedule"] = parse_schedule(raw)
        elif key in {"eager", "bind", "dtype", "cache"}:
            _cpu_option(key, raw, text, engine)
            extras.append(part)
        else:
            raise ValueError(f"bad setting {part!r} in {text!r}: {USAGE}")
    try:
        spec = SpeculationConfig(method=method, **values)
    except ValidationError as exc:
        raise ValueError(f"invalid config {text!r}: {exc.errors()[0]['msg']}") from None
    name = ",".join([spec.label, *extras]) if spec.enabled else ":".join(["off", ",".join(extras)])
    return BenchConfig(name.rstrip(":"), spec, engine)
