"""Build answers for the scripted engine from the per-request schema (what a model could say)."""

from __future__ import annotations

from typing import Any

from agent.rubric.text_tools import FILLER_WORDS
from schemas.analysis import RATED_DIMENSIONS
from serving.engine import GenerationRequest


def _enum(prop: dict[str, Any]) -> list[str]:
    return prop.get("items", {}).get("enum", [])


def _named(quote: str) -> str:
    """A sentence naming the quote's longest telling word: a reasoning about its evidence."""
    words = [w.strip(".,;:()") for w in quote.split()]
    telling = max(words, key=lambda w: (w.lower() not in FILLER_WORDS, len(w)))
    return f"The profile shows {telling} work."


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
                "reasoning": _named(quotes[0]) if quotes else "Checked against the profile.",
            }
        )
    answer: dict[str, Any] = {"assessments": assessments}
    for dimension in RATED_DIMENSIONS:
        quotes = _enum(schema["properties"][dimension]["properties"]["evidence"])
        answer[dimension] = {"evidence": quotes[:1], "rating": 4, "rationale": "Solid."}
    named = [a["evidence"][0] for a in assessments if a["evidence"]]
    answer["summary"] = "A good fit. " + (
        _named(named[0]) if named else "Strong on the core skills."
    )
    return answer
