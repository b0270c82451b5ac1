"""Ctrl-C on a terminal without killing vLLM.

A terminal sends Ctrl-C's SIGINT to every process of the foreground group, vLLM's engine
processes included, which then die with the work in flight. While long work runs, this reads
Ctrl-C as a key instead (the terminal's signal keys off) and only this process acts on it.
"""

from __future__ import annotations

import os
import select
import sys
import threading
from collections.abc import Callable
from typing import Any


class CtrlCAsKey:
    """Within the block, on a foreground terminal, Ctrl-C calls ``on_ctrl_c`` (no signal)."""

    def __init__(self, on_ctrl_c: Callable[[], None]) -> None:
        self._on_ctrl_c = on_ctrl_c
        self._saved: list[Any] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> CtrlCAsKey:
        if not sys.stdin.isatty():
            return self
        import termios

        fd = sys.stdin.fileno()
        if os.tcgetpgrp(fd) != os.getpgrp():  # in the background (`&`): not our terminal
            return self
        saved = termios.tcgetattr(fd)
        quiet = termios.tcgetattr(fd)
        quiet[3] &= ~(termios.ISIG | termios.ICANON | termios.ECHO)
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        self._saved = [fd, saved]
        self._thread = threading.Thread(target=self._watch, args=(fd,), daemon=True)
        self._thread.start()
        return self

    def _watch(self, fd: int) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([fd], [], [], 0.1)
                key = os.read(fd, 1) if ready else b""
            except OSError:
                return
            if key == b"\x03":
                self._on_ctrl_c()

    def restore(self) -> None:
        """The terminal as it was (also before quitting at once)."""
        self._stop.set()
        if self._saved is not None:
            import termios

            fd, saved = self._saved
            self._saved = None
            termios.tcsetattr(fd, termios.TCSANOW, saved)

    def __exit__(self, *exc: object) -> None:
        self.restore()
        if self._thread is not None:
            self._thread.join(1)
