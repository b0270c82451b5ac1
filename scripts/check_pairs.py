"""Analyze N labelled sample pairs with speculation on, then off, and check every report.

    .venv/bin/python scripts/check_pairs.py --pairs 10 [--out check-out/results.json]

Each report goes through the same path as ``hiring-assistant analyze --json`` (the graph, then
the MatchReport serialized to JSON), is parsed back, and is checked independently of the graph's
own validation: every requirement assessed exactly once and in order, every evidence quote found
verbatim in the candidate's file. It prints per-pair figures, then acceptance and TPOT with
speculation on and off, and whether each pair's analysis is identical in both runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from agent.benchmark.workload import labelled_pairs
from agent.errors import AnalysisFailedError
from agent.ingest.files import load_candidate, load_job
from agent.service import analyze
from schemas.report import MatchReport
from serving.config import SpeculationConfig, get_settings
from serving.factory import open_engine

ROOT = Path(__file__).resolve().parents[1]


def report_problems(report_json: str, candidate_text: str) -> list[str]:
    report = MatchReport.model_validate_json(report_json)
    problems = []
    ids = [a.requirement_id for a in report.analysis.assessments]
    if ids != [r.id for r in report.requirements]:
        problems.append(f"assessed {ids}, expected each of {[r.id for r in report.requirements]}")
    quotes = [q for a in report.analysis.assessments for q in a.evidence]
    quotes += [q for r in report.analysis.ratings().values() for q in r.evidence]
    problems += [f"quote not in profile: {q[:60]!r}" for q in quotes if q not in candidate_text]
    return problems


def run(spec: SpeculationConfig, pairs: list[tuple[str, str]], data: Path) -> list[dict[str, Any]]:
    rows = []
    settings = get_settings().model_copy(update={"speculation": spec, "engine_url": None})
    with open_engine(settings) as engine:
        for job_id, cand_id in pairs:
            job = load_job(data / "jobs" / f"{job_id}.md")
            candidate = load_candidate(data / "candidates" / f"{cand_id}.md")
            row: dict[str, Any] = {"pair": f"{job_id}×{cand_id}", "speculation": spec.label}
            try:
                report = analyze(job, candidate, engine)
            except AnalysisFailedError as exc:
                row["problems"] = [str(exc)]
            else:
                text = report.model_dump_json()
                quotes = sum(len(a.evidence) for a in report.analysis.assessments)
                quotes += sum(len(r.evidence) for r in report.analysis.ratings().values())
                row |= {
                    "problems": report_problems(text, candidate.text),
                    "requirements": len(report.requirements),
                    "quotes": quotes,
                    "score": report.score,
                    "analysis": report.analysis.model_dump_json(),
                    "metrics": report.metrics,
                }
            print(
                json.dumps(
                    {k: v for k, v in row.items() if k not in {"analysis", "metrics"}}
                    | {"tpot_ms": row.get("metrics", {}).get("tpot_ms")}
                ),
                flush=True,
            )
            rows.append(row)
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in rows if not r["problems"]]
    spec = [r["metrics"]["speculation"] for r in ok]
    drafted = sum(s.get("draft_tokens", 0) for s in spec)
    accepted = sum(s.get("accepted_tokens", 0) for s in spec)
    return {
        "valid_reports": f"{len(ok)}/{len(rows)}",
        "quotes": sum(r.get("quotes", 0) for r in rows),
        "tpot_ms_mean": round(statistics.mean(r["metrics"]["tpot_ms"] for r in ok), 2),
        "tpot_ms_median": round(statistics.median(r["metrics"]["tpot_ms"] for r in ok), 2),
        "output_tokens": sum(r["metrics"]["output_tokens"] for r in ok),
        "e2e_s_total": round(sum(r["metrics"]["e2e_s"] for r in ok), 1),
        "acceptance_rate": round(accepted / drafted, 4) if drafted else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--data", type=Path, default=ROOT / "samples")
    parser.add_argument("--out", type=Path, default=ROOT / "check-out" / "results.json")
    args = parser.parse_args()
    pairs = labelled_pairs(args.data)[: args.pairs]
    on = run(SpeculationConfig(), pairs, args.data)
    off = run(SpeculationConfig(method="off"), pairs, args.data)
    identical = [
        a.get("analysis") is not None and a.get("analysis") == b.get("analysis")
        for a, b in zip(on, off, strict=True)
    ]
    result = {"ngram": summary(on), "off": summary(off)}
    speedup = result["off"]["tpot_ms_mean"] / result["ngram"]["tpot_ms_mean"]
    result["tpot_speedup"] = round(speedup, 2)
    result["identical_analyses"] = f"{sum(identical)}/{len(identical)}"
    print(json.dumps(result, indent=2))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": result, "rows": on + off}, indent=2))


if __name__ == "__main__":  # vLLM starts worker processes
    main()
