"""A real vLLM server (the command `hiring-assistant model serve` runs) through RemoteEngine.

The server starts once for this module, on a free port, and is killed (its whole process
group) whatever happens. It checks that each answer carries its own speculation figures, that
they add up to the server's counters, and that greedy output equals the in-process engine's.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.service import prepare_request, run_analysis
from schemas.report import MatchReport
from serving.config import EngineSettings
from serving.embedded_model import resolve_model
from serving.engine import EngineError
from serving.metrics import SpeculationCounters
from serving.remote_engine import RemoteEngine
from serving.server import start_server, stop_server, wait_until_ready
from tests.conftest import candidate_path, job_path
from tests.integration.conftest import NGRAM

pytestmark = pytest.mark.integration

START_TIMEOUT_S = 240
# Answers cut short keep the module quick; every check here holds for a prefix of the answer.
MAX_TOKENS = 192


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    settings = EngineSettings().model_copy(update={"speculation": NGRAM})
    port = _free_port()
    model = resolve_model(settings)
    url = f"http://127.0.0.1:{port}/v1"
    with tempfile.NamedTemporaryFile(
        "w", prefix="vllm-server-", suffix=".log", delete=False
    ) as out:
        log = Path(out.name)
        process = start_server(settings, host="127.0.0.1", port=port, model=model, log=out)
    try:
        start = time.monotonic()
        try:
            wait_until_ready(url, START_TIMEOUT_S, alive=lambda: process.poll() is None)
        except EngineError as exc:
            pytest.fail(f"{exc}; the end of its log:\n{log.read_text()[-3000:]}")
        print(f"\nvLLM server ready at {url} after {time.monotonic() - start:.0f} s")
        yield url
    finally:
        stop_server(process)
        log.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def remote(server_url) -> Iterator[RemoteEngine]:
    settings = EngineSettings().model_copy(update={"speculation": NGRAM, "engine_url": server_url})
    with RemoteEngine(settings) as engine:
        yield engine


@pytest.fixture(scope="module")
def remote_requests(remote, pair_inputs):
    requests = [prepare_request(job, candidate, remote) for job, candidate in pair_inputs]
    return [dataclasses.replace(r, max_tokens=MAX_TOKENS) for r in requests]


def _counters_after(remote: RemoteEngine, before: SpeculationCounters, expected: int):
    """The server's counters since ``before``, once they reach ``expected`` draft tokens (the
    server records its statistics as it hands out the outputs, so give it a moment)."""
    deadline = time.monotonic() + 5
    while True:
        delta = remote.speculation_counters() - before
        if delta.draft_tokens >= expected or time.monotonic() > deadline:
            return delta
        time.sleep(0.2)


def test_each_answer_carries_its_own_speculation(remote, remote_requests):
    assert remote.info.model.endswith("SmolLM2-135M-Instruct")
    assert remote.count_prompt_tokens(remote_requests[0].messages) > 100
    before = remote.speculation_counters()
    start = time.perf_counter()
    generations = remote.generate_many(remote_requests)
    elapsed = time.perf_counter() - start
    own = sum((g.speculation for g in generations), SpeculationCounters())
    server = _counters_after(remote, before, own.draft_tokens)
    for g in generations:
        assert g.finish_reason in ("stop", "length")
        assert g.speculation.draft_tokens > 0 and g.speculation.accepted_tokens > 0
        assert len(g.token_ids) == g.metrics.output_tokens > 50
        print(f"\n{g.metrics.to_dict()} {g.speculation.to_dict()}")
        assert 0 < g.metrics.ttft_s < g.metrics.e2e_s
    assert own == server
    tokens = sum(g.metrics.output_tokens for g in generations)
    print(
        f"\n{len(generations)} at once: {tokens} tokens in {elapsed:.1f} s, "
        f"acceptance {own.acceptance_rate:.2f}, mean length {own.mean_acceptance_length:.2f}"
    )


def test_cli_analysis_through_the_server_equals_the_in_process_one(
    server_url, engines, pair_inputs, tmp_path
):
    """`analyze --json` with the engine URL set: the server's report, speculation figures
    included, and the same analysis as the in-process engine's for the same pair (greedy)."""
    job, candidate = pair_inputs[0]
    env = {
        **os.environ,
        "HIRING_ASSISTANT_ENGINE_URL": server_url,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}",
    }
    command = [
        str(Path(sys.executable).with_name("hiring-assistant")),
        *("analyze", "--json", "--job", str(job_path("job_008"))),
        *("--candidate", str(candidate_path("cand_033"))),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"vLLM server at {server_url}" in done.stderr
    over_http = MatchReport.model_validate(json.loads(done.stdout))
    spec = over_http.metrics["speculation"]
    assert spec["draft_tokens"] > 0 and 0 < spec["accepted_tokens"] <= spec["draft_tokens"]
    assert over_http.provenance.engine == "vllm-server"
    in_process = run_analysis(job, candidate, engines.get(NGRAM)).report
    assert over_http.analysis == in_process.analysis
    assert over_http.score == in_process.score
    print(f"\nsame analysis over HTTP and in-process; server speculation {spec}")


def test_the_http_api_serves_through_the_vllm_server(remote, engines, tmp_path):
    """`hiring-assistant serve` with HIRING_ASSISTANT_ENGINE_URL set: the same routes, the
    analysis made by the server, its speculation counters in /metrics."""
    from tests.api.conftest import AUTH, serve

    engines.close()  # only the server's engine works here
    body = {
        "job": {"text": job_path("job_008").read_text()},
        "candidate": {"id": "cand_033", "text": candidate_path("cand_033").read_text()},
    }
    with serve(f"sqlite:///{tmp_path / 'api.db'}", engine=remote) as api:
        answer = api.client.post("/v1/analyses?wait=true", json=body, headers=AUTH, timeout=600)
        assert answer.status_code == 200, answer.text
        assert answer.json()["provenance"]["engine"] == "vllm-server"
        assert api.client.get("/readyz").json()["engine"] == "ok"
        metrics = api.client.get("/metrics").text
    drafted = next(
        float(line.split()[-1])
        for line in metrics.splitlines()
        if line.startswith("hiring_assistant_spec_decode_draft_tokens_total")
    )
    assert drafted > 0
