"""A real analysis on the embedded model, with n-gram speculation on."""

from __future__ import annotations

import pytest

from agent.analysis import analyze
from agent.validation import validate_analysis
from tests.integration.conftest import NGRAM, PAIRS

pytestmark = pytest.mark.integration


def test_real_analysis_validates_with_grounded_quotes(engines, pair_inputs):
    job, candidate = pair_inputs[0]
    report = analyze(job, candidate, engines.get(NGRAM))
    ids = [a.requirement_id for a in report.analysis.assessments]
    assert ids == [r.id for r in report.requirements]
    quotes = [q for a in report.analysis.assessments for q in a.evidence]
    quotes += [q for r in report.analysis.ratings().values() for q in r.evidence]
    assert quotes, "the strong candidate should have at least one quote"
    assert all(q in candidate.text for q in quotes)
    assert 0 <= report.score <= 100
    assert report.metrics["output_tokens"] > 50
    assert report.metrics["speculation"]["draft_tokens"] > 0
    assert report.metrics["speculation"]["accepted_tokens"] > 0
    assert report.provenance.model.endswith("SmolLM2-135M-Instruct")


def test_every_sample_pair_validates(speculative_outputs, pair_inputs):
    generations, _ = speculative_outputs
    for (job, candidate), generation in zip(pair_inputs, generations, strict=True):
        assert generation.finish_reason == "stop", (job.title, candidate.id)
        analysis = validate_analysis(generation.text, job.requirements, candidate.text)
        assert [a.requirement_id for a in analysis.assessments] == [r.id for r in job.requirements]


def test_speculation_drafts_and_accepts(speculative_outputs):
    _, counters = speculative_outputs
    print(f"\nspeculation over {len(PAIRS)} pairs: {counters.to_dict()}")
    assert counters.drafts > 0
    assert counters.draft_tokens >= counters.drafts
    assert 0 < counters.accepted_tokens <= counters.draft_tokens
    assert counters.mean_acceptance_length > 1.0
    assert sum(counters.accepted_per_position) == counters.accepted_tokens
