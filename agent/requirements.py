"""Requirements of a job, extracted deterministically from its text.

The text is cut into sections at its headings. Items (list-like lines) under requirement-like
headings (Requirements, Qualifications, Skills, "we need someone who has:") come first, then items
under neutral headings, then responsibilities; benefits, salary and company blurbs are skipped.
Near-duplicates are dropped and the list is capped.
"""

from __future__ import annotations

import re

from agent.text_tools import content_words, strip_bullet
from schemas.inputs import Requirement

MAX_REQUIREMENTS = 8
MAX_ITEM_WORDS = 40
_BULLET = re.compile(r"(?:[-*•·▪◦–]|\d+[.)])\s")
_REQUIRED = re.compile(
    r"requirement|qualification|skill|must.have|you have|you bring|you.?ll need|who you are|"
    r"someone who|looking for|experience|education|tools|technolog|nice to have|preferred",
    re.I,
)
_RESPONSIBILITY = re.compile(r"responsibilit|what you.?ll do|you get to do|duties|role", re.I)
_SKIPPED = re.compile(
    r"benefit|perk|about|salary|compensation|location|job type|industry|we offer|why join|"
    r"information|equal opportunit|how to apply",
    re.I,
)


def _heading_text(line: str) -> str | None:
    """The heading's text when ``line`` is a heading, else None."""
    stripped = line.strip()
    text = stripped.strip("#*: ").strip()
    if not text:
        return None
    if stripped.startswith("#") or (stripped.endswith(":") and len(text.split()) <= 16):
        return text
    is_short = len(text.split()) <= 5 and not text.endswith((".", ","))
    is_item = line[:1].isspace() or _BULLET.match(line)
    if is_short and not is_item and text[:1].isupper():
        return text
    return None


def _priority(heading: str) -> int | None:
    """0 requirement-like, 1 neutral, 2 responsibilities, None skipped."""
    if _SKIPPED.search(heading) and not _REQUIRED.search(heading):
        return None
    if _REQUIRED.search(heading):
        return 0
    return 2 if _RESPONSIBILITY.search(heading) else 1


def _ranked_items(job_text: str) -> list[str]:
    lines = job_text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]  # the title
    buckets: dict[int, list[str]] = {0: [], 1: [], 2: []}
    priority: int | None = 1
    for raw in lines:
        if not raw.strip():
            continue
        heading = _heading_text(raw)
        if heading is not None:
            priority = _priority(heading)
            continue
        text = strip_bullet(raw)
        if priority is not None and 3 <= len(text.split()) <= MAX_ITEM_WORDS:
            buckets[priority].append(text)
    return buckets[0] + buckets[1] + buckets[2]


def _prose_requirements(job_text: str, limit: int) -> list[str]:
    """For a job written as prose: its sentences that ask for something, in order."""
    body = job_text.split("\n", 1)[1] if job_text.startswith("# ") else job_text
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", body) if len(s.split()) > 4]
    asking = [s for s in sentences if _REQUIRED.search(s) or re.search(r"\bmust\b|\bplus\b", s)]
    return (asking or sentences)[:limit]


def extract_requirements(job_text: str, limit: int = MAX_REQUIREMENTS) -> list[Requirement]:
    """Up to ``limit`` requirements, ids R1..Rn, near-duplicates dropped."""
    chosen: list[str] = []
    seen: list[set[str]] = []
    for text in _ranked_items(job_text):
        words = content_words(text)
        if not words or any(len(words & s) / len(words | s) > 0.6 for s in seen):
            continue
        chosen.append(text.rstrip(".;"))
        seen.append(words)
        if len(chosen) == limit:
            break
    if not chosen:
        chosen = _prose_requirements(job_text, limit)
    return [Requirement(id=f"R{i}", text=t) for i, t in enumerate(chosen, 1)]
