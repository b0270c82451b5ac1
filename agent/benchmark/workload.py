"""The benchmark's workload: real analysis requests for labelled job/candidate pairs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from agent.analysis import prepare_request
from agent.inputs import load_candidate, load_job
from serving.engine import GenerationRequest


@dataclass(frozen=True)
class WorkItem:
    job_id: str
    candidate_id: str
    request: GenerationRequest

    @property
    def name(self) -> str:
        return f"{self.job_id}×{self.candidate_id}"


def labelled_pairs(data_dir: Path) -> list[tuple[str, str]]:
    """(job, candidate) for every strong and weak resume of the labelled jobs, job by job."""
    pairs = json.loads((data_dir / "pairs.json").read_text())["pairs"]
    out: list[tuple[str, str]] = []
    for entry in pairs:
        if "strong" in entry and "weak" in entry:
            out += [(entry["job_id"], entry["strong"]), (entry["job_id"], entry["weak"])]
    return out


def build_workload(data_dir: Path, count: int) -> list[WorkItem]:
    """The first ``count`` pairs (cycling if more are asked for than exist)."""
    pairs = labelled_pairs(data_dir)
    if not pairs:
        raise ValueError(f"no strong/weak pairs in {data_dir / 'pairs.json'}")
    items = []
    for i in range(count):
        job_id, cand_id = pairs[i % len(pairs)]
        job = load_job(data_dir / "jobs" / f"{job_id}.md")
        candidate = load_candidate(data_dir / "candidates" / f"{cand_id}.md")
        items.append(WorkItem(job_id, cand_id, prepare_request(job, candidate)))
    return items
