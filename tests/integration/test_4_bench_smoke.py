"""`hiring-assistant bench --pairs 1 --max-tokens 160`: the benchmark's smoke run, every level.

Real engines, speculation off and on, three levels. The cap keeps it to a few minutes: a whole
answer (about 900 tokens at 110 ms a token without speculation) ran past 20 minutes for one
pair on a slow 2-core CI machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from serving.config import SpeculationConfig

pytestmark = pytest.mark.integration

LEVEL_KEYS = ("tpot_ms_p50", "tpot_ms_p90", "e2e_s_p50", "e2e_s_p90", "output_tok_per_s")


def test_bench_smoke_run_writes_results_and_plots(engines, tmp_path):
    engines.close()  # the benchmark starts its own engines, one at a time
    exe = Path(sys.executable).with_name("hiring-assistant")
    command = [str(exe), "bench", "--pairs", "1", "--max-tokens", "160", "--out", str(tmp_path)]
    command += ["--sla-p90", "600", "--sla-probes", "2"]  # one answer: well within, one probe
    # its own process group: on a timeout the engine processes go too, not only the CLI
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as proc:
        try:
            stdout, stderr = proc.communicate(timeout=900)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            pytest.fail(f"bench ran past 15 minutes:\n{stderr[-3000:]}")
    out = subprocess.CompletedProcess(command, proc.returncode, stdout, stderr)
    assert out.returncode == 0, out.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["pairs"] == 1 and results["max_tokens"] == 160 and results["vllm_version"]
    assert results["machine"]["cores"] >= 1 and results["machine"]["cpu_model"]
    assert results["run_s"] > sum(c["engine_start_s"] for c in results["configs"]) > 0
    off, ngram = results["configs"]
    assert (off["method"], ngram["method"]) == ("off", "ngram")
    shipped = SpeculationConfig()  # conftest hides any user settings file
    assert (ngram["num_speculative_tokens"], ngram["prompt_lookup_min"]) == (
        shipped.num_speculative_tokens,
        shipped.prompt_lookup_min,
    )
    for config in (off, ngram):
        for level in ("concurrency_1", "fixed_qps", "max_concurrency"):
            assert config[level]["requests"] == 1
            assert config[level]["output_tokens"] <= 160, (config["name"], level)
            assert all(config[level][key] > 0 for key in LEVEL_KEYS), (config["name"], level)
    assert off["acceptance_rate"] is None
    assert 0 < ngram["acceptance_rate"] <= 1 and ngram["mean_acceptance_length"] > 1
    # greedy outputs on/off: the rate is measured, each mismatch says where it starts
    assert ngram["exact_match_rate"] == 1 - len(ngram["mismatches"])
    # the SLA search: its first probe, at the full-load rate, meets a 600 s ceiling
    assert results["sla_p90_s"] == 600
    for config in (off, ngram):
        sla = config["sla"]
        assert len(sla["probes"]) == 1 and "capacity" in sla["note"], sla
        assert sla["probes"][0]["p90_s"] <= 600 and sla["max_qps"] > 0
    assert off["sla"]["ratio"] == 1.0 and ngram["sla"]["ratio"] > 0
    assert {row["key"] for row in results["targets"]} >= {"sla", "tpot", "full_load"}
    plots = ("tpot.png", "p90_latency.png", "acceptance_per_position.png", "latency_cdf.png")
    for plot in (*plots, "sla_throughput_p90.png"):
        assert (tmp_path / plot).stat().st_size > 5000, plot
    assert shipped.label in out.stdout and "TPOT" in out.stdout and "Run time:" in out.stdout
    assert "within P90 ≤ 600 s" in out.stdout
