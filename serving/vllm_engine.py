"""The in-process vLLM engine (AsyncLLM) with JSON-schema structured output and n-gram speculation.

The engine runs on its own event loop in a background thread (``serving.loop_engine``), so the
same object serves sync and async code; concurrent requests are batched continuously by vLLM.
"""

from __future__ import annotations

import importlib.util
import os
import time
import uuid
from typing import Any, TypeVar

from serving.config import EngineSettings
from serving.cpu import BIND_ENV, engine_environment, resolve_dtype, scoped_environ
from serving.embedded_model import resolve_model
from serving.engine import EngineError, EngineInfo, Generation, GenerationRequest, Message
from serving.loop_engine import LoopThreadEngine
from serving.metrics import RequestMetrics, SpeculationCounters
from serving.process_guard import guard_environment

T = TypeVar("T")
_COUNTERS = {
    "vllm:spec_decode_num_drafts": "drafts",
    "vllm:spec_decode_num_draft_tokens": "draft_tokens",
    "vllm:spec_decode_num_accepted_tokens": "accepted_tokens",
}


class PromptTooLongError(EngineError):
    def __init__(self, prompt_tokens: int, max_model_len: int) -> None:
        super().__init__(
            f"the prompt is {prompt_tokens} tokens, over the model's context of "
            f"{max_model_len} tokens (with room for the answer)"
        )
        self.prompt_tokens = prompt_tokens
        self.max_model_len = max_model_len


class VLLMEngine(LoopThreadEngine):
    """A real vLLM engine; create it under ``if __name__ == "__main__":`` (it spawns processes)."""

    def __init__(self, settings: EngineSettings) -> None:
        self.settings = settings
        require_speculation_packages(settings)
        model = resolve_model(settings)
        self.info = EngineInfo(
            name="vllm",
            model=model,
            speculation=settings.speculation,
            max_model_len=settings.max_model_len,
            extra={
                "enforce_eager": settings.enforce_eager,
                "compact_json": settings.compact_json,
                "prefix_caching": settings.prefix_caching,
            },
        )
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", str(settings.kv_cache_gib))
        self._start_loop("vllm-engine-loop")
        try:
            self._llm = self._run(self._start(model))
        except Exception as exc:
            self._stop_loop()
            raise EngineError(f"vLLM could not start model {model!r}: {exc}") from exc
        self._tokenizer = self._llm.get_tokenizer()
        self.info.extra["vllm_version"] = _vllm_version()

    async def _start(self, model: str) -> Any:
        from vllm import AsyncEngineArgs
        from vllm.config import StructuredOutputsConfig
        from vllm.platforms import current_platform
        from vllm.v1.engine.async_llm import AsyncLLM

        s = self.settings
        on_cpu = current_platform.is_cpu()
        dtype = resolve_dtype(s.dtype, on_cpu=on_cpu)
        self.info.extra["dtype"] = dtype
        env = engine_environment(s.cpu_bind) if on_cpu else {}
        self.info.extra.update(cpu_bind=env.get(BIND_ENV))
        env.update(guard_environment())  # no engine left running if this process is killed
        args = AsyncEngineArgs(
            model=model,
            dtype=dtype,
            max_model_len=s.max_model_len,
            enforce_eager=s.enforce_eager,
            max_num_seqs=s.max_num_seqs,
            seed=s.seed,
            enable_prefix_caching=s.prefix_caching,
            speculative_config=s.speculation.to_vllm(),
            disable_log_stats=False,
            # each answer carries its own drafts and acceptances (see _speculation)
            per_request_spec_decode_metrics="summary" if s.speculation.enabled else "none",
            structured_outputs_config=StructuredOutputsConfig(
                backend="xgrammar", disable_any_whitespace=s.compact_json
            ),
        )
        with scoped_environ(env):  # read by the engine's processes as they start
            return AsyncLLM.from_engine_args(args)

    def count_prompt_tokens(self, messages: list[Message]) -> int:
        return len(self._prompt_ids(messages))

    def _prompt_ids(self, messages: list[Message]) -> list[int]:
        text = self._tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=False
        )
        return list(self._tokenizer.encode(text, add_special_tokens=False))

    def _sampling_params(self, request: GenerationRequest, max_tokens: int) -> Any:
        from vllm import SamplingParams
        from vllm.sampling_params import StructuredOutputsParams

        structured = None
        if request.json_schema is not None:
            structured = StructuredOutputsParams(json=request.json_schema)
        return SamplingParams(
            temperature=request.temperature,
            max_tokens=max_tokens,
            seed=self.settings.seed,
            structured_outputs=structured,
            logprobs=request.logprobs,
        )

    async def _agenerate(self, request: GenerationRequest) -> Generation:
        from vllm.v1.engine.exceptions import EngineDeadError

        prompt_ids = self._prompt_ids(request.messages)
        room = self.settings.max_model_len - len(prompt_ids)
        if room < 16:
            raise PromptTooLongError(len(prompt_ids), self.settings.max_model_len)
        max_tokens = min(request.max_tokens or self.settings.max_tokens, room)
        params = self._sampling_params(request, max_tokens)
        start = time.perf_counter()
        first: float | None = None
        final = None
        try:
            async for out in self._llm.generate(
                {"prompt_token_ids": prompt_ids}, params, request_id=uuid.uuid4().hex
            ):
                if first is None and out.outputs and out.outputs[0].token_ids:
                    first = time.perf_counter()
                final = out
        except EngineDeadError as exc:
            raise EngineError(
                "the vLLM engine stopped: its processes were interrupted (Ctrl-C reaches them "
                "too) or died; start the command again"
            ) from exc
        end = time.perf_counter()
        if final is None or not final.outputs:
            raise EngineError("vLLM returned no output")
        completion = final.outputs[0]
        if completion.finish_reason in ("error", "abort"):
            raise EngineError(
                f"vLLM ended the request with {completion.finish_reason!r} "
                "(an invalid JSON schema is the usual cause; the engine log has details)"
            )
        metrics = RequestMetrics(
            prompt_tokens=len(prompt_ids),
            output_tokens=len(completion.token_ids),
            ttft_s=(first or end) - start,
            e2e_s=end - start,
            cached_prompt_tokens=final.num_cached_tokens,
        )
        return Generation(
            text=completion.text,
            token_ids=list(completion.token_ids),
            finish_reason=completion.finish_reason,
            metrics=metrics,
            logprobs=[{t: p.logprob for t, p in step.items()} for step in completion.logprobs]
            if completion.logprobs
            else None,
            speculation=_speculation(completion),
        )

    def speculation_counters(self) -> SpeculationCounters:
        from vllm.v1.metrics.reader import Counter, Vector, get_metrics_snapshot

        totals = {field: 0 for field in _COUNTERS.values()}
        per_pos: list[int] = []
        for metric in get_metrics_snapshot():
            if isinstance(metric, Counter) and metric.name in _COUNTERS:
                totals[_COUNTERS[metric.name]] += metric.value
            elif isinstance(metric, Vector) and metric.name.startswith(
                "vllm:spec_decode_num_accepted_tokens_per_pos"
            ):
                per_pos += [0] * (len(metric.values) - len(per_pos))
                for i, value in enumerate(metric.values):
                    per_pos[i] += value
        return SpeculationCounters(**totals, accepted_per_position=tuple(per_pos))

    def reset_prefix_cache(self) -> None:
        """Forget cached prompt prefixes (benchmarks reset it between load levels)."""
        self._run(self._llm.reset_prefix_cache())

    def close(self) -> None:
        llm = getattr(self, "_llm", None)
        if llm is not None:
            self._llm = None

            async def shutdown() -> None:
                llm.shutdown()

            self._run(shutdown())
        self._stop_loop()


def require_speculation_packages(settings: EngineSettings) -> None:
    """Suffix decoding needs the ``arctic-inference`` package, which the default install leaves
    out (it builds C++ against torch): say so in one line instead of vLLM's traceback."""
    if (
        settings.speculation.method == "suffix"
        and importlib.util.find_spec("arctic_inference") is None
    ):
        raise EngineError(
            "suffix decoding needs the arctic-inference package: `make suffix` builds it "
            "(or use HIRING_ASSISTANT_SPECULATION__METHOD=ngram)"
        )


def _speculation(completion: Any) -> SpeculationCounters:
    """This request's own speculation figures (vLLM's per-request metrics; none when off)."""
    per_request = getattr(completion, "spec_decode_metrics", None)
    if per_request is None:
        return SpeculationCounters()
    return SpeculationCounters.from_histogram(
        list(per_request.histogram), per_request.num_draft_tokens
    )


def _vllm_version() -> str:
    import vllm

    return str(vllm.__version__)
