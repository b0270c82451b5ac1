"""`hiring-assistant eval`: ranking quality of our scores on labelled data, on a real engine."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.errors import AnalysisFailedError, InputError
from agent.evaluation.ranking import GradedPair, RankingTask, run_ranking_eval, spearman
from agent.ingest.files import load_candidate, load_job
from agent.service import analyze_many
from schemas.report import MatchReport
from serving.engine import Engine

FAILED_SCORE = -1.0  # an analysis that failed ranks below every scored candidate

Progress = Callable[[str], None]


def _path(data_dir: Path, folder: str, ref: str) -> Path:
    """An id such as job_008 under the data dir, or a path as given."""
    given = Path(ref)
    return given if given.suffix else data_dir / folder / f"{ref}.md"


@dataclass
class TextTally:
    """Free-text fields of the reports made: how many the model wrote, how many code composed."""

    model: int = 0
    total: int = 0

    def add(self, report: MatchReport) -> None:
        self.model += sum(origin == "model" for origin in report.text_origin.values())
        self.total += len(report.text_origin)

    def to_dict(self) -> dict[str, Any]:
        share = round(self.model / self.total, 3) if self.total else None
        return {"model_written": self.model, "fields": self.total, "model_text_share": share}


def score_candidates(
    engine: Engine,
    job_ref: Path,
    candidate_paths: list[Path],
    failures: list[str],
    texts: TextTally | None = None,
) -> dict[str, float]:
    job = load_job(job_ref)
    candidates = [load_candidate(p) for p in candidate_paths]
    scores: dict[str, float] = {}
    for path, outcome in zip(candidate_paths, analyze_many(job, candidates, engine), strict=True):
        key = path.stem
        if isinstance(outcome, AnalysisFailedError | InputError):
            failures.append(f"{job_ref.stem} × {key}: {outcome}")
            scores[key] = FAILED_SCORE
        else:
            scores[key] = float(outcome.score)
            if texts is not None:
                texts.add(outcome)
    return scores


def ranking_eval(
    engine: Engine, data_dir: Path, tasks: list[RankingTask], say: Progress
) -> dict[str, Any]:
    failures: list[str] = []
    texts = TextTally()

    def score(job_id: str, candidate_ids: list[str]) -> dict[str, float]:
        say(f"  {job_id}: scoring {len(candidate_ids)} candidates…")
        paths = [_path(data_dir, "candidates", c) for c in candidate_ids]
        return score_candidates(engine, _path(data_dir, "jobs", job_id), paths, failures, texts)

    report = run_ranking_eval(tasks, score)
    say(report.format_table())
    tally = texts.to_dict()
    say(
        f"failed analyses {len(failures)}; free text written by the model "
        f"{tally['model_written']} of {tally['fields']} fields "
        f"(the rest composed by code: no junk text in the reports)"
    )
    return {**report.to_dict(), "failures": failures, "text": tally}


def graded_eval(
    engine: Engine, data_dir: Path, pairs: list[GradedPair], say: Progress
) -> dict[str, Any]:
    failures: list[str] = []
    ours: list[float] = []
    grades: list[float] = []
    for index, pair in enumerate(pairs, 1):
        say(f"  graded pair {index}/{len(pairs)}: {pair.job} × {pair.candidate}")
        cand = _path(data_dir, "candidates", pair.candidate)
        scores = score_candidates(engine, _path(data_dir, "jobs", pair.job), [cand], failures)
        ours.append(scores[cand.stem])
        grades.append(pair.grade)
    rho = spearman(ours, grades)
    say(
        f"Spearman correlation of score with grade over {len(pairs)} pairs: "
        f"{'n/a' if rho is None else f'{rho:.3f}'}"
    )
    rows = [
        {"job": p.job, "candidate": p.candidate, "grade": p.grade, "score": s}
        for p, s in zip(pairs, ours, strict=True)
    ]
    return {"pairs": len(pairs), "spearman": rho, "rows": rows, "failures": failures}


def write_results(out_dir: Path, results: dict[str, Any]) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "results.json"
    path.write_text(json.dumps(results, indent=2))
    return path
