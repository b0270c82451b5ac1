"""The benchmark's workload: real analysis requests for labelled job/candidate pairs.

The requests are the ones the analysis graph sends (``agent.service.prepare_request``), made
once on the first engine the benchmark starts (a prose job's requirements are the model's pick,
as in ``analyze``) and then sent unchanged to every configuration.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from agent.ingest.files import load_candidate, load_job
from agent.service import prepare_request
from schemas.inputs import CandidateProfile, JobPosting
from serving.engine import Engine, GenerationRequest


@dataclass(frozen=True)
class WorkItem:
    job_id: str
    candidate_id: str
    request: GenerationRequest

    @property
    def name(self) -> str:
        return f"{self.job_id}×{self.candidate_id}"


@dataclass(frozen=True)
class WorkPair:
    job_id: str
    candidate_id: str
    job: JobPosting
    candidate: CandidateProfile

    @property
    def name(self) -> str:
        return f"{self.job_id}×{self.candidate_id}"

    @property
    def inputs(self) -> tuple[JobPosting, CandidateProfile]:
        return self.job, self.candidate


class Workload:
    """Labelled pairs, and their analysis requests once an engine has prepared them.

    ``max_tokens`` caps every answer below the budget the schema allows: a shorter run that
    still measures the same requests, cut at the same token for every config.
    """

    def __init__(self, pairs: list[WorkPair], max_tokens: int | None = None) -> None:
        self.pairs = pairs
        self.max_tokens = max_tokens
        self._items: list[WorkItem] | None = None

    def __len__(self) -> int:
        return len(self.pairs)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.pairs]

    def items(self, engine: Engine) -> list[WorkItem]:
        """The requests, prepared through the graph on the first engine asked, then kept."""
        if self._items is None:
            self._items = [
                WorkItem(p.job_id, p.candidate_id, self._capped(prepare_request(*p.inputs, engine)))
                for p in self.pairs
            ]
        return self._items

    def _capped(self, request: GenerationRequest) -> GenerationRequest:
        if self.max_tokens is None:
            return request
        cap = min(request.max_tokens or self.max_tokens, self.max_tokens)
        return replace(request, max_tokens=cap)


def labelled_pairs(data_dir: Path) -> list[tuple[str, str]]:
    """(job, candidate) for every strong and weak resume of the labelled jobs, job by job."""
    pairs = json.loads((data_dir / "pairs.json").read_text())["pairs"]
    out: list[tuple[str, str]] = []
    for entry in pairs:
        if "strong" in entry and "weak" in entry:
            out += [(entry["job_id"], entry["strong"]), (entry["job_id"], entry["weak"])]
    return out


def build_workload(data_dir: Path, count: int, max_tokens: int | None = None) -> Workload:
    """The first ``count`` pairs (cycling if more are asked for than exist)."""
    pairs = labelled_pairs(data_dir)
    if not pairs:
        raise ValueError(f"no strong/weak pairs in {data_dir / 'pairs.json'}")
    chosen = []
    for i in range(count):
        job_id, cand_id = pairs[i % len(pairs)]
        job = load_job(data_dir / "jobs" / f"{job_id}.md")
        candidate = load_candidate(data_dir / "candidates" / f"{cand_id}.md")
        chosen.append(WorkPair(job_id, cand_id, job, candidate))
    return Workload(chosen, max_tokens)
