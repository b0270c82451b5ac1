"""The vLLM-server client's own logic, without a vLLM server.

Payloads below are cut from what a real vLLM 0.32 server (started with ``serving.server``'s
command) sent; the integration test ``test_5_remote_server_real`` checks the same paths live.
A tiny local HTTP server stands in only for failures vLLM does not produce on demand (503, 401).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from serving.config import EngineSettings, SpeculationConfig
from serving.engine import Engine, EngineError, GenerationRequest, TransientEngineError
from serving.openai_wire import (
    StreamedAnswer,
    error_message,
    parse_server_counters,
    request_speculation,
    sse_payload,
)
from serving.remote_engine import RemoteEngine
from serving.server import root_url, server_command, server_environment, wait_until_ready

MODEL = "/models/SmolLM2-135M-Instruct"
# The final usage chunk's metrics of a request that drafted twice and took 16 tokens once.
SPEC_METRICS = {
    "speculative_decoding": {
        "mean_acceptance_length": 9.0,
        "draft_acceptance_rate": 0.5,
        "acceptance_histogram": [1] + [0] * 15 + [1],
        "num_spec_steps": 2,
        "num_accepted_draft_tokens": 16,
        "num_draft_tokens": 32,
        "num_spec_tokens": 16,
    }
}
LABELS = f'engine="0",model_name="{MODEL}"'
METRICS_TEXT = f"""\
# HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.
# TYPE vllm:spec_decode_num_drafts_total counter
vllm:spec_decode_num_drafts_total{{{LABELS}}} 6.0
vllm:spec_decode_num_drafts_created{{{LABELS}}} 1.7961405567520146e+09
vllm:spec_decode_num_draft_tokens_total{{{LABELS}}} 96.0
vllm:spec_decode_num_accepted_tokens_total{{{LABELS}}} 48.0
vllm:spec_decode_num_accepted_tokens_per_pos_total{{{LABELS},position="0"}} 3.0
vllm:spec_decode_num_accepted_tokens_per_pos_total{{{LABELS},position="1"}} 2.0
vllm:spec_decode_num_accepted_tokens_per_pos_created{{{LABELS},position="0"}} 1.79e+09
"""
STREAM = [
    'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""},'
    '"logprobs":null,"finish_reason":null}],"prompt_token_ids":[1,9690]}',
    "",
    'data: {"choices":[{"index":0,"delta":{"content":"{"},"logprobs":{"content":[{"token":'
    '"token_id:107","logprob":-0.131,"bytes":[123],"top_logprobs":[{"token":"token_id:107",'
    '"logprob":-0.131},{"token":"token_id:39428","logprob":-2.097}]}]},'
    '"finish_reason":null,"token_ids":[107]}]}',
    'data: {"choices":[{"index":0,"delta":{"content":""},"logprobs":{"content":[{"token":'
    '"token_id:2","logprob":0.0,"top_logprobs":[{"token":"token_id:2","logprob":0.0}]}]},'
    '"finish_reason":"stop","stop_reason":null,"token_ids":[2]}]}',
    'data: {"choices":[],"usage":{"prompt_tokens":48,"total_tokens":50,"completion_tokens":2},'
    f'"metrics":{json.dumps(SPEC_METRICS)}}}',
    "data: [DONE]",
]


def test_request_speculation_reads_the_per_request_summary() -> None:
    counters = request_speculation(SPEC_METRICS)
    assert (counters.drafts, counters.draft_tokens, counters.accepted_tokens) == (2, 32, 16)
    # accepted drafts are prefixes: every position was accepted in the one full step
    assert counters.accepted_per_position == (1,) * 16
    assert counters.mean_acceptance_length == 9.0


@pytest.mark.parametrize("metrics", [None, {}, {"time_to_first_token_ms": 12.0}])
def test_request_speculation_is_zero_without_figures(metrics) -> None:
    assert request_speculation(metrics).draft_tokens == 0


def test_per_position_counts_follow_the_histogram() -> None:
    spec = {"acceptance_histogram": [2, 1, 0, 3], "num_spec_steps": 6}
    counters = request_speculation({"speculative_decoding": spec})
    assert counters.accepted_per_position == (4, 3, 3)


def test_server_counters_from_prometheus_text() -> None:
    counters = parse_server_counters(METRICS_TEXT)
    assert (counters.drafts, counters.draft_tokens, counters.accepted_tokens) == (6, 96, 48)
    assert counters.accepted_per_position == (3, 2)
    assert parse_server_counters("").draft_tokens == 0


def test_stream_chunks_add_up_to_one_answer() -> None:
    answer = StreamedAnswer()
    produced = [answer.add(json.loads(p)) for p in map(sse_payload, STREAM) if p is not None]
    assert produced == [False, True, True, False]  # the role chunk and usage chunk carry none
    assert answer.text == "{"
    assert answer.token_ids == [107, 2]
    assert answer.logprobs == [{107: -0.131, 39428: -2.097}, {2: 0.0}]
    assert answer.finish_reason == "stop"
    assert answer.usage["completion_tokens"] == 2
    assert request_speculation(answer.metrics).draft_tokens == 32


def test_an_error_chunk_is_an_engine_error() -> None:
    chunk = {"error": {"message": 'Unsupported type\n "bogus"', "type": "BadRequestError"}}
    with pytest.raises(EngineError, match='failed the request: Unsupported type "bogus"'):
        StreamedAnswer().add(chunk)


def test_error_message_is_one_line() -> None:
    body = json.dumps({"error": {"message": "The model `x`\ndoes not exist.", "code": 404}})
    assert error_message(body) == "The model `x` does not exist."
    assert error_message("<html>Bad gateway</html>") == "<html>Bad gateway</html>"


def _flag(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_server_command_with_ngram() -> None:
    settings = EngineSettings(max_model_len=4096, max_num_seqs=8, seed=3)
    command = server_command(settings, host="127.0.0.1", port=8123, model=MODEL, on_cpu=True)
    assert command[1:3] == ["-m", "vllm.entrypoints.openai.api_server"]
    assert _flag(command, "--model") == MODEL
    assert _flag(command, "--port") == "8123"
    assert _flag(command, "--dtype") == "float32"
    assert _flag(command, "--max-model-len") == "4096"
    assert _flag(command, "--max-num-seqs") == "8"
    assert _flag(command, "--seed") == "3"
    assert "--enforce-eager" in command and "--enable-prefix-caching" in command
    assert json.loads(_flag(command, "--speculative-config")) == settings.speculation.to_vllm()
    assert _flag(command, "--per-request-spec-decode-metrics") == "summary"
    assert json.loads(_flag(command, "--structured-outputs-config")) == {
        "backend": "xgrammar",
        "disable_any_whitespace": True,
    }


def test_server_command_without_speculation() -> None:
    settings = EngineSettings(
        speculation=SpeculationConfig(method="off"), prefix_caching=False, enforce_eager=False
    )
    command = server_command(settings, host="0.0.0.0", port=1, model=MODEL, on_cpu=False)
    assert "--speculative-config" not in command
    assert "--per-request-spec-decode-metrics" not in command
    assert "--no-enable-prefix-caching" in command and "--enforce-eager" not in command
    assert _flag(command, "--dtype") == "auto"


def test_server_environment_on_cpu() -> None:
    env = server_environment(EngineSettings(kv_cache_gib=3), {"PATH": "/bin"}, on_cpu=True)
    assert env["PATH"] == "/bin"
    assert env["VLLM_CPU_KVCACHE_SPACE"] == "3"
    assert env["NUMBA_THREADING_LAYER"] == "workqueue"
    assert env["VLLM_CPU_OMP_THREADS_BIND"]
    assert env["VLLM_LOGGING_LEVEL"] == "WARNING"


def test_root_url() -> None:
    assert root_url("http://h:8000/v1/") == "http://h:8000"
    assert root_url("http://h:8000") == "http://h:8000"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_no_server_is_a_one_line_error_at_once() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    start = time.monotonic()
    with pytest.raises(EngineError) as caught:
        RemoteEngine(EngineSettings(engine_url=url))
    message = str(caught.value)
    assert message.startswith(f"no vLLM server at {url}") and "model serve" in message
    assert "\n" not in message and not isinstance(caught.value, TransientEngineError)
    assert time.monotonic() - start < 5


def test_wait_until_ready_gives_up() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    with pytest.raises(EngineError, match="not ready after"):
        wait_until_ready(url, 0.2, interval_s=0.05)
    with pytest.raises(EngineError, match="exited before it was ready"):
        wait_until_ready(url, 5, alive=lambda: False)


class _Stub(BaseHTTPRequestHandler):
    """Serves a model list like vLLM's, and answers every POST with ``status``."""

    status = 503
    posts = 0

    def do_GET(self) -> None:
        if self.path == "/v1/models":
            body = {"data": [{"id": MODEL, "root": MODEL, "max_model_len": 2048}]}
            self._send(200, body)
        else:
            self._send(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        type(self).posts += 1
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._send(self.status, {"error": "Unauthorized"} if self.status == 401 else {})

    def _send(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def stub_url() -> Iterator[str]:
    _Stub.posts = 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Stub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


REQUEST = GenerationRequest(messages=[{"role": "user", "content": "hi"}])


def test_overloaded_server_is_retried_then_transient(stub_url) -> None:
    _Stub.status = 503
    with RemoteEngine(
        EngineSettings(engine_url=stub_url), retry_attempts=3, retry_wait_s=0.01
    ) as engine:
        assert isinstance(engine, Engine)
        assert engine.info.max_model_len == 2048 and engine.info.model == MODEL
        with pytest.raises(TransientEngineError, match=f"{stub_url} failed a chat completion 3"):
            engine.generate(REQUEST)
    assert _Stub.posts == 3


def test_refused_key_is_not_retried(stub_url) -> None:
    _Stub.status = 401
    settings = EngineSettings(engine_url=stub_url, engine_api_key="nope")
    with RemoteEngine(settings) as engine, pytest.raises(EngineError, match="refused") as caught:
        engine.generate(REQUEST)
    assert not isinstance(caught.value, TransientEngineError)
    assert _Stub.posts == 1


def test_another_model_on_the_server_is_named(stub_url) -> None:
    with pytest.raises(EngineError, match=f"serves {MODEL}, not the configured model other"):
        RemoteEngine(EngineSettings(engine_url=stub_url, model="other"))


def test_a_closed_engine_says_so(stub_url) -> None:
    engine = RemoteEngine(EngineSettings(engine_url=stub_url))
    engine.close()
    engine.close()
    with pytest.raises(EngineError, match="is closed"):
        engine.generate(REQUEST)
