"""`hiring-assistant audit` on a real batch run (scripted engine), through the real CLI app.

The expected impact ratios are recomputed here, step by step, from the scores the database holds
for the run, and compared with what the command prints, its JSON and its files.
"""

from __future__ import annotations

import csv
import json

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from agent.batch.service import open_run, work_run
from agent.batch.sources import collect_candidates
from agent.cli.app import app
from agent.ingest.files import load_job
from agent.store.tables import Analysis, AuditEvent, BatchItem
from tests.conftest import job_path
from tests.store.batch_helpers import answering_service, resume_folder

runner = CliRunner()
IDS = ("cand_002", "cand_005", "cand_001", "cand_003", "cand_004",
       "cand_007", "cand_009", "cand_011", "cand_010", "cand_028")  # fmt: skip
# cand_028 has no row (unknown everywhere); cand_010's race/ethnicity is empty; cand_999 is not
# in the run.
DEMOGRAPHICS = {
    "cand_002": ("Female", "Asian"),
    "cand_005": ("Male", "White"),
    "cand_001": ("Female", "Black"),
    "cand_003": ("Male", "Asian"),
    "cand_004": ("Female", "White"),
    "cand_007": ("Male", "Black"),
    "cand_009": ("Female", "White"),
    "cand_011": ("Male", "White"),
    "cand_010": ("Female", ""),
    "cand_999": ("Male", "Asian"),
}


def _run(database_url: str, *args: str):
    return runner.invoke(app, ["audit", *args], env={"DATABASE_URL": database_url})


def _finished_run(database, root) -> int:
    folder = resume_folder(root, IDS)
    (folder / "empty.md").write_text("")  # a file that fails: no score, excluded
    service = answering_service(database)
    job = load_job(job_path("job_008"))
    state = open_run(service, job, collect_candidates([str(folder)]), name="audit")
    return work_run(service, state.run_id).run_id


def _demographics_file(root):
    path = root / "demographics.csv"
    rows = [f"{cid},{sex},{race}" for cid, (sex, race) in DEMOGRAPHICS.items()]
    path.write_text(" Candidate ID ,Sex,Race / Ethnicity\n" + "\n".join(rows) + "\n")
    return path


def _stored_scores(database, run_id: int) -> dict[str, int]:
    with database.session() as session:
        rows = session.execute(
            select(BatchItem.candidate_ref, Analysis.score)
            .join(Analysis, BatchItem.analysis_id == Analysis.id)
            .where(BatchItem.run_id == run_id)
        ).all()
    return dict(rows)


def _by_hand(scores: dict[str, int]) -> tuple[float, dict[str, dict[str, float | None]]]:
    """Median of the whole sample, then per table: rate above it, over the highest rate."""
    ordered = sorted(scores.values())
    middle = len(ordered) // 2
    median = (
        (ordered[middle - 1] + ordered[middle]) / 2 if len(ordered) % 2 == 0 else ordered[middle]
    )
    labels = {
        "sex": lambda sex, race: sex or None,
        "race_ethnicity": lambda sex, race: race or None,
        "intersectional": lambda sex, race: f"{sex} × {race}" if sex and race else None,
    }
    expected: dict[str, dict[str, float | None]] = {}
    for table, label in labels.items():
        members: dict[str, list[int]] = {}
        for cid, score in scores.items():
            if cid in DEMOGRAPHICS and (name := label(*DEMOGRAPHICS[cid])):
                members.setdefault(name, []).append(score)
        rates = {n: sum(s > median for s in ss) / len(ss) for n, ss in members.items()}
        top = max(rates.values())  # 10 candidates: no category is under 2%
        expected[table] = {n: (r / top if top else None) for n, r in rates.items()}
    return median, expected


def test_audit_of_a_real_run_matches_the_stored_scores(database, database_url, tmp_path):
    run_id = _finished_run(database, tmp_path)
    scores = _stored_scores(database, run_id)
    assert sorted(scores) == sorted(IDS)  # the empty file has no score
    median, expected = _by_hand(scores)
    out = tmp_path / "audit"

    shown = _run(database_url, "--run", str(run_id), "--demographics",
                 str(_demographics_file(tmp_path)), "--out", str(out), "--json")  # fmt: skip
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert data["median"] == median and data["scored"] == len(IDS)
    assert data["excluded_no_score"] == {"failed": 1}
    assert data["demographics_not_in_run"] == 1 and data["scored_not_in_demographics"] == 1
    unknown = {t["key"]: t["unknown"] for t in data["tables"]}
    assert unknown == {"sex": 1, "race_ethnicity": 2, "intersectional": 2}
    for table in data["tables"]:
        got = {c["category"]: c["impact_ratio"] for c in table["categories"]}
        assert got.keys() == expected[table["key"]].keys()
        want = {
            n: (None if r is None else pytest.approx(r)) for n, r in expected[table["key"]].items()
        }
        assert got == want, table["key"]
    assert "human review" in data["notice"] and "6 RCNY § 5-300" in data["source"]

    # the three files exist and parse
    rows = list(csv.DictReader((out / "audit.csv").open(encoding="utf-8")))
    assert len(rows) == sum(len(t) for t in expected.values())
    for row in rows:
        ratio = expected[row["table"]][row["category"]]
        assert row["impact_ratio"] == ("" if ratio is None else f"{ratio:.4f}")
    assert set(json.loads((out / "audit.json").read_text())) >= {
        "median", "tables", "definitions", "source", "notice", "files", "excluded_no_score"
    }  # fmt: skip
    page = (out / "audit.html").read_text(encoding="utf-8")
    assert page.count('<table class="audit"') == 3 and "human review" in page

    # the printed tables say the same, to three places
    printed = _run(database_url, "--run", str(run_id), "--demographics",
                   str(_demographics_file(tmp_path)), "--out", str(out))  # fmt: skip
    assert printed.exit_code == 0, printed.output
    lines = printed.stdout.splitlines()
    for name, ratio in expected["sex"].items():
        row = next(line for line in lines if line.startswith(name + " "))
        assert row.split()[-1] == ("—" if ratio is None else f"{ratio:.3f}")
    assert f"median score {median:g}" in printed.stdout
    assert "Decision support for human review" in printed.stdout and "5-301" in printed.stdout

    with database.session() as session:
        events = session.scalars(select(AuditEvent).filter_by(event="bias_audit")).all()
    assert len(events) == 2
    details = events[0].details
    assert details["run"] == run_id and details["scored"] == len(IDS)
    assert details["files"]["json"] == str(out / "audit.json")
    logged = json.dumps(details)
    values = {v for pair in DEMOGRAPHICS.values() for v in pair if v}
    assert not any(word in logged for word in (*DEMOGRAPHICS, *IDS, *values))


def test_a_bad_demographics_file_gets_one_line_and_exit_2(database, database_url, tmp_path):
    run_id = _finished_run(database, tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_text("candidate_id,sex,race_ethnicity\ncand_001,Female,Asian\ncand_001,Male,White\n")
    out = tmp_path / "audit"
    result = _run(database_url, "--run", str(run_id), "--demographics", str(bad), "--out", str(out))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: {bad}: candidate_id 'cand_001' appears twice (rows 2 and 3)"
    ]
    assert not out.exists()
    missing = _run(database_url, "--run", "99", "--demographics", str(_demographics_file(tmp_path)))
    assert missing.exit_code == 2 and "no batch run 99" in missing.output
    with database.session() as session:
        assert session.query(AuditEvent).filter_by(event="bias_audit").count() == 0
