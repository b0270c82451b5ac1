"""`hiring-assistant eval`: ranking quality of our scores on labelled data, on a real engine."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.errors import AnalysisFailedError, InputError
from agent.evaluation.labels import LabelledPair, VerdictAgreement
from agent.evaluation.ranking import RankingTask, run_ranking_eval, spearman
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


def analyze_candidates(
    engine: Engine,
    job_ref: Path,
    candidate_paths: list[Path],
    failures: list[str],
    texts: TextTally | None = None,
) -> dict[str, MatchReport | None]:
    """Each candidate's report (None where the analysis failed, recorded in ``failures``)."""
    job = load_job(job_ref)
    candidates = [load_candidate(p) for p in candidate_paths]
    reports: dict[str, MatchReport | None] = {}
    for path, outcome in zip(candidate_paths, analyze_many(job, candidates, engine), strict=True):
        if isinstance(outcome, AnalysisFailedError | InputError):
            failures.append(f"{job_ref.stem} × {path.stem}: {outcome}")
            reports[path.stem] = None
        else:
            reports[path.stem] = outcome
            if texts is not None:
                texts.add(outcome)
    return reports


def scores_of(reports: dict[str, MatchReport | None]) -> dict[str, float]:
    """Each candidate's score; a failed analysis ranks below every scored one."""
    return {key: FAILED_SCORE if r is None else float(r.score) for key, r in reports.items()}


def ranking_eval(
    engine: Engine,
    data_dir: Path,
    tasks: list[RankingTask],
    say: Progress,
    kept: list[MatchReport] | None = None,
) -> dict[str, Any]:
    """Rank each task's candidates by score; every report made is appended to ``kept``."""
    failures: list[str] = []
    texts = TextTally()

    def score(job_id: str, candidate_ids: list[str]) -> dict[str, float]:
        say(f"  {job_id}: scoring {len(candidate_ids)} candidates…")
        paths = [_path(data_dir, "candidates", c) for c in candidate_ids]
        job = _path(data_dir, "jobs", job_id)
        reports = analyze_candidates(engine, job, paths, failures, texts)
        if kept is not None:
            kept.extend(r for r in reports.values() if r is not None)
        return scores_of(reports)

    report = run_ranking_eval(tasks, score)
    say(report.format_table())
    tally = texts.to_dict()
    say(
        f"failed analyses {len(failures)}; free text written by the model "
        f"{tally['model_written']} of {tally['fields']} fields "
        f"(the rest composed by code: no junk text in the reports)"
    )
    return {**report.to_dict(), "failures": failures, "text": tally}


def labelled_eval(
    engine: Engine, data_dir: Path, pairs: list[LabelledPair], say: Progress
) -> dict[str, Any]:
    """Spearman of score against the grades given, and agreement with the verdicts given."""
    failures: list[str] = []
    ours: list[float] = []
    grades: list[float] = []
    agreement = VerdictAgreement()
    rows = []
    for index, pair in enumerate(pairs, 1):
        say(f"  labelled pair {index}/{len(pairs)}: {pair.job} × {pair.candidate}")
        cand = _path(data_dir, "candidates", pair.candidate)
        job = _path(data_dir, "jobs", pair.job)
        report = analyze_candidates(engine, job, [cand], failures)[cand.stem]
        score = FAILED_SCORE if report is None else float(report.score)
        if pair.grade is not None:
            ours.append(score)
            grades.append(pair.grade)
        if report is not None and pair.verdicts:
            given = {a.requirement_id: a.verdict for a in report.analysis.assessments}
            agreement.add(pair, report.requirements, given)
        rows.append(
            {"job": pair.job, "candidate": pair.candidate, "grade": pair.grade, "score": score}
        )
    rho = spearman(ours, grades)
    if grades:
        say(
            f"Spearman correlation of score with grade over {len(grades)} pairs: "
            f"{'n/a' if rho is None else f'{rho:.3f}'}"
        )
    if agreement.compared or agreement.unmatched:
        line = f"Verdict agreement: {agreement.agreed} of {agreement.compared} labelled verdicts"
        if agreement.share is not None:
            line += f" ({agreement.share:.0%})"
        if agreement.unmatched:
            line += f"; {len(agreement.unmatched)} labels matched no requirement"
        say(line)
    return {
        "pairs": len(pairs),
        "spearman": rho,
        "verdicts": agreement.to_dict(),
        "rows": rows,
        "failures": failures,
    }


def write_results(
    out_dir: Path, results: dict[str, Any], reports: Sequence[MatchReport] = ()
) -> list[Path]:
    """``results.json``, and ``reports.jsonl`` (one full report a line) when there are reports."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "results.json"
    path.write_text(json.dumps(results, indent=2))
    if not reports:
        return [path]
    lines = out_dir / "reports.jsonl"
    lines.write_text("".join(r.model_dump_json() + "\n" for r in reports))
    return [path, lines]
