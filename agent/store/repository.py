"""Reading and writing the store: keyword-only functions that take an explicit session.

Writes are idempotent: jobs, candidates and analyses are keyed by content hashes, and inserted
with ``ON CONFLICT DO NOTHING`` followed by a read, so concurrent writers of the same row end up
with one row between them. Every state-changing call appends an audit event without personal data.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import Select, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from agent.errors import NotFoundError
from agent.rubric.requirements import requirements_hash
from agent.rubric.text_tools import content_hash
from agent.store.tables import (
    Analysis,
    AuditEvent,
    Candidate,
    Job,
    utc_now,
)
from schemas.inputs import CandidateProfile, JobPosting, Requirement
from schemas.report import MatchReport

AuditEventName = Literal[
    "analysis_created",
    "profile_flagged",
    "analysis_viewed",
    "analysis_exported",
    "candidate_anonymized",
    "candidate_deleted",
    "batch_started",
    "batch_resumed",
    "batch_stopped",
    "batch_finished",
    "batch_item_reclaimed",
    "batch_exported",
    "bias_audit",
    "api_key_created",
    "api_key_revoked",
    "webhook_added",
    "webhook_removed",
]
ANONYMIZED = "[anonymized]"


def _insert_ignoring_duplicates(session: Session, table: Any, values: dict[str, Any]) -> bool:
    """INSERT ... ON CONFLICT DO NOTHING; True when this call inserted the row."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    statement = dialect.insert(table).values(**values).on_conflict_do_nothing()
    return session.execute(statement.returning(table.c.id)).first() is not None


def _get_or_insert(session: Session, model: type, key: dict[str, Any], values: dict[str, Any]):
    found = session.scalars(select(model).filter_by(**key)).first()
    if found is not None:
        return found
    _insert_ignoring_duplicates(session, model.__table__, {**key, **values})
    return session.scalars(select(model).filter_by(**key)).one()


# -- audit -----------------------------------------------------------------------------------


def record_event(
    session: Session,
    *,
    event: AuditEventName,
    analysis_id: int | None = None,
    candidate_row: int | None = None,
    details: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append one audit event. Never put personal data (names, text, quotes) in ``details``."""
    row = AuditEvent(
        event=event, analysis_id=analysis_id, candidate_row=candidate_row, details=details or {}
    )
    session.add(row)
    session.flush()
    return row


def audit_events(session: Session, *, limit: int = 100) -> Sequence[AuditEvent]:
    return session.scalars(select(AuditEvent).order_by(AuditEvent.id.desc()).limit(limit)).all()


# -- jobs and candidates ---------------------------------------------------------------------


def save_job(session: Session, *, report: MatchReport, job: JobPosting) -> Job:
    """The job row for this text, requirements and rubric version (created once)."""
    return save_job_requirements(
        session, job=job, requirements=report.requirements, version=report.provenance.prompt_version
    )


def save_job_requirements(
    session: Session, *, job: JobPosting, requirements: list[Requirement], version: str
) -> Job:
    """The job row for this text, these requirements and this prompt version (created once)."""
    return _get_or_insert(
        session,
        Job,
        {
            "content_hash": content_hash(job.text),
            "requirements_hash": requirements_hash(requirements),
            "rubric_version": version,
        },
        {
            "title": job.title,
            "company": job.company,
            "location": job.location,
            "text": job.text,
            "requirements": [r.model_dump(mode="json") for r in requirements],
            "created_at": utc_now(),
        },
    )


def save_candidate(session: Session, *, candidate: CandidateProfile) -> Candidate:
    """The candidate row for this id and text (created once)."""
    return _get_or_insert(
        session,
        Candidate,
        {"external_id": candidate.id, "content_hash": content_hash(candidate.text)},
        {"display_name": candidate.display_name, "text": candidate.text, "created_at": utc_now()},
    )


# -- analyses --------------------------------------------------------------------------------


def analysis_key(report: MatchReport) -> str:
    """Same job, candidate (id and text), requirements, rubric version and engine settings →
    same key. Two candidates with the same text are two analyses: each is its own person."""
    p = report.provenance
    identity = {
        "job": p.job_hash,
        "candidate": p.candidate_hash,
        "candidate_id": report.candidate.get("id"),
        "requirements": p.requirements_hash,
        "rubric": [p.prompt_version, p.rubric_version],
        "model": p.model,
        "engine": p.engine,
        "speculation": p.speculation,
        "engine_settings": p.engine_settings,
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def save_analysis(
    session: Session, *, report: MatchReport, job: JobPosting, candidate: CandidateProfile
) -> tuple[Analysis, bool]:
    """Store a report with its provenance; returns (row, created). Saving it again is a no-op."""
    key = analysis_key(report)
    existing = session.scalars(select(Analysis).filter_by(idempotency_key=key)).first()
    if existing is not None:
        return existing, False
    job_row = save_job(session, report=report, job=job)
    candidate_row = save_candidate(session, candidate=candidate)
    metrics = report.metrics
    p = report.provenance
    created = _insert_ignoring_duplicates(
        session,
        Analysis.__table__,
        {
            "idempotency_key": key,
            "job_id": job_row.id,
            "candidate_id": candidate_row.id,
            "score": report.score,
            "recommendation": report.recommendation.greenhouse,
            "report": report.model_dump(mode="json"),
            "model": p.model,
            "engine": p.engine,
            "speculation": p.speculation,
            "engine_settings": p.engine_settings,
            "prompt_version": p.prompt_version,
            "job_hash": p.job_hash,
            "candidate_hash": p.candidate_hash,
            "requirements_hash": p.requirements_hash,
            "prompt_tokens": metrics.get("prompt_tokens"),
            "output_tokens": metrics.get("output_tokens"),
            "ttft_s": metrics.get("ttft_s"),
            "tpot_ms": metrics.get("tpot_ms"),
            "e2e_s": metrics.get("e2e_s"),
            "acceptance_rate": (metrics.get("speculation") or {}).get("acceptance_rate"),
            "created_at": utc_now(),
        },
    )
    row = session.scalars(select(Analysis).filter_by(idempotency_key=key)).one()
    if created:
        record_event(
            session,
            event="analysis_created",
            analysis_id=row.id,
            candidate_row=candidate_row.id,
            details={"job_id": job_row.id, "score": row.score, "prompt_version": p.prompt_version},
        )
        if report.flags:  # attempts to steer the screener, by kind (never the text)
            record_event(
                session,
                event="profile_flagged",
                analysis_id=row.id,
                candidate_row=candidate_row.id,
                details={"flags": report.flags},
            )
    return row, created


def _recent() -> Select[tuple[Analysis]]:
    return select(Analysis).order_by(Analysis.created_at.desc(), Analysis.id.desc())


def recent_analyses(session: Session, *, limit: int = 20) -> Sequence[Analysis]:
    return session.scalars(_recent().limit(limit)).all()


def count_analyses(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(Analysis)) or 0


def get_analysis(
    session: Session, *, analysis_id: int, audit: AuditEventName | None = "analysis_viewed"
) -> Analysis:
    """One analysis; logs that it was viewed (or exported) unless ``audit`` is None."""
    row = session.get(Analysis, analysis_id)
    if row is None:
        raise NotFoundError(f"no analysis with id {analysis_id}")
    if audit is not None:
        record_event(session, event=audit, analysis_id=row.id, candidate_row=row.candidate_id)
    return row


# -- data rights -----------------------------------------------------------------------------


def find_candidates(session: Session, *, ref: str) -> Sequence[Candidate]:
    """Candidates whose external id is ``ref``, or the row whose numeric id it is."""
    query = select(Candidate).where(Candidate.external_id == ref)
    if ref.isdigit():
        query = select(Candidate).where((Candidate.external_id == ref) | (Candidate.id == int(ref)))
    return session.scalars(query.order_by(Candidate.id)).all()


def _anonymized_report(report: dict[str, Any]) -> dict[str, Any]:
    """Keep what a bias audit needs (verdicts, score, recommendation); drop the person."""
    analysis = report.get("analysis", {})
    kept = dict(report)
    kept["candidate"] = {"id": None, "display_name": None}
    kept["analysis"] = {
        "assessments": [
            {"requirement_id": a.get("requirement_id"), "verdict": a.get("verdict")}
            for a in analysis.get("assessments", [])
        ],
        **{
            name: {"rating": (analysis.get(name) or {}).get("rating")}
            for name in ("skills", "seniority", "domain_experience")
        },
    }
    kept["facts"], kept["hidden_text"] = {}, []
    kept["provenance"] = {**report.get("provenance", {}), "candidate_hash": ANONYMIZED}
    return kept


def forget_candidate(
    session: Session, *, ref: str, mode: Literal["delete", "anonymize"] = "delete"
) -> int:
    """Delete (or anonymize) every candidate row matching ``ref`` and its analyses.

    Returns how many candidate rows were affected; raises NotFoundError if none match.
    """
    rows = find_candidates(session, ref=ref)
    if not rows:
        raise NotFoundError(f"no candidate with id {ref!r}")
    for candidate in rows:
        analyses = list(candidate.analyses)
        if mode == "delete":
            session.delete(candidate)
            event: AuditEventName = "candidate_deleted"
        else:
            for analysis in analyses:
                analysis.report = _anonymized_report(analysis.report)
                analysis.candidate_hash = ANONYMIZED
            candidate.external_id = f"anonymized-{candidate.id}"
            candidate.display_name = None
            candidate.text = ""
            candidate.content_hash = ANONYMIZED
            candidate.anonymized_at = utc_now()
            event = "candidate_anonymized"
        session.flush()
        record_event(
            session,
            event=event,
            candidate_row=candidate.id,
            details={"analyses": len(analyses)},
        )
    return len(rows)
