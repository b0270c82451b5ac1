"""The HTTP service's settings: environment variables ``HIRING_ASSISTANT_*``."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class ApiSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HIRING_ASSISTANT_", extra="ignore", frozen=True)

    api_keys: SecretStr = Field(
        SecretStr(""),
        description="Comma-separated keys accepted besides those made with `apikey create` "
        "(for bootstrapping and tests).",
    )
    max_body_bytes: int = Field(2_000_000, ge=1024, description="Largest request body.")
    queue_size: int = Field(
        64, ge=1, description="Analyses waiting or running at most; more are refused with 429."
    )
    workers: int = Field(8, ge=1, le=64, description="Analyses in flight at once.")
    wait_timeout_s: float = Field(
        900.0, gt=0, description="Longest a ?wait=true request waits before answering 202."
    )
    ats_base_url: str | None = Field(
        None,
        pattern=r"^https?://",
        description="The ATS's API base URL: job posts and resumes are fetched from there only.",
    )
    ats_api_key: SecretStr | None = Field(None, description="Key for the ATS's API (Basic auth).")
    greenhouse_secret: SecretStr | None = Field(
        None, description="The secret Greenhouse signs its webhooks with."
    )
    webhook_attempts: int = Field(5, ge=1, le=20, description="Tries per webhook delivery.")
    webhook_backoff_s: float = Field(
        2.0, gt=0, description="First wait between delivery tries; doubles each time."
    )
    webhook_timeout_s: float = Field(10.0, gt=0, description="Timeout of one delivery try.")

    def bootstrap_keys(self) -> tuple[str, ...]:
        return tuple(k.strip() for k in self.api_keys.get_secret_value().split(",") if k.strip())


@lru_cache(maxsize=1)
def get_api_settings() -> ApiSettings:
    return ApiSettings()
