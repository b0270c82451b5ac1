"""Opening a batch run: the same job and candidate set continue the same run.

A run's identity (its key) is the job's text, the requirements the recruiter gave (if any) and
every candidate it was pointed at (id and text, plus the files that could not be read). Running
the same command again finds the run by that key and continues it; a finished run is not redone.

Everything a worker needs is in the store: the job with the run's requirements (picked once, at
the start, so every candidate is measured against the same list) and each candidate's text. Any
worker that reaches the database can take items, without the original files.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from agent.batch.sources import CandidateSet
from agent.rubric.requirements import requirements_hash
from agent.rubric.text_tools import content_hash
from agent.store.batches import get_batch_run, start_batch_run
from agent.store.repository import save_candidate, save_job_requirements
from agent.store.tables import BatchItem, BatchRun
from prompts import template_version
from schemas.inputs import CandidateProfile, JobPosting, Requirement


def run_key(job: JobPosting, candidates: CandidateSet, given: list[Requirement] | None) -> str:
    """Same job text, same given requirements, same candidates (and unreadable files) → same key."""
    identity = {
        "job": content_hash(job.text),
        "requirements": requirements_hash(given) if given else None,
        "candidates": sorted(f"{c.id}\t{content_hash(c.text)}" for c in candidates.candidates),
        "unreadable": sorted(f.source for f in candidates.failed),
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def create_run(
    session: Session,
    *,
    job: JobPosting,
    requirements: list[Requirement],
    candidates: CandidateSet,
    key: str,
    name: str | None,
    settings: dict[str, Any],
) -> BatchRun:
    """A new run: the job with these requirements, one item per candidate to analyze, and one
    already-ended item per unreadable file (failed, with why) and per duplicate."""
    job_row = save_job_requirements(
        session, job=job, requirements=requirements, version=template_version()
    )
    items: list[BatchItem] = []
    for candidate in candidates.candidates:
        row = save_candidate(session, candidate=candidate)
        items.append(
            BatchItem(
                candidate_ref=candidate.id,
                source=candidates.sources[candidate.id],
                candidate_id=row.id,
            )
        )
    for failed in candidates.failed:
        items.append(
            BatchItem(
                candidate_ref=failed.source[-1000:],
                source=failed.source[-1000:],
                status="failed",
                error=failed.reason,
            )
        )
    for dup in candidates.duplicates:
        items.append(
            BatchItem(
                candidate_ref=f"{dup.candidate_id} ({dup.source})"[-1000:],
                source=dup.source[-1000:],
                status="duplicate",
                error=f"the same profile as {dup.same_as}, analyzed once",
            )
        )
    return start_batch_run(
        session, job_row=job_row, items=items, settings=settings, name=name, run_key=key
    )


@dataclass(frozen=True)
class RunInputs:
    """What a worker analyzes for a run: the job, with the run's requirements."""

    run_id: int
    job: JobPosting
    requirements: list[Requirement]


def run_inputs(session: Session, run_id: int) -> RunInputs:
    run = get_batch_run(session, run_id=run_id)
    job = run_job(run)
    return RunInputs(run_id=run.id, job=job, requirements=job.requirements)


def run_job(run: BatchRun) -> JobPosting:
    row = run.job
    requirements = [Requirement.model_validate(r) for r in row.requirements]
    return JobPosting(
        title=row.title,
        company=row.company,
        location=row.location,
        text=row.text,
        requirements=requirements,
        requirements_source="given",
    )


def item_candidate(item: BatchItem) -> CandidateProfile:
    """The stored candidate an item analyzes."""
    row = item.candidate
    if row is None or row.anonymized_at is not None:
        raise LookupError(f"the candidate was forgotten (batch item {item.id})")
    return CandidateProfile(id=item.candidate_ref, display_name=row.display_name, text=row.text)
