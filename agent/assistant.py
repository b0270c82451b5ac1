"""The Python API for integrators: ``from agent.assistant import HiringAssistant``.

One object owns the engine and the database, as a context manager::

    from pathlib import Path
    from agent.assistant import HiringAssistant

    with HiringAssistant() as assistant:
        report = assistant.analyze(Path("job.md"), Path("resume.pdf"))
        print(report.score, report.recommendation.greenhouse)

Jobs are text, a ``Path``, a JSON job description (a dict) or a ``JobPosting``; candidates are
text, a ``Path``, a JSON Resume (a dict) or a ``CandidateProfile``. Every analysis is saved with
its provenance unless ``save=False``. Failures are :mod:`agent.errors` exceptions with a one-line
message (``InputError`` for bad input, ``AnalysisFailedError`` when the model's answers failed
validation, ``EngineError`` when the engine did). The score and recommendation are decision
support for a human reviewer: nothing here rejects a candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Literal, Self

from agent.errors import AnalysisFailedError, InputError
from agent.ingest.coerce import CandidateInput, JobInput, as_candidate, as_job
from agent.service import AnalysisService, Outcome, SavedAnalysis
from schemas.inputs import Requirement
from schemas.report import MatchReport

if TYPE_CHECKING:
    from agent.ats.greenhouse import GreenhouseApplication, GreenhouseClient
    from agent.batch.exports import ExportFormat
    from agent.batch.service import RunState
    from agent.batch.sources import CandidateSet
    from agent.batch.worker import BatchWorker, ItemResult
    from agent.store import Database
    from serving.config import EngineSettings, ProfileName
    from serving.engine import Engine

__all__ = ["AnalysisFailedError", "HiringAssistant", "InputError", "MatchReport"]


class HiringAssistant:
    """The engine, the database and the analysis service behind one object.

    ``engine``: an engine to use instead of starting one (the caller keeps ownership);
    ``settings``: engine settings (default: the environment and the settings file, so
    ``HIRING_ASSISTANT_ENGINE_URL`` selects a vLLM server); ``database_url``: default
    ``DATABASE_URL``, else the SQLite file in the data dir; ``profile``: the engine preset,
    ``interactive`` (latency first, one recruiter) or ``batch`` (throughput first, many
    analyses at once), unless the settings name the speculation explicitly.
    """

    def __init__(
        self,
        *,
        engine: Engine | None = None,
        settings: EngineSettings | None = None,
        database_url: str | None = None,
        max_attempts: int = 3,
        concurrency: int = 8,
        profile: ProfileName = "interactive",
        say: Callable[[str], None] | None = None,
    ) -> None:
        self._given_engine = engine
        self._settings = settings
        self._database_url = database_url
        self._max_attempts = max_attempts
        self._concurrency = concurrency
        self._profile: ProfileName = profile
        self._say = say
        self._service: AnalysisService | None = None

    # -- lifetime --------------------------------------------------------------------------

    def open(self) -> Self:
        """Open the database (migrating it) and start the engine; ``with`` does this for you."""
        if self._service is not None:
            return self
        from agent.store import open_database

        database = open_database(self._database_url)
        try:
            engine = self._given_engine or self._start_engine()
        except BaseException:
            database.close()
            raise
        self._service = AnalysisService(
            engine, database, max_attempts=self._max_attempts, concurrency=self._concurrency
        )
        return self

    def _start_engine(self) -> Engine:
        from serving.config import get_settings
        from serving.factory import open_engine

        settings = (self._settings or get_settings()).for_profile(self._profile)
        return open_engine(settings, say=self._say)

    def close(self) -> None:
        """Stop the engine (unless it was given) and close the database."""
        service, self._service = self._service, None
        if service is None:
            return
        try:
            if self._given_engine is None:
                service.engine.close()
        finally:
            if service.database is not None:
                service.database.close()

    def __enter__(self) -> Self:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def service(self) -> AnalysisService:
        if self._service is None:
            raise RuntimeError("the HiringAssistant is not open: use `with HiringAssistant()`")
        return self._service

    @property
    def database(self) -> Database:
        database = self.service.database
        assert database is not None  # open() always sets one
        return database

    # -- analyses --------------------------------------------------------------------------

    def analyze(
        self,
        job: JobInput,
        candidate: CandidateInput,
        *,
        candidate_id: str | None = None,
        requirements: list[Requirement] | None = None,
        save: bool = True,
    ) -> MatchReport:
        """One candidate against one job: a validated, scored MatchReport."""
        job_posting, profile = as_job(job), as_candidate(candidate, candidate_id)
        if not save:
            return self.service.analyze(job_posting, profile, requirements=requirements)
        return self.analyze_and_save(job_posting, profile, requirements=requirements).report

    def analyze_and_save(
        self,
        job: JobInput,
        candidate: CandidateInput,
        *,
        candidate_id: str | None = None,
        requirements: list[Requirement] | None = None,
    ) -> SavedAnalysis:
        """As :meth:`analyze`, with the saved analysis's id (for :meth:`get_analysis`)."""
        job_posting, profile = as_job(job), as_candidate(candidate, candidate_id)
        return self.service.analyze_and_save(job_posting, profile, requirements=requirements)[1]

    def analyze_application(
        self, application: GreenhouseApplication, ats: GreenhouseClient
    ) -> SavedAnalysis:
        """A Greenhouse application (from its webhook, see ``agent.ats.greenhouse``): the job's
        post and the candidate's resume are fetched from the ATS, then analyzed and saved."""
        job = ats.job(application.job_id)
        return self.analyze_and_save(job, ats.resume(application))

    def analyze_many(
        self,
        job: JobInput,
        candidates: Iterable[CandidateInput],
        *,
        requirements: list[Requirement] | None = None,
        save: bool = True,
    ) -> list[Outcome]:
        """Many candidates against one job, batched by the engine; one outcome per candidate,
        in order: a MatchReport, or the InputError / AnalysisFailedError that candidate got."""
        job_posting = as_job(job)
        profiles = [as_candidate(candidate) for candidate in candidates]
        outcomes = self.service.analyze_many(job_posting, profiles, requirements=requirements)
        if save:
            for profile, outcome in zip(profiles, outcomes, strict=True):
                if isinstance(outcome, MatchReport):
                    self.service.save(job_posting, profile, outcome)
        return outcomes

    def get_analysis(self, analysis_id: int, *, audit: bool = True) -> MatchReport:
        """A saved analysis (the audit log records the read unless ``audit`` is False);
        NotFoundError if there is none."""
        from agent.store.repository import get_analysis

        with self.database.session() as session:
            row = get_analysis(
                session, analysis_id=analysis_id, audit="analysis_viewed" if audit else None
            )
            return MatchReport.model_validate(row.report)

    def forget(self, candidate_id: str, *, anonymize: bool = False) -> int:
        """Delete a candidate and their analyses (or keep the verdicts without the person);
        returns how many candidate records were affected. NotFoundError if none."""
        from agent.store.repository import forget_candidate

        with self.database.session() as session:
            return forget_candidate(
                session, ref=candidate_id, mode="anonymize" if anonymize else "delete"
            )

    # -- batches ---------------------------------------------------------------------------

    def start_batch(
        self,
        job: JobInput,
        candidates: CandidateSet | Iterable[CandidateInput],
        *,
        name: str | None = None,
        requirements: list[Requirement] | None = None,
        wait: bool = True,
        on_result: Callable[[ItemResult], None] | None = None,
    ) -> RunState:
        """Open a batch run (or find the one this job and candidate set opened before) and,
        with ``wait``, analyze every candidate; returns where the run stands."""
        from agent.batch.service import open_run

        state = open_run(
            self.service, as_job(job), candidate_set(candidates), given=requirements, name=name
        )
        if not wait or state.status == "finished":
            return state
        return self.resume_batch(state.run_id, on_result=on_result)

    def resume_batch(
        self,
        run_id: int,
        *,
        on_result: Callable[[ItemResult], None] | None = None,
        on_worker: Callable[[BatchWorker], None] | None = None,
    ) -> RunState:
        """Analyze what is left of a run (also after a crash: dead workers' items return).
        ``on_worker`` receives the worker: its ``stop()`` ends the work early, resumably."""
        from agent.batch.service import work_run

        return work_run(self.service, run_id, on_result=on_result, on_worker=on_worker)

    def batch_status(self, run_id: int) -> RunState:
        from agent.batch.service import run_state

        return run_state(self.database, run_id)

    def export_batch(self, run_id: int, fmt: ExportFormat = "csv") -> str:
        """The run's shortlist (``csv``), full reports (``jsonl``) or page (``html``), as text."""
        from agent.batch.exports import render, run_view

        with self.database.session() as session:
            return render(run_view(session, run_id), fmt)

    def shortlist(self, run_id: int) -> list[dict[str, object]]:
        """The run's candidates, ranked: score, recommendation, counts, strongest quote."""
        from agent.batch.exports import run_view
        from agent.batch.shortlist import rows

        with self.database.session() as session:
            return rows(run_view(session, run_id).entries)

    # -- health ----------------------------------------------------------------------------

    def check(self) -> dict[str, Literal["ok"] | str]:
        """``ok`` or the reason, for the engine and the database (what ``/readyz`` reports)."""
        from sqlalchemy import text

        status: dict[str, str] = {}
        try:
            with self.database.session() as session:
                session.execute(text("SELECT 1"))
            status["database"] = "ok"
        except Exception as exc:  # report any failure: this is a health check
            status["database"] = f"unavailable: {type(exc).__name__}"
        try:
            self.service.engine.count_prompt_tokens([{"role": "user", "content": "ping"}])
            status["engine"] = "ok"
        except Exception as exc:
            status["engine"] = f"unavailable: {type(exc).__name__}"
        return status


def candidate_set(candidates: CandidateSet | Iterable[CandidateInput]) -> CandidateSet:
    """Candidates as a batch takes them: duplicates (same text) and repeated ids set aside."""
    from agent.batch.sources import CandidateSet

    if isinstance(candidates, CandidateSet):
        return candidates
    found = CandidateSet()
    for index, candidate in enumerate(candidates, 1):
        try:
            profile = as_candidate(candidate)
        except InputError as exc:
            found.fail(f"candidate {index}", str(exc))
            continue
        found.add(profile, f"candidate {index}")
    return found
