"""``/v1/batches``: score many candidates against one job in the background, then read the
ranked shortlist (JSON or CSV). The same resumable runs as ``hiring-assistant batch``."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from agent.api.context import ApiContext, context_of
from agent.api.models import BatchOut, BatchRequest, RowId, candidate_set_of, requirements_of
from agent.api.routes.analyses import ERRORS
from agent.batch.service import RunState

router = APIRouter(prefix="/v1/batches", tags=["batches"])


def batch_out(ctx: ApiContext, state: RunState) -> BatchOut:
    return BatchOut(
        id=state.run_id,
        name=state.name,
        status=state.status,
        counts=state.counts,
        total=state.total,
        ended=state.ended,
        shortlist=f"/v1/batches/{state.run_id}/shortlist",
        worker="running" if ctx.batches.running(state.run_id) else "idle",
    )


@router.post(
    "",
    status_code=202,
    response_model=BatchOut,
    responses=ERRORS,
    summary="Start (or continue) a batch run",
)
async def create_batch(body: BatchRequest, request: Request) -> JSONResponse:
    """The same job and candidates again continue the same run; a finished run is not redone.
    Candidates with the same text as an earlier one are analyzed once."""
    ctx = context_of(request)
    job = body.job.posting()
    candidates = candidate_set_of(body.candidates)
    given = requirements_of(body.requirements)

    def open_run() -> RunState:
        from agent.batch.service import open_run

        return open_run(ctx.assistant.service, job, candidates, given=given, name=body.name)

    state = await run_in_threadpool(open_run)
    if state.status != "finished":
        ctx.batches.start(state.run_id)
    out = batch_out(ctx, state)
    return JSONResponse(
        out.model_dump(), status_code=202, headers={"Location": f"/v1/batches/{out.id}"}
    )


@router.get("/{run_id}", response_model=BatchOut, responses=ERRORS, summary="A run's progress")
async def read_batch(run_id: RowId, request: Request) -> BatchOut:
    ctx = context_of(request)
    state = await run_in_threadpool(ctx.assistant.batch_status, run_id)
    return batch_out(ctx, state)


@router.get(
    "/{run_id}/shortlist",
    responses={200: {"content": {"text/csv": {}}}, **ERRORS},
    summary="The ranked shortlist, as JSON or CSV",
)
async def read_shortlist(
    run_id: RowId,
    request: Request,
    format: Annotated[Literal["json", "csv"], Query()] = "json",
) -> Response:
    """Ranked by score; candidates not analyzed yet (or failed) follow with their status."""
    ctx = context_of(request)
    if format == "csv":
        text = await run_in_threadpool(ctx.assistant.export_batch, run_id, "csv")
        return Response(text, media_type="text/csv; charset=utf-8")
    rows = await run_in_threadpool(ctx.assistant.shortlist, run_id)
    return JSONResponse({"batch_id": run_id, "candidates": rows})
