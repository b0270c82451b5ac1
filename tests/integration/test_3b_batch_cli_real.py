"""`hiring-assistant batch run` on the real engine: SIGKILLed half-way, then run again.

The same command continues the same run: the shortlist lists every candidate once, ranked by
score, and the report page shows them all.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import candidate_path, job_path

pytestmark = pytest.mark.integration

CANDIDATES = ("cand_033", "cand_056", "cand_001", "cand_012")


def test_a_killed_batch_run_continues_where_it_stopped(engines, tmp_path):
    engines.close()  # the batch starts its own engine; an idle one would steal its CPU
    folder = tmp_path / "resumes"
    folder.mkdir()
    for cid in CANDIDATES:
        shutil.copy(candidate_path(cid), folder / f"{cid}.md")
    exe = Path(sys.executable).with_name("hiring-assistant")
    command = [
        str(exe), "batch", "run", "--job", str(job_path("job_008")),
        "--candidates", str(folder), "--out", str(tmp_path / "out"), "--concurrency", "2",
    ]  # fmt: skip
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'store.db'}"}

    first = subprocess.Popen(
        command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip
    assert first.stderr is not None
    try:
        for line in first.stderr:
            if line.startswith("[1/4]"):
                break
        else:
            pytest.fail("the first run ended before analyzing anything")
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # the CLI and vLLM's processes, mid-flight
        first.wait(timeout=60)
    assert not (tmp_path / "out").exists()

    second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    assert second.returncode == 0, second.stderr[-3000:]
    assert "Continuing run 1: 1 of 4" in second.stderr
    assert second.stderr.count("] cand_") == 3  # only the three not saved before the kill

    rows = list(csv.DictReader((tmp_path / "out" / "shortlist.csv").open()))
    assert sorted(r["candidate_id"] for r in rows) == sorted(CANDIDATES)
    scores = [int(r["score"]) for r in rows]
    assert scores == sorted(scores, reverse=True) and rows[0]["candidate_id"] == "cand_033"
    html = (tmp_path / "out" / "report.html").read_text()
    assert all(f"<b>{cid}</b>" in html for cid in CANDIDATES)
