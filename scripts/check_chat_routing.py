"""How the configured model routes plain-words chat messages: ten messages, the expected action.

    .venv/bin/python scripts/check_chat_routing.py

Each message goes through the chat's own routing (JSON-schema enum of actions, arguments
narrowed to the session's real ids) on the engine the settings name; prints each pick and the
count routed as expected.
"""

from __future__ import annotations

from pathlib import Path

from agent.chat.routing import route_message
from agent.ingest.files import load_job
from serving.config import get_settings
from serving.factory import open_engine

CANDIDATES = ("cand_033", "cand_056", "cand_001", "cand_012", "cand_037", "cand_010")
CASES = [
    ("why is cand_001 ranked lower?", "why"),
    ("who is the strongest candidate?", "rank"),
    ("compare cand_033 and cand_056", "compare"),
    ("explain cand_012's score", "why"),
    ("the role also needs Kubernetes", "require"),
    ("remove R8", "drop"),
    ("remember that we prefer people in Berlin", "note"),
    ("show me the requirements", "requirements"),
    ("rank them please", "rank"),
    ("what's the weather like", "help"),
]

if __name__ == "__main__":  # vLLM starts worker processes
    job = load_job(Path("samples/jobs/job_008.md"))
    state = {
        "candidates": {cid: {} for cid in CANDIDATES},
        "requirements": [r.model_dump() for r in job.requirements],
    }
    with open_engine(get_settings()) as engine:
        right = 0
        for message, expected in CASES:
            action = route_message(message, state, engine)  # type: ignore[arg-type]
            right += action["name"] == expected
            verdict = "ok" if action["name"] == expected else f"expected {expected}"
            print(f"{message!r:48} -> {action['name']} {action['args']}  {verdict}")
        print(f"{right}/{len(CASES)} routed as expected")
