"""``report.html``: one self-contained page for a run (inline style and script, no network).

The job and its requirements, the ranked candidates with recommendation and must-have counts,
filters by recommendation, each candidate's verdicts with their quotes (expandable), the items
that were not analyzed and why, and the run's settings and speed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent.batch.shortlist import ranked, strongest_quote
from agent.ingest.injection import KINDS
from agent.pages import page_environment

if TYPE_CHECKING:
    from agent.batch.exports import RunView

TEMPLATES = Path(__file__).with_name("templates")
RECOMMENDATIONS = {  # Greenhouse's scale, as a recruiter reads it
    "strong_yes": "Strong yes",
    "yes": "Yes",
    "no": "No",
    "definitely_not": "Definitely not",
    "no_decision": "No decision",
}
VERDICTS = {
    "met": "met",
    "partial": "partial",
    "not_met": "not met",
    "insufficient_evidence": "no evidence",
}


def _candidates(view: RunView) -> list[dict[str, Any]]:
    out = []
    for rank, entry in enumerate((e for e in ranked(view.entries) if e.report), start=1):
        report = entry.report
        assert report is not None
        texts = {r.id: r for r in report.requirements}
        out.append(
            {
                "rank": rank,
                "id": entry.candidate_id,
                "name": entry.name or report.candidate.get("display_name") or "",
                "report": report,
                "quote": strongest_quote(report),
                "verdicts": [
                    {"requirement": texts[a.requirement_id], "assessment": a}
                    for a in report.analysis.assessments
                ],
                "ratings": report.analysis.ratings(),
                "attempts": [KINDS[flag] for flag in report.flags if flag in KINDS],
            }
        )
    return out


def render_report_html(view: RunView) -> str:
    candidates = _candidates(view)
    shown = {c["report"].recommendation.greenhouse for c in candidates}
    return (
        page_environment(TEMPLATES)
        .get_template("report.html.j2")
        .render(
            view=view,
            candidates=candidates,
            others=[e for e in ranked(view.entries) if e.report is None],
            filters=[(key, label) for key, label in RECOMMENDATIONS.items() if key in shown],
            recommendations=RECOMMENDATIONS,
            verdicts=VERDICTS,
            spec=view.settings.get("speculation", "off"),
            model=Path(str(view.settings.get("model", ""))).name,
        )
    )
