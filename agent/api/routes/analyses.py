"""``/v1/analyses``: analyze one pair (wait for it, or poll), read it, or read it in an ATS's
shape."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from agent.api.context import ApiContext, context_of
from agent.api.models import AnalysisRequest, ErrorOut, TaskOut, requirements_of
from agent.api.tasks import Task
from agent.ats import payloads
from agent.errors import NotFoundError
from schemas.report import MatchReport

router = APIRouter(prefix="/v1/analyses", tags=["analyses"])
Format = Literal["report", "greenhouse", "lever", "ashby"]
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 404, 413, 422, 429, 502, 503)
}


def task_out(task: Task) -> TaskOut:
    return TaskOut(
        id=task.id,
        status=task.status,
        location=f"/v1/analyses/{task.id}",
        analysis_id=task.analysis_id,
        error=task.error,
    )


def pending(task: Task) -> JSONResponse:
    """202 with where to poll."""
    out = task_out(task)
    return JSONResponse(out.model_dump(), status_code=202, headers={"Location": out.location})


async def finished(ctx: ApiContext, task: Task, request: Request, fmt: Format) -> JSONResponse:
    """The task's answer: its report (in the asked shape), or its error, or 202 if not done."""
    if task.status == "failed":
        out = task_out(task)
        return JSONResponse(
            {"error": task.error, "task": out.model_dump()}, status_code=task.http_status or 500
        )
    if task.status != "done" or task.analysis_id is None:
        return pending(task)
    report = await run_in_threadpool(ctx.assistant.get_analysis, task.analysis_id)
    return shaped(report, task.analysis_id, request, fmt)


def shaped(report: MatchReport, analysis_id: int, request: Request, fmt: Format) -> JSONResponse:
    location = f"/v1/analyses/{analysis_id}"
    headers = {"Location": location, "X-Analysis-Id": str(analysis_id)}
    if fmt == "greenhouse":
        profile_url = str(request.base_url).rstrip("/") + location
        body: dict[str, Any] = {
            "scorecard": payloads.greenhouse_scorecard(report),
            "test_status": payloads.greenhouse_test_status(report, profile_url=profile_url),
        }
    elif fmt == "lever":
        body = payloads.lever_feedback(report)
    elif fmt == "ashby":
        body = payloads.ashby_feedback(report)
    else:
        body = {"id": analysis_id, **report.model_dump(mode="json")}
    return JSONResponse(body, headers=headers)


@router.post(
    "",
    status_code=200,
    responses={202: {"model": TaskOut, "description": "Accepted: poll the location."}, **ERRORS},
    summary="Analyze one candidate against one job",
)
async def create_analysis(
    body: AnalysisRequest,
    request: Request,
    wait: Annotated[bool, Query(description="Answer with the report when it is ready.")] = False,
    format: Annotated[Format, Query(description="With wait: the report's shape.")] = "report",
) -> JSONResponse:
    """With ``wait=true`` the answer is the MatchReport (``score`` at the top level); otherwise
    202 with the task's location to poll. Past the queue's capacity: 429 with Retry-After."""
    ctx = context_of(request)
    job, candidate = body.job.posting(), body.candidate.profile()
    given = requirements_of(body.requirements)

    def work() -> int:
        return ctx.assistant.analyze_and_save(job, candidate, requirements=given).analysis_id

    task = ctx.queue.submit("analysis", work, {"candidate_id": candidate.id})
    if not wait:
        return pending(task)
    try:
        await asyncio.wait_for(
            asyncio.shield(asyncio.wrap_future(task.future)), ctx.settings.wait_timeout_s
        )
    except TimeoutError:
        return pending(task)
    except Exception:  # the task records the failure; finished() answers with it
        pass
    return await finished(ctx, task, request, format)


@router.get(
    "/{ref}",
    responses={202: {"model": TaskOut, "description": "Not finished yet."}, **ERRORS},
    summary="An analysis (by id) or a task (by its task_… id)",
)
async def read_analysis(
    ref: str,
    request: Request,
    format: Annotated[
        Format, Query(description="report, or the ATS payload: greenhouse, lever, ashby.")
    ] = "report",
) -> JSONResponse:
    ctx = context_of(request)
    if ref.startswith("task_"):
        task = ctx.queue.get(ref)
        if task is None:
            raise NotFoundError(f"no task {ref} (tasks are kept while the service runs)")
        return await finished(ctx, task, request, format)
    if not ref.isdigit() or len(ref) > 18:
        raise NotFoundError(f"no analysis {ref!r}: ids are numbers, or task_… for a task")
    report = await run_in_threadpool(ctx.assistant.get_analysis, int(ref))
    return shaped(report, int(ref), request, format)
