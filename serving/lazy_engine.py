"""An engine that starts on first use: a chat answered from memory never waits for vLLM."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from serving.engine import Engine


class LazyEngine:
    """Delegates to the engine ``start()`` makes, calling it once, when first needed."""

    def __init__(self, start: Callable[[], Engine]) -> None:
        self._start = start
        self._engine: Engine | None = None
        self._lock = threading.Lock()
        self.starting = False  # vLLM is starting (its output goes to the engine log meanwhile)

    @property
    def started(self) -> bool:
        return self._engine is not None

    def _get(self) -> Engine:
        with self._lock:
            if self._engine is None:
                self.starting = True
                try:
                    self._engine = self._start()
                finally:
                    self.starting = False
            return self._engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)

    def cancel_pending(self) -> int:
        """The started engine's ``cancel_pending`` (nothing is pending before the start)."""
        if self._engine is None:
            return 0
        return int(getattr(self._engine, "cancel_pending", lambda: 0)())

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def __enter__(self) -> LazyEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
