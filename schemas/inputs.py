"""What the recruiter gives: a job with its requirements and a candidate profile."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Requirement(BaseModel):
    """One requirement of the job, assessed once per candidate."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Stable id such as R1, used to match assessments to requirements.")
    text: str = Field(min_length=1, description="The requirement as the job states it.")


class JobPosting(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str
    text: str = Field(min_length=1)
    requirements: list[Requirement] = Field(min_length=1)


class CandidateProfile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    text: str = Field(min_length=1)
