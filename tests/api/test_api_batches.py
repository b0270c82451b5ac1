"""Batches over HTTP: progress, the ranked shortlist, the same request continuing the same run,
and a server stopped half-way leaving a run that the next one finishes."""

from __future__ import annotations

import time

from serving.fake_engine import ScriptedEngine
from tests.api.conftest import AUTH, answer, serve
from tests.conftest import candidate_path

IDS = ("cand_033", "cand_001", "cand_056", "cand_012")


JOB = (
    "# Django Developer\n\nRequirements:\n- 5+ years of Python and Django\n"
    "- Experience with PostgreSQL and SQL\n- Front-end skills: JavaScript, HTML, CSS\n"
)


def batch_body(ids=IDS, **extra) -> dict:
    return {
        "job": {"text": JOB},
        "candidates": [{"id": cid, "text": candidate_path(cid).read_text()} for cid in ids],
        **extra,
    }


def finished(api, batch_id: int, timeout_s: float = 60) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        state = api.client.get(f"/v1/batches/{batch_id}", headers=AUTH).json()
        if state["status"] == "finished":
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.05)


def test_a_batch_runs_to_a_ranked_shortlist_and_is_not_redone(api):
    started = api.client.post("/v1/batches", json=batch_body(name="django"), headers=AUTH)
    assert started.status_code == 202, started.text
    run = started.json()
    assert (run["name"], run["total"], run["shortlist"]) == (
        "django",
        4,
        f"/v1/batches/{run['id']}/shortlist",
    )
    assert started.headers["Location"] == f"/v1/batches/{run['id']}"
    state = finished(api, run["id"])
    assert state["counts"] == {"done": 4} and state["ended"] == 4
    shortlist = api.client.get(run["shortlist"], headers=AUTH).json()["candidates"]
    assert sorted(row["candidate_id"] for row in shortlist) == sorted(IDS)
    scores = [row["score"] for row in shortlist]
    assert scores == sorted(scores, reverse=True)
    assert [row["rank"] for row in shortlist] == [1, 2, 3, 4]
    csv = api.client.get(f"{run['shortlist']}?format=csv", headers=AUTH)
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines()[0].startswith("rank,candidate_id")
    asked = len(api.engine.history)
    again = api.client.post("/v1/batches", json=batch_body(name="django"), headers=AUTH)
    assert again.json()["id"] == run["id"] and again.json()["status"] == "finished"
    time.sleep(0.2)
    assert len(api.engine.history) == asked  # nothing analyzed twice


def test_unreadable_candidates_are_listed_not_lost(api):
    body = batch_body(ids=IDS[:2])
    body["candidates"].append({"id": "blank", "text": "   \n "})
    body["candidates"].append({"id": "twin", "text": body["candidates"][0]["text"]})
    run = api.client.post("/v1/batches", json=body, headers=AUTH).json()
    finished(api, run["id"])
    rows = api.client.get(run["shortlist"], headers=AUTH).json()["candidates"]
    assert {row["candidate_id"] for row in rows} >= {"cand_033", "cand_001", "blank"}
    blank = next(row for row in rows if row["candidate_id"] == "blank")
    assert blank["status"] == "failed" and "empty" in blank["reason"]


def test_no_readable_candidate_is_422_and_unknown_runs_404(api):
    body = batch_body(ids=())
    body["candidates"] = [{"id": "blank", "text": "  "}]
    refused = api.client.post("/v1/batches", json=body, headers=AUTH)
    assert refused.status_code == 422
    assert refused.json()["error"].startswith("no candidate could be read")
    assert api.client.get("/v1/batches/4242", headers=AUTH).status_code == 404
    assert (
        api.client.post("/v1/batches", json={**body, "candidates": []}, headers=AUTH).status_code
        == 422
    )


def test_a_server_stopped_mid_run_leaves_it_for_the_next_one(tmp_path):
    url = f"sqlite:///{tmp_path / 'db'}"
    ids = [f"cand_0{n:02d}" for n in range(10, 30)]
    slow = ScriptedEngine(responder=answer, delay_s=0.5)
    with serve(url, engine=slow) as api:
        run = api.client.post("/v1/batches", json=batch_body(ids=ids), headers=AUTH).json()
        while api.client.get(f"/v1/batches/{run['id']}", headers=AUTH).json()["ended"] < 1:
            time.sleep(0.05)
    # the server stopped: the worker was told to stop, the rest waits
    with serve(url) as api:
        state = api.client.get(f"/v1/batches/{run['id']}", headers=AUTH).json()
        assert state["status"] == "running" and 1 <= state["ended"] < 20
        assert state["worker"] == "idle"
        again = api.client.post("/v1/batches", json=batch_body(ids=ids), headers=AUTH).json()
        assert again["id"] == run["id"]
        done = finished(api, run["id"])
        assert done["counts"] == {"done": 20}
        rows = api.client.get(run["shortlist"], headers=AUTH).json()["candidates"]
        assert sorted(row["candidate_id"] for row in rows) == sorted(ids)
