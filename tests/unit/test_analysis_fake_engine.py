"""The analysis flow on the scripted engine: what goes in, what comes out, what fails."""

import json

import pytest

from agent.analysis import analyze, build_request
from agent.inputs import InputError, load_candidate, load_job
from agent.validation import AnalysisInvalidError
from serving.engine import EngineError
from serving.fake_engine import ScriptedEngine


def _valid_answer(request):
    assessments = []
    for item in request.json_schema["properties"]["assessments"]["prefixItems"]:
        props = item["properties"]
        quotes = props["evidence"].get("items", {}).get("enum", [])
        assessments.append(
            {
                "requirement_id": props["requirement_id"]["const"],
                "evidence": quotes[:1],
                "verdict": "met" if quotes else "insufficient_evidence",
                "reasoning": "Checked.",
            }
        )
    return {"assessments": assessments, "summary": "A fit."}


@pytest.fixture
def pair(django_job_path, django_candidate_path):
    return load_job(django_job_path), load_candidate(django_candidate_path)


def test_valid_answer_gives_result_with_provenance(pair):
    job, candidate = pair
    engine = ScriptedEngine().enqueue(_valid_answer(build_request(job, candidate)))
    result = analyze(job, candidate, engine)
    assert len(result.analysis.assessments) == len(job.requirements)
    payload = result.to_dict()
    assert payload["metrics"]["output_tokens"] > 0
    assert payload["metrics"]["speculation"]["method"] == "off"
    assert payload["provenance"]["model"] == "scripted-fake"
    assert engine.history[0].json_schema is not None
    assert engine.pending == 0


def test_invented_quote_fails_validation(pair):
    job, candidate = pair
    answer = _valid_answer(build_request(job, candidate))
    answer["assessments"][0]["evidence"] = ["Ten years of COBOL at NASA"]
    answer["assessments"][0]["verdict"] = "met"
    engine = ScriptedEngine().enqueue(answer)
    with pytest.raises(AnalysisInvalidError, match="not found verbatim"):
        analyze(job, candidate, engine)


def test_engine_error_propagates(pair):
    engine = ScriptedEngine().enqueue(EngineError("boom"))
    with pytest.raises(EngineError, match="boom"):
        analyze(*pair, engine)


def test_empty_queue_fails_loudly(pair):
    with pytest.raises(EngineError, match="no output queued"):
        analyze(*pair, ScriptedEngine())


def test_input_over_context_is_refused_before_generating(pair):
    engine = ScriptedEngine(max_model_len=600)
    with pytest.raises(InputError, match="too long together"):
        analyze(*pair, engine)
    assert engine.history == []


def test_fake_engine_serializes_dicts():
    engine = ScriptedEngine().enqueue({"a": 1}, "raw")
    from serving.engine import GenerationRequest

    request = GenerationRequest(messages=[{"role": "user", "content": "hi"}])
    assert json.loads(engine.generate(request).text) == {"a": 1}
    assert engine.generate(request).text == "raw"
