"""A chat process that ranks, takes a note, then is killed with SIGKILL (for the memory test)."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

from agent.batch.sources import collect_candidates
from agent.chat.memory import open_checkpointer
from agent.chat.session import ChatSession
from agent.ingest.files import load_job
from agent.service import AnalysisService
from agent.store import open_database
from serving.fake_engine import ScriptedEngine
from tests.conftest import job_path
from tests.unit.fake_answers import valid_answer

if __name__ == "__main__":
    url = os.environ["DATABASE_URL"]
    with open_database(url) as database, open_checkpointer(url) as checkpointer:
        service = AnalysisService(ScriptedEngine(responder=valid_answer), database)
        talk = ChatSession(service, checkpointer, "kill-me", Path("unused"))
        job = load_job(job_path("job_008"))
        talk.start(job, collect_candidates([sys.argv[1]]), job.requirements)
        ranked = talk.send("/rank")
        talk.send("/note wants someone in Berlin")
        print("ranked", flush=True)
        print(json.dumps([row["candidate"] for row in ranked.reply["table"]]), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
