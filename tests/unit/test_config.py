import pytest
from pydantic import ValidationError

from serving.config import EngineSettings, SpeculationConfig, write_speculation


def test_defaults_are_ngram_with_explicit_lookup_bounds():
    spec = SpeculationConfig()
    assert spec.to_vllm() == {
        "method": "ngram",
        "num_speculative_tokens": 16,
        "prompt_lookup_max": 5,
        "prompt_lookup_min": 2,
    }
    assert spec.label == "ngram:k=16,min=2,max=5"


def test_off_gives_no_speculative_config():
    assert SpeculationConfig(method="off").to_vllm() is None
    assert SpeculationConfig(method="off").label == "off"


def test_min_above_max_is_refused_with_a_clear_message():
    with pytest.raises(ValidationError, match=r"prompt_lookup_min \(6\) must not exceed"):
        SpeculationConfig(prompt_lookup_min=6, prompt_lookup_max=5)


@pytest.mark.parametrize(
    "field", ["num_speculative_tokens", "prompt_lookup_max", "prompt_lookup_min"]
)
def test_values_below_one_are_refused(field):
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        SpeculationConfig(**{field: 0})


def test_unknown_method_is_refused():
    with pytest.raises(ValidationError):
        SpeculationConfig(method="eagle")


def test_environment_overrides_nested_speculation(monkeypatch):
    monkeypatch.setenv("HIRING_ASSISTANT_SPECULATION__METHOD", "off")
    monkeypatch.setenv("HIRING_ASSISTANT_MAX_MODEL_LEN", "4096")
    settings = EngineSettings()
    assert settings.speculation.method == "off"
    assert settings.max_model_len == 4096


def test_environment_with_invalid_bounds_fails(monkeypatch):
    monkeypatch.setenv("HIRING_ASSISTANT_SPECULATION__PROMPT_LOOKUP_MIN", "9")
    with pytest.raises(ValidationError, match="must not exceed"):
        EngineSettings()


def test_settings_file_applies_where_the_environment_is_silent(monkeypatch, tmp_path):
    from serving.config import get_settings, write_speculation

    path = tmp_path / "settings.env"
    path.write_text("HIRING_ASSISTANT_MAX_TOKENS=999\nHIRING_ASSISTANT_SPECULATION__METHOD=off\n")
    monkeypatch.setenv("HIRING_ASSISTANT_SETTINGS_FILE", str(path))
    tuned = SpeculationConfig(num_speculative_tokens=3, prompt_lookup_min=1, prompt_lookup_max=4)
    assert write_speculation(tuned) == path
    text = path.read_text()
    assert "HIRING_ASSISTANT_MAX_TOKENS=999" in text and "METHOD=off" not in text
    get_settings.cache_clear()
    try:
        settings = get_settings()
        assert settings.speculation == tuned
        assert settings.max_tokens == 999
        monkeypatch.setenv("HIRING_ASSISTANT_MAX_TOKENS", "700")  # the environment wins
        get_settings.cache_clear()
        assert get_settings().max_tokens == 700
    finally:
        get_settings.cache_clear()


def test_default_database_is_in_the_user_data_dir(monkeypatch):
    from agent.store.database import configured_url
    from serving.config import get_settings

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("HIRING_ASSISTANT_DATA_DIR", raising=False)
    get_settings.cache_clear()
    try:
        url = configured_url()
    finally:
        get_settings.cache_clear()
    assert url.startswith("sqlite:///") and url.endswith("hiring-assistant/hiring-assistant.db")


def test_auto_dtype_is_float32_on_cpus_for_lossless_speculation():
    from serving.cpu import resolve_dtype

    assert resolve_dtype("auto", on_cpu=True) == "float32"
    assert resolve_dtype("bfloat16", on_cpu=True) == "bfloat16"
    assert resolve_dtype("auto", on_cpu=False) == "auto"


def test_cpu_bind_all_means_every_cpu_this_process_may_use():
    import os

    from serving.cpu import resolve_cpu_bind

    assert EngineSettings().cpu_bind == "all"
    cpus = resolve_cpu_bind("all").split(",")
    assert sorted(int(c) for c in cpus) == sorted(os.sched_getaffinity(0))
    assert resolve_cpu_bind("auto") == "auto"
    assert resolve_cpu_bind("0-1|2-3") == "0-1|2-3"


def test_bad_cpu_bind_is_refused():
    from serving.cpu import resolve_cpu_bind

    with pytest.raises(ValidationError, match="cpu_bind"):
        EngineSettings(cpu_bind="everything")
    with pytest.raises(ValueError, match="bad CPU binding 'one'"):
        resolve_cpu_bind("one")


def test_scoped_environ_restores_what_was_there(monkeypatch):
    import os

    from serving.cpu import scoped_environ

    monkeypatch.setenv("HA_TEST_KEPT", "old")
    monkeypatch.delenv("HA_TEST_NEW", raising=False)
    with scoped_environ({"HA_TEST_KEPT": "new", "HA_TEST_NEW": "1"}):
        assert (os.environ["HA_TEST_KEPT"], os.environ["HA_TEST_NEW"]) == ("new", "1")
    assert os.environ["HA_TEST_KEPT"] == "old"
    assert "HA_TEST_NEW" not in os.environ


def test_engine_environment_keeps_numba_off_openmp_unless_chosen(monkeypatch):
    from serving.cpu import engine_environment

    monkeypatch.delenv("NUMBA_THREADING_LAYER", raising=False)
    env = engine_environment("auto")
    assert env == {"VLLM_CPU_OMP_THREADS_BIND": "auto", "NUMBA_THREADING_LAYER": "workqueue"}
    monkeypatch.setenv("NUMBA_THREADING_LAYER", "tbb")
    assert engine_environment("auto")["NUMBA_THREADING_LAYER"] == "tbb"


def test_a_batch_size_schedule_and_suffix_decoding_reach_vllm():
    spec = SpeculationConfig(schedule=((1, 2, 16), (3, 8, 8), (9, 64, 0)))
    assert spec.to_vllm()["num_speculative_tokens_per_batch_size"] == [
        [1, 2, 16],
        [3, 8, 8],
        [9, 64, 0],
    ]
    assert spec.label == "ngram:k=16,min=2,max=5,batch=1-2:16/3-8:8/9-64:0"
    suffix = SpeculationConfig(method="suffix", num_speculative_tokens=24)
    assert suffix.to_vllm() == {"method": "suffix", "num_speculative_tokens": 24}
    assert suffix.label == "suffix:k=24" and suffix.described()["prompt_lookup_min"] is None


@pytest.mark.parametrize(
    "schedule, message",
    [
        (((2, 4, 8),), "from 1 up without gaps"),
        (((1, 2, 16), (4, 8, 8)), "got 4-8 after 2"),
        (((1, 4, 17),), "must be 0..16"),
    ],
)
def test_bad_schedules_are_refused_with_the_row_at_fault(schedule, message):
    with pytest.raises(ValidationError, match=message):
        SpeculationConfig(schedule=schedule)


def test_schedule_from_the_environment_and_back_through_the_settings_file(monkeypatch, tmp_path):
    monkeypatch.setenv("HIRING_ASSISTANT_SPECULATION__SCHEDULE", "[[1, 2, 16], [3, 64, 4]]")
    assert EngineSettings().speculation.schedule == ((1, 2, 16), (3, 64, 4))
    monkeypatch.delenv("HIRING_ASSISTANT_SPECULATION__SCHEDULE")
    path = write_speculation(SpeculationConfig(schedule=((1, 4, 16), (5, 64, 2))), tmp_path / "s")
    settings = EngineSettings(_env_file=path)  # type: ignore[call-arg]
    assert settings.speculation.schedule == ((1, 4, 16), (5, 64, 2))


def test_each_door_gets_its_profile_unless_speculation_is_set_explicitly(monkeypatch):
    monkeypatch.setenv("HIRING_ASSISTANT_PROFILES__BATCH__SCHEDULE", "[[1, 2, 16], [3, 64, 4]]")
    settings = EngineSettings()
    assert settings.for_profile("batch").speculation.schedule == ((1, 2, 16), (3, 64, 4))
    assert settings.for_profile("interactive").speculation == SpeculationConfig()
    monkeypatch.setenv("HIRING_ASSISTANT_SPECULATION__NUM_SPECULATIVE_TOKENS", "4")
    explicit = EngineSettings()
    for profile in ("batch", "interactive"):
        spec = explicit.for_profile(profile).speculation
        assert spec.num_speculative_tokens == 4 and spec.schedule is None


def test_suffix_without_arctic_inference_fails_in_one_line(monkeypatch):
    import importlib.util

    from serving.engine import EngineError
    from serving.vllm_engine import require_speculation_packages

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "arctic_inference" else real(name)
    )
    suffix = EngineSettings(speculation=SpeculationConfig(method="suffix"))
    with pytest.raises(EngineError, match="make suffix"):
        require_speculation_packages(suffix)
    require_speculation_packages(EngineSettings())  # n-gram needs nothing more
