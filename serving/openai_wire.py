"""What a vLLM server's OpenAI-compatible API sends back, read without a server: streamed
chat-completion chunks, error bodies, per-request speculation figures and ``/metrics`` text.

vLLM 0.32 puts a request's own speculation figures (``--per-request-spec-decode-metrics``) under
``metrics.speculative_decoding`` of the final usage chunk of a stream.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from serving.engine import EngineError
from serving.metrics import SpeculationCounters

_SERVER_COUNTERS = {
    "vllm:spec_decode_num_drafts_total": "drafts",
    "vllm:spec_decode_num_draft_tokens_total": "draft_tokens",
    "vllm:spec_decode_num_accepted_tokens_total": "accepted_tokens",
}
_PER_POSITION = "vllm:spec_decode_num_accepted_tokens_per_pos_total"
_SAMPLE = re.compile(r"^(?P<name>[^\s{]+)(?:\{(?P<labels>[^}]*)\})?\s+(?P<value>\S+)")
_POSITION = re.compile(r'position="(\d+)"')


def one_line(text: str, limit: int = 300) -> str:
    """Collapse whitespace and cut to ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def error_message(body: str) -> str:
    """The server's error text from a response body (vLLM: ``{"error": {"message": …}}``)."""
    try:
        data = json.loads(body)
    except ValueError:
        return one_line(body) or "no details"
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, dict):
        error = error.get("message") or error.get("detail") or error
    return one_line(error if isinstance(error, str) else json.dumps(error))


def request_speculation(metrics: dict[str, Any] | None) -> SpeculationCounters:
    """One request's counters from the response's ``metrics`` (zeros when the server sent none).

    vLLM's ``speculative_decoding`` holds ``num_draft_tokens`` and ``acceptance_histogram``
    (index j: verify steps that accepted exactly j draft tokens), as in-process.
    """
    spec = (metrics or {}).get("speculative_decoding")
    if not spec:
        return SpeculationCounters()
    histogram = [int(n) for n in spec.get("acceptance_histogram") or []]
    return SpeculationCounters.from_histogram(histogram, int(spec.get("num_draft_tokens", 0)))


def parse_server_counters(text: str) -> SpeculationCounters:
    """Server-wide speculation counters from Prometheus text (``/metrics``), summed over labels."""
    totals = dict.fromkeys(_SERVER_COUNTERS.values(), 0)
    per_position: dict[int, int] = {}
    for line in text.splitlines():
        match = _SAMPLE.match(line)
        if match is None or line.startswith("#"):
            continue
        name, value = match["name"], int(float(match["value"]))
        if name in _SERVER_COUNTERS:
            totals[_SERVER_COUNTERS[name]] += value
        elif name == _PER_POSITION:
            position = _POSITION.search(match["labels"] or "")
            if position is not None:
                index = int(position.group(1))
                per_position[index] = per_position.get(index, 0) + value
    width = max(per_position, default=-1) + 1
    return SpeculationCounters(
        **totals, accepted_per_position=tuple(per_position.get(i, 0) for i in range(width))
    )


def _token_id(token: str) -> int | None:
    """``token_id:123`` (with ``return_tokens_as_token_ids``) → 123."""
    prefix = "token_id:"
    return int(token[len(prefix) :]) if token.startswith(prefix) else None


def logprob_step(entry: dict[str, Any]) -> dict[int, float]:
    """One output token's log-probabilities: the sampled token and the top alternatives."""
    step: dict[int, float] = {}
    for item in [entry, *(entry.get("top_logprobs") or [])]:
        token_id = _token_id(item.get("token", ""))
        if token_id is not None:
            step.setdefault(token_id, float(item["logprob"]))
    return step


@dataclass
class StreamedAnswer:
    """What the chunks of one streamed chat completion add up to."""

    text_parts: list[str] = field(default_factory=list)
    token_ids: list[int] = field(default_factory=list)
    logprobs: list[dict[int, float]] = field(default_factory=list)
    finish_reason: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] | None = None

    def add(self, chunk: dict[str, Any]) -> bool:
        """Take one chunk; True when it carried output (text or tokens)."""
        if chunk.get("error"):
            raise EngineError(
                f"the vLLM server failed the request: {error_message(json.dumps(chunk))}"
            )
        if chunk.get("usage"):
            self.usage = chunk["usage"]
        if chunk.get("metrics"):
            self.metrics = chunk["metrics"]
        produced = False
        for choice in chunk.get("choices") or []:
            content = (choice.get("delta") or {}).get("content") or ""
            ids = choice.get("token_ids") or []
            self.text_parts.append(content)
            self.token_ids += ids
            entries = (choice.get("logprobs") or {}).get("content") or []
            self.logprobs += [logprob_step(entry) for entry in entries]
            self.finish_reason = choice.get("finish_reason") or self.finish_reason
            produced = produced or bool(content or ids)
        return produced

    @property
    def text(self) -> str:
        return "".join(self.text_parts)


def sse_payload(line: str) -> str | None:
    """The JSON of one server-sent-events line, or None (comments, blanks, ``[DONE]``)."""
    if not line.startswith("data:"):
        return None
    payload = line[len("data:") :].strip()
    return None if payload in ("", "[DONE]") else payload
