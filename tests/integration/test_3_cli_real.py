"""`hiring-assistant analyze --json` end to end, in its own process, on the real engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import candidate_path, job_path

pytestmark = pytest.mark.integration


def test_analyze_json_has_analysis_metrics_and_speculation(engines):
    engines.close()  # an idle engine's workers still spin on the CPU the subprocess needs
    exe = Path(sys.executable).with_name("hiring-assistant")
    assert exe.exists(), "the console script is not installed (run make install)"
    candidate = candidate_path("cand_037")
    out = subprocess.run(
        [
            str(exe),
            "analyze",
            "--json",
            "--job",
            str(job_path("job_014")),
            "--candidate",
            str(candidate),
            "--num-speculative-tokens",
            "4",
            "--prompt-lookup-max",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    payload = json.loads(out.stdout)
    metrics = payload["metrics"]
    for key in ("output_tokens", "tpot_ms", "e2e_s", "ttft_s", "prompt_tokens"):
        assert metrics[key] > 0, key
    spec = metrics["speculation"]
    assert (spec["method"], spec["num_speculative_tokens"]) == ("ngram", 4)
    assert (spec["prompt_lookup_max"], spec["prompt_lookup_min"]) == (4, 2)
    assert spec["draft_tokens"] > 0 and 0 < spec["acceptance_rate"] <= 1
    text = candidate.read_text()
    quotes = [q for a in payload["analysis"]["assessments"] for q in a["evidence"]]
    assert quotes and all(q in text for q in quotes)
    assert 0 <= payload["score"] <= 100
    assert payload["recommendation"]["greenhouse"] in {
        "strong_yes",
        "yes",
        "no",
        "definitely_not",
        "no_decision",
    }
    assert payload["provenance"]["prompt_version"]
