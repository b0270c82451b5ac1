"""The model's answer: one assessment per requirement, dimension ratings, and a summary."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

Verdict = Literal["met", "partial", "not_met", "insufficient_evidence"]
VERDICTS: tuple[Verdict, ...] = ("met", "partial", "not_met", "insufficient_evidence")
# Verdicts allowed without a quote: a requirement cannot be met on no evidence.
UNSUPPORTED_VERDICTS: tuple[Verdict, ...] = ("not_met", "insufficient_evidence")
Rating = Literal[1, 2, 3, 4, 5]
RATED_DIMENSIONS = ("skills", "seniority", "domain_experience")

MAX_QUOTES = 2
# Free text is bounded while generating (the grammar enforces it): a small model otherwise runs
# on until max_tokens and the JSON is cut off. `maxLength` costs grammar compile time (about 2 s
# for a whole analysis schema here); counted-repetition patterns ({1,150}) would be cheaper but
# fail to compile in xgrammar 0.2.8 with vLLM's grammar cache, and unbounded sentence patterns
# let the model emit spaces until max_tokens (both seen here).
MAX_REASONING_CHARS = 150
MAX_SUMMARY_CHARS = 400


def _unique(quotes: list[str]) -> list[str]:
    """The same passage quoted twice says nothing more: keep it once."""
    return list(dict.fromkeys(quotes))


Quotes = Annotated[list[str], AfterValidator(_unique)]


class RequirementAssessment(BaseModel):
    model_config = ConfigDict(extra="forbid")

    requirement_id: str = Field(description="Id of the requirement assessed.")
    evidence: Quotes = Field(
        default_factory=list,
        max_length=MAX_QUOTES,
        description="Quotes copied verbatim from the candidate profile that bear on it.",
    )
    verdict: Verdict = Field(description="Whether the profile shows the requirement is met.")
    reasoning: str = Field(max_length=MAX_REASONING_CHARS, description="One short sentence.")


class DimensionRating(BaseModel):
    """A 1-5 rating of one dimension (skills, seniority, domain experience) with its evidence."""

    model_config = ConfigDict(extra="forbid")

    evidence: Quotes = Field(
        default_factory=list, max_length=MAX_QUOTES, description="Verbatim profile quotes."
    )
    rating: Rating = Field(description="1 = no match, 3 = adequate, 5 = exceeds the job's needs.")
    rationale: str = Field(max_length=MAX_REASONING_CHARS, description="One short sentence.")


class MatchAnalysis(BaseModel):
    """What the model returns; validated, then checked against the profile."""

    model_config = ConfigDict(extra="forbid")

    assessments: list[RequirementAssessment]
    skills: DimensionRating
    seniority: DimensionRating
    domain_experience: DimensionRating
    summary: str = Field(max_length=MAX_SUMMARY_CHARS, description="Up to three sentences.")

    def ratings(self) -> dict[str, DimensionRating]:
        return {name: getattr(self, name) for name in RATED_DIMENSIONS}
