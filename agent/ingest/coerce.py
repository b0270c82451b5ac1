"""Whatever an integrator hands over, as a JobPosting or a CandidateProfile.

A ``Path`` is a file (text, Markdown, JSON, PDF, Word); a ``str`` is the text itself; a mapping
is JSON (a job description, or a JSON Resume); a ready JobPosting or CandidateProfile passes
through.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent.errors import InputError
from agent.ingest.files import load_candidate, load_job
from agent.ingest.inputs import (
    candidate_from_resume,
    candidate_from_text,
    job_from_json,
    job_from_text,
)
from agent.rubric.text_tools import content_hash
from schemas.inputs import CandidateProfile, JobPosting

JobInput = JobPosting | Path | str | Mapping[str, Any]
CandidateInput = CandidateProfile | Path | str | Mapping[str, Any]


def as_job(value: JobInput) -> JobPosting:
    if isinstance(value, JobPosting):
        return value
    if isinstance(value, Path):
        return load_job(value)
    if isinstance(value, str):
        return job_from_text(value, where="job text")
    if isinstance(value, Mapping):
        return job_from_json(dict(value), where="job JSON")
    raise InputError(f"a job is text, a Path, a JSON object or a JobPosting, not {type(value)}")


def text_id(text: str) -> str:
    """An id for a profile given without one: stable for the same text."""
    return "cand-" + content_hash(text)[:12]


def data_id(data: Mapping[str, Any]) -> str:
    """An id for a JSON Resume given without one: stable for the same document."""
    return text_id(json.dumps(data, sort_keys=True, default=str))


def as_candidate(value: CandidateInput, candidate_id: str | None = None) -> CandidateProfile:
    """The profile; ``candidate_id`` names it (else the file's name, or a hash of the text)."""
    if isinstance(value, CandidateProfile):
        profile = value
    elif isinstance(value, Path):
        profile = load_candidate(value)
    elif isinstance(value, str):
        profile = candidate_from_text(
            value, candidate_id=candidate_id or text_id(value), where="candidate text"
        )
    elif isinstance(value, Mapping):
        data = dict(value)
        profile = candidate_from_resume(
            data, candidate_id=candidate_id or data_id(data), where="JSON Resume"
        )
    else:
        raise InputError(
            "a candidate is text, a Path, a JSON Resume object or a CandidateProfile, "
            f"not {type(value)}"
        )
    if candidate_id and profile.id != candidate_id:
        profile = profile.model_copy(update={"id": candidate_id})
    return profile
