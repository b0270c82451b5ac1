import json

import pytest

from serving.config import EngineSettings
from serving.embedded_model import (
    MANIFEST,
    ModelNotReadyError,
    resolve_model,
    verify_model_dir,
)


def test_missing_model_says_how_to_fix(tmp_path):
    settings = EngineSettings(data_dir=tmp_path)
    with pytest.raises(ModelNotReadyError, match="hiring-assistant model prepare"):
        resolve_model(settings)


def test_damaged_file_is_detected(tmp_path):
    (tmp_path / "weights.bin").write_bytes(b"12345")
    manifest = {"files": {"weights.bin": {"size": 5, "sha256": "0" * 64}}}
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ModelNotReadyError, match=r"damaged.*--force"):
        verify_model_dir(tmp_path)
    (tmp_path / "weights.bin").unlink()
    with pytest.raises(ModelNotReadyError, match="missing"):
        verify_model_dir(tmp_path)


def test_bad_manifest_is_detected(tmp_path):
    (tmp_path / MANIFEST).write_text("{not json")
    with pytest.raises(ModelNotReadyError, match="no valid manifest"):
        verify_model_dir(tmp_path)


def test_configured_model_is_used_as_given(tmp_path):
    assert resolve_model(EngineSettings(model="org/some-model")) == "org/some-model"
