"""Name-swap invariance: the same profile under names from different groups, analyzed each time.

Published studies found language models rank identical resumes differently by the name on them
(Bloomberg, 2024, whose names this check uses by default). With blinding, the model reads
"[name]" whatever the name, so every version's prompt is byte-identical and the scores cannot
differ; without it (``blind=False``) the check shows what blinding prevents.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agent.errors import InputError
from agent.ingest.blinding import header_name
from agent.service import analyze_many, job_requirements, prepare_request
from schemas.inputs import CandidateProfile, JobPosting
from schemas.report import MatchReport
from serving.engine import Engine, GenerationRequest

NAMES_FILE = Path(__file__).resolve().parents[2] / "samples" / "fairness" / "names_by_group.json"
PLACEHOLDER = "{name}"


@dataclass(frozen=True)
class NameGroups:
    groups: dict[str, list[str]]
    labels: dict[str, str]  # group key -> words ("W_M" -> "White men")


@dataclass(frozen=True)
class SwapResult:
    group: str
    label: str
    name: str
    prompt_hash: str
    score: int | None
    recommendation: str | None
    verdicts: list[str]
    error: str | None = None


@dataclass(frozen=True)
class NameSwapReport:
    job: str
    candidate: str
    blind: bool
    results: list[SwapResult]

    @property
    def prompt_hashes(self) -> list[str]:
        return [r.prompt_hash for r in self.results]

    @property
    def score_spread(self) -> int | None:
        scores = [r.score for r in self.results if r.score is not None]
        return max(scores) - min(scores) if scores else None

    @property
    def verdicts_identical(self) -> bool:
        return len({tuple(r.verdicts) for r in self.results if r.error is None}) <= 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": self.job,
            "candidate": self.candidate,
            "blind": self.blind,
            "results": [asdict(r) for r in self.results],
            "prompt_hashes": self.prompt_hashes,
            "distinct_prompts": len(set(self.prompt_hashes)),
            "score_spread": self.score_spread,
            "verdicts_identical": self.verdicts_identical,
        }


def load_names(path: Path | None = None) -> NameGroups:
    """Names by group: ``{"groups": {key: [names]}}`` (with optional code tables, as the
    fairness data has them) or plainly ``{group: [names]}``."""
    path = path or NAMES_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the names file {path}: {exc}") from None
    groups = data.get("groups", data) if isinstance(data, dict) else None
    if (
        not isinstance(groups, dict)
        or not groups
        or not all(
            isinstance(v, list) and v and all(isinstance(n, str) and n.strip() for n in v)
            for v in groups.values()
        )
    ):
        raise InputError(f"{path}: expected {{group: [names, ...]}} (or {{'groups': ...}})")
    return NameGroups(groups, {key: _label(key, data) for key in groups})


def _label(key: str, data: dict[str, Any]) -> str:
    race, _, gender = key.partition("_")
    races, genders = data.get("race_ethnicity_codes", {}), data.get("gender_codes", {})
    if race in races and gender in genders:
        return f"{races[race]} {genders[gender]}"
    return key


def pick_names(names: NameGroups, per_group: int = 1, seed: int = 0) -> list[tuple[str, str]]:
    """``per_group`` names of every group, (group, name) pairs; the same seed, the same names."""
    rng = random.Random(seed)
    return [
        (group, name)
        for group, members in names.groups.items()
        for name in rng.sample(members, min(per_group, len(members)))
    ]


def with_name(text: str, name: str) -> str:
    """The profile under ``name``: its ``{name}`` placeholder filled, else its header name
    replaced, else the name put on a first line of its own."""
    if PLACEHOLDER in text:
        return text.replace(PLACEHOLDER, name)
    current = header_name(text)
    if current:
        return text.replace(current, name)
    return f"{name}\n\n{text}"


def request_hash(request: GenerationRequest) -> str:
    """What the model is given, hashed: the messages and the JSON schema."""
    payload = {"messages": request.messages, "json_schema": request.json_schema}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def name_swap(
    job: JobPosting,
    candidate: CandidateProfile,
    engine: Engine,
    picked: list[tuple[str, str]],
    labels: dict[str, str],
    *,
    blind: bool = True,
) -> NameSwapReport:
    """Analyze the profile once per picked name (all at once, same requirements for all)."""
    requirements = job_requirements(job, engine)
    versions = [
        CandidateProfile(id=f"{candidate.id}-{i}", text=with_name(candidate.text, name))
        for i, (_, name) in enumerate(picked, 1)
    ]
    hashes = [
        request_hash(prepare_request(job, v, engine, requirements=requirements, blind=blind))
        for v in versions
    ]
    outcomes = analyze_many(job, versions, engine, requirements=requirements, blind=blind)
    results = []
    for (group, name), digest, outcome in zip(picked, hashes, outcomes, strict=True):
        if isinstance(outcome, MatchReport):
            verdicts = [a.verdict for a in outcome.analysis.assessments]
            results.append(
                SwapResult(
                    group,
                    labels.get(group, group),
                    name,
                    digest,
                    outcome.score,
                    outcome.recommendation.greenhouse,
                    verdicts,
                )
            )
        else:
            results.append(
                SwapResult(
                    group, labels.get(group, group), name, digest, None, None, [], str(outcome)
                )
            )
    return NameSwapReport(job.title, candidate.id, blind, results)
