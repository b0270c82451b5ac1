"""Ctrl-C on a terminal without killing vLLM.

A terminal sends Ctrl-C's SIGINT to every process of the foreground group, vLLM's engine
processes included, which then die with the work in flight. While long work runs, this reads
Ctrl-C as a key instead (the terminal's signal keys off) and only this process acts on it.
"""

from __future__ import annotations

import os
import re
import select
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_ESCAPES = re.compile(r"\x1b(\[[0-9;]*[ -/]*[@-~]|O.)?")


def _quiet(fd: int) -> list[Any]:
    """Keys as bytes, unechoed, no signal keys; returns the settings to restore."""
    import termios

    saved = termios.tcgetattr(fd)
    quiet = termios.tcgetattr(fd)
    quiet[3] &= ~(termios.ISIG | termios.ICANON | termios.ECHO)
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    return saved


@contextmanager
def keys_as_bytes() -> Iterator[None]:
    """Within the block, a terminal on stdin never goes back to line mode between prompts.

    In line mode the terminal itself acts on Ctrl-C, with a signal to every process of the
    group, vLLM's included: pressed as an answer ends, before the line editor is back, it would
    stop the engine. Line editors set their own mode and restore this one."""
    if not sys.stdin.isatty():
        yield
        return
    import termios

    fd = sys.stdin.fileno()
    saved = _quiet(fd)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)


class CtrlCAsKey:
    """Within the block, on a foreground terminal, Ctrl-C calls ``on_ctrl_c`` (no signal)."""

    def __init__(self, on_ctrl_c: Callable[[], None]) -> None:
        self._on_ctrl_c = on_ctrl_c
        self._saved: list[Any] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.typed = bytearray()  # the other keys typed meanwhile (see ``typeahead``)

    def __enter__(self) -> CtrlCAsKey:
        if not sys.stdin.isatty():
            return self

        fd = sys.stdin.fileno()
        if os.tcgetpgrp(fd) != os.getpgrp():  # in the background (`&`): not our terminal
            return self
        self._saved = [fd, _quiet(fd)]
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
            else:
                self.typed += key

    def typeahead(self) -> tuple[str, bool]:
        """What was typed meanwhile, for the next prompt: the printable text of its first line,
        and whether Ctrl-D was pressed (the person wants to leave once this is done)."""
        typed = bytes(self.typed)
        text = typed.split(b"\x04")[0].split(b"\r")[0].decode("utf-8", errors="ignore")
        text = _ESCAPES.sub("", text)  # arrow and function keys
        return "".join(ch for ch in text if ch.isprintable()), b"\x04" in typed

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
