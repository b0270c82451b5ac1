"""The database tables, as SQLAlchemy 2.0 typed models (the migrations create exactly these)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

Json = JSON().with_variant(JSONB(), "postgresql")


def utc_now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: Json, list[Any]: Json}


class Job(Base):
    """A job posting with the requirements it was analyzed against, per rubric version."""

    __tablename__ = "jobs"
    __table_args__ = (UniqueConstraint("content_hash", "requirements_hash", "rubric_version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(300))
    company: Mapped[str | None] = mapped_column(String(300))
    location: Mapped[str | None] = mapped_column(String(300))
    text: Mapped[str] = mapped_column(Text)
    requirements: Mapped[list[Any]]
    content_hash: Mapped[str] = mapped_column(String(64))
    requirements_hash: Mapped[str] = mapped_column(String(64))
    rubric_version: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class Candidate(Base):
    """A candidate profile; ``anonymized_at`` is set once its personal data has been erased."""

    __tablename__ = "candidates"
    __table_args__ = (UniqueConstraint("external_id", "content_hash"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    external_id: Mapped[str] = mapped_column(String(200), index=True)
    display_name: Mapped[str | None] = mapped_column(String(300))
    text: Mapped[str] = mapped_column(Text)
    content_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    anonymized_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    analyses: Mapped[list[Analysis]] = relationship(
        back_populates="candidate", cascade="all, delete-orphan", passive_deletes=True
    )


class Analysis(Base):
    """One MatchReport with its provenance; ``idempotency_key`` makes a repeated save a no-op."""

    __tablename__ = "analyses"

    id: Mapped[int] = mapped_column(primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(64), unique=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True)
    candidate_id: Mapped[int] = mapped_column(
        ForeignKey("candidates.id", ondelete="CASCADE"), index=True
    )
    score: Mapped[int] = mapped_column(Integer)
    recommendation: Mapped[str] = mapped_column(String(32))
    report: Mapped[dict[str, Any]]
    model: Mapped[str] = mapped_column(String(500))
    engine: Mapped[str] = mapped_column(String(100))
    speculation: Mapped[dict[str, Any]]
    engine_settings: Mapped[dict[str, Any]]
    prompt_version: Mapped[str] = mapped_column(String(64))
    job_hash: Mapped[str] = mapped_column(String(64))
    candidate_hash: Mapped[str] = mapped_column(String(64))
    requirements_hash: Mapped[str] = mapped_column(String(64))
    prompt_tokens: Mapped[int | None] = mapped_column(Integer)
    output_tokens: Mapped[int | None] = mapped_column(Integer)
    ttft_s: Mapped[float | None] = mapped_column(Float)
    tpot_ms: Mapped[float | None] = mapped_column(Float)
    e2e_s: Mapped[float | None] = mapped_column(Float)
    acceptance_rate: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)

    job: Mapped[Job] = relationship()
    candidate: Mapped[Candidate] = relationship(back_populates="analyses")


class BatchRun(Base):
    """A batch scoring job: one job against many candidate files, resumable item by item."""

    __tablename__ = "batch_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"))
    name: Mapped[str | None] = mapped_column(String(200))
    # the job and the candidate set: the same command again continues the same run
    run_key: Mapped[str | None] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(16), default="running")
    settings: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    job: Mapped[Job] = relationship()
    items: Mapped[list[BatchItem]] = relationship(
        back_populates="run", cascade="all, delete-orphan", order_by="BatchItem.id"
    )


class BatchItem(Base):
    """One candidate of a batch run: pending, running (under a worker's lease), done (with its
    analysis), failed (with why), or duplicate (the same profile as another item's)."""

    __tablename__ = "batch_items"
    __table_args__ = (UniqueConstraint("run_id", "candidate_ref"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("batch_runs.id", ondelete="CASCADE"), index=True)
    candidate_ref: Mapped[str] = mapped_column(String(1000))
    source: Mapped[str | None] = mapped_column(String(1000))  # the file or list row it came from
    candidate_id: Mapped[int | None] = mapped_column(
        ForeignKey("candidates.id", ondelete="SET NULL", name="fk_batch_items_candidate")
    )
    status: Mapped[str] = mapped_column(String(16), default="pending")
    analysis_id: Mapped[int | None] = mapped_column(ForeignKey("analyses.id", ondelete="SET NULL"))
    error: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # while running: who holds it, and until when (a dead worker's item is taken back after)
    lease_owner: Mapped[str | None] = mapped_column(String(64))
    lease_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    run: Mapped[BatchRun] = relationship(back_populates="items")
    candidate: Mapped[Candidate | None] = relationship()


class AuditEvent(Base):
    """Append-only log (database triggers refuse UPDATE and DELETE). No personal data in it."""

    __tablename__ = "audit_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    event: Mapped[str] = mapped_column(String(32), index=True)
    analysis_id: Mapped[int | None] = mapped_column(Integer)  # no FK: the log outlives rows
    candidate_row: Mapped[int | None] = mapped_column(Integer)
    details: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class ApiKey(Base):
    """A key for the HTTP API: only its SHA-256 hash is kept, and its first characters."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Webhook(Base):
    """Where finished analyses and batches are announced, signed with ``secret``."""

    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(primary_key=True)
    url: Mapped[str] = mapped_column(String(2000))
    secret: Mapped[str] = mapped_column(String(200))
    events: Mapped[list[Any]]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class WebhookDelivery(Base):
    """One attempt to deliver one event to one webhook, and how it went."""

    __tablename__ = "webhook_deliveries"

    id: Mapped[int] = mapped_column(primary_key=True)
    webhook_id: Mapped[int] = mapped_column(
        ForeignKey("webhooks.id", ondelete="CASCADE"), index=True
    )
    delivery_id: Mapped[str] = mapped_column(String(36), index=True)
    event: Mapped[str] = mapped_column(String(32))
    attempt: Mapped[int] = mapped_column(Integer)
    status_code: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
