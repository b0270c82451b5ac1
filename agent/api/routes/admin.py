"""``/v1/candidates`` (forget a person) and ``/v1/webhooks`` (where finished work is announced)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from agent.api.context import context_of
from agent.api.models import RowId, WebhookIn, WebhookOut
from agent.api.routes.analyses import ERRORS
from agent.store.webhooks import add_webhook, remove_webhook, webhooks

router = APIRouter(tags=["candidates and webhooks"])


@router.delete("/v1/candidates/{candidate_id}", responses=ERRORS, summary="Forget a candidate")
async def forget_candidate(
    candidate_id: str,
    request: Request,
    anonymize: Annotated[
        bool, Query(description="Keep the verdicts and scores without the person.")
    ] = False,
) -> dict[str, object]:
    """Delete the candidate (your id, or our numeric one) and every analysis of them; with
    ``anonymize=true`` keep what a bias audit needs and drop the person. Recorded in the audit
    log."""
    ctx = context_of(request)
    count = await run_in_threadpool(ctx.assistant.forget, candidate_id, anonymize=anonymize)
    return {"candidate_id": candidate_id, "records": count, "anonymized": anonymize}


@router.post(
    "/v1/webhooks",
    status_code=201,
    response_model=WebhookOut,
    responses=ERRORS,
    summary="Register a webhook",
)
async def create_webhook(body: WebhookIn, request: Request) -> WebhookOut:
    """Finished analyses and batches are POSTed there, signed with the secret (HMAC-SHA256 of
    ``timestamp.body`` in ``X-Hiring-Assistant-Signature``). Keep the secret: it is shown once."""
    ctx = context_of(request)

    def add() -> WebhookOut:
        with ctx.assistant.database.session() as session:
            row = add_webhook(session, url=body.url, events=list(body.events), secret=body.secret)
            return WebhookOut(id=row.id, url=row.url, events=row.events, secret=row.secret)

    return await run_in_threadpool(add)


@router.get("/v1/webhooks", response_model=list[WebhookOut], responses=ERRORS)
async def list_webhooks(request: Request) -> list[WebhookOut]:
    ctx = context_of(request)

    def rows() -> list[WebhookOut]:
        with ctx.assistant.database.session() as session:
            return [WebhookOut(id=w.id, url=w.url, events=w.events) for w in webhooks(session)]

    return await run_in_threadpool(rows)


@router.delete("/v1/webhooks/{webhook_id}", status_code=204, responses=ERRORS)
async def delete_webhook(webhook_id: RowId, request: Request) -> Response:
    ctx = context_of(request)

    def remove() -> None:
        with ctx.assistant.database.session() as session:
            remove_webhook(session, webhook_id=webhook_id)

    await run_in_threadpool(remove)
    return Response(status_code=204)
