"""Plain words to one action: the model picks from a JSON-schema enum of actions, with
arguments constrained to the session's real candidate and requirement ids."""

from __future__ import annotations

import json
import re
from typing import Any

from agent.chat.state import Action, ChatState
from agent.chat.tools import requirements_of
from prompts import render_chat
from serving.engine import Engine, GenerationRequest

ROUTED = ("rank", "why", "compare", "require", "drop", "requirements", "note", "help")
MAX_ROUTE_TOKENS = 120


def route_schema(
    candidates: list[str],
    requirement_ids: list[str],
    actions: tuple[str, ...] = ROUTED,
    *,
    named: bool = False,
) -> dict[str, Any]:
    """Every argument is an enum of what exists ("" for none), except free text, kept short.
    With ``named`` (the message names candidates), the candidate must be one of those."""
    none = [] if named else [""]
    return {
        "type": "object",
        "properties": {
            "action": {"enum": list(actions)},
            "candidate": {"enum": [*candidates, *none]},
            "other": {"enum": [*candidates, *(none if len(candidates) > 1 else [""])]},
            "requirement": {"enum": [*requirement_ids, ""]},
            "text": {"type": "string", "maxLength": 120},
            "nice": {"type": "boolean"},
        },
        "required": ["action", "candidate", "other", "requirement", "text", "nice"],
        "additionalProperties": False,
    }


def route_message(message: str, state: ChatState, engine: Engine) -> Action:
    """The model's pick for ``message``; an answer that does not fit its action is help."""
    candidates = sorted(state.get("candidates", {}))
    requirements = requirements_of(state)
    named = _named_in(message, candidates)
    named_requirements = _named_in(message, [r.id for r in requirements])
    request = GenerationRequest(
        messages=render_chat(
            "chat/route", message=message, candidates=candidates, requirements=requirements
        ),
        json_schema=route_schema(
            named or candidates,
            named_requirements or [r.id for r in requirements],
            _actions_for(named, named_requirements),
            named=bool(named),
        ),
        max_tokens=MAX_ROUTE_TOKENS,
    )
    try:
        picked = json.loads(engine.generate(request).text)
    except ValueError:
        return {"name": "help", "args": {}}
    return _action(
        _with_named_ids(picked, named, named_requirements),
        set(candidates),
        {r.id for r in requirements},
    )


def _with_named_ids(
    picked: dict[str, Any], candidates: list[str], requirements: list[str]
) -> dict[str, Any]:
    """The model picks the action; the ids it acts on are the ones the message names, in the
    message's order (the embedded model compared cand_033 with itself)."""
    filled = dict(picked)
    if candidates:
        filled["candidate"] = candidates[0]
    if len(candidates) > 1:
        filled["other"] = candidates[1]
    if len(requirements) == 1:
        filled["requirement"] = requirements[0]
    return filled


def _named_in(message: str, ids: list[str]) -> list[str]:
    """The ids the message names, in its order (the model then picks among those: a small
    model asked to compare A and B otherwise drifts to a neighbouring id)."""
    words = [w.strip(".-") for w in re.findall(r"[\w.-]+", message.lower())]
    known = {i.lower(): i for i in ids}
    return list(dict.fromkeys(known[w] for w in words if w in known))


def _actions_for(candidates: list[str], requirements: list[str]) -> tuple[str, ...]:
    """The actions that fit the ids a message names: two candidates are compared (or one of
    them explained), one is explained or noted, a requirement alone is dropped or shown. The
    embedded model answered "why is cand_056 ranked second?" with help when free to."""
    if len(candidates) >= 2:
        return ("compare", "why")
    if candidates:
        return ("why", "note")
    if requirements:
        return ("drop", "requirements")
    return ROUTED


def _action(picked: dict[str, Any], candidates: set[str], requirement_ids: set[str]) -> Action:
    """The action the answer names, if its arguments are real (the schema's enums say so to
    vLLM; an engine that did not enforce them gets help instead of a wrong lookup)."""
    name = picked.get("action", "help")
    candidate = picked.get("candidate", "") if picked.get("candidate") in candidates else ""
    other = picked.get("other", "") if picked.get("other") in candidates else ""
    if picked.get("requirement") not in requirement_ids:
        picked = {**picked, "requirement": ""}
    text = str(picked.get("text", "")).strip()
    if name == "why" and candidate:
        return {"name": name, "args": {"candidate": candidate}}
    if name == "compare" and candidate and other and candidate != other:
        return {"name": name, "args": {"candidate": candidate, "other": other}}
    if name == "require" and text:
        return {"name": name, "args": {"text": text, "nice": bool(picked.get("nice"))}}
    if name == "drop" and picked.get("requirement"):
        return {"name": name, "args": {"requirement": picked["requirement"]}}
    if name == "note" and text:
        return {"name": name, "args": {"text": text}}
    if name in ("rank", "requirements"):
        return {"name": name, "args": {}}
    return {"name": "help", "args": {}}
