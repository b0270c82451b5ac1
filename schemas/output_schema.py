"""The JSON schema sent to vLLM, built per request.

One assessment per requirement, in order, with the id fixed (``const``); evidence quotes restricted
to an ``enum`` of the profile passages allowed for that requirement, so they are verbatim by
construction (and verbatim copies are exactly what n-gram drafting accepts).

Free-text strings carry ``maxLength`` (see schemas.analysis for why not patterns).
"""

from __future__ import annotations

import json
from typing import Any

from schemas.analysis import (
    MAX_QUOTES,
    MAX_REASONING_CHARS,
    MAX_SUMMARY_CHARS,
    RATED_DIMENSIONS,
    UNSUPPORTED_VERDICTS,
    VERDICTS,
)
from schemas.inputs import Requirement


def _assessment_variant(
    requirement_id: str, evidence: dict[str, Any], verdicts: tuple[str, ...]
) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "requirement_id": {"const": requirement_id},
            "evidence": evidence,
            "verdict": {"enum": list(verdicts)},
            "reasoning": {"type": "string", "maxLength": MAX_REASONING_CHARS},
        },
        "required": ["requirement_id", "evidence", "verdict", "reasoning"],
        "additionalProperties": False,
    }


def _assessment_schema(
    requirement: Requirement, quotes: list[str], verdicts: tuple[str, ...] = VERDICTS
) -> dict[str, Any]:
    """Quotes first, then the verdict.

    When the profile has passages related to the requirement, at least one must be quoted (the
    model cannot skip the evidence); when it has none, the verdict cannot be met or partial.
    """
    if not quotes:
        return _assessment_variant(
            requirement.id, {"type": "array", "maxItems": 0}, UNSUPPORTED_VERDICTS
        )
    evidence = {
        "type": "array",
        "items": {"enum": quotes},
        "minItems": 1,
        "maxItems": min(MAX_QUOTES, len(quotes)),
    }
    return _assessment_variant(requirement.id, evidence, verdicts)


RATINGS = (1, 2, 3, 4, 5)


def _rating_schema(quotes: list[str], ratings: tuple[int, ...] = RATINGS) -> dict[str, Any]:
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
            "evidence": evidence,
            "rating": {"enum": list(ratings)},
            "rationale": {"type": "string", "maxLength": MAX_REASONING_CHARS},
        },
        "required": ["evidence", "rating", "rationale"],
        "additionalProperties": False,
    }


def build_analysis_schema(
    requirements: list[Requirement],
    allowed_quotes: dict[str, list[str]],
    dimension_quotes: dict[str, list[str]],
    verdict_choices: dict[str, tuple[str, ...]] | None = None,
    rating_choices: dict[str, tuple[int, ...]] | None = None,
) -> dict[str, Any]:
    """Schema of :class:`schemas.analysis.MatchAnalysis`, narrowed to this job and profile.

    ``verdict_choices`` narrows a requirement's verdicts further (when it has quotes);
    ``rating_choices`` a dimension's 1-5 rating."""
    choices = verdict_choices or {}
    items = [
        _assessment_schema(r, allowed_quotes.get(r.id, []), choices.get(r.id, VERDICTS))
        for r in requirements
    ]
    bounds = rating_choices or {}
    ratings = {
        d: _rating_schema(dimension_quotes.get(d, []), bounds.get(d, RATINGS))
        for d in RATED_DIMENSIONS
    }
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
            **ratings,
            "summary": {"type": "string", "maxLength": MAX_SUMMARY_CHARS},
        },
        "required": ["assessments", *RATED_DIMENSIONS, "summary"],
        "additionalProperties": False,
    }


def _utf8(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def max_json_bytes(schema: Any) -> int:
    """The longest compact JSON answer ``schema`` admits, in UTF-8 bytes.

    A token is at least one byte, so this bounds the answer's tokens: an answer budget derived
    from it cannot cut a valid answer short. Understands what :func:`build_analysis_schema` uses:
    objects with fixed properties, arrays bounded by ``prefixItems`` or ``maxItems``, ``const``,
    ``enum``, and ``maxLength`` strings, whose characters count two bytes each (an escape or an
    accented letter; text of wider characters is not what the fields hold).
    """
    if not isinstance(schema, dict):
        return 0
    if "const" in schema:
        return _utf8(schema["const"])
    if "enum" in schema:
        return max(_utf8(v) for v in schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        body = sum(len(json.dumps(k)) + 1 + max_json_bytes(v) for k, v in props.items())
        return 2 + body + max(len(props) - 1, 0)
    if kind == "array":
        items = [max_json_bytes(i) for i in schema.get("prefixItems", [])]
        extra = schema.get("maxItems", len(items)) - len(items)
        if extra > 0 and isinstance(schema.get("items"), dict):
            items += [max_json_bytes(schema["items"])] * extra
        return 2 + sum(items) + max(len(items) - 1, 0)
    if kind == "string":
        return 2 + 2 * int(schema.get("maxLength", 0))
    return 8  # numbers, booleans
