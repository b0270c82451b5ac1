"""Ranking-quality evaluation on labelled job × candidate data, independent of any engine.

The caller supplies a scoring function ``score(job_id, candidate_ids) -> {candidate_id: score}``;
this module builds the ranking tasks, runs them and computes the metrics (top-1 accuracy, mean
reciprocal rank, Spearman correlation against graded labels).

Labels come from ``samples/pairs.json``: each source-2 job has one "strong" and one "weak"
resume. Other job × candidate pairs are unlabelled and are *not* negatives, with one exception:
the strong resume written for a job with a different title is used as a distractor.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scipy.stats import spearmanr

from agent.text_tables import new_table, render_table

ScoreFn = Callable[[str, list[str]], dict[str, float]]


@dataclass(frozen=True)
class RankingTask:
    """One job, the candidate that should rank first, and all candidates to rank."""

    job_id: str
    intended: str
    candidates: tuple[str, ...]  # includes ``intended``
    weak: str | None = None  # the job's own weaker resume, when labelled


@dataclass(frozen=True)
class _LabelledJob:
    job_id: str
    strong: str
    weak: str
    title: str


def _job_title(jobs_dir: Path, job_id: str) -> str:
    """Return the normalised ``# Title`` first line of a job file (lower case, trimmed)."""
    path = jobs_dir / f"{job_id}.md"
    first_line = path.read_text(encoding="utf-8").lstrip().splitlines()[0]
    return first_line.lstrip("#").strip().casefold()


def _labelled_jobs(pairs_path: Path, jobs_dir: Path) -> list[_LabelledJob]:
    """Read the jobs that have a strong and a weak resume, sorted by job id."""
    data = json.loads(pairs_path.read_text(encoding="utf-8"))
    jobs = [
        _LabelledJob(
            job_id=entry["job_id"],
            strong=entry["strong"],
            weak=entry["weak"],
            title=_job_title(jobs_dir, entry["job_id"]),
        )
        for entry in data["pairs"]
        if "strong" in entry and "weak" in entry
    ]
    return sorted(jobs, key=lambda job: job.job_id)


def ranking_tasks(
    pairs_path: Path,
    jobs_dir: Path,
    *,
    distractors: int = 2,
    seed: int = 0,
    limit: int | None = None,
) -> list[RankingTask]:
    """Build one ranking task per job labelled strong/weak, in job-id order.

    Candidates are the job's strong resume (the intended winner), its weak resume and
    ``distractors`` strong resumes of other jobs whose title differs from this job's title.
    Distractor choice and candidate order come from one ``random.Random(seed)`` consumed in
    job-id order, so the same seed gives the same tasks and ``limit`` keeps a prefix of them.
    """
    if distractors < 0:
        raise ValueError(f"distractors must be >= 0, got {distractors}")
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    jobs = _labelled_jobs(pairs_path, jobs_dir)
    selected = jobs if limit is None else jobs[:limit]
    rng = random.Random(seed)
    tasks = []
    for job in selected:
        pool = [other.strong for other in jobs if other.title != job.title]
        if distractors > len(pool):
            raise ValueError(
                f"{job.job_id}: asked for {distractors} distractors, only {len(pool)} available"
            )
        candidates = [job.strong, job.weak, *rng.sample(pool, distractors)]
        rng.shuffle(candidates)
        tasks.append(RankingTask(job.job_id, job.strong, tuple(candidates), weak=job.weak))
    return tasks


def reciprocal_rank(scores: Mapping[str, float], intended: str) -> float:
    """Return 1 / rank of ``intended`` among ``scores``.

    Ties are resolved pessimistically so that they never favour the intended candidate:
    rank = 1 + (candidates scoring strictly higher) + (other candidates scoring equal).
    A scorer that gives everyone the same score therefore gets the worst rank, not the best.
    """
    return 1.0 / _rank(scores, intended)


def _rank(scores: Mapping[str, float], intended: str) -> int:
    """Pessimistic 1-based rank of ``intended``; see :func:`reciprocal_rank`."""
    if intended not in scores:
        raise ValueError(f"intended candidate {intended!r} has no score")
    if any(math.isnan(value) for value in scores.values()):
        raise ValueError("scores must not be NaN")
    target = scores[intended]
    ahead = sum(
        1 for candidate, value in scores.items() if candidate != intended and value >= target
    )
    return 1 + ahead


@dataclass(frozen=True)
class TaskResult:
    """The outcome of one ranking task."""

    job: str
    intended: str
    rank: int
    scores: dict[str, float]
    weak: str | None = None

    @property
    def strong_above_weak(self) -> bool | None:
        """Whether the intended (strong) resume scored strictly above the job's weak one."""
        if self.weak is None:
            return None
        return self.scores[self.intended] > self.scores[self.weak]

    @property
    def top1(self) -> bool:
        """Whether the intended candidate ranked strictly first."""
        return self.rank == 1

    @property
    def reciprocal_rank(self) -> float:
        """1 / rank (pessimistic ties)."""
        return 1.0 / self.rank

    @property
    def intended_score(self) -> float:
        """The intended candidate's score."""
        return self.scores[self.intended]

    @property
    def best_other_score(self) -> float | None:
        """Highest score among the other candidates, or None when there are none."""
        others = [value for candidate, value in self.scores.items() if candidate != self.intended]
        return max(others) if others else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready representation."""
        return {
            "job": self.job,
            "intended": self.intended,
            "rank": self.rank,
            "top1": self.top1,
            "strong_above_weak": self.strong_above_weak,
            "scores": dict(self.scores),
        }


ResultLike = TaskResult | tuple[Mapping[str, float], str]


def _as_result(item: ResultLike) -> TaskResult:
    """Accept a :class:`TaskResult` or a ``(scores, intended)`` pair."""
    if isinstance(item, TaskResult):
        return item
    scores, intended = item
    return TaskResult(job="", intended=intended, rank=_rank(scores, intended), scores=dict(scores))


def top1_accuracy(results: Sequence[ResultLike]) -> float:
    """Fraction of tasks where the intended candidate ranks strictly first."""
    if not results:
        raise ValueError("top1_accuracy needs at least one result")
    return sum(_as_result(item).top1 for item in results) / len(results)


def mean_reciprocal_rank(results: Sequence[ResultLike]) -> float:
    """Mean of the (pessimistic) reciprocal ranks."""
    if not results:
        raise ValueError("mean_reciprocal_rank needs at least one result")
    return sum(_as_result(item).reciprocal_rank for item in results) / len(results)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman rank correlation (``scipy.stats.spearmanr``; ties share their average rank).

    Returns None when there are fewer than 2 points or either side is constant (checked first:
    scipy would return NaN with a warning), or when the result is NaN (a NaN in the input).
    """
    if len(xs) != len(ys):
        raise ValueError(f"spearman needs equal lengths, got {len(xs)} and {len(ys)}")
    if len(xs) < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return None
    rho = float(spearmanr(xs, ys).statistic)
    return None if math.isnan(rho) else rho


@dataclass(frozen=True)
class EvalReport:
    """Per-task results and the aggregate ranking metrics."""

    rows: tuple[TaskResult, ...]

    @property
    def tasks(self) -> int:
        """Number of tasks evaluated."""
        return len(self.rows)

    @property
    def top1_accuracy(self) -> float:
        """Fraction of tasks with the intended candidate strictly first."""
        return top1_accuracy(self.rows)

    @property
    def mrr(self) -> float:
        """Mean reciprocal rank (pessimistic ties)."""
        return mean_reciprocal_rank(self.rows)

    @property
    def strong_above_weak(self) -> float | None:
        """Share of the tasks with a weak resume where the strong one scored strictly higher."""
        pairs = [row.strong_above_weak for row in self.rows if row.weak is not None]
        return sum(pairs) / len(pairs) if pairs else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready representation."""
        return {
            "tasks": self.tasks,
            "top1_accuracy": self.top1_accuracy,
            "mrr": self.mrr,
            "strong_above_weak": self.strong_above_weak,
            "rows": [row.to_dict() for row in self.rows],
        }

    def format_table(self) -> str:
        """A plain-text table (rendered by rich), one row per job, followed by the aggregates."""
        table = new_table()
        table.add_column("job", overflow="fold")
        table.add_column("intended", overflow="fold")
        table.add_column("score", justify="right")
        table.add_column("best other", justify="right")
        table.add_column("rank", justify="right")
        for row in self.rows:
            best = row.best_other_score
            table.add_row(
                row.job,
                row.intended,
                f"{row.intended_score:.1f}",
                "-" if best is None else f"{best:.1f}",
                str(row.rank),
            )
        lines = render_table(table)
        summary = (
            f"tasks {self.tasks}   top-1 accuracy {self.top1_accuracy:.3f}   MRR {self.mrr:.3f}"
        )
        if self.strong_above_weak is not None:
            summary += f"   strong above weak {self.strong_above_weak:.3f}"
        lines.append(summary)
        return "\n".join(lines)


def _checked_scores(task: RankingTask, raw: Mapping[str, float]) -> dict[str, float]:
    """Keep the scores of the task's candidates, failing if any is missing."""
    missing = [candidate for candidate in task.candidates if candidate not in raw]
    if missing:
        raise ValueError(f"{task.job_id}: score function returned no score for {missing}")
    return {candidate: float(raw[candidate]) for candidate in task.candidates}


def run_ranking_eval(tasks: Sequence[RankingTask], score: ScoreFn) -> EvalReport:
    """Score every task with ``score(job_id, candidate_ids)`` and collect the results."""
    if not tasks:
        raise ValueError("run_ranking_eval needs at least one task")
    rows = []
    for task in tasks:
        scores = _checked_scores(task, score(task.job_id, list(task.candidates)))
        rows.append(
            TaskResult(
                job=task.job_id,
                intended=task.intended,
                rank=_rank(scores, task.intended),
                scores=scores,
                weak=task.weak,
            )
        )
    return EvalReport(rows=tuple(rows))
