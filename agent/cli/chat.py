"""`hiring-assistant chat`: work a role in conversation, with memory that survives a restart."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from agent.chat.tools import TurnCancelled
from agent.cli.output import friendly_errors, say
from agent.cli.terminal import CtrlCAsKey, keys_as_bytes
from serving.config import data_dir, get_settings

if TYPE_CHECKING:
    from agent.chat.session import ChatSession, Turn

GOODBYE = "Session saved. Resume it with --session {name}."
CANCEL_WAIT_S = 30.0  # how long a cancel waits for the answer's thread to let go of the engine


def chat(
    job: Annotated[
        Path | None, typer.Option("--job", help="The role: text, Markdown or JSON job.")
    ] = None,
    candidates: Annotated[
        list[str] | None,
        typer.Option("--candidates", help="Folders, globs, files or .jsonl/.csv lists."),
    ] = None,
    session: Annotated[
        str | None, typer.Option("--session", help="Create or resume this session.")
    ] = None,
    list_sessions: Annotated[bool, typer.Option("--list", help="List the sessions.")] = False,
    out: Annotated[
        Path | None, typer.Option(help="Folder for /export (default: chat-SESSION).")
    ] = None,
    verbose: Annotated[bool, typer.Option(help="A speed line after each answer.")] = False,
) -> None:
    """Rank, explain, compare and re-weigh candidates for one role, in plain words or with
    slash commands (/help). On a terminal: line editing and history, Ctrl-C cancels the
    current answer, Ctrl-D leaves. Otherwise one message per input line."""
    from agent.batch.sources import collect_candidates
    from agent.chat.memory import open_checkpointer, session_names
    from agent.chat.session import ChatSession, open_session
    from agent.errors import InputError
    from agent.ingest.files import load_job
    from agent.service import AnalysisService
    from agent.store import configured_url, open_database
    from serving.factory import open_engine
    from serving.lazy_engine import LazyEngine

    with friendly_errors():
        url = configured_url()
        with open_database(url) as database, open_checkpointer(url) as checkpointer:
            if list_sessions:
                _print_sessions(checkpointer, session_names(checkpointer))
                return
            name = session or (job.stem if job else None)
            if name is None:
                raise InputError("give --job for a new session, or --session NAME to resume one")
            engine = LazyEngine(
                lambda: open_engine(get_settings().for_profile("interactive"), say=_note)
            )
            with engine:
                service = AnalysisService(engine, database)  # type: ignore[arg-type]
                talk = ChatSession(
                    service, checkpointer, name, out or Path(f"chat-{name}"), progress=_progress
                )
                posting = load_job(job) if job else None
                found = collect_candidates(candidates) if candidates else None
                if found is not None:
                    for failure in found.failed:
                        say(f"skipped {failure.source}: {failure.reason}")
                say(open_session(talk, service, posting, found))
                if sys.stdin.isatty():
                    _interactive(talk, verbose)
                else:
                    _scripted(talk, verbose)
                say(GOODBYE.format(name=name))


_status: list[Any] = []  # the spinner of the answer in progress, on a terminal


def _progress(line: str) -> None:
    """Long work's progress: on the spinner on a terminal, else a line on stderr."""
    if _status:
        _status[0].update(f"{line} (Ctrl-C cancels)")
    else:
        say(line)


def _note(line: str) -> None:
    """A line of its own, above the spinner on a terminal (the engine's start notice)."""
    if _status:
        _status[0].console.print(line, markup=False, highlight=False)
    else:
        say(line)


def _print_sessions(checkpointer: object, names: list[str]) -> None:
    from agent.chat.memory import session_summary

    if not names:
        typer.echo("No chat sessions yet. Start one with `hiring-assistant chat --job JOB ...`.")
        return
    table = Table("session", "role", "candidates", "messages", "last change (UTC)", box=None)
    for name in names:
        row = session_summary(checkpointer, name)
        table.add_row(*(str(value) for value in row.values()))
    Console(width=120).print(table)


def _scripted(talk: ChatSession, verbose: bool) -> None:
    console = Console(width=120, highlight=False)
    for line in sys.stdin:
        message = line.strip()
        if not message:
            continue
        console.print(f"> {message}", markup=False)
        turn = _answer(talk, message)
        if turn is not None:
            _show(console, turn, verbose)


def _interactive(talk: ChatSession, verbose: bool) -> None:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    history = data_dir(get_settings()) / "chat_history"
    history.parent.mkdir(parents=True, exist_ok=True)
    prompt: PromptSession[str] = PromptSession(history=FileHistory(str(history)))
    console = Console(highlight=False)
    with keys_as_bytes():
        _converse(talk, prompt, console, verbose)


def _converse(talk: ChatSession, prompt: Any, console: Console, verbose: bool) -> None:
    typed = ""  # typed while the last answer ran: the next prompt starts with it
    while True:
        try:
            message = prompt.prompt(f"{talk.name}> ", default=typed).strip()
        except KeyboardInterrupt:
            typed = ""
            continue  # Ctrl-C at the prompt clears the line
        except EOFError:
            return  # Ctrl-D leaves
        if not message:
            continue
        cancelled = threading.Event()
        keys = CtrlCAsKey(cancelled.set)
        turn = _answer_on_a_thread(console, talk, message, keys, cancelled)
        if cancelled.is_set():
            console.print("(cancelled)")
        elif turn is not None:
            _show(console, turn, verbose)
        typed, leave = keys.typeahead()
        if leave:
            return  # Ctrl-D pressed while the answer ran: leave once it is shown


def _answer_on_a_thread(
    console: Console,
    talk: ChatSession,
    message: str,
    keys: CtrlCAsKey,
    cancelled: threading.Event,
) -> Turn | None:
    """The answer runs on a thread; Ctrl-C, read as a key by ``keys`` (so vLLM's processes
    never see it), sets ``cancelled``: the prompt is back at once and the outcome dropped."""
    outcome: list[Turn | None] = []

    def work() -> None:
        with contextlib.suppress(TurnCancelled):
            outcome.append(_answer(talk, message, cancelled))

    worker = threading.Thread(target=work, name="chat-turn", daemon=True)
    with keys, console.status("working… (Ctrl-C cancels)") as status:
        _status[:] = [status]
        worker.start()
        # while vLLM starts, this process's output goes to the engine log: a cancel waits
        # for the start to end, so the prompt and what follows are seen
        while worker.is_alive() and (not cancelled.is_set() or _engine_starting(talk)):
            worker.join(0.1)
        # a cancel aborts the answer's requests in vLLM, so the engine is free for the next
        # message at once (and the answer's thread ends: nothing runs on behind the prompt)
        deadline = time.monotonic() + CANCEL_WAIT_S
        while worker.is_alive() and time.monotonic() < deadline:
            _cancel_requests(talk)
            worker.join(0.1)
    _status.clear()
    return outcome[0] if outcome else None


def _cancel_requests(talk: ChatSession) -> None:
    cancel = getattr(talk.engine, "cancel_pending", None)
    if cancel is not None:
        cancel()


def _engine_starting(talk: ChatSession) -> bool:
    return bool(getattr(talk.engine, "starting", False))


def _answer(
    talk: ChatSession, message: str, cancelled: threading.Event | None = None
) -> Turn | None:
    """The turn, or None after one line saying it failed: a failure the product does not know
    (a bug) ends this answer, not the session; its traceback goes to the log for a report."""
    import logging

    try:
        return talk.send(message, cancelled)
    except (KeyboardInterrupt, SystemExit, TurnCancelled):
        raise
    except Exception as exc:
        logging.getLogger("hiring_assistant.chat").debug("turn failed", exc_info=exc)
        if cancelled is not None and cancelled.is_set():
            return None  # the cancel aborted its requests: "(cancelled)" says it all
        say(f"error: this answer failed ({type(exc).__name__}: {exc}); the session is kept")
        return None


def _show(console: Console, turn: Turn, verbose: bool) -> None:
    reply = turn.reply
    if reply.get("text"):
        console.print(reply["text"], markup=False)
    rows = reply.get("table") or []
    if rows:
        table = Table(box=None, pad_edge=False)
        columns = list(dict.fromkeys(key for row in rows for key in row))
        for column in columns:
            table.add_column(column, overflow="fold", max_width=60)
        for row in rows:
            table.add_row(*(str(row.get(column, "")) for column in columns))
        console.print(table)
    if verbose:
        speed = ""
        if turn.speed:
            speed = (
                f", TPOT {turn.speed['tpot_ms']:.1f} ms, "
                f"draft acceptance {100 * turn.speed['acceptance']:.0f}%"
            )
        console.print(f"({turn.analyzed} analyses run, {turn.seconds:.1f} s{speed})", style="dim")
