"""The chat graph: understand the message (a slash command, or the model's routing), run the
one action it names, record the exchange. State persists through the checkpointer."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agent.chat.commands import parse_command
from agent.chat.routing import route_message
from agent.chat.state import ChatState
from agent.chat.tools import TOOLS, ChatContext
from agent.errors import HiringAssistantError


def understand(state: ChatState, runtime: Runtime[ChatContext]) -> dict[str, Any]:
    message = state["message"].strip()
    try:
        if message.startswith("/"):
            action = parse_command(message)
        else:
            action = route_message(message, state, runtime.context.service.engine)
    except HiringAssistantError as exc:
        return {"reply": {"text": str(exc)}, "action": {"name": "", "args": {}}, "analyzed": 0}
    return {"action": action, "reply": {}, "analyzed": 0}


def after_understanding(state: ChatState) -> Literal["act", "record"]:
    return "act" if state["action"]["name"] else "record"


def act(state: ChatState, runtime: Runtime[ChatContext]) -> dict[str, Any]:
    action = state["action"]
    try:
        reply, updates, ran = TOOLS[action["name"]](state, runtime.context, action["args"])
    except HiringAssistantError as exc:
        return {"reply": {"text": str(exc)}}
    runtime.context.check_cancelled()  # a cancelled answer changes nothing in the session
    return {**updates, "reply": reply, "analyzed": ran}


def record(state: ChatState) -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "content": state["message"]},
            {"role": "assistant", "content": state["reply"].get("text", "")},
        ]
    }


def build_chat_graph(checkpointer: Any = None) -> Any:
    builder = StateGraph(ChatState, context_schema=ChatContext)
    builder.add_node("understand", understand)
    builder.add_node("act", act)
    builder.add_node("record", record)
    builder.add_edge(START, "understand")
    builder.add_conditional_edges("understand", after_understanding)
    builder.add_edge("act", "record")
    builder.add_edge("record", END)
    return builder.compile(checkpointer=checkpointer)
