"""`batch list`, `status`, `export` and a finished `batch run` again, through the real CLI app.

The runs are made with the scripted engine (the CLI's own `batch run` on the real engine is in
tests/integration); a finished run given again needs no engine at all.
"""

from __future__ import annotations

import csv
import io

from typer.testing import CliRunner

from agent.batch.service import open_run, work_run
from agent.batch.sources import collect_candidates
from agent.cli.app import app
from agent.ingest.files import load_job
from agent.store.tables import AuditEvent
from tests.conftest import job_path
from tests.store.batch_helpers import SAMPLE_IDS, answering_service, resume_folder

runner = CliRunner()


def _run(database_url: str, *args: str):
    return runner.invoke(app, list(args), env={"DATABASE_URL": database_url})


def _finished_run(database, folder) -> int:
    service = answering_service(database)
    job = load_job(job_path("job_008"))
    state = open_run(service, job, collect_candidates([str(folder)]), name="q4 backend")
    return work_run(service, state.run_id).run_id


def test_list_status_and_export_show_the_run(database, database_url, tmp_path):
    assert "No batch runs yet" in _run(database_url, "batch", "list").output
    run_id = _finished_run(database, resume_folder(tmp_path))

    listed = _run(database_url, "batch", "list")
    assert listed.exit_code == 0, listed.output
    row = next(line for line in listed.output.splitlines() if line.startswith(str(run_id)))
    for expected in ("q4 backend", "Django Developer", "complete", f"{len(SAMPLE_IDS)} analyzed"):
        assert expected in row

    status = _run(database_url, "batch", "status", str(run_id))
    assert status.exit_code == 0, status.output
    assert "complete" in status.output
    ranked = [line.split()[1] for line in status.output.splitlines() if line[:1].isdigit()]
    assert sorted(ranked) == sorted(SAMPLE_IDS)

    target = tmp_path / "shortlist.csv"
    exported = _run(database_url, "batch", "export", str(run_id), "--out", str(target))
    assert exported.exit_code == 0, exported.output
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert [r["rank"] for r in rows] == [str(n) for n in range(1, len(SAMPLE_IDS) + 1)]
    with database.session() as session:
        assert session.query(AuditEvent).filter_by(event="batch_exported").count() == 1


def test_bad_run_numbers_and_formats_get_one_line(database, database_url):
    missing = _run(database_url, "batch", "status", "99")
    assert missing.exit_code == 2 and "no batch run 99" in missing.output
    wrong = _run(database_url, "batch", "export", "1", "--format", "pdf")
    assert wrong.exit_code == 2 and "unknown format 'pdf'" in wrong.output


def test_the_same_command_on_a_finished_run_rewrites_its_files_without_an_engine(
    database, database_url, tmp_path
):
    folder = resume_folder(tmp_path)
    run_id = _finished_run(database, folder)
    out = tmp_path / "out"
    again = _run(
        database_url, "batch", "run", "--job", str(job_path("job_008")),
        "--candidates", str(folder), "--out", str(out),
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert f"Run {run_id} of this job and these candidates is complete" in again.output
    assert "Starting vLLM" not in again.output
    assert {p.name for p in out.iterdir()} == {"shortlist.csv", "results.jsonl", "report.html"}


def test_batch_run_with_no_readable_candidate_says_why(database, database_url, tmp_path):
    folder = tmp_path / "scans"
    folder.mkdir()
    (folder / "a.pdf").write_bytes(b"%PDF-1.4 nothing")
    result = _run(
        database_url, "batch", "run", "--job", str(job_path("job_008")),
        "--candidates", str(folder),
    )  # fmt: skip
    assert result.exit_code == 2
    assert "no candidate could be read" in result.output and "a.pdf" in result.output
