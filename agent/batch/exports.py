"""A run's outputs: ``shortlist.csv``, ``results.jsonl`` and ``report.html``, from the store.

They are written when a run completes and on demand (``batch export``), at any point of a run:
items not analyzed yet are listed after the ranked ones with their status.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from agent.batch.html import render_report_html
from agent.batch.runs import run_job
from agent.batch.shortlist import Entry, ranked, shortlist_csv
from agent.store.batches import get_batch_run, item_counts
from agent.store.repository import record_event
from agent.store.tables import Analysis, BatchItem, BatchRun
from schemas.inputs import JobPosting
from schemas.report import MatchReport

ExportFormat = Literal["csv", "jsonl", "html"]
FILE_NAMES: dict[ExportFormat, str] = {
    "csv": "shortlist.csv",
    "jsonl": "results.jsonl",
    "html": "report.html",
}


@dataclass(frozen=True)
class RunView:
    """Everything an export shows of a run."""

    run_id: int
    name: str | None
    status: str
    created_at: datetime
    finished_at: datetime | None
    settings: dict[str, Any]
    job: JobPosting
    entries: list[Entry]
    counts: dict[str, int]
    speed: dict[str, float | None] = field(default_factory=dict)
    origin_label: str | None = None  # what made the page, when not a batch run ("chat session")

    @property
    def origin(self) -> str:
        return self.origin_label or f"batch run {self.run_id}"


def run_view(session: Session, run_id: int) -> RunView:
    run = get_batch_run(session, run_id=run_id)
    rows = session.execute(
        select(BatchItem, Analysis)
        .outerjoin(Analysis, BatchItem.analysis_id == Analysis.id)
        .where(BatchItem.run_id == run_id)
        .order_by(BatchItem.id)
    ).all()
    entries = [_entry(item, analysis) for item, analysis in rows]
    analyses = [analysis for _, analysis in rows if analysis is not None]
    return RunView(
        run_id=run.id,
        name=run.name,
        status=run.status,
        created_at=run.created_at,
        finished_at=run.finished_at,
        settings=dict(run.settings or {}),
        job=run_job(run),
        entries=entries,
        counts=item_counts(session, run_id=run_id),
        speed=_speed(run, analyses),
    )


def _entry(item: BatchItem, analysis: Analysis | None) -> Entry:
    name = item.candidate.display_name if item.candidate is not None else None
    if item.status == "done" and analysis is not None:
        report = MatchReport.model_validate(analysis.report)
        return Entry(item.candidate_ref, name, report, analysis.id, status="done")
    reason = item.error
    if item.status == "done":  # its analysis was deleted since (candidate forgotten)
        reason = "its analysis was deleted"
    return Entry(item.candidate_ref, name, None, None, reason=reason, status=item.status)


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 3) if values else None


def _speed(run: BatchRun, analyses: list[Analysis]) -> dict[str, float | None]:
    """Per-analysis figures (their own, never a difference of engine counters), and the pace
    from the run's start to its latest analysis."""
    speed: dict[str, float | None] = {
        "analyses": len(analyses),
        "mean_e2e_s": _mean([a.e2e_s for a in analyses if a.e2e_s is not None]),
        "mean_tpot_ms": _mean([a.tpot_ms for a in analyses if a.tpot_ms is not None]),
        "mean_acceptance_rate": _mean(
            [a.acceptance_rate for a in analyses if a.acceptance_rate is not None]
        ),
        "analyses_per_minute": None,
    }
    if analyses:
        last = max(a.created_at for a in analyses)
        minutes = (_aware(last) - _aware(run.created_at)).total_seconds() / 60
        if minutes > 0:
            speed["analyses_per_minute"] = round(len(analyses) / minutes, 2)
    return speed


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every time the store writes is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def results_jsonl(view: RunView) -> str:
    """One full MatchReport per line, best first."""
    return "".join(
        e.report.model_dump_json() + "\n" for e in ranked(view.entries) if e.report is not None
    )


def render(view: RunView, fmt: ExportFormat) -> str:
    if fmt == "csv":
        return shortlist_csv(view.entries)
    if fmt == "jsonl":
        return results_jsonl(view)
    return render_report_html(view)


def export_run(
    session: Session, run_id: int, fmt: ExportFormat, target: Path, *, view: RunView | None = None
) -> Path:
    """Write one export of the run to ``target`` (recorded in the audit log)."""
    view = view or run_view(session, run_id)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(view, fmt), encoding="utf-8")
    record_event(
        session,
        event="batch_exported",
        details={"run": run_id, "format": fmt, "candidates": len(view.entries)},
    )
    return target


def write_outputs(
    session: Session, run_id: int, out_dir: Path, *, view: RunView | None = None
) -> dict[ExportFormat, Path]:
    """``shortlist.csv``, ``results.jsonl`` and ``report.html`` in ``out_dir``."""
    view = view or run_view(session, run_id)
    return {
        fmt: export_run(session, run_id, fmt, out_dir / name, view=view)
        for fmt, name in FILE_NAMES.items()
    }
