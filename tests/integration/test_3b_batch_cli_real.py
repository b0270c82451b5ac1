"""`hiring-assistant batch run` on the real engine: SIGKILLed half-way, then run again.

The killed command's vLLM processes end with it. The same command continues the same run: the
shortlist lists every candidate once, ranked by score, and the report page shows them all.
"""

from __future__ import annotations

import contextlib
import csv
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import candidate_path, job_path

pytestmark = pytest.mark.integration

CANDIDATES = ("cand_033", "cand_056", "cand_001", "cand_012")


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:  # the parent's pid
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_killed_batch_run_leaves_no_engine_and_continues_where_it_stopped(engines, tmp_path):
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
        engine = _children(first.pid)  # vLLM's engine core
        assert engine, "the batch command started no engine process"
        os.kill(first.pid, signal.SIGKILL)  # the command alone, as `kill -9 PID` does
        first.wait(timeout=60)
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in engine) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not any(_alive(pid) for pid in engine), "vLLM outlived the killed command"
    finally:  # whatever is left of the group, should the test fail half-way
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
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
