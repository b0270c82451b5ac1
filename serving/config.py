"""Engine settings: one pydantic-settings class behind a cached getter.

Every value can be set through the environment with the prefix ``HIRING_ASSISTANT_``;
nested speculation fields use ``__`` (e.g. ``HIRING_ASSISTANT_SPECULATION__METHOD=off``).
The same lines in the user's settings file (``settings_file()``) apply where the environment
is silent; `hiring-assistant bench --autotune --write` stores its pick there.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from platformdirs import user_config_dir, user_data_dir
from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from serving.cpu import CPU_BIND_PATTERN

Schedule = tuple[tuple[int, int, int], ...]


class SpeculationConfig(BaseModel):
    """Speculative decoding: n-gram (prompt lookup), suffix decoding, or ``off``.

    ``schedule`` is vLLM's ``num_speculative_tokens_per_batch_size``: ``(lo, hi, k)`` rows that
    draft ``k`` tokens while ``lo`` to ``hi`` requests run (long drafts for one recruiter, short
    ones under load); ``num_speculative_tokens`` stays the longest draft."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Literal["ngram", "suffix", "off"] = "ngram"
    num_speculative_tokens: int = Field(
        16, ge=1, le=32, description="Draft tokens per step (fastest measured, docs/benchmarks.md)."
    )
    prompt_lookup_max: int = Field(5, ge=1, le=32, description="Longest n-gram matched.")
    prompt_lookup_min: int = Field(2, ge=1, le=32, description="Shortest n-gram matched.")
    schedule: Schedule | None = Field(
        None, description="Draft length by batch size: (lo, hi, k) rows, e.g. ((1, 2, 16), ...)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> SpeculationConfig:
        if self.prompt_lookup_min > self.prompt_lookup_max:
            raise ValueError(
                f"prompt_lookup_min ({self.prompt_lookup_min}) must not exceed "
                f"prompt_lookup_max ({self.prompt_lookup_max})"
            )
        previous = 0
        for lo, hi, k in self.schedule or ():
            if lo != previous + 1 or hi < lo:
                raise ValueError(
                    f"schedule rows must cover batch sizes from 1 up without gaps, got {lo}-{hi}"
                    + (f" after {previous}" if previous else "")
                )
            if not 0 <= k <= self.num_speculative_tokens:
                raise ValueError(
                    f"schedule draft length {k} must be 0..{self.num_speculative_tokens} "
                    "(num_speculative_tokens; 0 drafts nothing)"
                )
            previous = hi
        return self

    @property
    def enabled(self) -> bool:
        return self.method != "off"

    def to_vllm(self) -> dict[str, object] | None:
        """The ``speculative_config`` argument vLLM expects, or None when off."""
        if not self.enabled:
            return None
        out: dict[str, object] = {
            "method": self.method,
            "num_speculative_tokens": self.num_speculative_tokens,
        }
        if self.method == "ngram":
            out["prompt_lookup_max"] = self.prompt_lookup_max
            out["prompt_lookup_min"] = self.prompt_lookup_min
        if self.schedule:
            out["num_speculative_tokens_per_batch_size"] = [list(row) for row in self.schedule]
        return out

    def described(self) -> dict[str, object]:
        """Method and settings for reports and results; the settings are None when off."""
        on = self.enabled
        lookup = self.method == "ngram"
        return {
            "method": self.method,
            "num_speculative_tokens": self.num_speculative_tokens if on else None,
            "prompt_lookup_max": self.prompt_lookup_max if lookup else None,
            "prompt_lookup_min": self.prompt_lookup_min if lookup else None,
            "schedule": [list(row) for row in self.schedule] if on and self.schedule else None,
        }

    @property
    def label(self) -> str:
        """``off``, ``suffix:k=16`` or ``ngram:k=16,min=2,max=5``, then ``,batch=1-2:16/3-64:4``."""
        if not self.enabled:
            return "off"
        text = f"{self.method}:k={self.num_speculative_tokens}"
        if self.method == "ngram":
            text += f",min={self.prompt_lookup_min},max={self.prompt_lookup_max}"
        if self.schedule:
            text += ",batch=" + "/".join(f"{lo}-{hi}:{k}" for lo, hi, k in self.schedule)
        return text


def parse_schedule(text: str) -> Schedule:
    """``1-2:16/3-8:8/9-64:4`` → ((1, 2, 16), (3, 8, 8), (9, 64, 4)); ValueError when malformed."""
    rows = []
    for part in text.split("/"):
        span, _, k = part.partition(":")
        lo, _, hi = span.partition("-")
        if not (lo.isdigit() and hi.isdigit() and k.isdigit()):
            raise ValueError(f"bad schedule row {part!r}: use LO-HI:K rows joined by '/'")
        rows.append((int(lo), int(hi), int(k)))
    return tuple(rows)


ProfileName = Literal["interactive", "batch"]
PROFILE_DOORS = {
    "interactive": "analyze, chat, the Python API's single analyses",
    "batch": "batch runs and the HTTP API server",
}


class Profiles(BaseModel):
    """Named engine presets a front door picks: latency first for one recruiter, throughput
    first for many analyses at once (measured: docs/benchmarks.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    interactive: SpeculationConfig = SpeculationConfig()
    batch: SpeculationConfig = SpeculationConfig()

    def get(self, name: ProfileName) -> SpeculationConfig:
        return self.interactive if name == "interactive" else self.batch


class EngineSettings(BaseSettings):
    """How the local vLLM engine is started and how it generates."""

    model_config = SettingsConfigDict(
        env_prefix="HIRING_ASSISTANT_",
        env_nested_delimiter="__",
        extra="ignore",
        frozen=True,
    )

    model: str | None = Field(
        None,
        description="Model path or name vLLM can load; default: the embedded SmolLM2-135M.",
    )
    data_dir: Path | None = Field(
        None, description="Where the embedded model is prepared; default: the user data dir."
    )
    dtype: Literal["auto", "bfloat16", "float16", "float32"] = Field(
        "auto",
        description="auto: float32 on CPUs, where bfloat16 ties break speculation's losslessness.",
    )
    max_model_len: int = Field(8192, ge=256, description="Context length (prompt + output).")
    max_tokens: int = Field(
        1536,
        ge=16,
        description="Output tokens at most for a request without its own budget (an analysis "
        "asks for room for the longest answer its schema admits).",
    )
    kv_cache_gib: int = Field(
        2, ge=1, description="CPU memory for the KV cache, in GiB (VLLM_CPU_KVCACHE_SPACE)."
    )
    compact_json: bool = Field(
        True, description="Forbid free whitespace in structured output (fewer tokens)."
    )
    enforce_eager: bool = Field(True, description="Skip graph compilation (fast start-up).")
    cpu_bind: str = Field(
        "all",
        pattern=CPU_BIND_PATTERN,
        description="CPU build: the model's OpenMP threads on every CPU (all), vLLM's auto "
        "(keeps a core for its scheduler), nobind, or a CPU list such as 0-3.",
    )
    prefix_caching: bool = Field(
        True,
        description="Reuse the prefill of shared prompt prefixes (faster; greedy output may "
        "then differ at near-ties between a request's first and later runs).",
    )
    max_num_seqs: int = Field(64, ge=1, description="Requests batched together at most.")
    engine_url: str | None = Field(
        None,
        pattern=r"^https?://",
        description="A vLLM server's OpenAI-compatible base URL (http://host:port/v1): every "
        "command then uses that server instead of starting vLLM in-process.",
    )
    engine_api_key: SecretStr | None = Field(
        None, description="Bearer key for the vLLM server (its --api-key), if it asks for one."
    )
    engine_timeout_s: float = Field(
        600.0, gt=0, description="Longest wait for one answer from the vLLM server, in seconds."
    )
    seed: int = 0
    profiles: Profiles = Profiles()
    speculation: SpeculationConfig = Field(
        SpeculationConfig(),
        description="Set explicitly (environment, settings file, a command's options), it "
        "applies to every front door in place of their profiles.",
    )

    def for_profile(self, name: ProfileName) -> EngineSettings:
        """The settings a front door runs with: its profile's speculation, unless speculation
        was set explicitly, which then wins everywhere."""
        if "speculation" in self.model_fields_set:
            return self
        return self.model_copy(update={"speculation": self.profiles.get(name)})


SPECULATION_PREFIX = "HIRING_ASSISTANT_SPECULATION__"


def settings_file() -> Path:
    """``HIRING_ASSISTANT_SETTINGS_FILE``, else ``settings.env`` in the user config dir."""
    explicit = os.environ.get("HIRING_ASSISTANT_SETTINGS_FILE")
    if explicit:
        return Path(explicit).expanduser()
    return Path(user_config_dir("hiring-assistant", appauthor=False)) / "settings.env"


def data_dir(settings: EngineSettings) -> Path:
    """Where the embedded model and the default SQLite database live."""
    return settings.data_dir or Path(user_data_dir("hiring-assistant", appauthor=False))


@lru_cache(maxsize=1)
def get_settings() -> EngineSettings:
    """The process-wide settings: the environment, then the settings file, then defaults."""
    return EngineSettings(_env_file=settings_file())  # type: ignore[call-arg]


def write_speculation(
    spec: SpeculationConfig, path: Path | None = None, *, profile: ProfileName | None = None
) -> Path:
    """Store ``spec`` in the settings file, keeping its other lines; returns the file.

    With ``profile``, it becomes that profile's preset (and any explicit speculation there,
    which would win over it, goes); without, the explicit speculation every front door uses."""
    target = path or settings_file()
    prefix = f"HIRING_ASSISTANT_PROFILES__{profile.upper()}__" if profile else SPECULATION_PREFIX
    dropped = (prefix, SPECULATION_PREFIX)
    kept = []
    if target.exists():
        kept = [
            line
            for line in target.read_text().splitlines()
            if not line.strip().upper().startswith(dropped)
        ]
    values = {
        "METHOD": spec.method,
        "NUM_SPECULATIVE_TOKENS": spec.num_speculative_tokens,
        "PROMPT_LOOKUP_MIN": spec.prompt_lookup_min,
        "PROMPT_LOOKUP_MAX": spec.prompt_lookup_max,
    }
    if spec.schedule:
        values["SCHEDULE"] = json.dumps([list(row) for row in spec.schedule])
    lines = kept + [f"{prefix}{key}={value}" for key, value in values.items()]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines) + "\n")
    return target
