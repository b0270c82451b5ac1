"""Chat sessions in the store: a session and its messages."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from agent.errors import NotFoundError
from agent.store.tables import ChatMessage, ChatSession, Job, utc_now


def start_chat_session(
    session: Session, *, job_row: Job | None = None, title: str | None = None
) -> ChatSession:
    chat = ChatSession(id=str(uuid.uuid4()), job_id=job_row.id if job_row else None, title=title)
    session.add(chat)
    session.flush()
    return chat


def add_chat_message(session: Session, *, chat_id: str, role: str, content: str) -> ChatMessage:
    chat = session.get(ChatSession, chat_id)
    if chat is None:
        raise NotFoundError(f"no chat session {chat_id}")
    message = ChatMessage(session_id=chat_id, role=role, content=content)
    chat.messages.append(message)
    chat.updated_at = utc_now()
    session.flush()
    return message
