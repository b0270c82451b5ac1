"""``/healthz`` (the process answers), ``/readyz`` (engine and database usable), ``/metrics``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from agent.api.context import context_of

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="The process is up")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", summary="The engine and the database answer")
async def readyz(request: Request) -> JSONResponse:
    checks = await run_in_threadpool(context_of(request).assistant.check)
    ready = all(value == "ok" for value in checks.values())
    return JSONResponse(
        {"status": "ready" if ready else "not ready", **checks}, status_code=200 if ready else 503
    )


@router.get("/metrics", summary="Prometheus metrics")
async def metrics(request: Request) -> Response:
    registry = context_of(request).metrics.registry
    body = await run_in_threadpool(generate_latest, registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
