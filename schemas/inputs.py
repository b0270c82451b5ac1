"""What the recruiter gives: a job with its requirements and a candidate profile."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

RequirementKind = Literal["must_have", "nice_to_have"]
Dimension = Literal["skills", "seniority", "domain_experience", "education", "location", "other"]
RequirementsSource = Literal["given", "sections", "prose"]


class Requirement(BaseModel):
    """One requirement of the job, assessed once per candidate."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Stable id such as R1, used to match assessments to requirements.")
    text: str = Field(min_length=1, description="The requirement as the job states it.")
    kind: RequirementKind = Field("must_have", description="Must-have or nice-to-have.")
    dimension: Dimension = Field("skills", description="What the requirement is about.")
    weight: float = Field(1.0, gt=0, le=10, description="Relative importance within its kind.")


class JobPosting(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str
    company: str | None = None
    location: str | None = None
    text: str = Field(min_length=1, description="The posting as the recruiter gave it.")
    requirements: list[Requirement] = Field(min_length=1)
    requirements_source: RequirementsSource = Field(
        "given",
        description="given: listed by the caller; sections: items under the job's headings; "
        "prose: a stand-in from a prose job's sentences, which the model re-picks.",
    )


class CandidateProfile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    display_name: str | None = Field(
        None, description="Shown to the recruiter, never to the model."
    )
    text: str = Field(min_length=1, description="The profile as given (text or rendered JSON).")
    structured: dict[str, Any] | None = Field(None, description="The JSON Resume, when given.")
