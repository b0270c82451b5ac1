"""Facts about the host CPU that decide engine defaults."""

from __future__ import annotations

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
    """``auto`` on a CPU without native bfloat16 means float32.

    Measured on a 2-core AVX2 EPYC with the embedded 135M model: a 1,693-token prompt prefilled in
    47.5 s in bfloat16 and 11.2 s in float32; decode 79 vs 47 ms per token.
    """
    if dtype != "auto":
        return dtype
    if on_cpu:
        return "bfloat16" if native_bf16() else "float32"
    return "auto"
