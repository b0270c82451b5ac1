"""The batch job's own speed: analyses per hour, batched or one at a time, speculation on or off.

Each mode runs the real batch (same job, same candidates) on a fresh engine and a fresh SQLite
store: claim, analyze (validation and repairs included), save. The clock runs from the first claim
to the last save; engine start-up is timed apart. Figures are per analysis (its own request
metrics: prompt tokens computed and served from the prefix cache, TTFT, draft acceptance) and for
the run (wall time, analyses per hour, output tokens per second). Outcomes are compared with the
speculation-off mode: greedy speculation is lossless, so the scores should agree.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.batch.exports import run_view
from agent.batch.service import open_run, work_run
from agent.batch.sources import CandidateSet
from agent.service import CONCURRENCY, AnalysisService
from agent.store import open_database
from schemas.inputs import JobPosting
from serving.config import EngineSettings, SpeculationConfig


@dataclass(frozen=True)
class BatchMode:
    name: str
    speculation: bool
    concurrency: int

    def settings(self, base: EngineSettings) -> EngineSettings:
        spec = base.speculation if self.speculation else SpeculationConfig(method="off")
        return base.model_copy(update={"speculation": spec})


MODES = {
    "batch": BatchMode("batch", speculation=True, concurrency=CONCURRENCY),
    "batch-off": BatchMode("batch-off", speculation=False, concurrency=CONCURRENCY),
    "one": BatchMode("one", speculation=True, concurrency=1),
    "one-off": BatchMode("one-off", speculation=False, concurrency=1),
}
BASELINE = "batch-off"


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def measure_mode(
    mode: BatchMode,
    job: JobPosting,
    candidates: CandidateSet,
    base: EngineSettings,
    out: Path,
    say: Callable[[str], None],
) -> dict[str, Any]:
    from serving.factory import open_engine

    store = out / f"{mode.name}.db"
    store.unlink(missing_ok=True)
    with open_database(f"sqlite:///{store}") as database:
        started = time.perf_counter()
        with open_engine(mode.settings(base), say=say) as engine:
            start_s = time.perf_counter() - started
            service = AnalysisService(engine, database, concurrency=mode.concurrency)
            state = open_run(service, job, candidates, name=mode.name)
            say(f"{mode.name}: {state.total} candidates, {mode.concurrency} in flight…")
            began = time.perf_counter()
            state = work_run(service, state.run_id)
            wall_s = time.perf_counter() - began
        with database.session() as session:
            view = run_view(session, state.run_id)
    reports = [e.report for e in view.entries if e.report is not None]
    metrics = [r.metrics for r in reports]
    spec = [m.get("speculation") or {} for m in metrics]
    drafted = sum(int(s.get("draft_tokens") or 0) for s in spec)
    accepted = sum(int(s.get("accepted_tokens") or 0) for s in spec)
    output_tokens = sum(int(m["output_tokens"]) for m in metrics)
    prompt = [int(m["prompt_tokens"]) for m in metrics]
    cached = [int(m["cached_prompt_tokens"] or 0) for m in metrics]
    return {
        "mode": mode.name,
        "speculation": mode.settings(base).speculation.label,
        "concurrency": mode.concurrency,
        "engine_start_s": round(start_s, 1),
        "wall_s": round(wall_s, 1),
        "analyses": len(reports),
        "failed": state.counts.get("failed", 0),
        "analyses_per_hour": round(len(reports) / wall_s * 3600, 1) if wall_s else None,
        "output_tokens_per_s": round(output_tokens / wall_s, 1) if wall_s else None,
        "mean_e2e_s": _mean([float(m["e2e_s"]) for m in metrics]),
        "mean_ttft_s": _mean([float(m["ttft_s"]) for m in metrics]),
        "mean_prompt_tokens": _mean([float(p) for p in prompt]),
        "mean_cached_prompt_tokens": _mean([float(c) for c in cached]),
        "prompt_tokens_computed_share": round(1 - sum(cached) / sum(prompt), 4)
        if sum(prompt)
        else None,
        "acceptance_rate": round(accepted / drafted, 4) if drafted else None,
        "scores": {r.candidate["id"]: r.score for r in reports},
        "verdicts": {
            r.candidate["id"]: [a.verdict for a in r.analysis.assessments] for r in reports
        },
    }


def compare_outcomes(results: list[dict[str, Any]]) -> None:
    """Per mode: the share of candidates with the same score and verdicts as the baseline."""
    baseline = next((r for r in results if r["mode"] == BASELINE), None)
    if baseline is None:
        return
    for result in results:
        shared = set(result["scores"]) & set(baseline["scores"])
        if not shared:
            continue
        same_score = sum(result["scores"][c] == baseline["scores"][c] for c in shared)
        same_verdicts = sum(result["verdicts"][c] == baseline["verdicts"][c] for c in shared)
        result["same_score_as_off"] = round(same_score / len(shared), 4)
        result["same_verdicts_as_off"] = round(same_verdicts / len(shared), 4)
        if result["analyses_per_hour"] and baseline["analyses_per_hour"]:
            result["speedup_vs_batch_off"] = round(
                result["analyses_per_hour"] / baseline["analyses_per_hour"], 3
            )


def write_results(results: list[dict[str, Any]], out: Path, meta: dict[str, Any]) -> Path:
    path = out / "batch_speed.json"
    path.write_text(json.dumps({**meta, "modes": results}, indent=2) + "\n")
    return path


COLUMNS = (
    ("mode", "mode"),
    ("analyses_per_hour", "analyses/h"),
    ("speedup_vs_batch_off", "vs batch-off"),
    ("wall_s", "wall s"),
    ("output_tokens_per_s", "out tok/s"),
    ("mean_e2e_s", "mean e2e s"),
    ("mean_ttft_s", "mean TTFT s"),
    ("mean_prompt_tokens", "prompt tok"),
    ("mean_cached_prompt_tokens", "cached tok"),
    ("acceptance_rate", "acceptance"),
    ("same_score_as_off", "same score"),
    ("failed", "failed"),
)
