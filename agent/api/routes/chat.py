"""``POST /v1/chat/{session}/messages``: the recruiter chat over HTTP, answered as server-sent
events. The first message of a session brings the job and the candidates; later ones need only
the message (the session remembers, as in ``hiring-assistant chat``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from pydantic import Field

from agent.api.context import context_of
from agent.api.models import (
    MAX_BATCH_CANDIDATES,
    CandidateIn,
    JobIn,
    _Strict,
    candidate_set_of,
)
from agent.api.routes.analyses import ERRORS
from agent.chat.session import ChatSession, open_session
from serving.config import data_dir, get_settings

router = APIRouter(prefix="/v1/chat", tags=["chat"])
SessionName = Annotated[str, Path(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")]


class ChatMessageIn(_Strict):
    message: str = Field(min_length=1, max_length=2000)
    job: JobIn | None = Field(None, description="Only to start a session.")
    candidates: list[CandidateIn] | None = Field(None, max_length=MAX_BATCH_CANDIDATES)


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@router.post(
    "/{session}/messages",
    responses={200: {"content": {"text/event-stream": {}}}, **ERRORS},
    summary="Send a chat message; the answer comes as server-sent events",
)
async def post_message(
    session: SessionName, body: ChatMessageIn, request: Request
) -> StreamingResponse:
    """Events: ``opened`` (the session started or resumed), ``reply`` (``{"text"}``), ``table``
    (rows, for rankings and comparisons), ``done`` (analyses run, seconds)."""
    ctx = context_of(request)
    service = ctx.assistant.service
    out_dir = data_dir(get_settings()) / "chat-exports" / session
    talk = ChatSession(service, ctx.checkpointer, session, out_dir)
    job = body.job.posting() if body.job else None
    candidates = candidate_set_of(body.candidates) if body.candidates else None
    opened = await run_in_threadpool(open_session, talk, service, job, candidates)

    async def events() -> AsyncIterator[str]:
        yield _event("opened", {"session": session, "text": opened})
        turn = await run_in_threadpool(talk.send, body.message)
        yield _event("reply", {"text": turn.reply.get("text", "")})
        if turn.reply.get("table"):
            yield _event("table", turn.reply["table"])
        yield _event(
            "done",
            {"analyzed": turn.analyzed, "seconds": round(turn.seconds, 2), **turn.speed},
        )

    return StreamingResponse(events(), media_type="text/event-stream")
