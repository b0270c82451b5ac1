"""Analyses over real HTTP: keys, validation, waiting and polling, ATS shapes, metrics, forget."""

from __future__ import annotations

import time

from agent.store.api_keys import create_api_key, revoke_api_key
from schemas.report import MatchReport
from tests.api.conftest import AUTH


def pair(job_text: str, candidate_text: str, candidate_id: str = "c1") -> dict:
    return {"job": {"text": job_text}, "candidate": {"id": candidate_id, "text": candidate_text}}


def test_wait_answers_a_valid_report_with_the_score_on_top(api, job_text, candidate_text):
    response = api.client.post(
        "/v1/analyses", params={"wait": "true"}, json=pair(job_text, candidate_text), headers=AUTH
    )
    assert response.status_code == 200, response.text
    body = response.json()
    analysis_id = body.pop("id")
    report = MatchReport.model_validate(body)
    assert body["score"] == report.breakdown.score
    assert report.candidate["id"] == "c1"
    for assessment in report.analysis.assessments:
        for quote in assessment.evidence:
            assert quote in candidate_text
    assert response.headers["Location"] == f"/v1/analyses/{analysis_id}"
    again = api.client.get(response.headers["Location"], headers=AUTH)
    assert again.status_code == 200 and again.json()["score"] == report.score


def test_without_wait_it_is_accepted_and_polled_until_done(api, job_text, candidate_text):
    response = api.client.post("/v1/analyses", json=pair(job_text, candidate_text), headers=AUTH)
    assert response.status_code == 202
    task = response.json()
    assert task["status"] in ("queued", "running", "done")
    assert response.headers["Location"] == task["location"] == f"/v1/analyses/{task['id']}"
    deadline = time.monotonic() + 30
    while True:
        polled = api.client.get(task["location"], headers=AUTH)
        if polled.status_code == 200:
            break
        assert polled.status_code == 202 and time.monotonic() < deadline
        time.sleep(0.05)
    assert MatchReport.model_validate({k: v for k, v in polled.json().items() if k != "id"})
    assert polled.headers["X-Analysis-Id"].isdigit()


def test_a_key_is_required_and_a_revoked_one_stops_working(api, job_text, candidate_text):
    body = pair(job_text, candidate_text)
    missing = api.client.post("/v1/analyses", json=body)
    assert missing.status_code == 401
    assert missing.json()["error"].startswith("an API key is required")
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    wrong = api.client.post("/v1/analyses", json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    with api.assistant.database.session() as session:
        _, key = create_api_key(session, name="ats")
    stored = {"Authorization": f"Bearer {key}"}
    assert api.client.get("/v1/webhooks", headers=stored).status_code == 200
    with api.assistant.database.session() as session:
        revoke_api_key(session, name="ats")
    assert api.client.get("/v1/webhooks", headers=stored).status_code == 401
    assert api.client.get("/v1/analyses/1").status_code == 401


def test_bad_input_is_422_with_one_clear_line(api, job_text, candidate_text):
    def post(body: dict) -> dict:
        response = api.client.post("/v1/analyses", json=body, headers=AUTH)
        assert response.status_code == 422, response.text
        return response.json()

    empty = post(pair(job_text, ""))
    assert empty["error"] == "candidate.text: String should have at least 1 character"
    assert "input" not in str(empty["detail"])  # the text sent is never echoed back
    blank = post(pair(job_text, "   \n  "))
    assert blank["error"].startswith("the candidate's profile is empty")
    both = post({"job": {"text": job_text}, "candidate": {"text": "x", "json_resume": {}}})
    assert "give exactly one of 'text', 'json_resume'" in both["error"]
    no_requirements = post({"job": {"json": {"title": "X"}}, "candidate": {"text": "y"}})
    assert no_requirements["error"] == (
        "the JSON job has no description, qualifications or skills (request job.json)"
    )
    not_json = api.client.post(
        "/v1/analyses", content=b"{not json", headers={**AUTH, "Content-Type": "application/json"}
    )
    assert not_json.status_code == 422 and not_json.json()["error"].startswith(
        "the body is not valid JSON"
    )


def test_json_resume_and_json_job_are_accepted(api):
    body = {
        "job": {
            "json": {
                "title": "Backend Engineer",
                "skills": [{"name": "Python"}, {"name": "PostgreSQL"}],
                "description": "Build APIs.",
            }
        },
        "candidate": {
            "id": "jr-1",
            "json_resume": {
                "basics": {"name": "Ada Example", "summary": "Backend developer."},
                "work": [{"name": "Acme", "position": "Engineer", "summary": "Python APIs."}],
                "skills": [{"name": "Python"}, {"name": "PostgreSQL"}],
            },
        },
    }
    response = api.client.post("/v1/analyses?wait=true", json=body, headers=AUTH)
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["job"]["title"] == "Backend Engineer"
    assert report["candidate"] == {"id": "jr-1", "display_name": "Ada Example"}


def test_ats_formats_and_unknown_ids(api, job_text, candidate_text):
    made = api.client.post(
        "/v1/analyses?wait=true", json=pair(job_text, candidate_text), headers=AUTH
    )
    analysis_id = made.json()["id"]
    greenhouse = api.client.get(f"/v1/analyses/{analysis_id}?format=greenhouse", headers=AUTH)
    assert greenhouse.status_code == 200
    scorecard, status = greenhouse.json()["scorecard"], greenhouse.json()["test_status"]
    assert scorecard["overall_recommendation"] == made.json()["recommendation"]["greenhouse"]
    assert status["partner_score"] == made.json()["score"]
    assert status["partner_profile_url"] == f"{api.url}/v1/analyses/{analysis_id}"
    lever = api.client.get(f"/v1/analyses/{analysis_id}?format=lever", headers=AUTH).json()
    assert lever["fieldValues"][0]["value"].endswith("Hire")
    ashby = api.client.get(f"/v1/analyses/{analysis_id}?format=ashby", headers=AUTH).json()
    assert 1 <= ashby["feedbackForm"]["fieldSubmissions"][0]["value"]["score"] <= 4
    assert api.client.get("/v1/analyses/999999", headers=AUTH).status_code == 404
    assert api.client.get("/v1/analyses/task_nope", headers=AUTH).status_code == 404
    bad_format = api.client.get(f"/v1/analyses/{analysis_id}?format=workday", headers=AUTH)
    assert bad_format.status_code == 422


def test_metrics_count_requests_analyses_and_queue(api, job_text, candidate_text):
    api.client.post("/v1/analyses?wait=true", json=pair(job_text, candidate_text), headers=AUTH)
    api.client.post("/v1/analyses", json=pair(job_text, ""), headers=AUTH)
    text = api.client.get("/metrics").text
    assert 'hiring_assistant_analyses_total{outcome="done"} 1.0' in text
    assert (
        'hiring_assistant_http_requests_total{method="POST",route="/v1/analyses",status="422"} 1.0'
        in text
    )
    assert "hiring_assistant_queue_depth 0.0" in text
    assert "hiring_assistant_spec_decode_draft_tokens_total" in text
    assert "hiring_assistant_analysis_tpot_seconds_count 1.0" in text


def test_health_and_readiness(api):
    assert api.client.get("/healthz").json() == {"status": "ok"}
    ready = api.client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": "ok", "engine": "ok"}
    assert api.client.get("/docs").status_code == 200
    assert "/v1/analyses" in api.client.get("/openapi.json").json()["paths"]


def test_forget_deletes_the_candidate_and_their_analyses(api, job_text, candidate_text):
    made = api.client.post(
        "/v1/analyses?wait=true", json=pair(job_text, candidate_text), headers=AUTH
    )
    analysis_id = made.json()["id"]
    gone = api.client.delete("/v1/candidates/c1", headers=AUTH)
    assert gone.status_code == 200 and gone.json()["records"] == 1
    assert api.client.get(f"/v1/analyses/{analysis_id}", headers=AUTH).status_code == 404
    assert api.client.delete("/v1/candidates/c1", headers=AUTH).status_code == 404


def test_anonymize_keeps_the_verdicts_without_the_person(api, job_text, candidate_text):
    made = api.client.post(
        "/v1/analyses?wait=true", json=pair(job_text, candidate_text), headers=AUTH
    )
    analysis_id = made.json()["id"]
    kept = api.client.delete("/v1/candidates/c1?anonymize=true", headers=AUTH)
    assert kept.status_code == 200 and kept.json()["anonymized"] is True
    with api.assistant.database.session() as session:
        from agent.store.repository import get_analysis

        row = get_analysis(session, analysis_id=analysis_id, audit=None)
        assert row.report["score"] == made.json()["score"]
        assert row.report["candidate"] == {"id": None, "display_name": None}


def test_the_report_says_it_is_for_human_review(api, job_text, candidate_text):
    response = api.client.post(
        "/v1/analyses", params={"wait": "true"}, json=pair(job_text, candidate_text), headers=AUTH
    )
    assert response.status_code == 200, response.text
    assert "recruiter's review" in response.json()["recommendation"]["review"]
