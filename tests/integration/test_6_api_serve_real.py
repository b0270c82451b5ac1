"""`hiring-assistant serve` on the real engine, over HTTP on 127.0.0.1: a key, a real analysis
with verbatim quotes, 401 and 422, the metrics with speculation counters, and a clean stop."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from schemas.report import MatchReport
from tests.conftest import candidate_path, job_path
from tests.integration.test_3b_batch_cli_real import _alive, _children

pytestmark = pytest.mark.integration
KEY = "k1-integration-0123"


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} is not in /metrics")


def test_serve_answers_a_real_analysis_and_stops_cleanly(engines, tmp_path):
    engines.close()  # the server starts its own engine
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    exe = Path(sys.executable).with_name("hiring-assistant")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'api.db'}",
        "HIRING_ASSISTANT_API_KEYS": KEY,
    }
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [str(exe), "serve", "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/readyz", timeout=5).status_code == 200:
                    break
            assert time.monotonic() < deadline, "the server did not get ready"
            time.sleep(1)
        engine = _children(server.pid)
        candidate = candidate_path("cand_033").read_text()
        body = {
            "job": {"text": job_path("job_008").read_text()},
            "candidate": {"id": "cand_033", "text": candidate},
        }
        key = {"Authorization": f"Bearer {KEY}"}
        answer = httpx.post(f"{url}/v1/analyses?wait=true", json=body, headers=key, timeout=600)
        assert answer.status_code == 200, answer.text
        report = MatchReport.model_validate({k: v for k, v in answer.json().items() if k != "id"})
        assert report.provenance.engine.startswith("vllm")
        quotes = [q for a in report.analysis.assessments for q in a.evidence]
        assert quotes and all(q in candidate for q in quotes)
        assert httpx.post(f"{url}/v1/analyses", json=body, timeout=30).status_code == 401
        empty = {**body, "candidate": {"id": "x", "text": ""}}
        refused = httpx.post(f"{url}/v1/analyses", json=empty, headers=key, timeout=30)
        assert refused.status_code == 422
        metrics = httpx.get(f"{url}/metrics", timeout=30).text
        assert _metric(metrics, "hiring_assistant_analyses_total") == 1
        drafted = _metric(metrics, "hiring_assistant_spec_decode_draft_tokens_total")
        accepted = _metric(metrics, "hiring_assistant_spec_decode_accepted_tokens_total")
        assert 0 < accepted <= drafted
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=120) == 0
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in engine) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not any(_alive(pid) for pid in engine), "vLLM outlived the server"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
    output = (tmp_path / "serve.log").read_text()
    assert "Serving on http://127.0.0.1:" in output
    assert "Stopped: the analyses it had accepted are finished." in output
    assert KEY not in output and "full-stack web developer" not in output
