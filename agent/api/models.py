"""Request and response bodies of the HTTP API (what ``/docs`` shows)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, model_validator

from agent.batch.sources import CandidateSet
from agent.errors import InputError
from agent.ingest.coerce import data_id, text_id
from agent.ingest.inputs import (
    MAX_GIVEN_REQUIREMENTS,
    candidate_from_resume,
    candidate_from_text,
    given_requirements,
    job_from_json,
    job_from_text,
)
from schemas.inputs import CandidateProfile, JobPosting, Requirement

MAX_BATCH_CANDIDATES = 1000
MAX_ID = 2**63 - 1  # the databases' largest integer key
RowId = Annotated[int, Path(ge=1, le=MAX_ID)]
CANDIDATE_ID = r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}$"
WebhookEvent = Literal["analysis.finished", "analysis.failed", "batch.finished"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _one_of(model: BaseModel, *names: str) -> None:
    given = [name for name in names if getattr(model, name) is not None]
    if len(given) != 1:
        raise ValueError(f"give exactly one of {', '.join(repr(n) for n in names)}")


class JobIn(_Strict):
    """A job: its text (or Markdown), or a JSON job description."""

    text: str | None = Field(None, min_length=1, max_length=200_000)
    json_: dict[str, Any] | None = Field(None, alias="json")

    @model_validator(mode="after")
    def _exactly_one(self) -> JobIn:
        _one_of(self, "text", "json_")
        return self

    def posting(self) -> JobPosting:
        if self.json_ is not None:
            return job_from_json(self.json_, where="request job.json")
        return job_from_text(self.text or "", where="request job.text")


class CandidateIn(_Strict):
    """A candidate: an id of yours, and the profile's text or a JSON Resume."""

    id: str | None = Field(None, pattern=CANDIDATE_ID, description="Default: a hash of the text.")
    text: str | None = Field(None, min_length=1, max_length=500_000)
    json_resume: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> CandidateIn:
        _one_of(self, "text", "json_resume")
        return self

    def profile(self, where: str = "request candidate") -> CandidateProfile:
        if self.json_resume is not None:
            return candidate_from_resume(
                self.json_resume,
                candidate_id=self.id or data_id(self.json_resume),
                where=f"{where}.json_resume",
            )
        text = self.text or ""
        return candidate_from_text(text, candidate_id=self.id or text_id(text), where=where)


def candidate_set_of(items: list[CandidateIn]) -> CandidateSet:
    """The request's candidates as a batch or chat takes them: one that cannot be read is
    listed as failed under its id, a repeat of an earlier text as a duplicate."""
    found = CandidateSet()
    for index, item in enumerate(items):
        where = f"candidates[{index}]"
        try:
            found.add(item.profile(where), where)
        except InputError as exc:
            found.fail(item.id or where, str(exc))
    return found


class RequirementIn(_Strict):
    text: str = Field(min_length=1, max_length=2000)
    kind: Literal["must_have", "nice_to_have"] | None = None
    weight: float | None = Field(None, gt=0, le=10)


def requirements_of(items: list[RequirementIn] | None) -> list[Requirement] | None:
    if not items:
        return None
    return given_requirements(
        [item.model_dump(exclude_none=True) for item in items], where="request requirements"
    )


class AnalysisRequest(_Strict):
    job: JobIn
    candidate: CandidateIn
    requirements: list[RequirementIn] | None = Field(
        None, max_length=MAX_GIVEN_REQUIREMENTS, description="Your own, instead of the job's."
    )


class BatchRequest(_Strict):
    job: JobIn
    candidates: list[CandidateIn] = Field(min_length=1, max_length=MAX_BATCH_CANDIDATES)
    requirements: list[RequirementIn] | None = Field(None, max_length=MAX_GIVEN_REQUIREMENTS)
    name: str | None = Field(None, max_length=200)


class TaskOut(BaseModel):
    """An analysis that is queued, running, failed, or done (then ``analysis_id`` is set)."""

    id: str
    status: Literal["queued", "running", "done", "failed"]
    location: str
    analysis_id: int | None = None
    error: str | None = None


class BatchOut(BaseModel):
    id: int
    name: str | None
    status: str
    counts: dict[str, int]
    total: int
    ended: int
    shortlist: str
    worker: Literal["running", "idle"]


class WebhookIn(_Strict):
    url: str = Field(pattern=r"^https?://[^\s]+$", max_length=2000)
    events: list[WebhookEvent] = Field(min_length=1)
    secret: str | None = Field(
        None, min_length=16, max_length=200, description="Default: one is made and shown once."
    )


class WebhookOut(BaseModel):
    id: int
    url: str
    events: list[str]
    secret: str | None = Field(None, description="Shown only in the answer that made it.")


class ErrorOut(BaseModel):
    error: str
    detail: list[dict[str, Any]] | None = None
