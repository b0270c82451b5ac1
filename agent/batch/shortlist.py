"""The ranked shortlist of a batch: scored candidates by score, then the failed ones with why.

Ties in score go to the candidate with more must-haves met, then by candidate id, so the same
reports always give the same order.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from schemas.report import MatchReport

COLUMNS = (
    "rank",
    "candidate_id",
    "name",
    "score",
    "greenhouse",
    "lever",
    "must_haves_met",
    "counts",
    "strongest_quote",
    "analysis_id",
    "status",
    "reason",
)
_LATER = ("pending", "running", "failed", "duplicate", "done")  # after the ranked ones
_QUOTE_ORDER = (("must_have", "met"), ("nice_to_have", "met"))


@dataclass(frozen=True)
class Entry:
    """One candidate of a run: its report (and saved analysis id), or why it has none."""

    candidate_id: str
    name: str | None = None
    report: MatchReport | None = None
    analysis_id: int | None = None
    reason: str | None = None
    status: str = ""  # without a report: failed, duplicate, or not analyzed yet (pending, running)


def strongest_quote(report: MatchReport) -> str:
    """The first quote of a met must-have, else of a met nice-to-have; empty when nothing is
    met (a partial verdict's quote is often only near the point, and would read as a strength)."""
    kinds = {r.id: r.kind for r in report.requirements}
    for kind, verdict in _QUOTE_ORDER:
        for a in report.analysis.assessments:
            if a.evidence and a.verdict == verdict and kinds.get(a.requirement_id) == kind:
                return a.evidence[0]
    return ""


def ranked(entries: list[Entry]) -> list[Entry]:
    scored = sorted(
        ((e, e.report) for e in entries if e.report is not None),
        key=lambda pair: (-pair[1].score, -pair[1].breakdown.must_have_met, pair[0].candidate_id),
    )
    others = sorted(
        (e for e in entries if e.report is None),
        key=lambda e: (_LATER.index(e.status or "failed"), e.candidate_id),
    )
    return [e for e, _ in scored] + others


def rows(entries: list[Entry]) -> list[dict[str, object]]:
    """The shortlist's rows, ranked, as ``COLUMNS`` → value."""
    out: list[dict[str, object]] = []
    for rank, entry in enumerate(ranked(entries), start=1):
        report = entry.report
        if report is None:
            out.append(
                {
                    "candidate_id": entry.candidate_id,
                    "name": entry.name or "",
                    "status": entry.status or "failed",
                    "reason": entry.reason or "",
                }
            )
            continue
        b = report.breakdown
        out.append(
            {
                "rank": rank,
                "candidate_id": entry.candidate_id,
                "name": entry.name or report.candidate.get("display_name") or "",
                "score": report.score,
                "greenhouse": report.recommendation.greenhouse,
                "lever": report.recommendation.lever or "",
                "must_haves_met": f"{b.must_have_met}/{b.must_have_total}",
                "counts": b.counts,
                "strongest_quote": strongest_quote(report),
                "analysis_id": entry.analysis_id if entry.analysis_id is not None else "",
                "status": "done",
                "reason": "",
            }
        )
    return out


def shortlist_csv(entries: list[Entry]) -> str:
    """``shortlist.csv``: a header, the ranked candidates, then the failed ones with a reason."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows(entries))
    return buffer.getvalue()
