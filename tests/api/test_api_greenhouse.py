"""Greenhouse, inbound: a signed webhook names an application; the job post and the resume come
from a fake ATS on 127.0.0.1 with payloads shaped like Greenhouse's."""

from __future__ import annotations

import html
import json
import time

import pytest

from agent.ats.greenhouse import sign
from tests.api.conftest import AUTH, serve
from tests.api.receivers import http_site, json_answer
from tests.conftest import candidate_path

SECRET = "greenhouse-shared-secret"
JOB_POST = {
    "id": 5032,
    "title": "Django Developer",
    "content": html.escape(
        "<p>We build web apps.</p><h3>Requirements</h3><ul>"
        "<li>5+ years of Python and Django</li><li>REST APIs</li>"
        "<li>PostgreSQL or MySQL</li></ul><h3>Nice to have</h3><ul><li>Docker</li></ul>"
    ),
}


def application_event(resume_url: str, action: str = "new_candidate_application") -> dict:
    return {
        "action": action,
        "payload": {
            "application": {
                "id": 69306314,
                "applied_at": "2026-11-30T12:56:05.244Z",
                "status": "active",
                "jobs": [{"id": 107761, "name": "Django Developer"}],
                "candidate": {
                    "id": 57683957,
                    "first_name": "Jo",
                    "last_name": "Example",
                    "attachments": [
                        {
                            "filename": "cover.txt",
                            "url": "/files/cover.txt",
                            "type": "cover_letter",
                        },
                        {"filename": "resume.txt", "url": resume_url, "type": "resume"},
                    ],
                },
            }
        },
    }


@pytest.fixture
def ats():
    resume = candidate_path("cand_033").read_bytes()

    def route(path: str, body: bytes):
        if path == "/v1/jobs/107761/job_post":
            return json_answer(200, JOB_POST)
        if path == "/files/resume.txt":
            return 200, resume, "text/plain"
        return json_answer(404, {"message": "not found"})

    with http_site(route) as site:
        yield site


def post_event(api, event: dict, secret: str = SECRET):
    body = json.dumps(event).encode()
    return api.client.post(
        "/v1/ats/greenhouse/webhook",
        content=body,
        headers={"Signature": sign(body, secret), "Content-Type": "application/json"},
    )


def poll(api, location: str):
    deadline = time.monotonic() + 30
    answer = api.client.get(location, headers=AUTH)
    while answer.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.05)
        answer = api.client.get(location, headers=AUTH)
    return answer


def test_an_application_webhook_is_analyzed_from_the_ats(tmp_path, ats):
    options = {"greenhouse_secret": SECRET, "ats_base_url": ats.url}
    with serve(f"sqlite:///{tmp_path / 'db'}", **options) as api:
        accepted = post_event(api, application_event("/files/resume.txt"))
        assert accepted.status_code == 202, accepted.text
        done = poll(api, accepted.json()["location"])
        assert done.status_code == 200, done.text
        report = done.json()
        assert report["candidate"] == {"id": "greenhouse-57683957", "display_name": "Jo Example"}
        assert report["job"]["title"] == "Django Developer"
        asked = [(r["text"], r["kind"]) for r in report["requirements"]][:4]
        assert asked == [
            ("5+ years of Python and Django", "must_have"),
            ("REST APIs", "must_have"),
            ("PostgreSQL or MySQL", "must_have"),
            ("Docker", "nice_to_have"),
        ]
        shaped = api.client.get(f"/v1/analyses/{report['id']}?format=greenhouse", headers=AUTH)
        assert shaped.json()["test_status"]["partner_score"] == report["score"]
    fetched = [r.path for r in ats.received]
    assert fetched == ["/v1/jobs/107761/job_post", "/files/resume.txt"]


def test_signature_ping_and_refusals(tmp_path, ats):
    options = {"greenhouse_secret": SECRET, "ats_base_url": ats.url}
    with serve(f"sqlite:///{tmp_path / 'db'}", **options) as api:
        forged = post_event(api, application_event("/files/resume.txt"), secret="not-it")
        assert forged.status_code == 401
        unsigned = api.client.post("/v1/ats/greenhouse/webhook", json={"action": "ping"})
        assert unsigned.status_code == 401
        ping = post_event(api, {"action": "ping", "payload": {}})
        assert ping.status_code == 200 and ping.json()["status"] == "ignored"
        shapeless = post_event(api, {"action": "new_candidate_application", "payload": {}})
        assert shapeless.status_code == 422
        assert shapeless.json()["error"].startswith("Greenhouse webhook: payload.application")
        elsewhere = post_event(api, application_event("http://169.254.169.254/latest/meta-data"))
        failed = poll(api, elsewhere.json()["location"])
        assert failed.status_code == 422
        assert failed.json()["error"].startswith(
            "Greenhouse resume URL is not on the configured ATS"
        )
        missing = post_event(api, application_event("/files/gone.txt"))
        gone = poll(api, missing.json()["location"])
        assert gone.status_code == 502
        assert gone.json()["error"] == "the ATS answered 404 for the resume"
    assert all("169.254" not in r.path for r in ats.received)


def test_without_a_secret_the_endpoint_says_how_to_configure_it(api):
    answer = api.client.post("/v1/ats/greenhouse/webhook", json={"action": "ping"})
    assert answer.status_code == 503
    assert "HIRING_ASSISTANT_GREENHOUSE_SECRET" in answer.json()["error"]
