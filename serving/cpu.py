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
