"""A real analysis on the embedded model, with n-gram speculation on."""

from __future__ import annotations

import pytest

from agent.graph.validation import validate_analysis
from agent.service import analyze
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


def _torch_threads(_worker: object) -> int:
    """Runs inside vLLM's model worker (through ``collective_rpc``)."""
    import torch

    return torch.get_num_threads()


def test_speculation_leaves_the_model_every_cpu(engines, speculative_outputs):
    """vLLM's n-gram proposer once cut PyTorch to one thread after the first speculative step.

    It calls numba's ``set_num_threads``; under numba's OpenMP layer that is PyTorch's OpenMP
    pool too. The engine starts vLLM with numba's workqueue layer, so the model keeps the CPUs
    of ``cpu_bind=all`` (the default) after speculating.
    """
    engine = engines.get(NGRAM)  # has just generated every sample pair speculatively
    assert engine.settings.cpu_bind == "all"
    bound = engine.info.extra["cpu_bind"].split(",")  # what serving.cpu resolved "all" to
    threads = engine._run(engine._llm.collective_rpc(_torch_threads))
    assert threads == [len(bound)]
