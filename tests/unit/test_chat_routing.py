"""Plain-words routing: the model picks the action, the ids come from the message."""

from __future__ import annotations

import json
from dataclasses import dataclass

from agent.chat.routing import route_message
from serving.engine import Generation, GenerationRequest
from serving.metrics import RequestMetrics


@dataclass
class _Picks:
    """Answers every routing request with ``answer``; keeps the requests."""

    answer: dict[str, object]

    def __post_init__(self) -> None:
        self.requests: list[GenerationRequest] = []

    def generate(self, request: GenerationRequest) -> Generation:
        self.requests.append(request)
        metrics = RequestMetrics(prompt_tokens=1, output_tokens=1, ttft_s=0.0, e2e_s=0.0)
        return Generation(json.dumps(self.answer), [], "stop", metrics)


STATE = {
    "candidates": {"cand_001": {}, "cand_033": {}, "cand_056": {}},
    "requirements": [{"id": "R1", "text": "Python"}, {"id": "R8", "text": "Django"}],
}


def test_the_ids_acted_on_are_the_ones_the_message_names_in_its_order():
    engine = _Picks({"action": "compare", "candidate": "cand_056", "other": "cand_056"})
    action = route_message("compare cand_056 and cand_033", STATE, engine)  # type: ignore[arg-type]
    assert action == {"name": "compare", "args": {"candidate": "cand_056", "other": "cand_033"}}
    schema = engine.requests[0].json_schema["properties"]
    assert schema["action"]["enum"] == ["compare", "why"]
    assert schema["candidate"]["enum"] == schema["other"]["enum"] == ["cand_056", "cand_033"]


def test_a_named_requirement_is_dropped_or_shown_not_noted():
    engine = _Picks({"action": "drop", "requirement": ""})
    action = route_message("remove R8.", STATE, engine)  # type: ignore[arg-type]
    assert action == {"name": "drop", "args": {"requirement": "R8"}}
    assert engine.requests[0].json_schema["properties"]["action"]["enum"] == [
        "drop",
        "requirements",
    ]


def test_nothing_named_leaves_every_action_and_id_open():
    engine = _Picks({"action": "why", "candidate": ""})
    action = route_message("who should I call first?", STATE, engine)  # type: ignore[arg-type]
    assert action == {"name": "help", "args": {}}  # why needs a candidate: help, not a guess
    schema = engine.requests[0].json_schema["properties"]
    assert "help" in schema["action"]["enum"]
    assert schema["candidate"]["enum"] == ["cand_001", "cand_033", "cand_056", ""]
