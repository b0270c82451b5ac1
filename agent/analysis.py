"""The public Python API: analyze one candidate, or many against one job, through the graph."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from agent.analysis_request import build_request
from agent.graph import AnalysisContext, build_graph, nodes
from agent.graph.state import AnalysisState
from agent.inputs import InputError
from schemas.inputs import CandidateProfile, JobPosting, Requirement
from schemas.report import MatchReport
from serving.engine import Engine, GenerationRequest


class AnalysisFailedError(RuntimeError):
    """The model's answers failed validation on every attempt; keeps the last one and why."""

    def __init__(self, errors: list[str], last_output: str | None, attempts: int) -> None:
        shown = "; ".join(errors[:3]) + (f" (+{len(errors) - 3} more)" if len(errors) > 3 else "")
        super().__init__(f"no valid analysis after {attempts} attempt(s): {shown}")
        self.errors = errors
        self.last_output = last_output
        self.attempts = attempts


def _initial_state(
    job: JobPosting, candidate: CandidateProfile, requirements: list[Requirement] | None
) -> AnalysisState:
    """The graph's input: the caller's requirements only when given (else they are extracted)."""
    state: AnalysisState = {"job": job, "candidate": candidate}
    if requirements:
        state["requirements"] = requirements
    return state


@lru_cache(maxsize=1)
def _graph() -> Any:
    return build_graph()


def run_graph(
    job: JobPosting,
    candidate: CandidateProfile,
    engine: Engine,
    *,
    requirements: list[Requirement] | None = None,
    max_attempts: int = 3,
) -> AnalysisState:
    """Run the graph and return its final state (report or failure, request, raw output)."""
    state = _initial_state(job, candidate, requirements)
    context = AnalysisContext(engine=engine, max_attempts=max_attempts)
    return _graph().invoke(state, context=context)


def prepare_request(
    job: JobPosting,
    candidate: CandidateProfile,
    *,
    requirements: list[Requirement] | None = None,
    engine: Engine | None = None,
) -> GenerationRequest:
    """The first analysis request the graph would send for this pair, without generating it.

    A job written as prose has its requirements picked by ``engine`` when given (as the graph
    does), else by the deterministic fallback.
    """
    state = _initial_state(job, candidate, requirements)
    state.update(nodes.normalize(state))  # type: ignore[typeddict-item]
    state.update(nodes.requirements_with_facts(state, engine))  # type: ignore[typeddict-item]
    return build_request(job, state["requirements"], state["visible_profile"], state["facts"])


def report_or_raise(final: AnalysisState) -> MatchReport:
    """The report of a finished graph run, or its failure raised as AnalysisFailedError."""
    if "report" in final:
        return final["report"]
    failure = final["failure"]
    raise AnalysisFailedError(failure["errors"], failure["last_output"], failure["attempts"])


def analyze(
    job: JobPosting,
    candidate: CandidateProfile,
    engine: Engine,
    *,
    requirements: list[Requirement] | None = None,
    max_attempts: int = 3,
) -> MatchReport:
    """One validated, scored report; raises AnalysisFailedError or InputError."""
    final = run_graph(job, candidate, engine, requirements=requirements, max_attempts=max_attempts)
    return report_or_raise(final)


def analyze_many(
    job: JobPosting,
    candidates: list[CandidateProfile],
    engine: Engine,
    *,
    requirements: list[Requirement] | None = None,
    max_attempts: int = 3,
    concurrency: int = 8,
) -> list[MatchReport | AnalysisFailedError | InputError]:
    """Many candidates at once (the engine batches them); one outcome per candidate, in order."""
    states = [_initial_state(job, candidate, requirements) for candidate in candidates]
    context = AnalysisContext(engine=engine, max_attempts=max_attempts)
    finals = _graph().batch(
        states,
        config={"max_concurrency": concurrency},
        context=context,
        return_exceptions=True,
    )
    outcomes: list[MatchReport | AnalysisFailedError | InputError] = []
    for final in finals:
        if isinstance(final, InputError):
            outcomes.append(final)
        elif isinstance(final, BaseException):
            raise final
        else:
            try:
                outcomes.append(report_or_raise(final))
            except AnalysisFailedError as exc:
                outcomes.append(exc)
    return outcomes
