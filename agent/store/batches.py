"""Batch runs in the store: a run's items, claimed atomically so several workers can share it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from agent.store.repository import record_event
from agent.store.tables import Analysis, BatchItem, BatchRun, Job, utc_now


def start_batch_run(
    session: Session, *, job_row: Job, candidate_refs: Sequence[str], settings: dict[str, Any]
) -> BatchRun:
    run = BatchRun(job_id=job_row.id, settings=settings)
    run.items = [BatchItem(candidate_ref=ref) for ref in dict.fromkeys(candidate_refs)]
    session.add(run)
    session.flush()
    record_event(session, event="batch_started", details={"run": run.id, "items": len(run.items)})
    return run


def claim_batch_item(session: Session, *, run_id: int) -> BatchItem | None:
    """Atomically take the next pending item of a run (safe with several workers)."""
    while True:
        item_id = session.scalar(
            select(BatchItem.id).filter_by(run_id=run_id, status="pending").order_by(BatchItem.id)
        )
        if item_id is None:
            return None
        claimed = session.execute(
            update(BatchItem)
            .where(BatchItem.id == item_id, BatchItem.status == "pending")
            .values(status="running", updated_at=utc_now())
        )
        if claimed.rowcount == 1:  # type: ignore[attr-defined]
            return session.get(BatchItem, item_id)


def finish_batch_item(
    session: Session, *, item: BatchItem, analysis: Analysis | None, error: str | None = None
) -> None:
    item.status = "done" if error is None else "failed"
    item.analysis_id = analysis.id if analysis is not None else None
    item.error = error
    item.updated_at = utc_now()
    session.flush()


def finish_batch_run(session: Session, *, run: BatchRun) -> None:
    run.status = "finished"
    run.finished_at = utc_now()
    counts: dict[str, int] = {}
    for item in run.items:
        counts[item.status] = counts.get(item.status, 0) + 1
    record_event(session, event="batch_finished", details={"run": run.id, **counts})
