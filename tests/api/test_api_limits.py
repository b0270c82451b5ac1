"""What protects the service: body size, the bounded queue, and logs without secrets."""

from __future__ import annotations

import logging
import threading

import httpx

from serving.fake_engine import ScriptedEngine
from tests.api.conftest import AUTH, KEY, answer, serve
from tests.api.test_api_analyses import pair


def test_a_body_over_the_limit_is_413_declared_or_streamed(tmp_path, job_text):
    with serve(f"sqlite:///{tmp_path / 'db'}", max_body_bytes=4096) as api:
        big = pair(job_text, "x" * 10_000)
        declared = api.client.post("/v1/analyses", json=big, headers=AUTH)
        assert declared.status_code == 413
        assert declared.json() == {"error": "the request body is over 4,096 bytes"}

        def chunks():
            for _ in range(10):
                yield b"x" * 1000

        streamed = api.client.post(
            "/v1/analyses",
            content=chunks(),
            headers={**AUTH, "Content-Type": "application/json"},
        )
        assert streamed.status_code == 413


def test_a_full_queue_refuses_with_retry_after_and_loses_nothing(
    tmp_path, job_text, candidate_text
):
    engine = ScriptedEngine(responder=answer, delay_s=0.4)
    with serve(f"sqlite:///{tmp_path / 'db'}", engine=engine, workers=1, queue_size=2) as api:
        answers: list[httpx.Response] = []
        lock = threading.Lock()

        def post(index: int) -> None:
            body = pair(job_text, candidate_text + f"\nNote {index}.", f"c{index}")
            response = httpx.post(f"{api.url}/v1/analyses", json=body, headers=AUTH, timeout=30)
            with lock:
                answers.append(response)

        threads = [threading.Thread(target=post, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        accepted = [r for r in answers if r.status_code == 202]
        refused = [r for r in answers if r.status_code == 429]
        assert len(accepted) + len(refused) == 6
        assert len(accepted) == 2, [r.status_code for r in answers]
        for response in refused:
            assert int(response.headers["Retry-After"]) >= 1
            assert response.json()["error"].startswith("the queue is full: retry after")
        for response in accepted:  # every accepted request ends with its report
            location = response.json()["location"]
            final = api.client.get(location, headers=AUTH)
            while final.status_code == 202:
                final = api.client.get(location, headers=AUTH)
            assert final.status_code == 200
        text = api.client.get("/metrics").text
        assert 'hiring_assistant_analyses_total{outcome="done"} 2.0' in text
        assert 'route="/v1/analyses",status="429"} 4.0' in text


def test_logs_name_routes_never_keys_or_profiles(tmp_path, job_text, candidate_text, caplog):
    secret_line = "Zanzibar-7731 quantum basket weaving"
    with (
        caplog.at_level(logging.DEBUG),
        serve(f"sqlite:///{tmp_path / 'db'}") as api,
    ):
        api.client.post(
            "/v1/analyses?wait=true",
            json=pair(job_text, candidate_text + "\n" + secret_line),
            headers=AUTH,
        )
        api.client.post("/v1/analyses", json=pair(job_text, ""), headers=AUTH)
        api.client.get("/v1/analyses/1", headers={"Authorization": "Bearer wrong-key-123"})
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "POST /v1/analyses 200" in logged
    assert "GET /v1/analyses/{ref} 401" in logged
    assert KEY not in logged and "wrong-key-123" not in logged
    assert "Zanzibar" not in logged and "full-stack web developer" not in logged
