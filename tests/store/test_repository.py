"""Repository functions on SQLite and PostgreSQL: idempotent saves, audit, data rights, batches."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import DBAPIError

from agent.store import batches
from agent.store import repository as repo
from agent.store.tables import Analysis, AuditEvent, BatchItem, Candidate, Job
from serving.config import SpeculationConfig
from tests.store.conftest import make_report


def _count(database, model, **filters) -> int:
    with database.session() as session:
        query = select(func.count()).select_from(model).filter_by(**filters)
        return session.scalar(query)


def _variant(report, index: int):
    """The same report as if made with other speculation settings: a different analysis."""
    provenance = report.provenance.model_copy(
        update={"speculation": SpeculationConfig(num_speculative_tokens=index + 1).model_dump()}
    )
    return report.model_copy(update={"provenance": provenance})


def test_saving_twice_keeps_one_row_and_one_audit_event(database, report, job, candidate):
    with database.session() as session:
        first, created = repo.save_analysis(session, report=report, job=job, candidate=candidate)
    with database.session() as session:
        again, created_again = repo.save_analysis(
            session, report=report, job=job, candidate=candidate
        )
    assert (created, created_again) == (True, False)
    assert first.id == again.id
    assert _count(database, Analysis) == 1
    assert _count(database, Job) == 1
    assert _count(database, Candidate) == 1
    assert _count(database, AuditEvent, event="analysis_created") == 1


def test_saved_analysis_keeps_report_and_provenance(database, report, job, candidate):
    with database.session() as session:
        row, _ = repo.save_analysis(session, report=report, job=job, candidate=candidate)
    with database.session() as session:
        stored = repo.get_analysis(session, analysis_id=row.id)
        assert stored.report == report.model_dump(mode="json")
        assert stored.score == report.score
        assert stored.recommendation == report.recommendation.greenhouse
        assert stored.prompt_version == report.provenance.prompt_version
        assert stored.candidate_hash == report.provenance.candidate_hash
        assert stored.output_tokens == report.metrics["output_tokens"]
        assert stored.speculation == report.provenance.speculation
        assert stored.job.requirements == [r.model_dump(mode="json") for r in report.requirements]
    assert _count(database, AuditEvent, event="analysis_viewed") == 1


def test_other_settings_make_another_analysis_of_the_same_pair(database, report, job, candidate):
    with database.session() as session:
        repo.save_analysis(session, report=report, job=job, candidate=candidate)
        repo.save_analysis(session, report=_variant(report, 1), job=job, candidate=candidate)
    assert _count(database, Analysis) == 2
    assert _count(database, Candidate) == 1


def test_two_candidates_with_the_same_text_keep_their_own_analyses(
    database, report, job, candidate
):
    twin = candidate.model_copy(update={"id": "twin"})
    twin_report = report.model_copy(update={"candidate": {"id": "twin", "display_name": None}})
    with database.session() as session:
        first, _ = repo.save_analysis(session, report=report, job=job, candidate=candidate)
        second, created = repo.save_analysis(session, report=twin_report, job=job, candidate=twin)
        assert created and first.id != second.id
        assert second.candidate.external_id == "twin"
        assert second.report["candidate"]["id"] == "twin"


def test_concurrent_writers_neither_lose_nor_duplicate(database, report, job, candidate):
    reports = [_variant(report, i) for i in range(5)]

    def writer(order: int) -> list[bool]:
        created = []
        for item in reports[order:] + reports[:order]:
            with database.session() as session:
                created.append(
                    repo.save_analysis(session, report=item, job=job, candidate=candidate)[1]
                )
        return created

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(writer, range(6)))
    assert sum(sum(r) for r in results) == 5, "each analysis is created exactly once"
    assert _count(database, Analysis) == 5
    assert _count(database, Candidate) == 1
    assert _count(database, Job) == 1
    assert _count(database, AuditEvent, event="analysis_created") == 5


def test_missing_analysis_is_not_found(database):
    with database.session() as session, pytest.raises(repo.NotFoundError, match="no analysis"):
        repo.get_analysis(session, analysis_id=12345)


def test_audit_log_refuses_update_and_delete(database):
    with database.session() as session:
        repo.record_event(session, event="analysis_exported", analysis_id=1)
    for statement in (update(AuditEvent).values(event="tampered"), delete(AuditEvent)):
        with pytest.raises(DBAPIError, match="append-only"), database.session() as session:
            session.execute(statement)
    assert _count(database, AuditEvent, event="analysis_exported") == 1


def _personal_strings(candidate) -> list[str]:
    return [candidate.id, candidate.display_name or candidate.id]


def test_forget_deletes_candidate_and_analyses_and_logs_without_personal_data(
    database, report, job, candidate
):
    with database.session() as session:
        repo.save_analysis(session, report=report, job=job, candidate=candidate)
    with database.session() as session:
        assert repo.forget_candidate(session, ref=candidate.id) == 1
    assert _count(database, Analysis) == 0
    assert _count(database, Candidate) == 0
    assert _count(database, Job) == 1
    with database.session() as session:
        events = repo.audit_events(session)
        assert [e.event for e in events] == ["candidate_deleted", "analysis_created"]
        logged = json.dumps([e.details for e in events])
    for personal in _personal_strings(candidate):
        assert personal not in logged


def test_forget_anonymize_keeps_verdicts_without_the_person(database, report, job, candidate):
    with database.session() as session:
        row, _ = repo.save_analysis(session, report=report, job=job, candidate=candidate)
    with database.session() as session:
        repo.forget_candidate(session, ref=candidate.id, mode="anonymize")
    with database.session() as session:
        kept = session.get(Analysis, row.id)
        stored = json.dumps(kept.report)
        verdicts = [a["verdict"] for a in kept.report["analysis"]["assessments"]]
        person = session.get(Candidate, kept.candidate_id)
        assert person.text == "" and person.display_name is None
        assert person.anonymized_at is not None
    assert verdicts == [a.verdict for a in report.analysis.assessments]
    assert kept.score == report.score
    # quotes of the person's own words are gone (a resume may copy the posting's lines verbatim,
    # and the job's requirements are kept)
    asked = " ".join(r.text for r in report.requirements)
    quotes = [q for a in report.analysis.assessments for q in a.evidence if q not in asked]
    assert quotes and not any(q in stored for q in quotes)
    for personal in _personal_strings(candidate):
        assert personal not in stored
    assert _count(database, AuditEvent, event="candidate_anonymized") == 1


def test_forget_unknown_candidate_is_not_found(database):
    with database.session() as session, pytest.raises(repo.NotFoundError, match="nobody"):
        repo.forget_candidate(session, ref="nobody")


def _items(*refs: str) -> list[BatchItem]:
    return [BatchItem(candidate_ref=ref) for ref in refs]


def test_batch_items_are_claimed_once_each(database, report, job, candidate):
    with database.session() as session:
        job_row = repo.save_job(session, report=report, job=job)
        run = batches.start_batch_run(
            session, job_row=job_row, items=_items("a.md", "b.md", "a.md", "c.md"), settings={}
        )
        run_id = run.id

    def worker(_: int) -> list[str]:
        claimed = []
        while True:
            with database.session() as session:
                item = batches.claim_batch_item(session, run_id=run_id)
                if item is None:
                    return claimed
                claimed.append(item.candidate_ref)
                batches.finish_batch_item(session, item=item, analysis=None, error="skipped")

    with ThreadPoolExecutor(max_workers=3) as pool:
        claimed = [ref for refs in pool.map(worker, range(3)) for ref in refs]
    assert sorted(claimed) == ["a.md", "b.md", "c.md"]
    assert _count(database, BatchItem, status="failed") == 3


def _one_item_run(database, report, job) -> int:
    with database.session() as session:
        job_row = repo.save_job(session, report=report, job=job)
        return batches.start_batch_run(
            session, job_row=job_row, items=_items("a.md"), settings={}
        ).id


def test_a_dead_workers_item_is_taken_back_when_its_lease_runs_out(database, report, job):
    run_id = _one_item_run(database, report, job)
    with database.session() as session:
        first = batches.claim_batch_item(session, run_id=run_id, worker="w1", lease_s=600)
        assert first is not None and first.lease_owner == "w1"
    with database.session() as session:  # held, lease running: nothing to take
        assert batches.claim_batch_item(session, run_id=run_id, worker="w2") is None
    with database.session() as session:  # w1 dies; its lease runs out
        session.execute(
            update(BatchItem).values(lease_expires_at=first.lease_expires_at - timedelta(hours=1))
        )
    with database.session() as session:
        again = batches.claim_batch_item(session, run_id=run_id, worker="w2", lease_s=600)
        assert again is not None and (again.id, again.lease_owner) == (first.id, "w2")
    with database.session() as session:  # w1 wakes up: it no longer holds the item
        item = session.get(BatchItem, first.id)
        assert not batches.renew_lease(session, item=item, worker="w1")
        assert not batches.finish_batch_item(
            session, item=item, analysis=None, error="late", worker="w1"
        )
        assert batches.renew_lease(session, item=item, worker="w2")
        assert batches.finish_batch_item(session, item=item, analysis=None, worker="w2")
        assert (item.status, item.error, item.lease_owner) == ("done", None, None)
    assert _count(database, AuditEvent, event="batch_item_reclaimed") == 1
    with database.session() as session:  # done is done: never claimed again
        assert batches.claim_batch_item(session, run_id=run_id, worker="w3") is None


def test_different_candidates_are_different_rows(database, report, job, candidate):
    other = candidate.model_copy(update={"id": "cand_other", "text": candidate.text + "\nMore."})
    with database.session() as session:
        repo.save_analysis(session, report=report, job=job, candidate=candidate)
        repo.save_analysis(session, report=make_report(job, other), job=job, candidate=other)
    assert _count(database, Candidate) == 2
    assert _count(database, Analysis) == 2


def test_sqlite_runs_with_wal_and_foreign_keys(database):
    if not database.is_sqlite:
        assert database.engine.dialect.name == "postgresql"
        return
    with database.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_an_injected_profile_s_analysis_is_recorded_as_flagged_without_its_text(database, job):
    from pathlib import Path

    from agent.ingest.files import load_candidate

    corpus = Path(__file__).resolve().parents[1] / "fixtures" / "injection"
    injected = load_candidate(corpus / "bio_note_to_ai.md")
    report = make_report(job, injected)
    assert report.flags == ["instructions"]
    with database.session() as session:
        row, _ = repo.save_analysis(session, report=report, job=job, candidate=injected)
    with database.session() as session:
        event = session.scalars(select(AuditEvent).filter_by(event="profile_flagged")).one()
        assert event.details == {"flags": ["instructions"]}
        assert event.analysis_id == row.id
        assert "Note to the AI" not in json.dumps(event.details)
