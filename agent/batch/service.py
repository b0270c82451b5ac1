"""The batch job as the doors use it: open (or find) a run, work it, write its outputs.

The command line, the Python API and the HTTP API call these; each adds its own display.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agent.batch.exports import ExportFormat, write_outputs
from agent.batch.runs import create_run, run_key
from agent.batch.sources import CandidateSet
from agent.batch.worker import BatchWorker, ItemResult
from agent.errors import InputError
from agent.service import AnalysisService
from agent.store import Database
from agent.store.batches import find_batch_run, get_batch_run, item_counts
from agent.store.repository import record_event
from schemas.inputs import JobPosting, Requirement


@dataclass(frozen=True)
class RunState:
    """Where a run stands."""

    run_id: int
    name: str | None
    status: str  # running | finished
    counts: dict[str, int]
    created: bool = False  # opened by this call

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def ended(self) -> int:
        """Items with an outcome: analyzed, failed, or a duplicate."""
        return self.total - self.counts.get("pending", 0) - self.counts.get("running", 0)


def run_state(database: Database, run_id: int, *, created: bool = False) -> RunState:
    with database.session() as session:
        run = get_batch_run(session, run_id=run_id)
        counts = item_counts(session, run_id=run_id)
        return RunState(run.id, run.name, run.status, counts, created)


def find_existing(
    database: Database,
    job: JobPosting,
    candidates: CandidateSet,
    given: list[Requirement] | None = None,
) -> RunState | None:
    """The run this job and candidate set opened before, if any (no engine needed)."""
    with database.session() as session:
        run = find_batch_run(session, run_key=run_key(job, candidates, given))
        run_id = None if run is None else run.id
    return None if run_id is None else run_state(database, run_id)


def open_run(
    service: AnalysisService,
    job: JobPosting,
    candidates: CandidateSet,
    *,
    given: list[Requirement] | None = None,
    name: str | None = None,
) -> RunState:
    """Continue the run of this job and candidate set, or open a new one. Its requirements are
    picked once, here (the given ones, the job's, or for a prose job the model's pick)."""
    database = _database(service)
    existing = find_existing(database, job, candidates, given)
    if existing is not None:
        if existing.status != "finished":
            with database.session() as session:
                record_event(
                    session,
                    event="batch_resumed",
                    details={"run": existing.run_id, "ended": existing.ended},
                )
        return existing
    require_candidates(candidates)
    requirements = given or service.requirements(job)
    info = service.engine.info
    settings = {
        "engine": info.name,
        "model": info.model,
        "speculation": info.speculation.label,
        "concurrency": service.concurrency,
    }
    with database.session() as session:
        run = create_run(
            session,
            job=job,
            requirements=requirements,
            candidates=candidates,
            key=run_key(job, candidates, given),
            name=name,
            settings=settings,
        )
        run_id = run.id
    return run_state(database, run_id, created=True)


def require_candidates(candidates: CandidateSet, shown: int = 3) -> None:
    """An InputError saying why, when not one candidate could be read."""
    if candidates.candidates:
        return
    reasons = [f"{f.source}: {f.reason}" for f in candidates.failed[:shown]]
    more = len(candidates.failed) - shown
    raise InputError(
        "no candidate could be read: "
        + "; ".join(reasons)
        + (f" (+{more} more)" if more > 0 else "")
    )


def work_run(
    service: AnalysisService,
    run_id: int,
    *,
    on_result: Callable[[ItemResult], None] | None = None,
    on_worker: Callable[[BatchWorker], None] | None = None,
    lease_s: float | None = None,
) -> RunState:
    """Analyze the run's items until none is left (or the worker is stopped)."""
    extra = {} if lease_s is None else {"lease_s": lease_s}
    worker = BatchWorker(service, run_id, on_result=on_result, **extra)
    if on_worker is not None:
        on_worker(worker)
    summary = worker.run()
    database = _database(service)
    if summary.stopped and not summary.finished_run:
        with database.session() as session:
            record_event(
                session, event="batch_stopped", details={"run": run_id, "done": summary.done}
            )
    return run_state(database, run_id)


def save_outputs(database: Database, run_id: int, out_dir: Path) -> dict[ExportFormat, Path]:
    with database.session() as session:
        return write_outputs(session, run_id, out_dir)


def _database(service: AnalysisService) -> Database:
    if service.database is None:
        raise ValueError("a batch needs a service with a database")
    return service.database
