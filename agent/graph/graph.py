"""``build_graph()``: the match-analysis StateGraph, compiled."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from agent.graph import nodes
from agent.graph.context import AnalysisContext
from agent.graph.state import AnalysisState
from serving.engine import TransientEngineError

# Transient engine failures (a dropped connection, an overloaded server) are retried; schema and
# grounding failures are not errors of the engine and go through the repair edge instead.
ENGINE_RETRY = RetryPolicy(max_attempts=3, initial_interval=0.5, retry_on=TransientEngineError)


def build_graph(*, generate: bool = True) -> Any:
    """The analysis graph; with ``generate=False`` it stops once the request is rendered.

    It never checkpoints (``checkpointer=False``): run inside the chat graph's node it would
    otherwise inherit the chat's checkpointer and store every profile and request there."""
    builder = StateGraph(AnalysisState, context_schema=AnalysisContext)
    builder.add_node("normalize", nodes.normalize)
    builder.add_node("requirements", nodes.requirements)
    builder.add_node("render", nodes.render_prompt)
    builder.add_edge(START, "normalize")
    builder.add_edge("normalize", "requirements")
    builder.add_edge("requirements", "render")
    if not generate:
        builder.add_edge("render", END)
        return builder.compile(checkpointer=False)
    builder.add_node("generate", nodes.generate, retry_policy=ENGINE_RETRY)
    builder.add_node("validate", nodes.validate)
    builder.add_node("repair", nodes.repair)
    builder.add_node("fail", nodes.fail)
    builder.add_node("score", nodes.score)
    builder.add_edge("render", "generate")
    builder.add_edge("generate", "validate")
    builder.add_conditional_edges("validate", nodes.route_after_validate)
    builder.add_edge("repair", "generate")
    builder.add_edge("fail", END)
    builder.add_edge("score", END)
    return builder.compile(checkpointer=False)
