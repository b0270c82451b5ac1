"""Webhooks out: signed deliveries to a receiver on 127.0.0.1, retried, each attempt recorded."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from agent.api.webhooks import verify
from agent.store.webhooks import deliveries
from tests.api.conftest import AUTH
from tests.api.receivers import http_site, json_answer
from tests.api.test_api_analyses import pair

SECRET = "receiver-secret-0123456789"


def docs_check():
    """The receiver's signature check as docs/api.md shows it."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert block is not None
    namespace: dict = {}
    exec(block.group(1), namespace)
    return namespace["genuine"]


def wait_for(condition, timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_finished_analysis_is_posted_signed_and_retried(api, job_text, candidate_text):
    calls = {"n": 0}

    def route(path: str, body: bytes):
        calls["n"] += 1
        return json_answer(500 if calls["n"] == 1 else 200, {"ok": calls["n"] > 1})

    with http_site(route) as receiver:
        made = api.client.post(
            "/v1/webhooks",
            json={"url": f"{receiver.url}/hook", "events": ["analysis.finished"], "secret": SECRET},
            headers=AUTH,
        )
        assert made.status_code == 201 and made.json()["secret"] == SECRET
        listed = api.client.get("/v1/webhooks", headers=AUTH).json()
        assert listed == [
            {
                "id": made.json()["id"],
                "url": f"{receiver.url}/hook",
                "events": ["analysis.finished"],
                "secret": None,
            }
        ]
        report = api.client.post(
            "/v1/analyses?wait=true", json=pair(job_text, candidate_text), headers=AUTH
        ).json()
        wait_for(lambda: len(receiver.received) == 2)
    first, second = receiver.received
    assert first.body == second.body  # the same delivery, retried
    assert (
        first.headers["X-Hiring-Assistant-Delivery"]
        == second.headers["X-Hiring-Assistant-Delivery"]
    )
    assert verify(SECRET, second.headers, second.body)
    assert docs_check()(SECRET, second.headers, second.body)  # the snippet docs/api.md shows
    assert not verify("another-secret-000000", second.headers, second.body)
    assert not verify(SECRET, second.headers, second.body + b" ")
    payload = json.loads(second.body)
    assert payload["event"] == "analysis.finished"
    assert payload["data"]["analysis_id"] == report["id"]
    assert payload["data"]["score"] == report["score"]
    assert payload["data"]["candidate_id"] == "c1"
    assert "full-stack" not in second.body.decode()  # ids and figures, not the profile
    with api.assistant.database.session() as session:
        attempts = [
            (d.attempt, d.status_code, d.error)
            for d in deliveries(session, webhook_id=made.json()["id"])
        ]
    assert attempts == [(1, 500, "answered 500"), (2, 200, None)]


def test_a_finished_batch_is_announced(api, job_text, candidate_text):
    with http_site(lambda path, body: json_answer(200, {})) as receiver:
        api.client.post(
            "/v1/webhooks",
            json={"url": receiver.url, "events": ["batch.finished"]},
            headers=AUTH,
        )
        started = api.client.post(
            "/v1/batches",
            json={
                "job": {"text": job_text},
                "candidates": [
                    {"id": "a", "text": candidate_text},
                    {"id": "b", "text": candidate_text + "\nAlso SQL."},
                ],
                "name": "django",
            },
            headers=AUTH,
        )
        assert started.status_code == 202
        wait_for(lambda: len(receiver.received) == 1)
    payload = json.loads(receiver.received[0].body)
    assert payload["event"] == "batch.finished"
    assert payload["data"]["batch_id"] == started.json()["id"]
    assert payload["data"]["counts"] == {"done": 2}


def test_a_receiver_that_never_answers_is_given_up_after_the_attempts(
    tmp_path, job_text, candidate_text
):
    from tests.api.conftest import serve

    with (
        http_site(lambda path, body: json_answer(503, {})) as receiver,
        serve(f"sqlite:///{tmp_path / 'db'}", webhook_attempts=3) as api,
    ):
        hook = api.client.post(
            "/v1/webhooks",
            json={"url": receiver.url, "events": ["analysis.finished"]},
            headers=AUTH,
        ).json()
        api.client.post("/v1/analyses?wait=true", json=pair(job_text, candidate_text), headers=AUTH)
        wait_for(lambda: len(receiver.received) == 3)
        time.sleep(0.3)
        assert len(receiver.received) == 3
        with api.assistant.database.session() as session:
            statuses = [d.status_code for d in deliveries(session, webhook_id=hook["id"])]
        assert statuses == [503, 503, 503]


def test_webhook_input_is_checked(api):
    bad = api.client.post(
        "/v1/webhooks", json={"url": "ftp://x", "events": ["analysis.finished"]}, headers=AUTH
    )
    assert bad.status_code == 422 and bad.json()["error"].startswith("url:")
    unknown = api.client.post(
        "/v1/webhooks", json={"url": "http://x", "events": ["everything"]}, headers=AUTH
    )
    assert unknown.status_code == 422
    assert api.client.delete("/v1/webhooks/12345", headers=AUTH).status_code == 404
