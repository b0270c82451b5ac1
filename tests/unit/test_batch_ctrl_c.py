"""Ctrl-C during a batch on a terminal stops the worker and spares the other processes.

A terminal's Ctrl-C normally sends SIGINT to its whole foreground process group: vLLM's engine
processes too, which then die with the analyses in flight. The batch command reads Ctrl-C as a
key instead. Here a child process on a pseudo-terminal (its controlling terminal) enters the
batch command's Ctrl-C handling with a stand-in worker, and starts a second process in its group
as vLLM would; the test types Ctrl-C.
"""

from __future__ import annotations

import os
import pty
import select
import sys
import time

CHILD = """
import subprocess, sys, time
from agent.cli.batch import _stop_on_signals

sibling = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])

class Worker:
    def stop(self):
        print("worker stopped", flush=True)

with _stop_on_signals() as workers:
    workers.append(Worker())
    print("ready", flush=True)
    time.sleep(3)
print("sibling", "alive" if sibling.poll() is None else f"died {sibling.returncode}", flush=True)
sibling.kill()
"""


def _read_until(fd: int, *texts: str, timeout: float = 20.0) -> str:
    seen = ""
    deadline = time.monotonic() + timeout
    while not any(t in seen for t in texts) and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 1024).decode(errors="replace")
            except OSError:
                break
    return seen


def test_ctrl_c_on_a_terminal_stops_the_worker_and_spares_the_engine_processes():
    pid, fd = pty.fork()
    if pid == 0:  # the child: session leader, the pty its controlling terminal
        os.execv(sys.executable, [sys.executable, "-c", CHILD])
    try:
        assert "ready" in _read_until(fd, "ready")
        os.write(fd, b"\x03")  # Ctrl-C typed on the terminal
        out = _read_until(fd, "sibling alive", "sibling died")
        assert "worker stopped" in out
        assert "sibling alive" in out, out  # no SIGINT reached the rest of the group
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0


TYPING = """
import threading, time
from agent.cli.terminal import CtrlCAsKey

cancelled = threading.Event()
keys = CtrlCAsKey(cancelled.set)
with keys:
    print("ready", flush=True)
    time.sleep(2)
print("typed", repr(keys.typeahead()), "cancelled", cancelled.is_set(), flush=True)
"""


def test_keys_typed_while_an_answer_runs_are_kept_for_the_next_prompt():
    """The chat's answer runs under CtrlCAsKey: what is typed meanwhile is not lost; the next
    prompt starts with its first line, and Ctrl-D among it means leave after the answer."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", TYPING])
    try:
        assert "ready" in _read_until(fd, "ready")
        os.write(fd, "/why cand_01é\x1b[A\x04".encode())  # an arrow key is dropped
        out = _read_until(fd, "cancelled ")
        assert "typed ('/why cand_01é', True) cancelled False" in out, out
    finally:
        os.waitpid(pid, 0)
        os.close(fd)
