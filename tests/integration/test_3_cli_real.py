"""`hiring-assistant analyze --json` end to end, in its own process, on the real engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.rubric.text_quality import junk_reason
from tests.conftest import candidate_path, job_path

pytestmark = pytest.mark.integration


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("hiring-assistant")
    assert exe.exists(), "the console script is not installed (run make install)"
    return subprocess.run(
        [str(exe), *args], capture_output=True, text=True, timeout=900, env={**os.environ, **env}
    )


def test_analyze_json_is_saved_and_shown_by_history(engines, tmp_path):
    """Analyze, then `history` and `show` in new processes find it with its provenance."""
    engines.close()  # an idle engine's workers still spin on the CPU the subprocess needs
    candidate = candidate_path("cand_037")
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'store.db'}"}
    out = _cli(
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
        env=env,
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
    assert payload["recommendation"]["greenhouse"] in {
        "strong_yes",
        "yes",
        "no",
        "definitely_not",
        "no_decision",
    }
    analysis = payload["analysis"]
    texts = [a["reasoning"] for a in analysis["assessments"]] + [analysis["summary"]]
    texts += [analysis[d]["rationale"] for d in ("skills", "seniority", "domain_experience")]
    assert [t for t in texts if junk_reason(t) is not None] == [], "no junk in a final report"
    assert len(payload["text_origin"]) == len(texts)
    assert payload["provenance"]["prompt_version"]
    assert "Saved as analysis #1" in out.stderr

    history = _cli("history", env=env)
    assert history.returncode == 0, history.stderr
    row = history.stdout.splitlines()[2]
    assert row.split()[0] == "1" and "cand_037" in row and str(payload["score"]) in row
    assert "SmolLM2-135M-Instruct" in row and "ngram k=4 min=2 max=4" in row
    shown = _cli("show", "1", env=env)
    assert shown.returncode == 0, shown.stderr
    assert f"Prompt template version: {payload['provenance']['prompt_version']}" in shown.stdout
    assert f"candidate {payload['provenance']['candidate_hash']}" in shown.stdout
    assert "Speculation: ngram k=4 min=2 max=4" in shown.stdout
