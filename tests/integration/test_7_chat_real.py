"""The chat on the real engine, driven in tmux as a person would: type, read the screen.

A session ranks three candidates (the engine starts on that first need), has an answer
cancelled with Ctrl-C, answers a question in plain words (the embedded model routes it, so the
engine survived the Ctrl-C), and is left; a second process resumes it from memory and
answers /why without starting the engine. The new requirement was cancelled: not in memory.
Ctrl-C aborts the answer's requests in vLLM, so Ctrl-D afterwards leaves at once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import candidate_path, job_path

pytestmark = pytest.mark.integration
CANDIDATES = ("cand_033", "cand_001", "cand_056")


def _screen(name: str) -> str:
    done = subprocess.run(
        ["tmux", "capture-pane", "-p", "-J", "-S", "-200", "-t", name],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


def _wait_for(name: str, text: str, timeout_s: float) -> str:
    deadline = time.monotonic() + timeout_s
    while True:
        screen = _screen(name)
        if text in screen:
            return screen
        assert time.monotonic() < deadline, f"waited for {text!r}; the screen:\n{screen}"
        time.sleep(1)


def test_a_chat_in_a_terminal_then_resumed_from_memory(engines, tmp_path):
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed", pytrace=False)
    engines.close()  # the chat starts its own engine
    folder = tmp_path / "resumes"
    folder.mkdir()
    for cid in CANDIDATES:
        shutil.copy(candidate_path(cid), folder / f"{cid}.md")
    exe = Path(sys.executable).with_name("hiring-assistant")
    database = f"sqlite:///{tmp_path / 'chat.db'}"
    command = (
        f"env DATABASE_URL={database} {exe} chat --job {job_path('job_008')} "
        f"--candidates {folder} --session real --verbose; sleep 30"
    )
    name = f"ha-chat-{os.getpid()}"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "220", "-y", "60", command], check=True
    )
    try:
        _wait_for(name, "/help lists what you can ask", 60)
        subprocess.run(["tmux", "send-keys", "-t", name, "/rank", "Enter"], check=True)
        # --verbose's speed line is the turn's last: the answer and its table are above it
        screen = _wait_for(name, "analyses run, ", 900)
        assert "Analyzed 3. 3 candidates, ranked by score" in screen
        assert "(3 analyses run" in screen
        ranked = [line.split()[1] for line in screen.splitlines() if line[:2].strip().isdigit()]
        assert sorted(ranked) == sorted(CANDIDATES)
        # Ctrl-C cancels an answer in progress, and vLLM's processes live on: the next
        # message needs the model (routing plain words) and gets its answer
        subprocess.run(
            ["tmux", "send-keys", "-t", name, "/require Kubernetes in production", "Enter"],
            check=True,
        )
        time.sleep(5)
        subprocess.run(["tmux", "send-keys", "-t", name, "C-c"], check=True)
        _wait_for(name, "(cancelled)", 60)
        subprocess.run(
            ["tmux", "send-keys", "-t", name, "why is cand_001 ranked lower?", "Enter"], check=True
        )
        _wait_for(name, "real> why is cand_001 ranked lower?", 30)
        deadline = time.monotonic() + 300
        while True:  # the answer is in when the next prompt is the screen's last line
            after = _screen(name).split("real> why is cand_001 ranked lower?", 1)[1]
            lines = [line.rstrip() for line in after.splitlines() if line.strip()]
            if lines and lines[-1] == "real>":  # (tmux drops the prompt's trailing space)
                break
            assert time.monotonic() < deadline, after
            time.sleep(1)
        answer = "\n".join(lines[:-1])
        assert "Traceback" not in answer and answer.strip()
        # Ctrl-D leaves: the cancel aborted the answer's requests, so nothing holds the engine
        subprocess.run(["tmux", "send-keys", "-t", name, "C-d"], check=True)
        screen = _wait_for(name, "Session saved. Resume it with --session real.", 120)
        assert "error:" not in screen and "Traceback" not in screen
        print("\n--- the terminal ---\n" + screen)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)

    resumed = subprocess.run(
        [str(exe), "chat", "--session", "real"], input="/why cand_033\n", capture_output=True,
        text=True, timeout=120, env={**os.environ, "DATABASE_URL": database},
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "Resumed session 'real': Django Developer, 3 candidates" in resumed.stderr
    assert "Starting vLLM" not in resumed.stderr  # answered from memory
    quotes = [
        line.split('— "', 1)[1].rstrip('"') for line in resumed.stdout.splitlines() if '— "' in line
    ]
    assert quotes and all(q in candidate_path("cand_033").read_text() for q in quotes)
    assert "Kubernetes" not in resumed.stdout
