"""vLLM's engine processes end when the process that started them is killed.

A process killed with SIGKILL (or by the OOM killer) runs no cleanup, and vLLM's engine core and
its worker were left running as orphans, spinning on the CPU and holding their memory. vLLM's CPU
build starts its engine core with multiprocessing's ``spawn`` (a fresh interpreter), so the guard
goes in with the environment: while the engine starts, ``child_guard/`` is first on PYTHONPATH
and its ``sitecustomize`` asks Linux (``PR_SET_PDEATHSIG``) to SIGKILL the engine core when the
thread that started it ends. That is the engine's event-loop thread, which lives as long as the
engine. vLLM's worker already exits when its engine core does.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

GUARD_DIR = Path(__file__).with_name("child_guard")
PARENT_ENV = "HIRING_ASSISTANT_ENGINE_PARENT"


def guard_environment() -> dict[str, str]:
    """Environment for the engine's processes as they start (empty where Linux is not)."""
    if not sys.platform.startswith("linux"):
        return {}
    path = os.pathsep.join(p for p in (str(GUARD_DIR), os.environ.get("PYTHONPATH", "")) if p)
    return {"PYTHONPATH": path, PARENT_ENV: str(os.getpid())}
