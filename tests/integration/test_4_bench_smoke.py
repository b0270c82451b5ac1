"""`hiring-assistant bench --pairs 1`: the benchmark's smoke run, real engines, every level.

One pair: with two, the run (speculation off and on, three levels, about 900 output tokens an
analysis at 110 ms a token without speculation) passed 20 minutes on a slow 2-core machine.
"""

from __future__ import annotations

import json
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
    out = subprocess.run(
        [str(exe), "bench", "--pairs", "1", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["pairs"] == 1 and results["vllm_version"]
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
            assert all(config[level][key] > 0 for key in LEVEL_KEYS), (config["name"], level)
    assert off["acceptance_rate"] is None
    assert 0 < ngram["acceptance_rate"] <= 1 and ngram["mean_acceptance_length"] > 1
    # greedy outputs on/off: the rate is measured, each mismatch says where it starts
    assert ngram["exact_match_rate"] == 1 - len(ngram["mismatches"])
    for plot in ("tpot.png", "p90_latency.png", "acceptance_per_position.png", "latency_cdf.png"):
        assert (tmp_path / plot).stat().st_size > 5000, plot
    assert shipped.label in out.stdout and "TPOT" in out.stdout and "Run time:" in out.stdout
