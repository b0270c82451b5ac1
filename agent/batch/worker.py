"""A batch worker: takes a run's items under a lease and analyzes them, many in flight at once.

Each of ``concurrency`` slots claims an item, analyzes it through the service (the engine batches
whatever is in flight: continuous batching) and, in one transaction, saves the analysis and marks
the item done. A SIGKILL at any moment therefore loses nothing and saves nothing twice: an item is
either done with its analysis or still claimable. A heartbeat renews the leases of the items in
flight; items held by a worker that died on this machine are put back at once when a worker
starts, and those of a worker elsewhere when its lease runs out.

``stop()`` (Ctrl-C) lets the analyses in flight finish and be saved, and claims nothing more.
"""

from __future__ import annotations

import os
import socket
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Literal

from agent.batch.runs import RunInputs, item_candidate, run_inputs
from agent.errors import AnalysisFailedError, InputError
from agent.service import AnalysisService
from agent.store import Database
from agent.store.batches import (
    DEFAULT_LEASE_S,
    claim_batch_item,
    finish_batch_item,
    finish_batch_run,
    lease_owners,
    release_items_of,
    renew_lease,
)
from agent.store.repository import save_analysis
from agent.store.tables import BatchItem
from schemas.inputs import CandidateProfile
from schemas.report import MatchReport
from serving.engine import EngineError


@dataclass(frozen=True)
class ItemResult:
    """One item's outcome, as the progress display and the summary see it."""

    candidate_id: str
    status: Literal["done", "failed"]
    score: int | None = None
    reason: str | None = None
    draft_tokens: int = 0
    accepted_tokens: int = 0


@dataclass(frozen=True)
class WorkSummary:
    done: int
    failed: int
    stopped: bool  # stop() was called: items may be left for later
    finished_run: bool  # this worker saw the run's last item end and marked it finished


def new_worker_id() -> str:
    """``host:pid:token``: unique, and tells a worker on this machine whether its owner lives."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _dead_here(owner: str) -> bool:
    """True for a worker of this machine whose process is gone."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname()[:40] or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def release_dead_workers(database: Database, run_id: int) -> int:
    """Put back the items held by workers of this machine that died (SIGKILL, power cut)."""
    with database.session() as session:
        dead = [owner for owner in lease_owners(session, run_id=run_id) if _dead_here(owner)]
        return release_items_of(session, run_id=run_id, owners=dead)


class BatchWorker:
    """Works one run until no item is left, or until :meth:`stop`."""

    def __init__(
        self,
        service: AnalysisService,
        run_id: int,
        *,
        concurrency: int | None = None,
        lease_s: float = DEFAULT_LEASE_S,
        worker_id: str | None = None,
        on_result: Callable[[ItemResult], None] | None = None,
    ) -> None:
        if service.database is None:
            raise ValueError("a batch worker needs a service with a database")
        self.service = service
        self.database: Database = service.database
        self.run_id = run_id
        self.concurrency = concurrency or service.concurrency
        self.lease_s = lease_s
        self.worker_id = worker_id or new_worker_id()
        self.on_result = on_result
        self._stop = threading.Event()  # claim nothing more (asked for, or the engine failed)
        self._requested = threading.Event()  # stop() was called
        self._held: set[int] = set()
        self._held_lock = threading.Lock()
        self._fatal: BaseException | None = None
        self._done = 0
        self._failed = 0
        self._count_lock = threading.Lock()

    def stop(self) -> None:
        """Finish the analyses in flight, claim nothing more."""
        self._requested.set()
        self._stop.set()

    @property
    def stopping(self) -> bool:
        """stop() was called."""
        return self._requested.is_set()

    def run(self, poll_s: float = 0.5) -> WorkSummary:
        """Work until the run has no claimable item left (or stop); raises an engine failure
        after putting the items in flight back."""
        release_dead_workers(self.database, self.run_id)
        with self.database.session() as session:
            inputs = run_inputs(session, self.run_id)
        finished = threading.Event()
        heartbeat = threading.Thread(target=self._heartbeat, args=(finished,), daemon=True)
        heartbeat.start()
        try:
            with ThreadPoolExecutor(self.concurrency, thread_name_prefix="batch") as pool:
                slots = [pool.submit(self._slot, inputs) for _ in range(self.concurrency)]
                pending = set(slots)
                while pending:  # a short wait, so that Ctrl-C reaches the caller at once
                    _, pending = wait(pending, timeout=poll_s)
                for slot in slots:
                    slot.result()
        finally:
            finished.set()
            heartbeat.join()
        if self._fatal is not None:
            raise self._fatal
        with self.database.session() as session:  # even when stopped: it may have been the end
            finished_run = finish_batch_run(session, run_id=self.run_id)
        return WorkSummary(self._done, self._failed, self.stopping, finished_run)

    # -- one slot: claim, analyze, save, repeat ---------------------------------------------

    def _slot(self, inputs: RunInputs) -> None:
        while not self._stop.is_set():
            claimed = self._claim()
            if claimed is None:
                return
            item_id, candidate = claimed
            try:
                self._analyze(inputs, item_id, candidate)
            except EngineError as exc:  # the engine is gone: stop, leave the item for later
                self._release(item_id)
                self._fatal = self._fatal or exc
                self._stop.set()
                return
            finally:
                with self._held_lock:
                    self._held.discard(item_id)

    def _claim(self) -> tuple[int, CandidateProfile] | None:
        while True:
            with self.database.session() as session:
                item = claim_batch_item(
                    session, run_id=self.run_id, worker=self.worker_id, lease_s=self.lease_s
                )
                if item is None:
                    return None
                try:
                    candidate = item_candidate(item)
                except LookupError as exc:  # its candidate was deleted since
                    finish_batch_item(session, item=item, analysis=None, error=str(exc))
                    self._count(ItemResult(item.candidate_ref, "failed", reason=str(exc)))
                    continue
                with self._held_lock:
                    self._held.add(item.id)
                return item.id, candidate

    def _analyze(self, inputs: RunInputs, item_id: int, candidate: CandidateProfile) -> None:
        try:
            report = self.service.analyze(inputs.job, candidate, requirements=inputs.requirements)
        except (AnalysisFailedError, InputError) as exc:
            self._finish(inputs, item_id, candidate, None, str(exc))
            return
        except EngineError:
            raise
        except Exception as exc:  # a bug met on this candidate: the others still get analyzed
            reason = f"unexpected error ({type(exc).__name__}: {exc}); please report it"
            self._finish(inputs, item_id, candidate, None, reason)
            return
        self._finish(inputs, item_id, candidate, report, None)

    def _finish(
        self,
        inputs: RunInputs,
        item_id: int,
        candidate: CandidateProfile,
        report: MatchReport | None,
        error: str | None,
    ) -> None:
        """Save the analysis and end the item in one transaction."""
        with self.database.session() as session:
            item = session.get(BatchItem, item_id)
            assert item is not None
            analysis = None
            if report is not None:
                analysis, _ = save_analysis(
                    session, report=report, job=inputs.job, candidate=candidate
                )
            held = finish_batch_item(
                session, item=item, analysis=analysis, error=error, worker=self.worker_id
            )
        if not held:  # taken back after our lease ran out: whoever holds it now ends it
            return
        if report is None:
            self._count(ItemResult(candidate.id, "failed", reason=error))
            return
        spec = report.metrics.get("speculation") or {}
        self._count(
            ItemResult(
                candidate.id,
                "done",
                score=report.score,
                draft_tokens=int(spec.get("draft_tokens") or 0),
                accepted_tokens=int(spec.get("accepted_tokens") or 0),
            )
        )

    def _release(self, item_id: int) -> None:
        with self.database.session() as session:
            release_items_of(
                session, run_id=self.run_id, owners=[self.worker_id], item_ids=[item_id]
            )

    def _count(self, result: ItemResult) -> None:
        with self._count_lock:
            if result.status == "done":
                self._done += 1
            else:
                self._failed += 1
        if self.on_result is not None:
            self.on_result(result)

    # -- leases -------------------------------------------------------------------------------

    def _heartbeat(self, finished: threading.Event) -> None:
        interval = max(self.lease_s / 4, 0.05)
        while not finished.wait(interval):
            with self._held_lock:
                held = list(self._held)
            if not held:
                continue
            with self.database.session() as session:
                for item_id in held:
                    item = session.get(BatchItem, item_id)
                    if item is not None:
                        renew_lease(session, item=item, worker=self.worker_id, lease_s=self.lease_s)
