"""The final match report: the validated analysis plus what code computes and records."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.analysis import MatchAnalysis
from schemas.inputs import Requirement

GreenhouseRecommendation = Literal["strong_yes", "yes", "no", "definitely_not", "no_decision"]
LeverRecommendation = Literal["strong_hire", "hire", "no_hire", "strong_no_hire"]


class ScoreBreakdown(BaseModel):
    """How the score was computed from the verdicts (same verdicts, same score)."""

    model_config = ConfigDict(extra="forbid")

    score: int = Field(ge=0, le=100)
    uncapped_score: int = Field(ge=0, le=100)
    cap: int | None = Field(
        None,
        description="When a must-have failed: the score is the uncapped score scaled into 0-cap.",
    )
    cap_reason: str | None = None
    must_have_met: int
    must_have_total: int
    nice_to_have_met: int
    nice_to_have_total: int
    counts: str = Field(description='E.g. "5/5 required, 2/3 nice-to-have".')


class Recommendation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    greenhouse: GreenhouseRecommendation
    lever: LeverRecommendation | None = Field(
        None, description="Lever's 4-point scale; None when there is no decision to map."
    )
    reason: str
    review: str = Field(
        "Decision support for a recruiter's review, not a hiring decision: nothing rejects a "
        "candidate automatically.",
        description="What the recommendation is for (every surface shows it).",
    )


class Provenance(BaseModel):
    """What produced the report, so it can be reproduced and audited."""

    model_config = ConfigDict(extra="forbid")

    engine: str
    model: str
    speculation: dict[str, Any]
    engine_settings: dict[str, Any] = Field(default_factory=dict)
    prompt_version: str = Field(description="Hash of every prompt template.")
    rubric_version: str | None = Field(None, description="Hash of the scoring constants.")
    job_hash: str
    candidate_hash: str
    requirements_hash: str
    attempts: int
    created_at: str


class MatchReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    job: dict[str, str | None] = Field(description="title, company, location")
    candidate: dict[str, str | None] = Field(description="id and display name")
    requirements: list[Requirement]
    analysis: MatchAnalysis
    score: int = Field(ge=0, le=100)
    breakdown: ScoreBreakdown
    recommendation: Recommendation
    facts: dict[str, Any] = Field(default_factory=dict, description="Computed by code.")
    hidden_text: list[str] = Field(
        default_factory=list, description="Hidden content found in the profile and ignored."
    )
    blinded: dict[str, int] = Field(
        default_factory=dict,
        description="What was replaced by placeholders before the model read the profile "
        "(kind -> count; never the values): name, email, phone, address, link, handle, photo, "
        "date_of_birth, age, gender, pronoun, marital_status, nationality, protected_trait.",
    )
    flags: list[str] = Field(
        default_factory=list,
        description="Attempts to steer the screener found in the profile and kept from the "
        "model: instructions, role_tags, fake_assessment, lookalike_letters, hidden_text, "
        "hidden_instructions.",
    )
    text_origin: dict[str, Literal["model", "composed"]] = Field(
        default_factory=dict,
        description="Who wrote each free-text field ('R1.reasoning', 'skills.rationale', "
        "'summary'): the model, or code from the verdicts, quotes and facts where the model's "
        "text was junk.",
    )
    metrics: dict[str, Any]
    provenance: Provenance
