"""`bench --sla-p90`: the bounded search for the highest rate within a P90 ceiling, and targets."""

from dataclasses import replace

import pytest

import serving.factory
from agent.benchmark import bench as bench_module
from agent.benchmark.bench import format_table, run_bench, write_outputs
from agent.benchmark.configs import parse_config
from agent.benchmark.sla import Probe, SlaSearch, search_max_qps
from agent.benchmark.targets import target_rows
from agent.benchmark.workload import build_workload
from serving.config import EngineSettings
from serving.fake_engine import ScriptedEngine
from tests.conftest import SAMPLES


def _queue(knee: float):
    """A made-up latency curve: P90 10 s when idle, rising steeply as the rate nears ``knee``."""
    asked: list[float] = []

    def probe(rate: float) -> Probe:
        asked.append(rate)
        p90 = 10 / max(1e-9, 1 - rate / knee) if rate < knee else 1e6
        return Probe(qps=rate, p90_s=p90, output_tok_per_s=rate * 700, requests_per_s=rate)

    return probe, asked


def test_search_brackets_then_bisects_within_its_probe_budget():
    probe, asked = _queue(knee=0.2)  # P90 ≤ 30 s while rate ≤ 0.1333
    result = search_max_qps(probe, 30, capacity_qps=0.2, probes=6)
    assert len(asked) == 6 and asked[:2] == [0.2, 0.1]  # capacity misses, half meets
    assert all(0.1 <= rate <= 0.2 for rate in asked[2:])
    assert 0.12 < result.max_qps <= 0.2 / 1.5  # the true answer is 0.1333
    assert result.best is not None and result.best.qps == result.max_qps
    assert result.best.p90_s <= 30


def test_search_stops_at_capacity_when_the_ceiling_does_not_bind():
    probe, asked = _queue(knee=1.0)
    result = search_max_qps(probe, 60, capacity_qps=0.2, probes=5)
    assert asked == [0.2] and result.max_qps == 0.2 and "capacity" in result.note
    assert result.bound_by_capacity


def test_search_costs_no_probe_when_one_request_alone_is_over_the_ceiling():
    probe, asked = _queue(knee=0.2)
    result = search_max_qps(probe, 30, capacity_qps=0.2, unloaded_p90_s=38.9)
    assert asked == [] and result.max_qps == 0 and "38.9 s" in result.note


def test_search_reports_zero_when_no_probe_meets():
    probe, asked = _queue(knee=0.2)
    result = search_max_qps(probe, 5, capacity_qps=0.2, probes=3)  # P90 ≥ 10 s at any rate
    assert asked == [0.2, 0.1, 0.05] and result.max_qps == 0 and "0.05" in result.note
    assert not result.bound_by_capacity


@pytest.mark.parametrize("kwargs", [{"capacity_qps": 0.0}, {"capacity_qps": 1.0, "probes": 2}])
def test_search_rejects_what_it_cannot_search(kwargs):
    probe, _ = _queue(knee=1.0)
    with pytest.raises(ValueError):
        search_max_qps(probe, 0 if "probes" in kwargs else 30, **kwargs)


def _config(name: str, method: str, **levels) -> dict:
    return {"name": name, "method": method, "baseline": "off", "exact_match_rate": None, **levels}


def test_targets_are_ratios_against_off_and_say_whether_each_is_met():
    off = _config(
        "off",
        "off",
        concurrency_1={"tpot_ms_p50": 28.0},
        max_concurrency={"output_tok_per_s": 100.0},
        fixed_qps={"e2e_s_p90": 50.0},
    )
    ngram = _config(
        "ngram",
        "ngram",
        concurrency_1={"tpot_ms_p50": 7.0},
        max_concurrency={"output_tok_per_s": 150.0},
        fixed_qps={"e2e_s_p90": 20.0},
        sla={"ratio": 2.5},
    )
    ngram["exact_match_rate"] = 1.0
    rows = {r["key"]: r for r in target_rows([off, ngram])}
    assert {k: r["met"] for k, r in rows.items()} == {
        "sla": False,
        "tpot": True,  # exactly 4x
        "full_load": False,
        "p90_fixed": False,  # 60% lower
        "identical": True,
    }
    assert rows["p90_fixed"]["measured"] == "60.0% lower" and rows["sla"]["measured"] == "2.50x"
    printed = {
        line.split("  ")[1].strip(): line.split()[-1]
        for line in bench_module._target_lines(list(rows.values()))
        if line.startswith("ngram")
    }
    assert printed["TPOT at concurrency 1"] == "yes" and printed["P90 at the fixed rate"] == "no"


@pytest.fixture
def scripted_engines(monkeypatch):
    """Every config's engine is a scripted one that answers in about 10 ms."""

    def open_engine(settings, say=None):
        return ScriptedEngine(responder=lambda _request: '{"ok": true}', delay_s=0.01)

    monkeypatch.setattr(serving.factory, "open_engine", open_engine)
    monkeypatch.setattr(bench_module, "_vllm_version", lambda: "test")


def test_bench_with_a_ceiling_searches_each_config_and_writes_the_plot(scripted_engines, tmp_path):
    workload = build_workload(SAMPLES, 2, max_tokens=40)
    configs = [parse_config("off"), parse_config("ngram:k=4,min=1,max=3")]
    said: list[str] = []
    results = run_bench(
        configs,
        workload,
        EngineSettings(),
        levels=("concurrency_1", "max_concurrency"),
        qps=None,
        seed=0,
        say=said.append,
        sla=SlaSearch(1000.0, probes=3),
    )
    off, ngram = results["configs"]
    for config in (off, ngram):
        sla = config["sla"]
        assert sla["p90_ceiling_s"] == 1000.0
        # a scripted answer takes milliseconds: the full-load rate itself meets 1000 s
        assert len(sla["probes"]) == 1 and "capacity" in sla["note"]
        assert sla["bound_by_capacity"]
        assert sla["max_qps"] == pytest.approx(config["max_concurrency"]["requests_per_s"], 1e-3)
    assert off["sla"]["ratio"] == 1.0 and ngram["sla"]["ratio"] > 0
    assert any("SLA probe" in line for line in said)
    written = write_outputs(results, tmp_path)
    assert tmp_path / "sla_throughput_p90.png" in written
    assert (tmp_path / "sla_throughput_p90.png").stat().st_size > 5000
    table = format_table(results)
    assert "within P90 ≤ 1000 s" in table and "tok/s at full load" in table


def test_a_suffix_config_gets_a_fresh_engine_for_each_level_and_probe(monkeypatch):
    """Suffix decoding remembers answers; the levels and probes repeat the same requests."""
    started: list[str] = []

    def open_engine(settings, say=None):
        started.append(settings.speculation.method)
        return ScriptedEngine(responder=lambda _request: '{"ok": true}', delay_s=0.01)

    monkeypatch.setattr(serving.factory, "open_engine", open_engine)
    monkeypatch.setattr(bench_module, "_vllm_version", lambda: "test")
    results = run_bench(
        [parse_config("ngram:k=4"), parse_config("suffix:k=16")],
        build_workload(SAMPLES, 2, max_tokens=40),
        EngineSettings(),
        levels=("concurrency_1", "max_concurrency"),
        qps=None,
        seed=0,
        say=lambda _line: None,
        sla=SlaSearch(1000.0, probes=2),
    )
    # n-gram: one engine for everything; suffix: one per level, then one for the probe
    assert started == ["ngram", "suffix", "suffix", "suffix"]
    assert results["configs"][1]["sla"]["max_qps"] > 0


@pytest.mark.parametrize(("requests", "late"), [(20, 3), (10, 2), (8, 2), (1, 1)])
def test_a_probe_knows_its_p90_is_over_once_enough_requests_are_late(requests, late):
    from agent.benchmark.runner import late_needed
    from agent.benchmark.stats import percentile

    assert late_needed(requests) == late
    # exactly that many values over the ceiling push numpy's P90 over it; one fewer need not
    over = [0.0] * (requests - late) + [100.0] * late
    assert percentile(over, 90) > 50
    if late > 1:
        fewer = [0.0] * (requests - late + 1) + [100.0] * (late - 1)
        assert percentile(fewer, 90) <= 50


def test_a_probe_over_the_ceiling_stops_early_and_cancels_what_runs():
    """Answers take 0.3 s, the ceiling is 0.1 s: the probe gives up long before 8 × 0.3 s."""
    import time

    from agent.benchmark.runner import run_probe

    items = build_workload(SAMPLES, 8).items(ScriptedEngine())
    slow = _SlowEngine(0.3)
    started = time.perf_counter()
    generations, wall = run_probe(slow, items, qps=1000.0, seed=0, ceiling_s=0.1)
    assert generations is None and wall < 1.0 and time.perf_counter() - started < 1.5
    assert slow.cancelled >= 1
    quick = _SlowEngine(0.01)
    generations, _wall = run_probe(quick, items, qps=1000.0, seed=0, ceiling_s=5.0)
    assert generations is not None and len(generations) == 8 and quick.cancelled == 0


class _SlowEngine(ScriptedEngine):
    """Each answer takes ``seconds`` on the event loop, and counts its cancellations."""

    def __init__(self, seconds: float) -> None:
        super().__init__(responder=lambda _request: '{"ok": true}')
        self.seconds = seconds
        self.cancelled = 0

    async def agenerate(self, request):
        import asyncio

        try:
            await asyncio.sleep(self.seconds)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        generation = self.generate(request)
        return replace(generation, metrics=replace(generation.metrics, e2e_s=self.seconds))
