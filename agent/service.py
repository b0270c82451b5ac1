"""The analysis service: what every front door (CLI, eval, bench, batch, API, chat) calls.

Analyze one pair, many candidates against one job, or analyze and save with provenance. All of
it runs the one LangGraph analysis graph; building a request without generating it runs the same
graph up to the prompt, so a benchmark's requests are exactly the ones ``analyze`` sends.

The functions take an engine; :class:`AnalysisService` bundles an engine, an optional database
and the options, for doors that serve many requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from agent.errors import AnalysisFailedError, InputError
from agent.graph import AnalysisContext, build_graph
from agent.graph.nodes import choose_requirements
from agent.graph.state import AnalysisState
from schemas.inputs import CandidateProfile, JobPosting, Requirement
from schemas.report import MatchReport
from serving.engine import Engine, GenerationRequest
from serving.metrics import RequestMetrics

if TYPE_CHECKING:
    from agent.store import Database

Outcome = MatchReport | AnalysisFailedError | InputError
MAX_ATTEMPTS = 3
CONCURRENCY = 8  # analyses in flight at once in analyze_many (the engine batches them)


@dataclass(frozen=True)
class AnalysisRun:
    """A finished analysis and what produced it: its first request, output and timings."""

    report: MatchReport
    request: GenerationRequest
    raw_output: str
    metrics: RequestMetrics  # of the last generation
    attempts: int


@dataclass(frozen=True)
class SavedAnalysis:
    report: MatchReport
    analysis_id: int
    created: bool  # False when the same inputs and settings were already saved


def _initial_state(
    job: JobPosting, candidate: CandidateProfile, requirements: list[Requirement] | None
) -> AnalysisState:
    """The graph's input: the caller's requirements only when given (else they are extracted)."""
    state: AnalysisState = {"job": job, "candidate": candidate}
    if requirements:
        state["requirements"] = requirements
    return state


@lru_cache(maxsize=2)
def _graph(generate: bool = True) -> Any:
    return build_graph(generate=generate)


def _run_or_raise(final: AnalysisState) -> AnalysisRun:
    if "report" not in final:
        failure = final["failure"]
        raise AnalysisFailedError(failure["errors"], failure["last_output"], failure["attempts"])
    return AnalysisRun(
        report=final["report"],
        request=final["request"],
        raw_output=final["raw_output"] or "",
        metrics=final["metrics"],
        attempts=final["attempts"],
    )


def job_requirements(job: JobPosting, engine: Engine) -> list[Requirement]:
    """The requirements an analysis of this job uses: the job's own, or for a prose job the
    model's pick among its sentences (as the graph does); a batch picks them once for all."""
    return choose_requirements({"job": job}, engine)[0]


def prepare_request(
    job: JobPosting,
    candidate: CandidateProfile,
    engine: Engine,
    *,
    requirements: list[Requirement] | None = None,
    blind: bool = True,
) -> GenerationRequest:
    """The first analysis request for this pair, without generating it: the graph's own steps
    up to the prompt (a prose job's requirements are picked by ``engine``, as in an analysis)."""
    state = _initial_state(job, candidate, requirements)
    final = _graph(False).invoke(state, context=AnalysisContext(engine=engine, blind=blind))
    return final["request"]


def run_analysis(
    job: JobPosting,
    candidate: CandidateProfile,
    engine: Engine,
    *,
    requirements: list[Requirement] | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    blind: bool = True,
) -> AnalysisRun:
    """One analysis with its first request and output; raises AnalysisFailedError or InputError.

    ``blind=False`` lets the model read the name, contacts, age and gender words (only to show
    what blinding prevents, as ``fairness name-swap --no-blind`` does)."""
    state = _initial_state(job, candidate, requirements)
    context = AnalysisContext(engine=engine, max_attempts=max_attempts, blind=blind)
    return _run_or_raise(_graph().invoke(state, context=context))


def analyze(
    job: JobPosting,
    candidate: CandidateProfile,
    engine: Engine,
    *,
    requirements: list[Requirement] | None = None,
    max_attempts: int = MAX_ATTEMPTS,
) -> MatchReport:
    """One validated, scored report; raises AnalysisFailedError or InputError."""
    return run_analysis(
        job, candidate, engine, requirements=requirements, max_attempts=max_attempts
    ).report


def analyze_many(
    job: JobPosting,
    candidates: list[CandidateProfile],
    engine: Engine,
    *,
    requirements: list[Requirement] | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    concurrency: int = CONCURRENCY,
    blind: bool = True,
) -> list[Outcome]:
    """Many candidates at once (the engine batches them); one outcome per candidate, in order."""
    states = [_initial_state(job, candidate, requirements) for candidate in candidates]
    context = AnalysisContext(engine=engine, max_attempts=max_attempts, blind=blind)
    finals = _graph().batch(
        states,
        config={"max_concurrency": concurrency},
        context=context,
        return_exceptions=True,
    )
    outcomes: list[Outcome] = []
    for final in finals:
        if isinstance(final, InputError):
            outcomes.append(final)
        elif isinstance(final, BaseException):
            raise final
        else:
            try:
                outcomes.append(_run_or_raise(final).report)
            except AnalysisFailedError as exc:
                outcomes.append(exc)
    return outcomes


def save_report(
    database: Database, job: JobPosting, candidate: CandidateProfile, report: MatchReport
) -> SavedAnalysis:
    """Persist a report with its provenance (idempotent: same inputs and settings, one row)."""
    from agent.store.repository import save_analysis

    with database.session() as session:
        row, created = save_analysis(session, report=report, job=job, candidate=candidate)
        return SavedAnalysis(report=report, analysis_id=row.id, created=created)


@dataclass
class AnalysisService:
    """An engine, an optional database and the analysis options, for doors serving many requests."""

    engine: Engine
    database: Database | None = None
    max_attempts: int = MAX_ATTEMPTS
    concurrency: int = CONCURRENCY

    def requirements(self, job: JobPosting) -> list[Requirement]:
        return job_requirements(job, self.engine)

    def prepare(
        self,
        job: JobPosting,
        candidate: CandidateProfile,
        *,
        requirements: list[Requirement] | None = None,
    ) -> GenerationRequest:
        return prepare_request(job, candidate, self.engine, requirements=requirements)

    def run(
        self,
        job: JobPosting,
        candidate: CandidateProfile,
        *,
        requirements: list[Requirement] | None = None,
    ) -> AnalysisRun:
        return run_analysis(
            job, candidate, self.engine, requirements=requirements, max_attempts=self.max_attempts
        )

    def analyze(
        self,
        job: JobPosting,
        candidate: CandidateProfile,
        *,
        requirements: list[Requirement] | None = None,
    ) -> MatchReport:
        return self.run(job, candidate, requirements=requirements).report

    def analyze_many(
        self,
        job: JobPosting,
        candidates: list[CandidateProfile],
        *,
        requirements: list[Requirement] | None = None,
    ) -> list[Outcome]:
        return analyze_many(
            job,
            candidates,
            self.engine,
            requirements=requirements,
            max_attempts=self.max_attempts,
            concurrency=self.concurrency,
        )

    def save(
        self, job: JobPosting, candidate: CandidateProfile, report: MatchReport
    ) -> SavedAnalysis:
        if self.database is None:
            raise RuntimeError("this AnalysisService has no database to save to")
        return save_report(self.database, job, candidate, report)

    def analyze_and_save(
        self,
        job: JobPosting,
        candidate: CandidateProfile,
        *,
        requirements: list[Requirement] | None = None,
    ) -> tuple[AnalysisRun, SavedAnalysis]:
        """Analyze, then persist the report with its provenance."""
        run = self.run(job, candidate, requirements=requirements)
        return run, self.save(job, candidate, run.report)
