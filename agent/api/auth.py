"""API keys: ``Authorization: Bearer KEY``, checked against the store's hashes and the
bootstrap keys of ``HIRING_ASSISTANT_API_KEYS``. Keys never reach a log."""

from __future__ import annotations

from fastapi import Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from agent.api.context import ApiContext, context_of
from agent.store.api_keys import key_is_valid

bearer = HTTPBearer(auto_error=False, description="An API key: `hiring-assistant apikey create`.")
UNAUTHORIZED = {"WWW-Authenticate": "Bearer"}


async def require_key(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),  # noqa: B008
) -> None:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise HTTPException(401, "an API key is required: Authorization: Bearer KEY", UNAUTHORIZED)
    ctx: ApiContext = context_of(request)

    def check() -> bool:
        with ctx.assistant.database.session() as session:
            return key_is_valid(session, credentials.credentials, ctx.settings.bootstrap_keys())

    if not await run_in_threadpool(check):
        raise HTTPException(401, "the API key is not valid (or was revoked)", UNAUTHORIZED)
