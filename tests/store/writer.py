"""A writer process for the crash test: saves analyses one transaction at a time until killed.

    python -m tests.store.writer DATABASE_URL

Prints ``writing N`` once analysis N's rows are inserted but not committed (it then waits a
moment inside the transaction), and ``committed N`` after the commit.
"""

from __future__ import annotations

import sys
import time
from itertools import count

from agent.ingest.files import load_candidate, load_job
from agent.store import open_database
from agent.store.repository import save_analysis
from tests.conftest import candidate_path, job_path
from tests.store.conftest import make_report


def main(url: str) -> None:
    database = open_database(url)
    job = load_job(job_path("job_008"))
    candidate = load_candidate(candidate_path("cand_033"))
    base = make_report(job, candidate)
    for index in count():
        person = candidate.model_copy(update={"id": f"writer-{index}"})
        provenance = base.provenance.model_copy(update={"candidate_hash": f"writer-{index}"})
        report = base.model_copy(update={"provenance": provenance})
        with database.session() as session:
            save_analysis(session, report=report, job=job, candidate=person)
            session.flush()
            print(f"writing {index}", flush=True)
            time.sleep(0.3)
        print(f"committed {index}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
