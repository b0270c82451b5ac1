"""The request for one analysis: the chat prompt and the JSON schema, built for this pair."""

from __future__ import annotations

import math
import re
from typing import Any

from agent.errors import InputError
from agent.rubric.evidence import profile_passages, related_passages
from agent.rubric.facts import candidate_years
from agent.rubric.terms import names_none, term_coverage
from prompts import render_chat
from schemas.inputs import JobPosting, Requirement
from schemas.output_schema import build_analysis_schema, max_json_bytes
from serving.engine import Engine, GenerationRequest

PROMPT = "analysis"
DIMENSION_QUOTES = 4
MIN_ANSWER_TOKENS = 768
COVERED = 0.6  # share of a requirement's terms the profile names for "met or partial" only
NAMED = 0.8  # ... and for "met" only, when the profile also shows the years asked (if any)
BARELY_NAMED = 0.25  # below this share the profile hardly names the requirement: not "met"
SUPPORTED_VERDICTS = ("met", "partial")
SHORT_VERDICTS = ("partial", "not_met")  # fewer years than asked
UNNAMED_VERDICTS = ("partial", "not_met", "insufficient_evidence")
UNSHOWN_VERDICTS = ("not_met", "insufficient_evidence")  # names none of what it names
SENIOR_YEARS = 10  # the years that rate seniority 5 when no requirement asks for years
LIST_TERMS = 8  # a requirement with this many terms is a list ("Environment, tools: Git; …")
_SENIORITY = re.compile(
    r"\b\d+\+?\s*years?\b|\bsenior\b|\blead\b|\bmanager\b|\bhead of\b|\bprincipal\b|"
    r"\b(?:19|20)\d\d\b|\bpresent\b",
    re.I,
)


def allowed_quotes(requirements: list[Requirement], passages: list[str]) -> dict[str, list[str]]:
    """Per requirement, the profile passages most related to it (the only quotes allowed)."""
    return {r.id: related_passages(r, passages) for r in requirements}


def dimension_quotes(
    job: JobPosting,
    requirements: list[Requirement],
    passages: list[str],
    allowed: dict[str, list[str]],
) -> dict[str, list[str]]:
    """Quotes allowed for the skills, seniority and domain-experience ratings."""
    skills = [q for r in requirements if r.dimension == "skills" for q in allowed[r.id]]
    seniority = [p for p in passages if _SENIORITY.search(p)]
    domain_probe = Requirement(id="domain", text=f"{job.title} {job.company or ''}")
    domain = related_passages(domain_probe, passages, k=DIMENSION_QUOTES)
    return {
        "skills": list(dict.fromkeys(skills))[:DIMENSION_QUOTES],
        "seniority": seniority[:DIMENSION_QUOTES],
        "domain_experience": domain,
    }


def verdict_choices(
    requirements: list[Requirement], facts: dict[str, Any]
) -> dict[str, tuple[str, ...]]:
    """Verdicts the evidence leaves open, where code knows better than the model.

    When the profile names most of a requirement's terms, "not met" and "no evidence" would
    contradict it, so only met or partial remain (a 135M model left with all four picked
    "not_met" for the strong candidate's exact skills, seen here). When it names hardly any of
    them, "met" would claim what the profile does not say (the same model called a slightly
    relevant resume's every requirement met): partial at best. When the requirement asks for
    more years than the profile shows (dated roles or a stated claim), it cannot be "met" either.
    When it names nearly all of them (and shows the years asked, if any), it is met: the same
    model, left with met or partial, called a perfect match's every requirement partial. A
    requirement (or a long list of tools) of which the profile names some but not most is
    partial: neither all of it (met) nor none of it (not met, which failed a strong resume on a
    20-tool list here); left open, the same model's pick among all four for the same facts
    flipped between runs, moving the demo's strong match from 85 to 58. A requirement that
    names things (Kubernetes, PostgreSQL) of which the profile names none, and that it does not
    largely cover otherwise, is not shown: "Kubernetes in production" was "partly met" by
    "running a system in production", and a must-have nobody has left the top candidate a "yes".
    """
    per_requirement = facts.get("requirements", {})
    years = candidate_years(facts)
    choices: dict[str, tuple[str, ...]] = {}
    for r in requirements:
        known = per_requirement.get(r.id, {})
        coverage = known.get("term_coverage", 0.0)
        covered = coverage >= COVERED
        asked = known.get("required_years")
        if names_none(known) and not covered:
            choices[r.id] = UNSHOWN_VERDICTS
        elif asked is not None and years is not None and years < asked:
            choices[r.id] = ("partial",) if covered else SHORT_VERDICTS
        elif coverage >= NAMED and (asked is None or years is not None):
            choices[r.id] = ("met",)
        elif covered:
            choices[r.id] = SUPPORTED_VERDICTS
        elif coverage >= BARELY_NAMED or (coverage > 0 and known.get("terms", 0) >= LIST_TERMS):
            choices[r.id] = ("partial",)
        elif coverage < BARELY_NAMED and known.get("terms", 0) > 0:
            choices[r.id] = UNNAMED_VERDICTS
    return choices


def build_request(
    job: JobPosting,
    requirements: list[Requirement],
    visible_profile: str,
    facts: dict[str, Any],
) -> GenerationRequest:
    """Prompt and per-request schema; quotes are drawn from the visible profile only."""
    passages = profile_passages(visible_profile)
    allowed = allowed_quotes(requirements, passages)
    dimensions = dimension_quotes(job, requirements, passages, allowed)
    messages = render_chat(
        PROMPT,
        job=job,
        profile=visible_profile,
        requirements=requirements,
        allowed_quotes=allowed,
        dimension_quotes=dimensions,
        facts=facts,
    )
    schema = build_analysis_schema(
        requirements,
        allowed,
        dimensions,
        verdict_choices(requirements, facts),
        rating_choices(job, requirements, visible_profile, facts),
    )
    # room for the longest answer the schema admits (a token is at least a byte), so a valid
    # answer is never cut off mid-string; the engine caps it by what the context leaves
    return GenerationRequest(
        messages=messages, json_schema=schema, max_tokens=max_json_bytes(schema)
    )


def _near(share: float) -> tuple[int, int]:
    """The two ratings nearest to a 0-1 share on the 1-5 scale."""
    low = min(4, max(1, math.floor(1 + 4 * min(max(share, 0.0), 1.0))))
    return (low, low + 1)


def rating_choices(
    job: JobPosting, requirements: list[Requirement], visible_profile: str, facts: dict[str, Any]
) -> dict[str, tuple[int, int]]:
    """Each rating narrowed to the two values the computed facts point to.

    A 135M model left with 1-5 rated every dimension 1, for the strongest resumes too (seen
    here). Skills: the share of the skills requirements' terms the profile names; seniority:
    the candidate's years against the most any requirement asks (ten when none asks); domain
    experience: the share of the job title's terms the profile names. Unknown years leave
    seniority open.
    """
    per_requirement = facts.get("requirements", {})
    coverage = [
        per_requirement.get(r.id, {}).get("term_coverage", 0.0)
        for r in requirements
        if r.dimension == "skills"
    ]
    choices = {"domain_experience": _near(term_coverage(job.title, visible_profile))}
    if coverage:
        choices["skills"] = _near(sum(coverage) / len(coverage))
    years = candidate_years(facts)
    if years is not None:
        asked = [per_requirement.get(r.id, {}).get("required_years") for r in requirements]
        ceiling = max((a for a in asked if a), default=SENIOR_YEARS)
        choices["seniority"] = _near(years / ceiling)
    return choices


def check_fits_context(engine: Engine, request: GenerationRequest) -> None:
    """Refuse inputs that leave the model no room to answer, before generating."""
    prompt_tokens = engine.count_prompt_tokens(request.messages)
    limit = engine.info.max_model_len - MIN_ANSWER_TOKENS
    if prompt_tokens > limit:
        raise InputError(
            f"job and candidate are too long together: {prompt_tokens} prompt tokens, the model "
            f"takes {limit} (context {engine.info.max_model_len} minus {MIN_ANSWER_TOKENS} for "
            f"the answer); shorten the files"
        )
