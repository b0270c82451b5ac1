"""What every route works with: the assistant (engine, database, service), the queue, metrics,
webhooks, and the batches this process is working."""

from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi import Request

from agent.api.batch_runner import BatchRunner
from agent.api.metrics import ApiMetrics
from agent.api.settings import ApiSettings
from agent.api.tasks import Task, TaskQueue
from agent.api.webhooks import Notifier
from agent.assistant import HiringAssistant
from agent.batch.service import RunState
from agent.chat.memory import open_checkpointer

if TYPE_CHECKING:
    from agent.ats.greenhouse import GreenhouseClient


@dataclass
class ApiContext:
    assistant: HiringAssistant
    settings: ApiSettings
    queue: TaskQueue = field(init=False)
    metrics: ApiMetrics = field(init=False)
    notifier: Notifier = field(init=False)
    batches: BatchRunner = field(init=False)
    checkpointer: Any = field(init=False)
    _resources: ExitStack = field(default_factory=ExitStack)

    def __post_init__(self) -> None:
        self.queue = TaskQueue(
            workers=self.settings.workers,
            capacity=self.settings.queue_size,
            on_done=self._task_done,
        )
        self.metrics = ApiMetrics(
            queue_depth=lambda: self.queue.depth,
            speculation=self.assistant.service.engine.speculation_counters,
        )
        self.notifier = Notifier(
            self.assistant.database,
            attempts=self.settings.webhook_attempts,
            backoff_s=self.settings.webhook_backoff_s,
            timeout_s=self.settings.webhook_timeout_s,
        )
        self.batches = BatchRunner(self.assistant, self._batch_finished)
        url = self.assistant.database.url.render_as_string(hide_password=False)
        self.checkpointer = self._resources.enter_context(open_checkpointer(url))

    def _batch_finished(self, state: RunState) -> None:
        self.notifier.notify(
            "batch.finished",
            {
                "batch_id": state.run_id,
                "counts": state.counts,
                "url": f"/v1/batches/{state.run_id}",
                "shortlist": f"/v1/batches/{state.run_id}/shortlist",
            },
        )

    def _task_done(self, task: Task) -> None:
        if task.status == "done" and task.analysis_id is not None:
            report = self.assistant.get_analysis(task.analysis_id, audit=False)
            self.metrics.analysis_done(report, time.monotonic() - task.created)
            data: dict[str, Any] = {
                "task_id": task.id,
                "analysis_id": task.analysis_id,
                "candidate_id": report.candidate.get("id"),
                "score": report.score,
                "recommendation": report.recommendation.greenhouse,
                "url": f"/v1/analyses/{task.analysis_id}",
                **task.context,
            }
            self.notifier.notify("analysis.finished", data)
        else:
            self.metrics.analysis_failed()
            data = {"task_id": task.id, "error": task.error, **task.context}
            self.notifier.notify("analysis.failed", data)

    def greenhouse_client(self) -> GreenhouseClient | None:
        from agent.ats.greenhouse import GreenhouseClient

        if not self.settings.ats_base_url:
            return None
        key = self.settings.ats_api_key
        return GreenhouseClient(
            self.settings.ats_base_url, api_key=key.get_secret_value() if key else None
        )

    def close(self) -> None:
        self.queue.close()
        self.batches.close()
        self.notifier.close()
        self._resources.close()


def context_of(request: Request) -> ApiContext:
    return request.app.state.ctx
