"""Build answers for the scripted engine from the per-request schema (what a model could say)."""

from __future__ import annotations

from typing import Any

from schemas.analysis import RATED_DIMENSIONS
from serving.engine import GenerationRequest


def _enum(prop: dict[str, Any]) -> list[str]:
    return prop.get("items", {}).get("enum", [])


def valid_answer(request: GenerationRequest, verdict: str = "met") -> dict[str, Any]:
    """Quote the first allowed passage; ``verdict`` where a quote exists, else no evidence."""
    schema = request.json_schema
    assert schema is not None
    assessments = []
    for item in schema["properties"]["assessments"]["prefixItems"]:
        props = item["properties"]
        quotes = _enum(props["evidence"])
        assessments.append(
            {
                "requirement_id": props["requirement_id"]["const"],
                "evidence": quotes[:1],
                "verdict": verdict if quotes else "insufficient_evidence",
                "reasoning": "Checked against the profile.",
            }
        )
    answer: dict[str, Any] = {"assessments": assessments}
    for dimension in RATED_DIMENSIONS:
        quotes = _enum(schema["properties"][dimension]["properties"]["evidence"])
        answer[dimension] = {"evidence": quotes[:1], "rating": 4, "rationale": "Solid."}
    answer["summary"] = "A good fit. Strong on the core skills."
    return answer
