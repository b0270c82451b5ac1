"""Batch runs the HTTP service works in the background: one thread per run, stopped (resumably)
when the service stops."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from agent.assistant import HiringAssistant
from agent.batch.service import RunState
from agent.batch.worker import BatchWorker

log = logging.getLogger("hiring_assistant.api")


class BatchRunner:
    def __init__(self, assistant: HiringAssistant, on_finished: Callable[[RunState], None]) -> None:
        self._assistant = assistant
        self._on_finished = on_finished
        self._threads: dict[int, threading.Thread] = {}
        self._workers: dict[int, BatchWorker] = {}
        self._lock = threading.Lock()
        self._closing = False

    def running(self, run_id: int) -> bool:
        thread = self._threads.get(run_id)
        return thread is not None and thread.is_alive()

    def start(self, run_id: int) -> None:
        """Work the run on a background thread, unless this process is working it already."""
        with self._lock:
            if self._closing or self.running(run_id):
                return
            thread = threading.Thread(target=self._work, args=(run_id,), name=f"batch-{run_id}")
            self._threads[run_id] = thread
            thread.start()

    def _work(self, run_id: int) -> None:
        def keep(worker: BatchWorker) -> None:
            with self._lock:
                self._workers[run_id] = worker
                if self._closing:
                    worker.stop()

        try:
            state = self._assistant.resume_batch(run_id, on_worker=keep)
        except Exception:  # the run stays resumable; the log says why it stopped
            log.exception("batch %s stopped", run_id)
            return
        finally:
            with self._lock:
                self._workers.pop(run_id, None)
        if state.status == "finished":
            self._on_finished(state)

    def close(self) -> None:
        """Stop every run's worker (its unfinished items wait for the next one) and wait."""
        with self._lock:
            self._closing = True
            for worker in self._workers.values():
                worker.stop()
        for thread in list(self._threads.values()):
            thread.join()
