"""The graph's nodes: each takes the state (and the run-time context) and returns its updates."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any, Literal

from langgraph.runtime import Runtime

from agent.graph.context import AnalysisContext
from agent.graph.request import build_request, check_fits_context
from agent.graph.state import AnalysisState
from agent.graph.validation import AnalysisInvalidError, validate_analysis
from agent.ingest.profile_view import profile_view, unmask_quotes
from agent.rubric.compose import polish
from agent.rubric.facts import experience_years, required_years, stated_experience_years
from agent.rubric.prose_requirements import extract_with_model
from agent.rubric.requirements import requirements_hash
from agent.rubric.scoring import recommend, rubric_version, score_analysis
from agent.rubric.terms import (
    hedged_terms,
    mentioned_terms,
    named_terms,
    names_mentioned,
    term_count,
    term_coverage,
)
from agent.rubric.text_tools import content_hash
from prompts import render, template_version
from schemas.inputs import Requirement
from schemas.report import MatchReport, Provenance
from serving.engine import Engine


def normalize(state: AnalysisState, runtime: Runtime[AnalysisContext]) -> dict[str, Any]:
    """The profile a human would see, what was hidden in it, the profile the model reads
    (attempts to steer the screener removed, blinded unless told not to), and facts code can
    count on it."""
    view = profile_view(state["candidate"], blind=runtime.context.blind)
    return {
        "visible_profile": view.visible,
        "profile": view.masked,
        "hidden_text": view.hidden,
        "blinded": view.blinded,
        "flags": view.flags,
        "facts": {
            "experience_years": experience_years(view.text),
            "stated_experience_years": stated_experience_years(view.text),
        },
        "attempts": 0,
        "errors": [],
    }


def choose_requirements(state: AnalysisState, engine: Engine) -> tuple[list[Requirement], str]:
    """The caller's list, else the job's; for a prose job, the model's pick when it can."""
    job = state["job"]
    if state.get("requirements"):
        return state["requirements"], "given"
    if job.requirements_source != "prose":
        return job.requirements, job.requirements_source
    return extract_with_model(job.title, job.text, engine)


def requirements(state: AnalysisState, runtime: Runtime[AnalysisContext]) -> dict[str, Any]:
    """The requirements (see choose_requirements) and what code knows about each."""
    reqs, source = choose_requirements(state, runtime.context.engine)
    profile = state["profile"].text
    per_requirement = {
        r.id: {
            "required_years": required_years(r.text),
            "mentioned_terms": mentioned_terms(r.text, profile),
            "hedged_terms": hedged_terms(r.text, profile),
            "terms": term_count(r.text),
            "term_coverage": term_coverage(r.text, profile),
            "names": len(named_terms(r.text)),
            "names_mentioned": names_mentioned(r.text, profile),
        }
        for r in reqs
    }
    facts = {**state["facts"], "requirements_source": source, "requirements": per_requirement}
    return {"requirements": reqs, "facts": facts}


def render_prompt(state: AnalysisState, runtime: Runtime[AnalysisContext]) -> dict[str, Any]:
    """Prompt and schema; inputs too long for the model's context are refused here."""
    request = build_request(
        state["job"], state["requirements"], state["profile"].text, state["facts"]
    )
    check_fits_context(runtime.context.engine, request)
    return {"request": request, "messages": request.messages}


def generate(state: AnalysisState, runtime: Runtime[AnalysisContext]) -> dict[str, Any]:
    """One generation; transient engine errors are retried by the node's RetryPolicy."""
    engine = runtime.context.engine
    # the rendered request (schema, answer budget) with this attempt's messages
    request = dataclasses.replace(state["request"], messages=state["messages"])
    generation = engine.generate(request)
    spent = generation.speculation  # this request's own drafts, whatever else runs at once
    if "speculation" in state:
        spent = state["speculation"] + spent
    return {
        "raw_output": generation.text,
        "metrics": generation.metrics,
        "speculation": spent,
        "attempts": state["attempts"] + 1,
    }


def validate(state: AnalysisState) -> dict[str, Any]:
    try:
        analysis = validate_analysis(
            state["raw_output"] or "", state["requirements"], state["profile"].text
        )
    except AnalysisInvalidError as exc:
        return {"analysis": None, "errors": exc.problems}
    return {"analysis": analysis, "errors": []}


def route_after_validate(
    state: AnalysisState, runtime: Runtime[AnalysisContext]
) -> Literal["score", "repair", "fail"]:
    if state.get("analysis") is not None:
        return "score"
    return "repair" if state["attempts"] < runtime.context.max_attempts else "fail"


def repair(state: AnalysisState) -> dict[str, Any]:
    """Quote the errors back to the model after its own answer, and ask again."""
    feedback = render("repair_user", errors=state["errors"])
    messages = [
        *state["messages"],
        {"role": "assistant", "content": state["raw_output"] or ""},
        {"role": "user", "content": feedback},
    ]
    return {"messages": messages}


def fail(state: AnalysisState) -> dict[str, Any]:
    return {
        "failure": {
            "errors": state["errors"],
            "last_output": state.get("raw_output"),
            "attempts": state["attempts"],
        }
    }


def score(state: AnalysisState, runtime: Runtime[AnalysisContext]) -> dict[str, Any]:
    """Score in code, map to ATS vocabularies, and record provenance."""
    analysis, reqs = state["analysis"], state["requirements"]
    assert analysis is not None
    breakdown = score_analysis(reqs, analysis, state["facts"])
    system = "\n".join(m["content"] for m in state["request"].messages if m["role"] == "system")
    analysis, text_origin = polish(
        analysis, reqs, state["facts"], breakdown, state["profile"].text, system
    )
    # the model chose among the blinded passages; the recruiter reads the profile's own words
    analysis = unmask_quotes(analysis, state["profile"])
    model_written = sum(origin == "model" for origin in text_origin.values())
    info = runtime.context.engine.info
    counters = state["speculation"]
    spec = info.speculation
    job, candidate = state["job"], state["candidate"]
    report = MatchReport(
        job={"title": job.title, "company": job.company, "location": job.location},
        candidate={"id": candidate.id, "display_name": candidate.display_name},
        requirements=reqs,
        analysis=analysis,
        score=breakdown.score,
        breakdown=breakdown,
        recommendation=recommend(reqs, analysis, breakdown, state["facts"]),
        facts=state["facts"],
        hidden_text=state["hidden_text"],
        blinded=state["blinded"],
        flags=state["flags"],
        text_origin=text_origin,
        metrics={
            **state["metrics"].to_dict(),
            "model_text_share": round(model_written / len(text_origin), 3),
            "attempts": state["attempts"],
            "speculation": {**spec.described(), **counters.to_dict()},
        },
        provenance=Provenance(
            engine=info.name,
            model=info.model,
            speculation=spec.model_dump(),
            engine_settings=dict(info.extra),
            prompt_version=template_version(),
            rubric_version=rubric_version(),
            job_hash=content_hash(job.text),
            candidate_hash=content_hash(candidate.text),
            requirements_hash=requirements_hash(reqs),
            attempts=state["attempts"],
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        ),
    )
    return {"report": report}
