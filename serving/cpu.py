"""Facts about the host CPU that decide engine defaults."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

BF16_FLAGS = frozenset({"avx512_bf16", "amx_bf16"})


@lru_cache(maxsize=1)
def cpu_flags() -> frozenset[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags"):
            return frozenset(line.split(":", 1)[1].split())
    return frozenset()


def native_bf16() -> bool:
    """True when the CPU computes bfloat16 natively (AVX512-BF16 or AMX)."""
    return bool(cpu_flags() & BF16_FLAGS)


def resolve_dtype(dtype: str, *, on_cpu: bool) -> str:
    """``auto`` on a CPU means float32: greedy output then stays lossless under speculation.

    In bfloat16 the embedded model's logits come in steps of 0.125, so the top two tokens are
    often exactly tied and the verifier of speculative decoding breaks ties differently from
    plain decoding. Measured on a 2-core AVX512-BF16 EPYC, 6 pairs, one request at a time
    (`bench --config off --config ngram --config off:dtype=float32 --config
    ngram:dtype=float32`): bfloat16 gave TPOT 41.8 ms off, 19.6 ms n-gram, outputs identical
    for 2 of 6; float32 gave 70.4 ms off, 23.9 ms n-gram, identical for 6 of 6. On an AVX2 CPU
    without native bfloat16, float32 is also the faster one (prefill 11.2 s vs 47.5 s for
    1,693 tokens).
    """
    if dtype != "auto":
        return dtype
    return "float32" if on_cpu else "auto"


CPU_BIND_PATTERN = r"^(all|auto|nobind|[0-9][0-9,\-|]*)$"
BIND_ENV = "VLLM_CPU_OMP_THREADS_BIND"
NUMBA_LAYER_ENV = "NUMBA_THREADING_LAYER"


def engine_environment(bind: str) -> dict[str, str]:
    """Environment for the CPU engine's processes: thread binding, and numba off OpenMP.

    vLLM's n-gram proposer runs numba with ``set_num_threads(1)`` and then restores numba's
    default, which in the bound worker is 1 (its main thread is pinned to one CPU). With
    numba's OpenMP layer that also sets PyTorch's OpenMP threads to 1, so after the first
    speculative step the model ran on one core whatever the binding (seen with
    ``torch.get_num_threads()`` in the worker: 2 before the first request, 1 after).
    numba's own ``workqueue`` layer leaves OpenMP alone. A layer the user chose is kept.
    """
    return {
        BIND_ENV: resolve_cpu_bind(bind),
        NUMBA_LAYER_ENV: os.environ.get(NUMBA_LAYER_ENV, "workqueue"),
    }


def resolve_cpu_bind(bind: str) -> str:
    """The value for vLLM's ``VLLM_CPU_OMP_THREADS_BIND``.

    ``all`` binds the model's OpenMP threads to every CPU this process may use. vLLM's own
    ``auto`` keeps one core per worker free for its scheduler process, which on a 2-core machine
    leaves the model one core. Measured on a 2-core EPYC, one request at a time
    (docs/benchmarks.md): TPOT without speculation 78.6 ms with ``auto``, 59.6 ms with both
    cores (2 pairs); n-gram 21.3 ms and 19.7 ms (3 pairs, before the numba fix in
    ``engine_environment``).
    """
    if not re.match(CPU_BIND_PATTERN, bind):
        raise ValueError(f"bad CPU binding {bind!r}: use all, auto, nobind or a list like 0-3")
    if bind != "all":
        return bind
    cpus = sorted(os.sched_getaffinity(0))
    return ",".join(str(cpu) for cpu in cpus)


@contextmanager
def scoped_environ(values: dict[str, str]) -> Iterator[None]:
    """Set ``values`` in ``os.environ`` for the block (child processes started in it see them)."""
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
