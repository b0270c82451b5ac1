import json

import pytest

from serving.engine import EngineError, GenerationRequest
from serving.fake_engine import ScriptedEngine

REQUEST = GenerationRequest(messages=[{"role": "user", "content": "hi"}])


def test_outputs_come_in_order_and_history_is_kept():
    engine = ScriptedEngine().enqueue({"a": 1}, "raw")
    assert json.loads(engine.generate(REQUEST).text) == {"a": 1}
    assert engine.generate(REQUEST).text == "raw"
    assert engine.history == [REQUEST, REQUEST]


def test_empty_queue_fails_loudly():
    with pytest.raises(EngineError, match="no output queued"):
        ScriptedEngine().generate(REQUEST)


def test_queued_exception_is_raised():
    with pytest.raises(EngineError, match="boom"):
        ScriptedEngine().enqueue(EngineError("boom")).generate(REQUEST)
