"""Requirements of a job written as prose, chosen by the model among the job's own sentences.

The schema only lets the model pick sentences of the job (an ``enum``) and say whether each is a
must-have or a nice-to-have, so a requirement cannot be invented; code drops repeats, caps the
list and classifies the dimension. If the answer is unusable, the deterministic fallback
(sentences that ask for something) is used instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agent.rubric.requirements import MAX_REQUIREMENTS, make_requirement, prose_fallback
from prompts import render_chat
from schemas.inputs import Requirement
from serving.engine import Engine, EngineError, GenerationRequest, TransientEngineError

PROMPT = "requirements"
MAX_SENTENCES = 40
MAX_SENTENCE_CHARS = 300


def job_sentences(job_text: str) -> list[str]:
    """The job's sentences that could state a requirement (the title line is left out)."""
    body = job_text.split("\n", 1)[1] if job_text.startswith("# ") else job_text
    sentences = []
    for raw in re.split(r"(?<=[.!?])\s+|\n+", body):
        sentence = raw.strip().strip("#*").strip()
        if len(sentence.split()) > 4 and len(sentence) <= MAX_SENTENCE_CHARS:
            sentences.append(sentence)
    return list(dict.fromkeys(sentences))[:MAX_SENTENCES]


def extraction_request(job_title: str, sentences: list[str]) -> GenerationRequest:
    schema = {
        "type": "object",
        "properties": {
            "requirements": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_REQUIREMENTS,
                "items": {
                    "type": "object",
                    "properties": {
                        "sentence": {"type": "string", "enum": sentences},
                        "kind": {"type": "string", "enum": ["must_have", "nice_to_have"]},
                    },
                    "required": ["sentence", "kind"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["requirements"],
        "additionalProperties": False,
    }
    messages = render_chat(PROMPT, title=job_title, sentences=sentences)
    return GenerationRequest(messages=messages, json_schema=schema, max_tokens=1024)


def parse_extraction(text: str, sentences: list[str]) -> list[Requirement]:
    """Requirements from the model's answer; ValueError when it is not a usable answer."""
    try:
        items: Any = json.loads(text)["requirements"]
    except (ValueError, KeyError, TypeError):
        raise ValueError("the answer is not the requested JSON") from None
    chosen: dict[str, str] = {}
    for item in items if isinstance(items, list) else []:
        sentence = item.get("sentence") if isinstance(item, dict) else None
        if sentence in sentences and sentence not in chosen:
            chosen[sentence] = item.get("kind", "must_have")
    if not chosen:
        raise ValueError("the answer chose no sentence of the job")
    ordered = [s for s in sentences if s in chosen][:MAX_REQUIREMENTS]  # the job's own order
    requirements = []
    for index, sentence in enumerate(ordered, 1):
        kind = "nice_to_have" if chosen[sentence] == "nice_to_have" else "must_have"
        requirements.append(make_requirement(index, sentence.rstrip(".;"), kind=kind))
    return requirements


def extract_with_model(
    job_title: str, job_text: str, engine: Engine
) -> tuple[list[Requirement], str]:
    """The model's pick ("model"), or the deterministic stand-in ("prose") if its answer is
    unusable. A server still unreachable after the engine's retries (TransientEngineError) is not
    an answer: it propagates, so the analysis fails instead of going on with guessed
    requirements."""
    sentences = job_sentences(job_text)
    if not sentences:
        return prose_fallback(job_text), "prose"
    try:
        generation = engine.generate(extraction_request(job_title, sentences))
        return parse_extraction(generation.text, sentences), "model"
    except TransientEngineError:
        raise
    except (ValueError, EngineError):
        return prose_fallback(job_text), "prose"
