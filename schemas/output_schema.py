"""The JSON schema sent to vLLM, built per request.

One assessment per requirement, in order, with the id fixed (``const``); evidence quotes restricted
to an ``enum`` of the profile passages allowed for that requirement, so they are verbatim by
construction (and verbatim copies are exactly what n-gram drafting accepts).
"""

from __future__ import annotations

from typing import Any

from schemas.analysis import MAX_QUOTES, MAX_REASONING_CHARS, MAX_SUMMARY_CHARS, VERDICTS
from schemas.inputs import Requirement


def _assessment_schema(requirement: Requirement, quotes: list[str]) -> dict[str, Any]:
    evidence: dict[str, Any] = {"type": "array", "maxItems": 0}
    if quotes:
        evidence = {
            "type": "array",
            "items": {"enum": quotes},
            "maxItems": min(MAX_QUOTES, len(quotes)),
        }
    return {
        "type": "object",
        "properties": {
            "requirement_id": {"const": requirement.id},
            "evidence": evidence,
            "verdict": {"enum": list(VERDICTS)},
            "reasoning": {"type": "string", "maxLength": MAX_REASONING_CHARS},
        },
        "required": ["requirement_id", "evidence", "verdict", "reasoning"],
        "additionalProperties": False,
    }


def build_analysis_schema(
    requirements: list[Requirement], allowed_quotes: dict[str, list[str]]
) -> dict[str, Any]:
    """Schema of :class:`schemas.analysis.MatchAnalysis`, narrowed to this job and profile."""
    items = [_assessment_schema(r, allowed_quotes.get(r.id, [])) for r in requirements]
    return {
        "type": "object",
        "properties": {
            "assessments": {
                "type": "array",
                "prefixItems": items,
                "items": False,
                "minItems": len(items),
                "maxItems": len(items),
            },
            "summary": {"type": "string", "maxLength": MAX_SUMMARY_CHARS},
        },
        "required": ["assessments", "summary"],
        "additionalProperties": False,
    }
