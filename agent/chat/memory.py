"""The chat's memory: a LangGraph checkpointer in the product's own database (SQLite file or
PostgreSQL, as ``DATABASE_URL`` says), so a session survives a restart."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.engine import make_url

from agent.errors import DatabaseError


@contextmanager
def open_checkpointer(database_url: str) -> Iterator[Any]:
    """A ready checkpointer (tables made) on the database at ``database_url``."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        from langgraph.checkpoint.sqlite import SqliteSaver

        connection = sqlite3.connect(url.database or ":memory:", check_same_thread=False)
        try:
            saver = SqliteSaver(connection)
            saver.setup()
            yield saver
        finally:
            connection.close()
        return
    if url.get_backend_name() != "postgresql":
        raise DatabaseError(f"chat memory needs SQLite or PostgreSQL, not {url.drivername}")
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row

    plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        connection = psycopg.connect(
            plain, autocommit=True, prepare_threshold=0, row_factory=dict_row
        )
    except psycopg.OperationalError as exc:
        raise DatabaseError(f"cannot open the chat memory: {str(exc).strip()}") from None
    with connection:
        saver = PostgresSaver(connection)
        saver.setup()
        yield saver


def session_names(checkpointer: Any) -> list[str]:
    """Every session (thread) the checkpointer holds, most recent first."""
    latest: dict[str, str] = {}
    for checkpoint in checkpointer.list(None):
        thread = checkpoint.config["configurable"]["thread_id"]
        stamp = checkpoint.checkpoint.get("ts", "")
        if stamp > latest.get(thread, ""):
            latest[thread] = stamp
    return sorted(latest, key=lambda t: latest[t], reverse=True)


def session_summary(checkpointer: Any, name: str) -> dict[str, Any]:
    """What ``chat --list`` shows of a session: its role, candidates, messages, last change."""
    found = checkpointer.get_tuple({"configurable": {"thread_id": name}})
    values = found.checkpoint.get("channel_values", {}) if found else {}
    return {
        "session": name,
        "role": (values.get("job") or {}).get("title", ""),
        "candidates": len(values.get("candidates") or {}),
        "messages": len(values.get("messages") or []) // 2,
        "updated": (found.checkpoint.get("ts", "") if found else "")[:16].replace("T", " "),
    }
