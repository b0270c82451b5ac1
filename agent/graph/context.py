"""What the graph is given at run time (never module globals): the engine and its limits."""

from __future__ import annotations

from dataclasses import dataclass

from serving.engine import Engine


@dataclass(frozen=True)
class AnalysisContext:
    engine: Engine
    max_attempts: int = 3  # generations per analysis, the first one included
    blind: bool = True  # the model reads the profile without name, contacts, age, gender, ...
