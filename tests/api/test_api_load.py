"""The load test against a small queue: busy answers are retried, and no request is lost."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from agent.cli.app import app
from serving.fake_engine import ScriptedEngine
from tests.api.conftest import KEY, answer, serve


def test_eight_clients_times_four_lose_nothing_behind_a_small_queue(tmp_path):
    engine = ScriptedEngine(responder=answer, delay_s=0.05)
    with serve(f"sqlite:///{tmp_path / 'db'}", engine=engine, workers=2, queue_size=3) as api:
        result = CliRunner().invoke(
            app,
            [
                "loadtest",
                "--url", api.url,
                "--key", KEY,
                "--candidates", "samples/candidates/cand_00*.md",
                "--out", str(tmp_path / "out"),
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads((tmp_path / "out" / "api_load.json").read_text())
    assert (figures["sent"], figures["ok"], figures["lost"]) == (32, 32, 0)
    assert figures["busy_retries"] > 0  # the queue of 3 turned some away, and they came back
    assert figures["by_status"] == {"200": 32}
    assert figures["latency_p50_s"] <= figures["latency_p90_s"] <= figures["latency_max_s"]
    assert len({r["analysis_id"] for r in figures["results"]}) == 32
    assert "sent 32, answered 32, ok 32, lost 0" in result.output


def test_loadtest_says_when_nothing_answers(tmp_path):
    result = CliRunner().invoke(
        app, ["loadtest", "--url", "http://127.0.0.1:9", "--key", "k", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "no service answers at http://127.0.0.1:9" in result.output
