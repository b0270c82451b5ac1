import pytest
from pydantic import ValidationError

from serving.config import EngineSettings, SpeculationConfig


def test_defaults_are_ngram_with_explicit_lookup_bounds():
    spec = SpeculationConfig()
    assert spec.to_vllm() == {
        "method": "ngram",
        "num_speculative_tokens": 5,
        "prompt_lookup_max": 5,
        "prompt_lookup_min": 2,
    }
    assert spec.label == "ngram:k=5,min=2,max=5"


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
