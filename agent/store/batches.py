"""Batch runs in the store: a run's items, claimed atomically so several workers can share it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select, true, update
from sqlalchemy.orm import Session

from agent.errors import NotFoundError
from agent.store.repository import record_event
from agent.store.tables import Analysis, BatchItem, BatchRun, Job, utc_now


def start_batch_run(
    session: Session,
    *,
    job_row: Job,
    items: Sequence[BatchItem],
    settings: dict[str, Any],
    name: str | None = None,
    run_key: str | None = None,
) -> BatchRun:
    """A new run of these items (one per candidate reference: a repeated reference is kept once)."""
    run = BatchRun(job_id=job_row.id, name=name, run_key=run_key, settings=settings)
    run.items = list({item.candidate_ref: item for item in reversed(items)}.values())[::-1]
    session.add(run)
    session.flush()
    record_event(session, event="batch_started", details={"run": run.id, "items": len(run.items)})
    return run


def find_batch_run(session: Session, *, run_key: str) -> BatchRun | None:
    """The latest run opened for this key (the same job and candidate set), if any."""
    return session.scalars(
        select(BatchRun).where(BatchRun.run_key == run_key).order_by(BatchRun.id.desc())
    ).first()


def get_batch_run(session: Session, *, run_id: int) -> BatchRun:
    run = session.get(BatchRun, run_id)
    if run is None:
        raise NotFoundError(f"no batch run {run_id} (see `hiring-assistant batch list`)")
    return run


def batch_runs(session: Session, *, limit: int = 50) -> Sequence[BatchRun]:
    return session.scalars(select(BatchRun).order_by(BatchRun.id.desc()).limit(limit)).all()


def item_counts(session: Session, *, run_id: int) -> dict[str, int]:
    """How many of the run's items are in each status."""
    rows = session.execute(
        select(BatchItem.status, func.count())
        .where(BatchItem.run_id == run_id)
        .group_by(BatchItem.status)
    ).all()
    return {status: count for status, count in rows}


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


def finish_batch_run(session: Session, *, run_id: int) -> bool:
    """Mark the run finished once none of its items is pending or running; True for the one
    call that finished it (several workers may see the end at the same time)."""
    counts = item_counts(session, run_id=run_id)
    if counts.get("pending") or counts.get("running"):
        return False
    finished = session.execute(
        update(BatchRun)
        .where(BatchRun.id == run_id, BatchRun.status != "finished")
        .values(status="finished", finished_at=utc_now())
    )
    if finished.rowcount != 1:  # type: ignore[attr-defined]
        return False
    record_event(session, event="batch_finished", details={"run": run_id, **counts})
    return True


def release_items_of(
    session: Session,
    *,
    run_id: int,
    owners: Sequence[str],
    item_ids: Sequence[int] | None = None,
) -> int:
    """Put back the items these workers hold (all, or only ``item_ids``): a dead worker's at
    once rather than when its leases end, or an item a live worker could not analyze."""
    if not owners:
        return 0
    held = and_(
        BatchItem.run_id == run_id,
        BatchItem.status == "running",
        BatchItem.lease_owner.in_(owners),
        BatchItem.id.in_(item_ids) if item_ids is not None else true(),
    )
    released = session.execute(
        update(BatchItem)
        .where(held)
        .values(status="pending", lease_owner=None, lease_expires_at=None, updated_at=utc_now())
    ).rowcount  # type: ignore[attr-defined]
    if released:
        record_event(
            session,
            event="batch_item_reclaimed",
            details={"run": run_id, "items": released, "from": sorted(owners)},
        )
    return released


def lease_owners(session: Session, *, run_id: int) -> list[str]:
    """The workers holding items of the run now."""
    return list(
        session.scalars(
            select(BatchItem.lease_owner)
            .where(BatchItem.run_id == run_id, BatchItem.status == "running")
            .distinct()
        )
    )
