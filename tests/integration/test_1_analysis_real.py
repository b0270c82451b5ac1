"""A real analysis on the embedded model, with n-gram speculation on."""

from __future__ import annotations

import pytest

from agent.graph.validation import validate_analysis
from agent.ingest.files import load_candidate
from agent.ingest.profile_view import profile_view
from agent.service import analyze, analyze_many
from schemas.report import MatchReport
from tests.conftest import candidate_path
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
        # the model quotes the profile it read: blinded ("Name: [name]") and screened
        model_profile = profile_view(candidate).text
        analysis = validate_analysis(generation.text, job.requirements, model_profile)
        assert [a.requirement_id for a in analysis.assessments] == [r.id for r in job.requirements]


def test_per_request_figures_add_up_to_the_engines(speculative_outputs):
    """4 requests at once: each answer's own drafts; together, exactly the engine's counters."""
    generations, counters = speculative_outputs
    total = sum((g.speculation for g in generations), type(counters)())
    assert (total.drafts, total.draft_tokens, total.accepted_tokens) == (
        counters.drafts,
        counters.draft_tokens,
        counters.accepted_tokens,
    )
    assert total.accepted_per_position == counters.accepted_per_position
    for generation in generations:  # no request holds another's: bounded by its own tokens
        own = generation.speculation
        assert 0 < own.drafts < generation.metrics.output_tokens
        assert 0 < own.accepted_tokens < generation.metrics.output_tokens


def test_reports_made_together_keep_their_own_speculation(engines, pair_inputs):
    """analyze_many runs 4 analyses at once; each report's figures are its own generation's."""
    engine = engines.get(NGRAM)
    job = pair_inputs[0][0]
    candidates = [load_candidate(candidate_path(c)) for c in ("cand_033", "cand_056", "cand_037")]
    candidates.append(pair_inputs[3][1])
    before = engine.speculation_counters()
    outcomes = analyze_many(job, candidates, engine)
    spent = engine.speculation_counters() - before
    reports = [o for o in outcomes if isinstance(o, MatchReport)]
    assert len(reports) == 4, outcomes
    figures = [r.metrics["speculation"] for r in reports]
    assert sum(f["draft_tokens"] for f in figures) == spent.draft_tokens
    assert sum(f["accepted_tokens"] for f in figures) == spent.accepted_tokens
    for report, f in zip(reports, figures, strict=True):
        assert 0 < f["accepted_tokens"] < report.metrics["output_tokens"], report.candidate
        assert 0 < f["drafts"] < report.metrics["output_tokens"], report.candidate


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
