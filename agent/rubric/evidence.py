"""Evidence: the profile's passages, and for each requirement the ones most related to it.

Passages are verbatim substrings of the profile (bullets and sentences), so a quote chosen among
them is verbatim by construction and the check after generation is exact.
"""

from __future__ import annotations

import re

from agent.rubric.text_tools import FILLER_WORDS, content_words, strip_bullet
from schemas.inputs import Requirement

PASSAGES_PER_REQUIREMENT = 4
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _passage(part: str, *, whole_item: bool) -> bool:
    """A sentence of three words or more, or a whole list item ("- Linux/Unix Administration",
    a skills list's line names one skill); not a heading ("Work Experience:")."""
    if len(part.split()) >= 3:
        return True
    return whole_item and not part.endswith(":") and bool(content_words(part))


def profile_passages(profile_text: str) -> list[str]:
    """Bullets and sentences of the profile, each a verbatim substring of it, deduplicated."""
    passages: list[str] = []
    for raw in profile_text.splitlines():
        line = strip_bullet(raw)
        item = line != raw.strip()
        for part in _SENTENCE_END.split(line):
            part = part.strip()
            if (
                _passage(part, whole_item=item and part == line)
                and part in profile_text
                and part not in passages
            ):
                passages.append(part)
    return passages


def related_passages(
    requirement: Requirement, passages: list[str], k: int = PASSAGES_PER_REQUIREMENT
) -> list[str]:
    """The ``k`` passages sharing most content words with the requirement (none if no overlap).

    Words that only wrap the ask ("tools", "understanding") count after the others, and once
    some passage shares telling words, only passages sharing at least half as many are offered:
    a line about "user engagement" is no evidence of "Basic (user level) knowledge of Linux"
    when the profile says "Basic knowledge of Linux-based operating systems".
    """
    wanted = content_words(requirement.text)
    telling = wanted - FILLER_WORDS
    scored = []
    for index, passage in enumerate(passages):
        words = content_words(passage)
        overlap = len(wanted & words)
        if overlap:
            scored.append((-len(telling & words), -overlap, index, passage))
    scored.sort()
    best = -scored[0][0] if scored else 0
    return [p for told, *_, p in scored if -told * 2 >= best][:k]


def quote_is_grounded(quote: str, profile_text: str) -> bool:
    return bool(quote.strip()) and quote in profile_text
