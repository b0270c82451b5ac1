"""Text code writes where the model's is junk: from the verdicts, the quotes and the facts.

Every reasoning, rating rationale and the summary is kept when :func:`junk_reason` passes it, and
otherwise replaced by a sentence composed here; :func:`polish` says which is which, so a report
never shows ``not_met`` as a reasoning and always says who wrote each line.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from agent.rubric.text_quality import junk_reason, unfounded_reason
from agent.rubric.text_tools import FILLER_WORDS, content_words
from schemas.analysis import (
    MAX_REASONING_CHARS,
    MAX_SUMMARY_CHARS,
    DimensionRating,
    MatchAnalysis,
    RequirementAssessment,
)
from schemas.inputs import Requirement
from schemas.report import ScoreBreakdown

Origin = Literal["model", "composed"]
QUOTE_CHARS = 70
SHOWN_PHRASES = 3
SUMMARY_NAME_CHARS = 40
SUMMARY_NAMED = 3  # more requirements than this are listed by id only
_PHRASE_WORD = re.compile(r"[A-Za-z0-9+#]+(?:\.[A-Za-z0-9]+)*")


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _quote(text: str, room: int = QUOTE_CHARS) -> str:
    return f"“{_fit(' '.join(text.split()), room)}”"


def _years(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _telling(word: str) -> bool:
    return bool(content_words(word) - FILLER_WORDS)


def shared_phrases(requirement: str, quotes: list[str]) -> list[str]:
    """The longest runs of the requirement's words that the quotes also say ("full-stack" and
    "full stack" alike), keeping only runs with a word that is neither a stopword nor generic."""
    words = _PHRASE_WORD.findall(requirement)
    lowered = [w.lower() for w in words]
    said = " " + " ".join(w.lower() for q in quotes for w in _PHRASE_WORD.findall(q)) + " "
    phrases: list[str] = []
    i = 0
    while i < len(words):
        end = i
        while end < len(words) and f" {' '.join(lowered[i : end + 1])} " in said:
            end += 1
        if end == i:
            i += 1
            continue
        start, stop = i, end
        while start < stop and not _telling(lowered[start]):
            start += 1
        while stop > start and not _telling(lowered[stop - 1]):
            stop -= 1
        phrase = " ".join(words[start:stop])
        if phrase and not any(phrase.lower() in p.lower() for p in phrases):
            phrases.append(phrase)
        i = end
    return phrases[:SHOWN_PHRASES]


def compose_reasoning(
    assessment: RequirementAssessment,
    requirement: str,
    requirement_facts: dict[str, Any],
    facts: dict[str, Any],
) -> str:
    """One sentence for a verdict from what code computed (the quotes are shown beside it)."""
    mentioned = requirement_facts.get("mentioned_terms") or []
    phrases = shared_phrases(requirement, assessment.evidence)
    terms = _listed(phrases) if phrases else ""
    asked = requirement_facts.get("required_years")
    years = ""
    if asked and facts.get("experience_years") is not None:
        years = (
            f" Dated roles cover {_years(facts['experience_years'])} years; {_years(asked)} asked."
        )
    elif asked and facts.get("stated_experience_years") is not None:
        years = f" States {_years(facts['stated_experience_years'])} years; {_years(asked)} asked."
    verdict = assessment.verdict
    if verdict in ("met", "partial") and not terms:
        text = f"Judged {verdict.replace('_', ' ')}, though the quote names none of its terms."
    elif verdict == "met":
        text = f"The quote shows {terms}."
    elif verdict == "partial":
        text = f"The quote shows {terms}, not all that is asked."
    elif verdict == "not_met":
        text = (
            "The quoted passage does not show it."
            if assessment.evidence
            else "Nothing in the profile shows it."
        )
    elif mentioned:
        shown = ", ".join(mentioned[:3])
        text = f"The profile names {shown} but does not show this requirement."
    else:
        text = "The profile does not mention it."
    return _fit(text + years, MAX_REASONING_CHARS)


def compose_rationale(
    dimension: str,
    rating: DimensionRating,
    requirements: list[Requirement],
    assessments: list[RequirementAssessment],
    facts: dict[str, Any],
) -> str:
    """One sentence for a 1-5 rating."""
    if dimension == "seniority" and facts.get("experience_years") is not None:
        text = f"Rated {rating.rating}/5; {_years(facts['experience_years'])} "
        text += "years of dated roles"
        if facts.get("stated_experience_years"):
            text += f"; {_years(facts['stated_experience_years'])} years stated"
        return _fit(text + ".", MAX_REASONING_CHARS)
    ids = {r.id for r in requirements if r.dimension == dimension}
    verdicts = [a.verdict for a in assessments if a.requirement_id in ids]
    if verdicts:
        met, partial = verdicts.count("met"), verdicts.count("partial")
        text = f"Rated {rating.rating}/5; {met} of {len(verdicts)} "
        text += f"{dimension.replace('_', ' ')} requirements met"
        text += f", {partial} partly." if partial else "."
    elif rating.evidence:
        text = f"Rated {rating.rating}/5 from {_quote(rating.evidence[0])}."
    elif dimension == "domain_experience":
        # the rating is narrowed to what the share of the job title the profile names points to
        text = f"Rated {rating.rating}/5 by how much of the job title the profile names."
    else:
        text = f"Rated {rating.rating}/5; no passage bears on it."
    return _fit(text, MAX_REASONING_CHARS)


def compose_summary(
    requirements: list[Requirement], analysis: MatchAnalysis, breakdown: ScoreBreakdown
) -> str:
    """Two or three sentences: what is met, what is not shown, the strongest quote."""
    by_verdict: dict[str, list[str]] = {}
    for a in analysis.assessments:
        by_verdict.setdefault(a.verdict, []).append(a.requirement_id)
    met = len(by_verdict.get("met", []))
    parts = [
        f"Meets {met} of {len(requirements)} requirements "
        f"({breakdown.must_have_met}/{breakdown.must_have_total} must-haves)."
    ]
    texts = {r.id: r.text for r in requirements}

    def named(ids: list[str]) -> str:
        if len(ids) > SUMMARY_NAMED:
            return ", ".join(ids)
        return "; ".join(f"{rid} ({_fit(texts.get(rid, rid), SUMMARY_NAME_CHARS)})" for rid in ids)

    if by_verdict.get("partial"):
        parts.append(f"Partly: {named(by_verdict['partial'])}.")
    missing = by_verdict.get("not_met", []) + by_verdict.get("insufficient_evidence", [])
    if missing:
        parts.append(f"Not shown: {named(missing)}.")
    quotes = [a.evidence[0] for a in analysis.assessments if a.verdict == "met" and a.evidence]
    if quotes:
        parts.append(f"Strongest evidence: {_quote(quotes[0], 120)}.")
    return _fit(" ".join(parts), MAX_SUMMARY_CHARS)


def polish(
    analysis: MatchAnalysis,
    requirements: list[Requirement],
    facts: dict[str, Any],
    breakdown: ScoreBreakdown,
    profile: str,
    instructions: str | None = None,
) -> tuple[MatchAnalysis, dict[str, Origin]]:
    """The analysis with junk text replaced, and who wrote each text field (``profile``: the
    visible profile, which free text may quote only as evidence; ``instructions``: the system
    prompt, whose example answers are not about this profile)."""
    texts = {r.id: r.text for r in requirements}
    known = "\n".join([profile, *texts.values()])

    def check(text: str, verdict: str | None = None, **bounds: Any) -> str | None:
        junk = junk_reason(text, source=profile, instructions=instructions, **bounds)
        scope = bounds.get("about") if verdict is not None else None
        return junk or unfounded_reason(text, known, verdict, scope=scope, profile=profile)

    origin: dict[str, Origin] = {}
    per_requirement = facts.get("requirements", {})
    assessments = []
    for a in analysis.assessments:
        key = f"{a.requirement_id}.reasoning"
        echo = texts.get(a.requirement_id)
        about = "\n".join([echo or "", *a.evidence])
        junk = check(a.reasoning, a.verdict, echo_of=echo, limit=MAX_REASONING_CHARS, about=about)
        if junk is None:
            origin[key] = "model"
            assessments.append(a)
            continue
        origin[key] = "composed"
        reasoning = compose_reasoning(
            a, echo or "", per_requirement.get(a.requirement_id, {}), facts
        )
        assessments.append(a.model_copy(update={"reasoning": reasoning}))
    ratings = {}
    for name, rating in analysis.ratings().items():
        key = f"{name}.rationale"
        if check(rating.rationale, limit=MAX_REASONING_CHARS) is None:
            origin[key] = "model"
            ratings[name] = rating
            continue
        origin[key] = "composed"
        text = compose_rationale(name, rating, requirements, assessments, facts)
        ratings[name] = rating.model_copy(update={"rationale": text})
    polished = analysis.model_copy(update={"assessments": assessments, **ratings})
    # quotes are lines of the profile, so ``known`` already holds everything a summary may name
    if check(analysis.summary, limit=MAX_SUMMARY_CHARS, about=known) is None:
        origin["summary"] = "model"
    else:
        origin["summary"] = "composed"
        summary = compose_summary(requirements, polished, breakdown)
        polished = polished.model_copy(update={"summary": summary})
    return polished, origin
