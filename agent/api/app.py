"""The FastAPI application: routes, API keys, size limit, error answers, metrics and logs.

Every answer that is not a success is ``{"error": "one line"}`` with the status
:func:`agent.errors.classify` gives (422 bad input, 404 unknown id, 502/503 engine or database),
401 without a valid key, 413 for a body over the limit, 429 with ``Retry-After`` when the queue
is full. Logs name the route, status and time, never a key or a candidate's text.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agent.api.auth import require_key
from agent.api.context import ApiContext
from agent.api.routes import admin, analyses, batches, chat, greenhouse, health
from agent.api.settings import ApiSettings
from agent.api.tasks import QueueFull
from agent.assistant import HiringAssistant
from agent.errors import KNOWN, classify

log = logging.getLogger("hiring_assistant.api")


class BodyLimit:
    """413 for a request body over ``limit`` bytes, declared or streamed: the body is read
    (up to the limit) before the app sees it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > self.limit:
            await too_large(self.limit)(scope, receive, send)
            return
        chunks: list[bytes] = []
        seen, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await too_large(self.limit)(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def too_large(limit: int) -> JSONResponse:
    return JSONResponse({"error": f"the request body is over {limit:,} bytes"}, status_code=413)


def _validation_message(exc: RequestValidationError) -> tuple[str, list[dict[str, Any]]]:
    """One line for the first problem, and every problem without the input's values."""
    details = [
        {"loc": [str(p) for p in e.get("loc", ())], "msg": e.get("msg", ""), "type": e["type"]}
        for e in exc.errors()
    ]
    first = details[0] if details else {"loc": [], "msg": "invalid request", "type": ""}
    if first["type"] == "json_invalid":
        error = (exc.errors()[0].get("ctx") or {}).get("error", "")
        return f"the body is not valid JSON: {error}".rstrip(": "), details
    where = ".".join(p for p in first["loc"] if p != "body") or "body"
    return f"{where}: {first['msg']}", details


def _install_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        message, details = _validation_message(exc)
        return JSONResponse({"error": message, "detail": details}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(QueueFull)
    async def queue_full(_: Request, exc: QueueFull) -> JSONResponse:
        return JSONResponse(
            {"error": f"{exc}: retry after {exc.retry_after_s} s"},
            status_code=503 if exc.closing else 429,
            headers={"Retry-After": str(exc.retry_after_s)},
        )

    async def known(_: Request, exc: Exception) -> JSONResponse:
        kind = classify(exc)
        assert kind is not None  # registered for the known failures only
        return JSONResponse({"error": str(exc)}, status_code=kind.http_status)

    for cls in KNOWN:
        app.add_exception_handler(cls, known)

    @app.exception_handler(Exception)
    async def bug(_: Request, exc: Exception) -> JSONResponse:
        log.error("internal error: %s", type(exc).__name__)  # the server logs the traceback
        return JSONResponse({"error": "internal error"}, status_code=500)


def _route_of(request: Request) -> str:
    route = request.scope.get("route")
    return getattr(route, "path", None) or "unmatched"


def create_app(assistant: HiringAssistant, settings: ApiSettings | None = None) -> FastAPI:
    """The app over an open assistant; the app's lifespan closes the queue and webhooks (the
    caller closes the assistant)."""
    ctx = ApiContext(assistant, settings or ApiSettings())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            ctx.close()

    app = FastAPIOffline(
        redoc_url=None,
        title="Hiring Assistant",
        version="1",
        summary="Match analysis of candidates against a job, with verbatim evidence; "
        "for human review, not automated decisions.",
        lifespan=lifespan,
    )
    app.state.ctx = ctx
    keyed = [Depends(require_key)]
    app.include_router(analyses.router, dependencies=keyed)
    app.include_router(batches.router, dependencies=keyed)
    app.include_router(admin.router, dependencies=keyed)
    app.include_router(chat.router, dependencies=keyed)
    app.include_router(greenhouse.router)  # authenticated by Greenhouse's signature
    app.include_router(health.router)
    _install_handlers(app)

    @app.middleware("http")
    async def measure(request: Request, call_next: Any) -> Any:
        started = time.perf_counter()
        response = await call_next(request)
        elapsed = time.perf_counter() - started
        route = _route_of(request)
        ctx.metrics.requests.labels(route, request.method, str(response.status_code)).inc()
        ctx.metrics.latency.labels(route, request.method).observe(elapsed)
        log.info("%s %s %s %.0f ms", request.method, route, response.status_code, 1000 * elapsed)
        return response

    app.add_middleware(BodyLimit, limit=ctx.settings.max_body_bytes)
    return app
