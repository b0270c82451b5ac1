"""Batch runs end to end on SQLite and PostgreSQL, with a scripted engine answering every request.

A run over a folder with a bad file and a duplicate in it; the same inputs continue the same run;
two workers share one run; a stopped worker leaves nothing half-done; an engine failure gives the
item back; a dead worker's items are put back at once.
"""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

from sqlalchemy import func, select, update

from agent.batch.exports import FILE_NAMES, run_view
from agent.batch.service import find_existing, open_run, run_state, save_outputs, work_run
from agent.batch.sources import collect_candidates
from agent.batch.worker import BatchWorker, release_dead_workers
from agent.ingest.files import load_job
from agent.service import AnalysisService
from agent.store.tables import Analysis, AuditEvent, BatchItem
from serving.engine import EngineError
from serving.fake_engine import ScriptedEngine
from tests.conftest import job_path
from tests.store.batch_helpers import SAMPLE_IDS, answering_service, resume_folder
from tests.unit.fake_answers import valid_answer

ROOT = Path(__file__).resolve().parents[2]


def _count(database, model, **where) -> int:
    with database.session() as session:
        query = select(func.count()).select_from(model).filter_by(**where)
        return session.execute(query).scalar_one()


def _messy_folder(tmp_path: Path) -> Path:
    """The sample resumes, with a PDF without text in the middle and one resume twice."""
    folder = resume_folder(tmp_path)
    (folder / "cand_015.pdf").write_bytes(b"%PDF-1.4 not really a pdf")
    (folder / "resent_cand_033.md").write_text((folder / "cand_033.md").read_text())
    return folder


def test_a_run_ranks_every_candidate_once_and_lists_the_bad_file(database, tmp_path):
    job = load_job(job_path("job_008"))
    found = collect_candidates([str(_messy_folder(tmp_path))])
    service = answering_service(database)
    state = open_run(service, job, found, name="backend")
    assert state.created and state.total == len(SAMPLE_IDS) + 2

    state = work_run(service, state.run_id)
    assert state.status == "finished"
    assert state.counts == {"done": len(SAMPLE_IDS), "failed": 1, "duplicate": 1}
    assert _count(database, Analysis) == len(SAMPLE_IDS)

    paths = save_outputs(database, state.run_id, tmp_path / "out")
    rows = list(csv.DictReader(io.StringIO(paths["csv"].read_text())))
    ranked = [r for r in rows if r["status"] == "done"]
    assert sorted(r["candidate_id"] for r in ranked) == sorted(SAMPLE_IDS)
    scores = [int(r["score"]) for r in ranked]
    assert scores == sorted(scores, reverse=True)
    assert [int(r["rank"]) for r in ranked] == list(range(1, len(ranked) + 1))
    rest = {r["status"]: r for r in rows if r["status"] != "done"}
    assert rest["failed"]["candidate_id"].endswith("cand_015.pdf") and rest["failed"]["reason"]
    assert "same profile as cand_033" in rest["duplicate"]["reason"]

    reports = [json.loads(line) for line in paths["jsonl"].read_text().splitlines()]
    assert [r["candidate"]["id"] for r in reports] == [r["candidate_id"] for r in ranked]
    html = paths["html"].read_text()
    for cid in SAMPLE_IDS:
        assert cid in html
    assert "cand_015.pdf" in html
    assert not re.search(r"""(src|href)\s*=|url\(|@import""", html)  # self-contained
    events = {e for (e,) in _events(database)}
    assert {"batch_started", "batch_finished", "batch_exported"} <= events


def _events(database):
    with database.session() as session:
        return session.execute(select(AuditEvent.event)).all()


def test_the_same_inputs_continue_the_same_run(database, tmp_path):
    job = load_job(job_path("job_008"))
    folder = resume_folder(tmp_path)
    service = answering_service(database)
    first = open_run(service, job, collect_candidates([str(folder)]))
    again = open_run(service, job, collect_candidates([str(folder / "*.md")]))
    assert (again.run_id, again.created) == (first.run_id, False)
    # another candidate set is another run
    (folder / "cand_002.md").write_text("Candidate 002\nPython developer for 6 years.")
    other = open_run(service, job, collect_candidates([str(folder)]))
    assert other.run_id != first.run_id and other.created
    assert find_existing(database, job, collect_candidates([str(folder)])).run_id == other.run_id


def test_two_workers_share_one_run_and_analyze_each_candidate_once(database, tmp_path):
    job = load_job(job_path("job_008"))
    found = collect_candidates([str(resume_folder(tmp_path))])
    setup = answering_service(database)
    run_id = open_run(setup, job, found).run_id
    claimed: dict[str, list[str]] = {"a": [], "b": []}

    def worker(name: str) -> None:
        service = answering_service(database, delay_s=0.05, concurrency=2)
        BatchWorker(service, run_id, on_result=lambda r: claimed[name].append(r.candidate_id)).run()

    threads = [threading.Thread(target=worker, args=(n,)) for n in claimed]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    everyone = claimed["a"] + claimed["b"]
    assert sorted(everyone) == sorted(SAMPLE_IDS)  # each once, none lost
    assert claimed["a"] and claimed["b"]  # both took part
    assert run_state(database, run_id).status == "finished"
    assert _count(database, Analysis) == len(SAMPLE_IDS)
    assert _count(database, AuditEvent, event="batch_finished") == 1


def test_a_stopped_worker_saves_what_was_in_flight_and_the_run_goes_on_later(database, tmp_path):
    job = load_job(job_path("job_008"))
    found = collect_candidates([str(resume_folder(tmp_path))])
    service = answering_service(database, delay_s=0.05, concurrency=2)
    run_id = open_run(service, job, found).run_id
    workers: list[BatchWorker] = []

    state = work_run(
        service,
        run_id,
        on_worker=workers.append,
        on_result=lambda _result: workers[0].stop(),  # Ctrl-C at the first result
    )
    assert state.status == "running"
    assert not state.counts.get("running")  # nothing left half-done
    done = state.counts["done"]
    assert 1 <= done < len(SAMPLE_IDS) and _count(database, Analysis) == done
    assert ("batch_stopped",) in _events(database)

    state = work_run(service, run_id)
    assert state.status == "finished" and state.counts == {"done": len(SAMPLE_IDS)}
    assert _count(database, Analysis) == len(SAMPLE_IDS)


def test_an_engine_failure_gives_the_item_back_instead_of_failing_it(database, tmp_path):
    job = load_job(job_path("job_008"))
    found = collect_candidates([str(resume_folder(tmp_path, ("cand_033",)))])
    broken = ScriptedEngine(responder=lambda _request: EngineError("engine process died"))
    run_id = open_run(answering_service(database), job, found).run_id
    try:
        work_run(AnalysisService(broken, database), run_id)
    except EngineError as exc:
        assert "died" in str(exc)
    else:
        raise AssertionError("the engine failure was swallowed")
    assert run_state(database, run_id).counts == {"pending": 1}
    assert work_run(answering_service(database), run_id).counts == {"done": 1}


def test_items_of_a_dead_worker_on_this_machine_are_put_back_at_once(database, tmp_path):
    job = load_job(job_path("job_008"))
    found = collect_candidates([str(resume_folder(tmp_path, ("cand_033", "cand_001")))])
    run_id = open_run(answering_service(database), job, found).run_id
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    alive_elsewhere = "another-host:1:abcd"
    with database.session() as session:
        ids = session.scalars(select(BatchItem.id).order_by(BatchItem.id)).all()
        owners = {ids[0]: _worker_on_this_host(dead), ids[1]: alive_elsewhere}
        for item_id, owner in owners.items():
            session.execute(
                update(BatchItem)
                .where(BatchItem.id == item_id)
                .values(status="running", lease_owner=owner, lease_expires_at=func.now())
            )
    assert release_dead_workers(database, run_id) == 1
    assert run_state(database, run_id).counts == {"pending": 1, "running": 1}


def _worker_on_this_host(pid: str) -> str:
    from agent.batch.worker import new_worker_id

    host = new_worker_id().split(":")[0]
    return f"{host}:{pid}:dead0000"


def test_an_export_mid_run_lists_the_unfinished_items_last(database, tmp_path):
    job = load_job(job_path("job_008"))
    found = collect_candidates([str(resume_folder(tmp_path))])
    service = answering_service(database)
    run_id = open_run(service, job, found).run_id
    with database.session() as session:
        view = run_view(session, run_id)
    assert [e.status for e in view.entries] == ["pending"] * len(SAMPLE_IDS)
    paths = save_outputs(database, run_id, tmp_path / "early")
    assert set(paths) == set(FILE_NAMES)
    rows = list(csv.DictReader(io.StringIO(paths["csv"].read_text())))
    assert {r["status"] for r in rows} == {"pending"} and not paths["jsonl"].read_text()
    assert "in progress" in paths["html"].read_text()


def test_a_run_killed_with_sigkill_resumes_with_nothing_lost_or_twice(
    database, database_url, tmp_path
):
    """A worker process is killed (SIGKILL) with analyses in flight; a second one finishes the
    run: every candidate analyzed exactly once, nothing left running."""
    job = load_job(job_path("job_008"))
    found = collect_candidates([str(resume_folder(tmp_path))])
    run_id = open_run(answering_service(database), job, found).run_id
    command = [sys.executable, "-m", "tests.store.batch_worker", database_url, str(run_id)]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    seen = []
    assert first.stdout is not None
    try:
        for line in first.stdout:
            assert line.startswith("done "), f"unexpected output: {line!r}"
            seen.append(line.split()[1])
            if len(seen) == 2:
                break
    finally:  # killed in any case: a worker left running would hold the schema's locks
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    halfway = run_state(database, run_id).counts
    assert halfway["done"] >= 2 and halfway.get("pending", 0) + halfway.get("running", 0) > 0

    second = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert second.returncode == 0, second.stderr
    seen += [line.split()[1] for line in second.stdout.splitlines() if line.startswith("done")]
    assert "finished True" in second.stdout
    state = run_state(database, run_id)
    assert state.status == "finished" and state.counts == {"done": len(SAMPLE_IDS)}
    assert _count(database, Analysis) == len(SAMPLE_IDS)  # none saved twice
    rows = list(
        csv.DictReader(io.StringIO(save_outputs(database, run_id, tmp_path)["csv"].read_text()))
    )
    assert sorted(r["candidate_id"] for r in rows) == sorted(SAMPLE_IDS)  # each once
    assert set(seen) <= set(SAMPLE_IDS)


def test_a_bug_met_on_one_candidate_fails_that_item_and_the_run_goes_on(database, tmp_path):
    job = load_job(job_path("job_008"))
    found = collect_candidates([str(resume_folder(tmp_path, ("cand_033", "cand_001")))])

    def answer(request):
        if "Candidate 001" in request.messages[1]["content"]:
            return KeyError("a field nobody expected")
        return valid_answer(request)

    service = AnalysisService(ScriptedEngine(responder=answer), database)
    state = work_run(service, open_run(service, job, found).run_id)
    assert state.status == "finished" and state.counts == {"done": 1, "failed": 1}
    with database.session() as session:
        failed = session.scalars(select(BatchItem).filter_by(status="failed")).one()
        assert failed.candidate_ref == "cand_001"
        assert "unexpected error (KeyError" in failed.error
