"""The engine as a client of a vLLM server's OpenAI-compatible API (``vllm serve``).

Same surface as the in-process ``VLLMEngine``: one background event loop owns the HTTP client, so
``generate`` is safe from any thread and ``generate_many`` sends every request at once (the server
batches them). Answers are streamed, so the time to the first token is measured, not guessed.

This request's own speculation figures come from the server's per-request metrics
(``--per-request-spec-decode-metrics summary``, see ``serving.server``; read by
``serving.openai_wire``); the server-wide counters come from ``/metrics``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential

from serving.config import EngineSettings
from serving.engine import (
    EngineError,
    EngineInfo,
    Generation,
    GenerationRequest,
    Message,
    TransientEngineError,
)
from serving.loop_engine import LoopThreadEngine
from serving.metrics import RequestMetrics, SpeculationCounters
from serving.openai_wire import (
    StreamedAnswer,
    error_message,
    one_line,
    parse_server_counters,
    request_speculation,
    sse_payload,
)
from serving.server import root_url

T = TypeVar("T")
RETRY_STATUSES = frozenset({502, 503, 504})
SERVE_HINT = "start one with `hiring-assistant model serve`"
# Neutral sampling values, sent explicitly so a server's generation-config defaults cannot
# change what the in-process engine would sample.
NEUTRAL_SAMPLING = {
    "top_p": 1.0,
    "top_k": 0,
    "min_p": 0.0,
    "repetition_penalty": 1.0,
    "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
}


class _RetryableStatus(Exception):
    """A 502/503/504 answer: the server (or a proxy before it) is overloaded or restarting."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}")


# Worth another try: the server was busy, restarting, or the connection broke.
_TRANSIENT = (
    _RetryableStatus,
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)


# --- the engine -------------------------------------------------------------------------------


class RemoteEngine(LoopThreadEngine):
    """A vLLM server reached over HTTP; raises EngineError at once when none answers."""

    def __init__(
        self,
        settings: EngineSettings,
        *,
        url: str | None = None,
        retry_attempts: int = 4,
        retry_wait_s: float = 0.5,
    ) -> None:
        self.settings = settings
        base = url or settings.engine_url
        if not base:
            raise EngineError("no vLLM server URL: set HIRING_ASSISTANT_ENGINE_URL")
        self.url = base.rstrip("/")
        self._root = root_url(self.url)
        self._retry_attempts = max(1, retry_attempts)
        self._retry_wait_s = retry_wait_s
        self._start_loop("vllm-server-client")
        self._client: httpx.AsyncClient | None = None
        try:
            self._client = self._run(self._make_client())
            self.info = self._run(self._describe_server())
        except BaseException:
            self.close()
            raise

    # -- plumbing

    async def _make_client(self) -> httpx.AsyncClient:
        headers = {}
        if self.settings.engine_api_key is not None:
            headers["Authorization"] = f"Bearer {self.settings.engine_api_key.get_secret_value()}"
        wait = self.settings.engine_timeout_s
        return httpx.AsyncClient(
            headers=headers,
            timeout=httpx.Timeout(wait, connect=min(10.0, wait), pool=None),
            limits=httpx.Limits(max_connections=256, max_keepalive_connections=64),
        )

    def _transient(self, retry_connect: bool) -> Callable[[BaseException], bool]:
        def check(exc: BaseException) -> bool:
            if isinstance(exc, httpx.ConnectError):
                return retry_connect
            return isinstance(exc, _TRANSIENT)

        return check

    async def _with_retries(
        self, attempt: Callable[[], Awaitable[T]], what: str, *, retry_connect: bool = True
    ) -> T:
        """Run ``attempt`` with bounded exponential backoff on transient failures."""
        transient = self._transient(retry_connect)
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self._retry_attempts),
            wait=wait_exponential(multiplier=self._retry_wait_s, max=8.0),
            retry=retry_if_exception(transient),
            reraise=True,
        )
        try:
            return await retrying(attempt)
        except httpx.ConnectError as exc:
            if not retry_connect:
                detail = one_line(str(exc)) or "connection refused"
                raise EngineError(f"no vLLM server at {self.url} ({detail}); {SERVE_HINT}") from exc
            raise TransientEngineError(self._gave_up(what, exc)) from exc
        except Exception as exc:
            if transient(exc):
                raise TransientEngineError(self._gave_up(what, exc)) from exc
            raise

    def _gave_up(self, what: str, exc: BaseException) -> str:
        detail = one_line(str(exc)) or type(exc).__name__
        return (
            f"the vLLM server at {self.url} failed {what} {self._retry_attempts} times ({detail})"
        )

    def _check_status(self, status: int, body: str) -> None:
        if status < 400:
            return
        message = error_message(body)
        if status in RETRY_STATUSES:
            raise _RetryableStatus(status, message)
        if status == 401:
            raise EngineError(
                f"the vLLM server at {self.url} refused the API key (HTTP 401): set "
                "HIRING_ASSISTANT_ENGINE_API_KEY to the server's --api-key"
            )
        raise EngineError(f"the vLLM server at {self.url} answered HTTP {status}: {message}")

    async def _call(
        self, method: str, url: str, body: Any = None, *, retry_connect: bool = True
    ) -> httpx.Response:
        assert self._client is not None

        async def attempt() -> httpx.Response:
            response = await self._client.request(method, url, json=body)
            self._check_status(response.status_code, response.text)
            return response

        return await self._with_retries(attempt, f"{method} {url}", retry_connect=retry_connect)

    # -- start-up

    async def _describe_server(self) -> EngineInfo:
        response = await self._call("GET", f"{self.url}/models", retry_connect=False)
        try:
            cards = response.json()["data"]
        except (ValueError, KeyError, TypeError) as exc:
            raise EngineError(f"{self.url}/models is not a vLLM server's model list") from exc
        card = self._pick_model(cards)
        return EngineInfo(
            name="vllm-server",
            model=card["id"],
            speculation=self.settings.speculation,
            max_model_len=int(card.get("max_model_len") or self.settings.max_model_len),
            extra={"url": self.url, "vllm_version": await self._server_version()},
        )

    def _pick_model(self, cards: list[dict[str, Any]]) -> dict[str, Any]:
        if not cards:
            raise EngineError(f"the vLLM server at {self.url} serves no model")
        wanted = self.settings.model
        if wanted is None:
            return cards[0]
        for card in cards:
            if wanted in (card.get("id"), card.get("root")):
                return card
        served = ", ".join(str(card.get("id")) for card in cards)
        raise EngineError(
            f"the vLLM server at {self.url} serves {served}, not the configured model {wanted}"
        )

    async def _server_version(self) -> str | None:
        try:
            response = await self._call("GET", f"{self._root}/version")
            return str(response.json().get("version"))
        except (EngineError, ValueError, AttributeError):
            return None

    # -- the Engine protocol

    def count_prompt_tokens(self, messages: list[Message]) -> int:
        return self._run(self._count_prompt_tokens(messages))

    async def _count_prompt_tokens(self, messages: list[Message]) -> int:
        body = {"model": self.info.model, "messages": messages, "add_generation_prompt": True}
        response = await self._call("POST", f"{self._root}/tokenize", body)
        return int(response.json()["count"])

    async def _tokenize_text(self, text: str) -> list[int]:
        body = {"model": self.info.model, "prompt": text, "add_special_tokens": False}
        response = await self._call("POST", f"{self._root}/tokenize", body)
        return [int(t) for t in response.json()["tokens"]]

    def _body(self, request: GenerationRequest) -> dict[str, Any]:
        max_tokens = request.max_tokens or self.settings.max_tokens
        body: dict[str, Any] = {
            "model": self.info.model,
            "messages": request.messages,
            "temperature": request.temperature,
            **NEUTRAL_SAMPLING,
            # the server also caps it by the room the prompt leaves in the context
            "max_tokens": min(max_tokens, self.info.max_model_len),
            "seed": self.settings.seed,
            "stream": True,
            "stream_options": {"include_usage": True},
            "return_token_ids": True,
        }
        if request.json_schema is not None:
            body["structured_outputs"] = {"json": request.json_schema}
        if request.logprobs is not None:
            body |= {
                "logprobs": True,
                "top_logprobs": request.logprobs,
                "return_tokens_as_token_ids": True,
            }
        return body

    async def _stream_once(self, body: dict[str, Any]) -> tuple[StreamedAnswer, float, float]:
        """One streamed completion: the answer, the time to its first token and the total."""
        assert self._client is not None
        answer = StreamedAnswer()
        start = time.perf_counter()
        first: float | None = None
        url = f"{self.url}/chat/completions"
        async with self._client.stream("POST", url, json=body) as response:
            if response.status_code >= 400:
                await response.aread()
                self._check_status(response.status_code, response.text)
            async for line in response.aiter_lines():
                payload = sse_payload(line)
                if payload is not None and answer.add(json.loads(payload)) and first is None:
                    first = time.perf_counter()
        end = time.perf_counter()
        return answer, (first or end) - start, end - start

    async def _agenerate(self, request: GenerationRequest) -> Generation:
        body = self._body(request)

        async def attempt() -> tuple[StreamedAnswer, float, float]:
            return await self._stream_once(body)

        answer, ttft, e2e = await self._with_retries(attempt, "a chat completion")
        if answer.finish_reason in ("error", "abort"):
            raise EngineError(
                f"the vLLM server ended the request with {answer.finish_reason!r} "
                "(an invalid JSON schema is the usual cause; the server log has details)"
            )
        token_ids = answer.token_ids
        if not token_ids and answer.text:  # a server without return_token_ids
            token_ids = await self._tokenize_text(answer.text)
        usage = answer.usage
        metrics = RequestMetrics(
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            output_tokens=int(usage.get("completion_tokens", len(token_ids))),
            ttft_s=ttft,
            e2e_s=e2e,
        )
        return Generation(
            text=answer.text,
            token_ids=token_ids,
            finish_reason=answer.finish_reason,
            metrics=metrics,
            logprobs=answer.logprobs if request.logprobs is not None else None,
            speculation=request_speculation(answer.metrics),
        )

    def speculation_counters(self) -> SpeculationCounters:
        """The server's cumulative counters (all its clients together) from ``/metrics``."""

        async def fetch() -> str:
            return (await self._call("GET", f"{self._root}/metrics")).text

        return parse_server_counters(self._run(fetch()))

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None and self._thread.is_alive():
            self._run(client.aclose())
        self._stop_loop()
