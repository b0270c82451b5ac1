"""Engine settings: one pydantic-settings class behind a cached getter.

Every value can be set through the environment with the prefix ``HIRING_ASSISTANT_``;
nested speculation fields use ``__`` (e.g. ``HIRING_ASSISTANT_SPECULATION__METHOD=off``).
The same lines in the user's settings file (``settings_file()``) apply where the environment
is silent; `hiring-assistant bench --autotune --write` stores its pick there.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from platformdirs import user_config_dir, user_data_dir
from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from serving.cpu import CPU_BIND_PATTERN


class SpeculationConfig(BaseModel):
    """N-gram (prompt-lookup) speculative decoding, or ``off``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Literal["ngram", "off"] = "ngram"
    num_speculative_tokens: int = Field(
        16, ge=1, le=32, description="Draft tokens per step (fastest measured, docs/benchmarks.md)."
    )
    prompt_lookup_max: int = Field(5, ge=1, le=32, description="Longest n-gram matched.")
    prompt_lookup_min: int = Field(2, ge=1, le=32, description="Shortest n-gram matched.")

    @model_validator(mode="after")
    def _min_not_above_max(self) -> SpeculationConfig:
        if self.prompt_lookup_min > self.prompt_lookup_max:
            raise ValueError(
                f"prompt_lookup_min ({self.prompt_lookup_min}) must not exceed "
                f"prompt_lookup_max ({self.prompt_lookup_max})"
            )
        return self

    @property
    def enabled(self) -> bool:
        return self.method != "off"

    def to_vllm(self) -> dict[str, object] | None:
        """The ``speculative_config`` argument vLLM expects, or None when off."""
        if not self.enabled:
            return None
        return {
            "method": self.method,
            "num_speculative_tokens": self.num_speculative_tokens,
            "prompt_lookup_max": self.prompt_lookup_max,
            "prompt_lookup_min": self.prompt_lookup_min,
        }

    def described(self) -> dict[str, object]:
        """Method and settings for reports and results; the settings are None when off."""
        on = self.enabled
        return {
            "method": self.method,
            "num_speculative_tokens": self.num_speculative_tokens if on else None,
            "prompt_lookup_max": self.prompt_lookup_max if on else None,
            "prompt_lookup_min": self.prompt_lookup_min if on else None,
        }

    @property
    def label(self) -> str:
        if not self.enabled:
            return "off"
        return (
            f"ngram:k={self.num_speculative_tokens},"
            f"min={self.prompt_lookup_min},max={self.prompt_lookup_max}"
        )


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
    speculation: SpeculationConfig = SpeculationConfig()


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


def write_speculation(spec: SpeculationConfig, path: Path | None = None) -> Path:
    """Store ``spec`` in the settings file, keeping its other lines; returns the file."""
    target = path or settings_file()
    kept = []
    if target.exists():
        kept = [
            line
            for line in target.read_text().splitlines()
            if not line.strip().upper().startswith(SPECULATION_PREFIX)
        ]
    values = {
        "METHOD": spec.method,
        "NUM_SPECULATIVE_TOKENS": spec.num_speculative_tokens,
        "PROMPT_LOOKUP_MIN": spec.prompt_lookup_min,
        "PROMPT_LOOKUP_MAX": spec.prompt_lookup_max,
    }
    lines = kept + [f"{SPECULATION_PREFIX}{key}={value}" for key, value in values.items()]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines) + "\n")
    return target
