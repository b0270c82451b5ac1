"""``POST /v1/ats/greenhouse/webhook``: Greenhouse announces an application; we analyze it.

Greenhouse cannot send our API key: its ``Signature`` header (HMAC-SHA256 of the raw body with
the shared secret) is what authenticates the call. The job's post and the resume are fetched
from the configured ATS base URL, on the analysis queue; the answer says where to poll, and
registered webhooks hear when it is done.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from agent.api.context import context_of
from agent.api.models import ErrorOut, TaskOut
from agent.api.routes.analyses import pending
from agent.ats.greenhouse import ANALYZED_ACTIONS, parse_application, signature_ok
from agent.errors import InputError

router = APIRouter(prefix="/v1/ats/greenhouse", tags=["ATS"])


@router.post(
    "/webhook",
    status_code=202,
    responses={
        200: {"description": "A ping, or an event that is not analyzed."},
        202: {"model": TaskOut},
        **{code: {"model": ErrorOut} for code in (401, 413, 422, 429, 503)},
    },
    summary="Greenhouse webhook: analyze a new application",
)
async def greenhouse_webhook(request: Request) -> JSONResponse:
    ctx = context_of(request)
    secret = ctx.settings.greenhouse_secret
    if secret is None or not ctx.settings.ats_base_url:
        return JSONResponse(
            {
                "error": "Greenhouse webhooks are not configured: set "
                "HIRING_ASSISTANT_GREENHOUSE_SECRET and HIRING_ASSISTANT_ATS_BASE_URL"
            },
            status_code=503,
        )
    body = await request.body()
    if not signature_ok(body, request.headers.get("Signature"), secret.get_secret_value()):
        return JSONResponse({"error": "the Signature header does not match the body"}, 401)
    try:
        event = json.loads(body)
    except ValueError:
        raise InputError("the webhook body is not JSON") from None
    action = event.get("action") if isinstance(event, dict) else None
    if action not in ANALYZED_ACTIONS:
        return JSONResponse({"status": "ignored", "action": action}, status_code=200)
    application = parse_application(event)

    def work() -> int:
        client = ctx.greenhouse_client()
        assert client is not None  # ats_base_url is set (checked above)
        try:
            return ctx.assistant.analyze_application(application, client).analysis_id
        finally:
            client.close()

    task = ctx.queue.submit(
        "greenhouse",
        work,
        {
            "candidate_id": application.profile_id,
            "greenhouse": {
                "application_id": application.application_id,
                "candidate_id": application.candidate_id,
                "job_id": application.job_id,
            },
        },
    )
    return pending(task)
