"""Batch runs in the store: a run's items, claimed atomically so several workers can share it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, or_, select, update
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


DEFAULT_LEASE_S = 600.0  # an analysis takes about a minute; a worker renews while it works


def claim_batch_item(
    session: Session, *, run_id: int, worker: str = "local", lease_s: float = DEFAULT_LEASE_S
) -> BatchItem | None:
    """Atomically take the next pending item of a run, or one whose worker's lease ran out
    (safe with several workers, on several machines when the database is PostgreSQL)."""
    while True:
        now = utc_now()
        takeable = or_(
            BatchItem.status == "pending",
            and_(BatchItem.status == "running", BatchItem.lease_expires_at < now),
        )
        row = session.execute(
            select(BatchItem.id, BatchItem.status, BatchItem.lease_owner)
            .where(BatchItem.run_id == run_id, takeable)
            .order_by(BatchItem.id)
        ).first()
        if row is None:
            return None
        item_id, status, owner = row
        same = and_(BatchItem.status == status, _owned_by(owner))
        claimed = session.execute(
            update(BatchItem)
            .where(BatchItem.id == item_id, same, takeable)
            .values(
                status="running",
                lease_owner=worker,
                lease_expires_at=now + timedelta(seconds=lease_s),
                updated_at=now,
            )
        )
        if claimed.rowcount == 1:  # type: ignore[attr-defined]
            if status == "running":
                record_event(
                    session,
                    event="batch_item_reclaimed",
                    details={"run": run_id, "item": item_id, "from": owner, "to": worker},
                )
            return session.get(BatchItem, item_id)


def _owned_by(owner: str | None) -> ColumnElement[bool]:
    return BatchItem.lease_owner.is_(None) if owner is None else BatchItem.lease_owner == owner


def renew_lease(
    session: Session, *, item: BatchItem, worker: str, lease_s: float = DEFAULT_LEASE_S
) -> bool:
    """Extend the worker's lease on an item it still holds; False when it lost it."""
    now = utc_now()
    renewed = session.execute(
        update(BatchItem)
        .where(
            BatchItem.id == item.id,
            BatchItem.status == "running",
            BatchItem.lease_owner == worker,
        )
        .values(lease_expires_at=now + timedelta(seconds=lease_s), updated_at=now)
    )
    return renewed.rowcount == 1  # type: ignore[attr-defined]


def finish_batch_item(
    session: Session,
    *,
    item: BatchItem,
    analysis: Analysis | None,
    error: str | None = None,
    worker: str | None = None,
) -> bool:
    """Record the item's outcome; with ``worker``, only while that worker still holds it (an
    item taken back after its lease ran out is finished once, by whoever holds it now)."""
    held = [BatchItem.id == item.id, BatchItem.status == "running"]
    if worker is not None:
        held.append(BatchItem.lease_owner == worker)
    done = session.execute(
        update(BatchItem)
        .where(*held)
        .values(
            status="done" if error is None else "failed",
            analysis_id=analysis.id if analysis is not None else None,
            error=error,
            lease_owner=None,
            lease_expires_at=None,
            updated_at=utc_now(),
        )
    )
    session.refresh(item)
    return done.rowcount == 1  # type: ignore[attr-defined]


def finish_batch_run(session: Session, *, run: BatchRun) -> None:
    run.status = "finished"
    run.finished_at = utc_now()
    counts: dict[str, int] = {}
    for item in run.items:
        counts[item.status] = counts.get(item.status, 0) + 1
    record_event(session, event="batch_finished", details={"run": run.id, **counts})
