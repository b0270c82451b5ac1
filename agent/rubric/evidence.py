"""Evidence: the profile's passages, and for each requirement the ones most related to it.

Passages are verbatim substrings of the profile (bullets and sentences), so a quote chosen among
them is verbatim by construction and the check after generation is exact.
"""

from __future__ import annotations

import re

from agent.rubric.text_tools import content_words, strip_bullet
from schemas.inputs import Requirement

PASSAGES_PER_REQUIREMENT = 4
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def profile_passages(profile_text: str) -> list[str]:
    """Bullets and sentences of the profile, each a verbatim substring of it, deduplicated."""
    passages: list[str] = []
    for raw in profile_text.splitlines():
        line = strip_bullet(raw)
        for part in _SENTENCE_END.split(line):
            part = part.strip()
            if len(part.split()) >= 3 and part in profile_text and part not in passages:
                passages.append(part)
    return passages


def related_passages(
    requirement: Requirement, passages: list[str], k: int = PASSAGES_PER_REQUIREMENT
) -> list[str]:
    """The ``k`` passages sharing most content words with the requirement (none if no overlap)."""
    wanted = content_words(requirement.text)
    scored = []
    for index, passage in enumerate(passages):
        overlap = len(wanted & content_words(passage))
        if overlap:
            scored.append((-overlap, index, passage))
    return [p for _, _, p in sorted(scored)[:k]]


def quote_is_grounded(quote: str, profile_text: str) -> bool:
    return bool(quote.strip()) and quote in profile_text
