"""Shared pieces of the batch tests: a folder of resumes and a service answering any request."""

from __future__ import annotations

import shutil
from pathlib import Path

from agent.service import AnalysisService
from agent.store import Database
from serving.fake_engine import ScriptedEngine
from tests.conftest import candidate_path
from tests.unit.fake_answers import valid_answer

SAMPLE_IDS = ("cand_033", "cand_001", "cand_012", "cand_020", "cand_041", "cand_057")


def resume_folder(root: Path, ids: tuple[str, ...] = SAMPLE_IDS) -> Path:
    """Sample resumes as files in a folder, as a recruiter would have them."""
    folder = root / "resumes"
    folder.mkdir(parents=True, exist_ok=True)
    for cid in ids:
        shutil.copy(candidate_path(cid), folder / f"{cid}.md")
    return folder


def answering_service(
    database: Database, *, delay_s: float = 0.0, concurrency: int = 3
) -> AnalysisService:
    """A service whose scripted engine answers every request validly (in any order)."""
    engine = ScriptedEngine(responder=valid_answer, delay_s=delay_s)
    return AnalysisService(engine, database, concurrency=concurrency)
