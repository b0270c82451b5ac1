"""Engine configurations to compare: ``off`` or ``ngram:k=5,min=2,max=5``."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from serving.config import SpeculationConfig

DEFAULT_CONFIGS = ("off", "ngram:k=5,min=2,max=5")
_KEYS = {"k": "num_speculative_tokens", "min": "prompt_lookup_min", "max": "prompt_lookup_max"}


@dataclass(frozen=True)
class BenchConfig:
    name: str
    speculation: SpeculationConfig


def parse_config(text: str) -> BenchConfig:
    """Parse one ``--config`` value; ValueError with a one-line message when malformed."""
    text = text.strip()
    if text == "off":
        return BenchConfig("off", SpeculationConfig(method="off"))
    method, _, params = text.partition(":")
    if method != "ngram":
        raise ValueError(f"unknown config {text!r}: use 'off' or 'ngram:k=5,min=2,max=5'")
    values: dict[str, int] = {}
    for part in filter(None, params.split(",")):
        key, _, raw = part.partition("=")
        if key not in _KEYS or not raw.isdigit():
            raise ValueError(f"bad setting {part!r} in {text!r}: use k=N, min=N, max=N")
        values[_KEYS[key]] = int(raw)
    try:
        spec = SpeculationConfig(method="ngram", **values)
    except ValidationError as exc:
        raise ValueError(f"invalid config {text!r}: {exc.errors()[0]['msg']}") from None
    return BenchConfig(spec.label, spec)
