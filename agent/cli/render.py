"""Readable text for a recruiter's terminal."""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import Any

from schemas.report import MatchReport

_MARK = {
    "met": "✔ met",
    "partial": "~ partial",
    "not_met": "✘ not met",
    "insufficient_evidence": "? no evidence",
}
_INDENT = " " * 19


def _wrapped(text: str) -> str:
    return textwrap.indent(textwrap.fill(text, 90), _INDENT)


def speculation_label(spec: dict[str, Any]) -> str:
    """'off', 'ngram k=5 min=2 max=5' or 'suffix k=16', then any draft length by batch size
    ('by batch 1-2:16 3-64:4'), from a report's or a stored row's speculation dict."""
    method = spec.get("method")
    if method not in {"ngram", "suffix"}:
        return "off"
    label = f"{method} k={spec.get('num_speculative_tokens')}"
    if method == "ngram":
        label += f" min={spec.get('prompt_lookup_min')} max={spec.get('prompt_lookup_max')}"
    if spec.get("schedule"):
        label += " by batch " + " ".join(f"{lo}-{hi}:{k}" for lo, hi, k in spec["schedule"])
    return label


def format_speed(metrics: dict[str, Any]) -> str:
    spec = metrics["speculation"]
    label = speculation_label(spec)
    line = (
        f"{metrics['output_tokens']} output tokens in {metrics['e2e_s']:.1f} s · "
        f"TPOT {metrics['tpot_ms']:.1f} ms · TTFT {metrics['ttft_s']:.2f} s · "
        f"{metrics['output_tok_per_s']:.1f} tok/s · speculation {label}"
    )
    if spec.get("acceptance_rate") is not None:
        line += (
            f" · acceptance {spec['acceptance_rate']:.0%} of {spec['draft_tokens']} draft tokens,"
            f" mean acceptance length {spec['mean_acceptance_length']:.2f}"
        )
    if metrics.get("attempts", 1) > 1:
        line += f" · {metrics['attempts']} attempts"
    return line


def _by(report: MatchReport, field: str) -> str:
    """A marker on text code composed (the model's own text has none)."""
    return " (composed)" if report.text_origin.get(field) == "composed" else ""


def format_report(report: MatchReport) -> str:
    job = report.job
    where = " · ".join(x for x in (job.get("company"), job.get("location")) if x)
    lines = [f"{report.candidate['id']} vs {job['title']}" + (f" ({where})" if where else ""), ""]
    texts = {r.id: r for r in report.requirements}
    for a in report.analysis.assessments:
        r = texts[a.requirement_id]
        tag = "" if r.kind == "must_have" else " (nice to have)"
        lines.append(f"{a.requirement_id:>3} {_MARK[a.verdict]:<14} {r.text}{tag}")
        lines += [_wrapped(f'"{q}"') for q in a.evidence]
        lines.append(_wrapped(a.reasoning.strip() + _by(report, f"{a.requirement_id}.reasoning")))
    lines.append("")
    for name, rating in report.analysis.ratings().items():
        label = name.replace("_", " ").capitalize()
        lines.append(
            f"{label:<18} {'●' * rating.rating}{'○' * (5 - rating.rating)}  "
            f"{rating.rationale.strip()}{_by(report, f'{name}.rationale')}"
        )
    counts = Counter(a.verdict for a in report.analysis.assessments)
    tally = ", ".join(f"{counts[v]} {_MARK[v].split(' ', 1)[1]}" for v in _MARK if counts[v])
    b, rec = report.breakdown, report.recommendation
    score_line = f"Score: {report.score}/100 ({b.counts}; {tally})"
    if b.cap is not None:
        score_line += f", scaled into 0-{b.cap} from {b.uncapped_score}: {b.cap_reason}"
    lever = f", Lever {rec.lever}" if rec.lever else ""
    lines += [
        "",
        score_line,
        f"Recommendation: {rec.greenhouse} (Greenhouse{lever}) — {rec.reason}",
        f"  ({rec.review})",
        "",
        "Summary: " + report.analysis.summary.strip() + _by(report, "summary"),
    ]
    composed = sum(origin == "composed" for origin in report.text_origin.values())
    if composed:
        lines.append(
            f"({composed} of {len(report.text_origin)} text lines composed from the verdicts, "
            "quotes and facts where the model's text said nothing)"
        )
    if report.hidden_text:
        lines.append(f"Warning: hidden text in the profile was ignored: {report.hidden_text[:3]}")
    lines += screening_lines(report)
    lines += ["", "Speed: " + format_speed(report.metrics)]
    return "\n".join(lines)


def screening_lines(report: MatchReport) -> list[str]:
    """What the model was not shown: attempts to steer it (flagged) and blinded details."""
    from agent.ingest.injection import KINDS

    lines = []
    attempts = [KINDS[f] for f in report.flags if f in KINDS]
    if attempts:
        lines.append(
            "Warning: the profile tries to steer the screener; kept from the model: "
            + "; ".join(attempts)
        )
    if report.blinded:
        kinds = ", ".join(f"{kind.replace('_', ' ')} {n}" for kind, n in report.blinded.items())
        lines.append(f"Blinded for the model (quotes above are the profile's own words): {kinds}")
    return lines
