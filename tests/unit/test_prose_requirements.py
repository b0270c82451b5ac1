"""Requirements of a prose job: the model picks among the job's sentences; code checks the pick."""

from __future__ import annotations

import pytest

from agent.ingest.files import load_candidate, load_job
from agent.rubric.prose_requirements import job_sentences, parse_extraction
from agent.service import analyze, prepare_request
from serving.engine import TransientEngineError
from serving.fake_engine import ScriptedEngine
from tests.conftest import candidate_path, job_path
from tests.unit.fake_answers import valid_answer

MUST = (
    "The candidate must have extensive experience in building Android applications for "
    "tablets/phones using Android Studio and Java."
)
NDK = "Experience with the Android NDK is a plus."


@pytest.fixture(scope="module")
def prose_job():
    return load_job(job_path("job_011"))


def _pick(*chosen: tuple[str, str]) -> dict:
    return {"requirements": [{"sentence": s, "kind": k} for s, k in chosen]}


def test_sentences_of_a_prose_job(prose_job):
    assert prose_job.requirements_source == "prose"
    sentences = job_sentences(prose_job.text)
    assert MUST in sentences and NDK in sentences
    assert all(s != "Java Developer" for s in sentences)
    assert len(sentences) == len(set(sentences))


def test_pick_keeps_job_order_drops_repeats_and_unknowns(prose_job):
    sentences = job_sentences(prose_job.text)
    answer = _pick((NDK, "nice_to_have"), (MUST, "must_have"), (NDK, "must_have"), ("made up", "x"))
    import json

    reqs = parse_extraction(json.dumps(answer), sentences)
    assert [r.text for r in reqs] == [MUST.rstrip("."), NDK.rstrip(".")]
    assert [r.kind for r in reqs] == ["must_have", "nice_to_have"]
    assert [r.id for r in reqs] == ["R1", "R2"]
    with pytest.raises(ValueError, match="no sentence"):
        parse_extraction(json.dumps(_pick(("made up", "must_have"))), sentences)
    with pytest.raises(ValueError, match="not the requested JSON"):
        parse_extraction("nope", sentences)


def test_graph_asks_the_model_for_a_prose_jobs_requirements(prose_job):
    candidate = load_candidate(candidate_path("cand_033"))
    pick = _pick((MUST, "must_have"), (NDK, "nice_to_have"))
    request = prepare_request(prose_job, candidate, ScriptedEngine().enqueue(pick))
    engine = ScriptedEngine().enqueue(pick, valid_answer(request))
    report = analyze(prose_job, candidate, engine)
    extraction = engine.history[0]
    enum = extraction.json_schema["properties"]["requirements"]["items"]["properties"]["sentence"]
    assert enum["enum"] == job_sentences(prose_job.text)
    assert [r.text for r in report.requirements] == [MUST.rstrip("."), NDK.rstrip(".")]
    assert [r.kind for r in report.requirements] == ["must_have", "nice_to_have"]
    assert report.facts["requirements_source"] == "model"


def test_unusable_pick_falls_back_to_asking_sentences(prose_job):
    candidate = load_candidate(candidate_path("cand_033"))
    request = prepare_request(prose_job, candidate, ScriptedEngine().enqueue("not json"))
    engine = ScriptedEngine().enqueue("not json", valid_answer(request))
    report = analyze(prose_job, candidate, engine)
    assert report.facts["requirements_source"] == "prose"
    assert any("must have extensive experience" in r.text for r in report.requirements)


def test_jobs_with_sections_never_ask_the_model():
    job = load_job(job_path("job_008"))
    candidate = load_candidate(candidate_path("cand_033"))
    engine = ScriptedEngine()
    engine.enqueue(valid_answer(prepare_request(job, candidate, engine)))
    report = analyze(job, candidate, engine)
    assert len(engine.history) == 1, "the analysis only, no requirement extraction"
    assert report.facts["requirements_source"] == "sections"


def test_an_unreachable_server_is_not_a_reason_to_guess_requirements(prose_job):
    """A server gone after its retries propagates as the failure it is; only an unusable answer
    falls back to the job's own sentences."""
    candidate = load_candidate(candidate_path("cand_033"))
    engine = ScriptedEngine().enqueue(TransientEngineError("server at http://x/v1 went away"))
    with pytest.raises(TransientEngineError):
        prepare_request(prose_job, candidate, engine)
