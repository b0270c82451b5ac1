"""The chat over HTTP: server-sent events, the session remembered between requests."""

from __future__ import annotations

import json

from tests.api.conftest import AUTH
from tests.conftest import candidate_path


def events(response) -> list[tuple[str, object]]:
    out = []
    for block in response.text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_a_session_over_http_streams_answers_and_remembers(api, job_text):
    first = api.client.post(
        "/v1/chat/role-1/messages",
        json={
            "message": "/rank",
            "job": {"text": job_text},
            "candidates": [
                {"id": cid, "text": candidate_path(cid).read_text()}
                for cid in ("cand_033", "cand_001")
            ],
        },
        headers=AUTH,
    )
    assert first.status_code == 200, first.text
    assert first.headers["content-type"].startswith("text/event-stream")
    got = events(first)
    assert [name for name, _ in got] == ["opened", "reply", "table", "done"]
    assert got[0][1]["text"].startswith("Session 'role-1': Django Developer, 2 candidates")
    table = got[2][1]
    assert [row["candidate"] for row in table][-1] == "cand_001"
    assert got[3][1]["analyzed"] == 2

    later = api.client.post(
        "/v1/chat/role-1/messages", json={"message": "/why cand_033"}, headers=AUTH
    )
    reply = dict(events(later))
    assert reply["opened"]["text"].startswith("Resumed session 'role-1'")
    assert reply["reply"]["text"].startswith("cand_033: ")
    assert reply["done"]["analyzed"] == 0


def test_chat_refusals(api):
    unknown = api.client.post("/v1/chat/nobody/messages", json={"message": "/rank"}, headers=AUTH)
    assert unknown.status_code == 422
    assert unknown.json()["error"] == "no session 'nobody' yet: give the job to start it"
    bad_name = api.client.post("/v1/chat/..%2Fx/messages", json={"message": "hi"}, headers=AUTH)
    assert bad_name.status_code in (404, 422)
    keyless = api.client.post("/v1/chat/role/messages", json={"message": "hi"})
    assert keyless.status_code == 401
