"""The LangGraph match-analysis graph: normalize → requirements → render → generate → validate
→ (repair → generate)* → score, or a failure result that keeps the last output and the errors."""

from agent.graph.context import AnalysisContext
from agent.graph.graph import build_graph

__all__ = ["AnalysisContext", "build_graph"]
