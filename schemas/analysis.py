"""The model's answer: one assessment per requirement, with quoted evidence, and a summary."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Verdict = Literal["met", "partial", "not_met", "insufficient_evidence"]
VERDICTS: tuple[Verdict, ...] = ("met", "partial", "not_met", "insufficient_evidence")

MAX_QUOTES = 2
MAX_REASONING_CHARS = 200
MAX_SUMMARY_CHARS = 400


class RequirementAssessment(BaseModel):
    model_config = ConfigDict(extra="forbid")

    requirement_id: str = Field(description="Id of the requirement assessed.")
    evidence: list[str] = Field(
        default_factory=list,
        max_length=MAX_QUOTES,
        description="Quotes copied verbatim from the candidate profile that bear on it.",
    )
    verdict: Verdict = Field(description="Whether the profile shows the requirement is met.")
    reasoning: str = Field(max_length=MAX_REASONING_CHARS, description="One short sentence.")


class MatchAnalysis(BaseModel):
    """What the model returns; validated, then checked against the profile."""

    model_config = ConfigDict(extra="forbid")

    assessments: list[RequirementAssessment]
    summary: str = Field(max_length=MAX_SUMMARY_CHARS, description="Two or three sentences.")
