import pytest

from serving.metrics import RequestMetrics, SpeculationCounters


def test_tpot_excludes_the_first_token():
    m = RequestMetrics(prompt_tokens=10, output_tokens=11, ttft_s=1.0, e2e_s=2.0)
    assert m.tpot_ms == pytest.approx(100.0)
    assert m.output_tok_per_s == pytest.approx(5.5)


def test_single_token_has_no_tpot():
    assert RequestMetrics(prompt_tokens=1, output_tokens=1, ttft_s=0.5, e2e_s=0.5).tpot_ms == 0.0


def test_counter_delta_and_rates():
    before = SpeculationCounters(
        drafts=2, draft_tokens=10, accepted_tokens=4, accepted_per_position=(2, 1, 1)
    )
    after = SpeculationCounters(
        drafts=12, draft_tokens=60, accepted_tokens=34, accepted_per_position=(10, 9, 8, 7)
    )
    delta = after - before
    assert (delta.drafts, delta.draft_tokens, delta.accepted_tokens) == (10, 50, 30)
    assert delta.accepted_per_position == (8, 8, 7, 7)
    assert delta.acceptance_rate == pytest.approx(0.6)
    assert delta.mean_acceptance_length == pytest.approx(4.0)
    assert delta.acceptance_per_position == [0.8, 0.8, 0.7, 0.7]


def test_no_drafts_means_no_rates():
    empty = SpeculationCounters()
    assert empty.acceptance_rate is None
    assert empty.mean_acceptance_length is None
    assert empty.to_dict()["acceptance_rate"] is None


def test_per_request_figures_from_vllms_acceptance_histogram():
    # 3 verify steps of k=4 drafts: 0, 2 and 4 draft tokens accepted
    counters = SpeculationCounters.from_histogram([1, 0, 1, 0, 1], draft_tokens=12)
    assert (counters.drafts, counters.draft_tokens, counters.accepted_tokens) == (3, 12, 6)
    assert counters.accepted_per_position == (2, 2, 1, 1)
    assert counters.acceptance_rate == pytest.approx(0.5)
    assert counters.mean_acceptance_length == pytest.approx(3.0)
