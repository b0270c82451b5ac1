import warnings

import pytest

from agent.benchmark import bench as bench_module
from agent.benchmark.autotune import choose, choose_batch, search_grid
from agent.benchmark.bench import format_table
from agent.benchmark.configs import default_configs, parse_config
from agent.benchmark.plots import write_plots
from agent.benchmark.runner import ConfigRun, first_difference, run_level
from agent.benchmark.stats import percentile, summarize
from agent.benchmark.workload import Workload, build_workload, labelled_pairs
from agent.rubric.prose_requirements import job_sentences
from agent.service import prepare_request
from serving.config import EngineSettings, SpeculationConfig
from serving.fake_engine import ScriptedEngine
from serving.metrics import RequestMetrics
from tests.conftest import SAMPLES


def test_parse_configs():
    assert parse_config("off").speculation.method == "off"
    spec = parse_config("ngram:k=3,min=1,max=4").speculation
    assert (spec.num_speculative_tokens, spec.prompt_lookup_min, spec.prompt_lookup_max) == (
        3,
        1,
        4,
    )
    assert parse_config("ngram").name == "ngram:k=16,min=2,max=5"


def test_default_configs_compare_off_with_the_configured_speculation():
    tuned = SpeculationConfig(num_speculative_tokens=3, prompt_lookup_min=1, prompt_lookup_max=3)
    explicit = EngineSettings(speculation=tuned)
    assert default_configs(explicit) == ("off", "ngram:k=3,min=1,max=3")
    # speculation switched off in the settings: compare with the shipped n-gram default
    off = EngineSettings(speculation=SpeculationConfig(method="off"))
    assert default_configs(off) == ("off", SpeculationConfig().label)


def test_default_configs_are_the_profiles_presets_when_speculation_is_not_set():
    batch = SpeculationConfig(schedule=((1, 2, 16), (3, 64, 4)))
    settings = EngineSettings(profiles={"batch": batch})
    assert default_configs(settings) == ("off", SpeculationConfig().label, batch.label)
    assert default_configs(EngineSettings(profiles={})) == ("off", SpeculationConfig().label)


@pytest.mark.parametrize(
    ("text", "message"),
    [("eagle", "unknown config"), ("ngram:k=x", "bad setting"), ("ngram:min=4,max=2", "exceed")],
)
def test_bad_configs(text, message):
    with pytest.raises(ValueError, match=message):
        parse_config(text)


def test_percentile_interpolates():
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([10], 90) == 10
    assert percentile([0, 10], 90) == pytest.approx(9.0)
    assert percentile([4, 1, 3, 2], 90) == pytest.approx(3.7)  # unsorted input
    assert type(percentile([1.0, 2.0], 50)) is float


def test_percentile_of_nothing_raises():
    with pytest.raises(ValueError, match="no values"):
        percentile([], 50)


def test_summarize_throughput_and_percentiles():
    metrics = [RequestMetrics(10, 11, 1.0, 2.0), RequestMetrics(10, 21, 1.0, 3.0)]
    s = summarize(metrics, wall_s=4.0)
    assert s["output_tok_per_s"] == 8.0
    assert s["requests_per_s"] == 0.5
    assert s["tpot_ms_p50"] == pytest.approx(100.0)
    assert s["e2e_s_p90"] == pytest.approx(2.9)


def test_first_difference():
    assert first_difference([1, 2, 3], [1, 2, 3]) is None
    assert first_difference([1, 2, 3], [1, 9, 3]) == 1
    assert first_difference([1, 2], [1, 2, 3]) == 2


def test_workload_uses_labelled_pairs_in_order():
    pairs = labelled_pairs(SAMPLES)
    assert len(pairs) == 32
    assert pairs[:2] == [("job_005", "cand_051"), ("job_005", "cand_038")]
    workload = build_workload(SAMPLES, 3)
    assert workload.names == ["job_005×cand_051", "job_005×cand_038", "job_006×cand_043"]
    engine = ScriptedEngine()
    items = workload.items(engine)
    assert [i.name for i in items] == workload.names
    assert items[0].request == prepare_request(
        workload.pairs[0].job, workload.pairs[0].candidate, engine
    ), "the bench sends exactly what the analysis graph sends"
    assert workload.items(ScriptedEngine()) is items, "prepared once, then the same requests"


def test_max_tokens_caps_each_request_and_keeps_the_rest():
    full = build_workload(SAMPLES, 2).items(ScriptedEngine())
    capped = build_workload(SAMPLES, 2, max_tokens=64).items(ScriptedEngine())
    assert all(f.request.max_tokens > 64 for f in full), "the schema's budget is larger"
    assert [c.request.max_tokens for c in capped] == [64, 64]
    assert [c.request.messages for c in capped] == [f.request.messages for f in full]
    assert [c.request.json_schema for c in capped] == [f.request.json_schema for f in full]


def test_prose_jobs_in_the_workload_get_the_models_requirements():
    """A prose job's requirements come from the engine, as in `analyze` (not the fallback)."""
    workload = build_workload(SAMPLES, 32)
    prose = [p for p in workload.pairs if p.job.requirements_source == "prose"]
    assert prose, "the samples have a prose job"
    pair = prose[0]
    sentence = job_sentences(pair.job.text)[0]
    pick = {"requirements": [{"sentence": sentence, "kind": "must_have"}]}
    request = Workload([pair]).items(ScriptedEngine().enqueue(pick))[0].request
    ids = request.json_schema["properties"]["assessments"]["prefixItems"]
    assert [i["properties"]["requirement_id"]["const"] for i in ids] == ["R1"]
    assert sentence.rstrip(".;") in request.messages[1]["content"]


@pytest.mark.parametrize("level", ["concurrency_1", "fixed_qps", "max_concurrency"])
def test_levels_run_every_request(level):
    items = build_workload(SAMPLES, 3).items(ScriptedEngine())
    engine = ScriptedEngine().enqueue("a", "bb", "ccc")
    finished = []
    generations, _wall, _spec = run_level(
        engine, items, level, qps=1000.0, seed=1, progress=finished.append
    )
    assert len(generations) == 3
    assert len(engine.history) == 3
    assert sorted(g.text for g in finished) == ["a", "bb", "ccc"], "progress hears every request"


def _results() -> dict:
    level = {
        "tpot_ms_p50": 50.0,
        "tpot_ms_p90": 60.0,
        "e2e_s_p50": 10.0,
        "e2e_s_p90": 12.0,
        "output_tok_per_s": 20.0,
        "e2e_s_values": [9.0, 10.0, 12.0],
    }
    fast = {**level, "tpot_ms_p50": 25.0, "e2e_s_p90": 4.0, "output_tok_per_s": 40.0}
    return {
        "pairs": 3,
        "levels": ["concurrency_1"],
        "configs": [
            {
                "name": "off",
                "method": "off",
                "concurrency_1": level,
                "acceptance_rate": None,
                "mean_acceptance_length": None,
                "exact_match_rate": None,
                "mismatches": [],
            },
            {
                "name": "ngram",
                "method": "ngram",
                "concurrency_1": fast,
                "acceptance_rate": 0.8,
                "mean_acceptance_length": 4.2,
                "acceptance_per_position": [0.9, 0.8, 0.7],
                "exact_match_rate": 1.0,
                "mismatches": [],
            },
        ],
    }


def test_table_shows_ratios_against_off():
    table = format_table(_results())
    lines = table.splitlines()
    assert lines[0].split() == [
        "config",
        "level",
        *("TPOT", "p50", "ms", "TPOT", "p90", "ms", "e2e", "p50", "s", "e2e", "p90", "s"),
        *("tok/s", "TPOT↓", "p90↓", "tok/s↑"),
    ]
    row = next(line for line in lines if line.startswith("ngram "))
    assert row.split() == [
        *("ngram", "concurrency_1", "25.0", "60.0", "10.0", "4.0", "40.0"),
        *("2.00x", "3.00x", "2.00x"),
    ]
    assert "acceptance 80.0%" in table and "exact match vs off 100%" in table
    assert "\x1b" not in table  # plain text, no ANSI codes


def test_table_folds_long_config_names_within_120_columns():
    results = _results()
    long_name = "ngram:k=4,min=1,max=4,eager=0,bind=nobind," + "x" * 100
    results["configs"][1]["name"] = long_name
    table = format_table(results)
    rows_part = table.split("\n\n")[0]
    assert max(len(line) for line in rows_part.splitlines()) <= 120
    assert long_name in "".join(line.split()[0] for line in rows_part.splitlines()[2:])
    assert f"{long_name} acceptance 80.0%" in table  # the acceptance lines are unchanged


def test_plots_are_written_as_png(tmp_path):
    paths = write_plots(_results(), tmp_path)
    assert [p.name for p in paths] == [
        "tpot.png",
        "p90_latency.png",
        "acceptance_per_position.png",
        "latency_cdf.png",
    ]
    for path in paths:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, path


def test_plots_of_an_off_only_run_say_so_instead_of_warning(tmp_path):
    results = _results()
    results["configs"] = results["configs"][:1]  # `off` alone: no acceptance to plot
    assert results["configs"][0]["name"] == "off"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib's "No artists with labels" would raise
        paths = write_plots(results, tmp_path)
    assert len(paths) == 4


def test_cpu_options_in_configs():
    compiled = parse_config("ngram:k=4,min=1,max=4,eager=0,bind=nobind")
    assert compiled.name == "ngram:k=4,min=1,max=4,eager=0,bind=nobind"
    assert compiled.engine == {"enforce_eager": False, "cpu_bind": "nobind"}
    off = parse_config("off:eager=0")
    assert (off.name, off.speculation.enabled, off.engine) == (
        "off:eager=0",
        False,
        {"enforce_eager": False},
    )
    assert parse_config("off").name == "off"
    for bad in ("off:k=3", "ngram:eager=2", "ngram:bind=rm -rf", "ngram:fast=1"):
        with pytest.raises(ValueError, match="bad setting"):
            parse_config(bad)


def test_autotune_grid_skips_min_above_max():
    names = [c.name for c in search_grid((3, 5), (1, 4), (3,))]
    assert names == ["off", "ngram:k=3,min=1,max=3", "ngram:k=5,min=1,max=3"]


def _tuned(name: str, tpot: float, full_tok_s: float) -> dict:
    return {
        "name": name,
        "method": "off" if name == "off" else "ngram",
        "concurrency_1": {"tpot_ms_p50": tpot},
        "max_concurrency": {"output_tok_per_s": full_tok_s},
    }


def test_autotune_picks_fastest_that_keeps_throughput_under_load():
    configs = [
        _tuned("off", 40.0, 100.0),
        _tuned("ngram:k=8,min=1,max=5", 10.0, 90.0),  # fastest alone, loses under load
        _tuned("ngram:k=5,min=2,max=5", 15.0, 130.0),
        _tuned("ngram:k=3,min=2,max=3", 20.0, 140.0),
    ]
    best, reason = choose(configs)
    assert best is not None and best["name"] == "ngram:k=5,min=2,max=5"
    assert "2.67x faster than off" in reason and "2 of 3" in reason


def test_autotune_grid_adds_each_schedule_to_the_draft_lengths_it_fits():
    names = [c.name for c in search_grid((4, 16), (2,), (5,), ("1-2:16/3-64:4",))]
    assert names == [
        "off",
        "ngram:k=4,min=2,max=5",
        "ngram:k=16,min=2,max=5",
        "ngram:k=16,min=2,max=5,batch=1-2:16/3-64:4",
    ]


def test_autotune_batch_profile_takes_the_most_throughput_at_full_load():
    configs = [
        _tuned("off", 40.0, 100.0),
        _tuned("ngram:k=16,min=2,max=5", 10.0, 150.0),
        _tuned("ngram:k=16,min=2,max=5,batch=1-2:16/3-64:4", 11.0, 170.0),
    ]
    best, reason = choose_batch(configs)
    assert best is not None and best["name"].endswith("batch=1-2:16/3-64:4")
    assert "1.70x off's" in reason
    best, reason = choose_batch([_tuned("off", 40.0, 100.0), _tuned("ngram", 10.0, 90.0)])
    assert best is None and "without" in reason


def test_autotune_write_stores_both_profiles_and_drops_explicit_speculation(tmp_path):
    from serving.config import write_speculation

    path = tmp_path / "settings.env"
    path.write_text("HIRING_ASSISTANT_SPECULATION__METHOD=off\nHIRING_ASSISTANT_DTYPE=float32\n")
    batch = parse_config("ngram:k=16,batch=1-2:16/3-64:4").speculation
    write_speculation(parse_config("ngram:k=8").speculation, path, profile="interactive")
    write_speculation(batch, path, profile="batch")
    settings = EngineSettings(_env_file=path)  # type: ignore[call-arg]
    assert "speculation" not in settings.model_fields_set and settings.dtype == "float32"
    assert settings.for_profile("interactive").speculation.num_speculative_tokens == 8
    assert settings.for_profile("batch").speculation == batch


def test_autotune_keeps_off_when_nothing_holds_throughput():
    best, reason = choose([_tuned("off", 40.0, 100.0), _tuned("ngram:k=5,min=2,max=5", 9, 50)])
    assert best is None and "keep speculation off" in reason


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--write"], "--write and --batch belong to --autotune"),
        (["--autotune", "--config", "off"], "chooses its own configs"),
        (["--autotune", "--k", "3,x"], "--k takes numbers"),
        (["--autotune", "--min", "0"], "--min takes positive numbers"),
        (["--config", "ngram:eager=2"], "bad setting"),
    ],
)
def test_bench_rejects_bad_flags_in_one_line(args, message):
    from typer.testing import CliRunner

    from agent.cli.app import app

    result = CliRunner().invoke(app, ["bench", *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_speculative_configs_compare_with_off_of_the_same_cpu_options():
    from agent.benchmark.bench import _baseline
    from agent.benchmark.runner import ConfigRun

    runs = [ConfigRun(parse_config(c)) for c in ("off", "off:dtype=float32", "ngram:dtype=float32")]
    assert _baseline(runs[2], runs).config.name == "off:dtype=float32"
    assert _baseline(ConfigRun(parse_config("ngram")), runs).config.name == "off"
    assert parse_config("ngram:cache=0").engine == {"prefix_caching": False}


def test_auto_rate_is_a_share_of_the_first_configs_full_load_rate(monkeypatch):
    """fixed_qps runs after max_concurrency, at QPS_SHARE of the first config's measured rate."""
    rates: list[float] = []

    def fake_run_config(config, items, base, *, levels, qps, seed, say, sla=None):
        run = ConfigRun(config)
        full = 0.2 if config.name == "off" else 0.5
        run.levels["max_concurrency"] = {"requests_per_s": full}
        rates.append(qps(run))
        run.levels["fixed_qps"] = {"qps": rates[-1]}
        return run

    monkeypatch.setattr(bench_module, "run_config", fake_run_config)
    monkeypatch.setattr(bench_module, "_vllm_version", lambda: "test")
    configs = [parse_config("off"), parse_config("ngram")]
    items = build_workload(SAMPLES, 2)
    results = bench_module.run_bench(
        configs,
        items,
        EngineSettings(),
        levels=("concurrency_1", "max_concurrency", "fixed_qps"),
        qps=None,
        seed=0,
        say=lambda _: None,
    )
    assert rates == [pytest.approx(0.14), pytest.approx(0.14)], "one rate, from off's full load"
    assert results["engine_settings"]["cpu_bind"] == "all"
