"""A bounded queue of analyses: accepted work always completes; past capacity, a clear refusal.

Each accepted request becomes a task with an id to poll. Work runs on a fixed pool of threads
(the engine batches what they send it). When queued plus running tasks reach the capacity, a new
submission is refused with :class:`QueueFull` and an estimate of when to retry: nothing accepted
is ever dropped, and shutting down waits for what was accepted.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from agent.errors import classify

TaskStatus = Literal["queued", "running", "done", "failed"]
log = logging.getLogger("hiring_assistant.api")
KEPT_TASKS = 10_000  # finished tasks remembered for polling (their analyses stay in the store)


class QueueFull(Exception):
    def __init__(self, retry_after_s: int, closing: bool = False) -> None:
        super().__init__("the service is shutting down" if closing else "the queue is full")
        self.retry_after_s = retry_after_s
        self.closing = closing


@dataclass
class Task:
    id: str
    kind: str
    status: TaskStatus = "queued"
    analysis_id: int | None = None
    error: str | None = None
    http_status: int | None = None
    created: float = field(default_factory=time.monotonic)
    context: dict[str, Any] = field(default_factory=dict)  # ids webhooks repeat (no personal data)
    future: Future[int] = field(default_factory=Future)


class TaskQueue:
    """``submit(fn)`` runs ``fn`` (which returns a saved analysis id) on a worker thread."""

    def __init__(
        self,
        *,
        workers: int,
        capacity: int,
        on_done: Callable[[Task], None] | None = None,
    ) -> None:
        self.workers = workers
        self.capacity = max(capacity, workers)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="analysis")
        self._lock = threading.Lock()
        self._tasks: OrderedDict[str, Task] = OrderedDict()
        self._open = 0  # queued + running
        self._mean_s = 30.0  # running mean of a task's duration, for Retry-After
        self._closing = False
        self._on_done = on_done

    @property
    def depth(self) -> int:
        return self._open

    def retry_after_s(self) -> int:
        return max(1, math.ceil(self._mean_s * (self._open + 1) / self.workers))

    def submit(
        self, kind: str, work: Callable[[], int], context: dict[str, Any] | None = None
    ) -> Task:
        with self._lock:
            if self._closing:
                raise QueueFull(self.retry_after_s(), closing=True)
            if self._open >= self.capacity:
                raise QueueFull(self.retry_after_s())
            task = Task(id="task_" + secrets.token_hex(8), kind=kind, context=context or {})
            self._tasks[task.id] = task
            self._open += 1
            while len(self._tasks) > KEPT_TASKS:
                self._tasks.popitem(last=False)
        self._pool.submit(self._run, task, work)
        return task

    def get(self, task_id: str) -> Task | None:
        return self._tasks.get(task_id)

    def _run(self, task: Task, work: Callable[[], int]) -> None:
        task.status = "running"
        started = time.monotonic()
        try:
            task.analysis_id = work()
            task.status = "done"
            task.future.set_result(task.analysis_id)
        except BaseException as exc:  # every outcome is recorded on the task
            kind = classify(exc)
            task.status = "failed"
            task.http_status = kind.http_status if kind else 500
            task.error = str(exc) if kind else "internal error"
            if kind is None:
                log.exception("task %s failed unexpectedly", task.id)
            task.future.set_exception(exc)
        finally:
            with self._lock:
                self._open -= 1
                self._mean_s = 0.8 * self._mean_s + 0.2 * (time.monotonic() - started)
            if self._on_done is not None:
                self._on_done(task)

    def close(self) -> None:
        """Refuse new work; finish what was accepted."""
        with self._lock:
            self._closing = True
        self._pool.shutdown(wait=True)
