"""A batch worker process for the SIGKILL test: works a run slowly, printing each result.

    python -m tests.store.batch_worker DATABASE_URL RUN_ID

Prints ``done CANDIDATE`` once a candidate's analysis and item are committed.
"""

from __future__ import annotations

import sys
import threading

from agent.batch.worker import BatchWorker, ItemResult
from agent.store import open_database
from tests.store.batch_helpers import answering_service


def main(url: str, run_id: int) -> None:
    with open_database(url) as database:
        service = answering_service(database, delay_s=0.3, concurrency=2)
        lock = threading.Lock()  # results come from several threads: one whole line each

        def report(result: ItemResult) -> None:
            with lock:
                print(f"done {result.candidate_id}", flush=True)

        worker = BatchWorker(service, run_id, on_result=report)
        summary = worker.run()
        print(f"finished {summary.finished_run}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
