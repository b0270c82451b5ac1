"""Shared fixtures: paths to the sample data that ships with the project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"

# Tests never read the user's own settings file (`bench --autotune --write` may have made one).
os.environ["HIRING_ASSISTANT_SETTINGS_FILE"] = str(ROOT / "tests" / "no-such-settings.env")


def job_path(job_id: str) -> Path:
    return SAMPLES / "jobs" / f"{job_id}.md"


def candidate_path(candidate_id: str) -> Path:
    return SAMPLES / "candidates" / f"{candidate_id}.md"


@pytest.fixture
def django_job_path() -> Path:
    return job_path("job_008")


@pytest.fixture
def django_candidate_path() -> Path:
    return candidate_path("cand_033")
