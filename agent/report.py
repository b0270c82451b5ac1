"""Readable text for a recruiter's terminal."""

from __future__ import annotations

import textwrap
from collections import Counter

from agent.analysis import AnalysisResult
from serving.metrics import RequestMetrics, SpeculationCounters

_MARK = {
    "met": "✔ met",
    "partial": "~ partial",
    "not_met": "✘ not met",
    "insufficient_evidence": "? no evidence",
}


def format_speed(metrics: RequestMetrics, speculation: SpeculationCounters, label: str) -> str:
    line = (
        f"{metrics.output_tokens} output tokens in {metrics.e2e_s:.1f} s · "
        f"TPOT {metrics.tpot_ms:.1f} ms · TTFT {metrics.ttft_s:.2f} s · "
        f"{metrics.output_tok_per_s:.1f} tok/s · speculation {label}"
    )
    if speculation.acceptance_rate is not None:
        line += (
            f" · acceptance {speculation.acceptance_rate:.0%} of {speculation.draft_tokens} "
            f"draft tokens, mean acceptance length {speculation.mean_acceptance_length:.2f}"
        )
    return line


def format_result(result: AnalysisResult) -> str:
    lines = [f"{result.candidate.id} vs {result.job.title}", ""]
    texts = {r.id: r.text for r in result.job.requirements}
    for a in result.analysis.assessments:
        lines.append(f"{a.requirement_id:>3} {_MARK[a.verdict]:<14} {texts[a.requirement_id]}")
        for quote in a.evidence:
            lines.append(textwrap.indent(textwrap.fill(f'"{quote}"', 90), " " * 19))
        if a.reasoning.strip():
            lines.append(textwrap.indent(textwrap.fill(a.reasoning.strip(), 90), " " * 19))
    counts = Counter(a.verdict for a in result.analysis.assessments)
    tally = ", ".join(f"{counts[v]} {_MARK[v].split(' ', 1)[1]}" for v in _MARK if counts[v])
    lines += ["", f"Verdicts: {tally}", "", "Summary: " + result.analysis.summary.strip(), ""]
    lines.append(
        "Speed: "
        + format_speed(result.metrics, result.speculation, result.engine.speculation.label)
    )
    return "\n".join(lines)
