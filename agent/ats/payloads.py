"""A MatchReport in an applicant tracking system's own shapes: pure functions, no network.

- Greenhouse: a scorecard-like object (``overall_recommendation``, ``attributes`` with ratings,
  ``ratings`` grouped by rating, the take-aways as a question) and the Assessment Partner API's
  ``test_status`` answer (status, score, profile URL, summary).
- Lever: feedback ``fieldValues`` for a 4-point score-system field and text fields.
- Ashby: feedback ``fieldSubmissions`` with a 1–4 score and text fields.

Every payload says that the recommendation is for a person to review, and carries the verbatim
quotes behind each verdict. A report with no decision (most requirements without evidence either
way) gives no score where the system's scale has no such value.
"""

from __future__ import annotations

from typing import Any

from schemas.analysis import RequirementAssessment
from schemas.inputs import Requirement
from schemas.report import MatchReport

REVIEW_NOTE = "Automated match analysis for human review, not a hiring decision."
# Greenhouse scorecard attribute ratings, by verdict
ATTRIBUTE_RATING = {
    "met": "yes",
    "partial": "mixed",
    "not_met": "no",
    "insufficient_evidence": "no_decision",
}
GREENHOUSE_RATINGS = ("definitely_not", "no", "mixed", "yes", "strong_yes")  # scorecard scale
ATTRIBUTE_TYPE = {  # Greenhouse's attribute categories, by requirement dimension
    "skills": "Skills",
    "seniority": "Qualifications",
    "education": "Qualifications",
    "domain_experience": "Details",
    "location": "Details",
    "other": "Details",
}
LEVER_SCORE = {
    "strong_hire": "4 - Strong Hire",
    "hire": "3 - Hire",
    "no_hire": "2 - No Hire",
    "strong_no_hire": "1 - Strong No Hire",
}
ASHBY_SCORE = {"strong_hire": 4, "hire": 3, "no_hire": 2, "strong_no_hire": 1}
VERDICT_WORDS = {
    "met": "met",
    "partial": "partly met",
    "not_met": "not met",
    "insufficient_evidence": "no evidence either way",
}


def _pairs(report: MatchReport) -> list[tuple[Requirement, RequirementAssessment]]:
    texts = {r.id: r for r in report.requirements}
    return [(texts[a.requirement_id], a) for a in report.analysis.assessments]


def _verdict_note(assessment: RequirementAssessment) -> str:
    quotes = " ".join(f"“{q}”" for q in assessment.evidence)
    words = VERDICT_WORDS[assessment.verdict].capitalize()
    return " ".join(part for part in (f"{words}.", assessment.reasoning.strip(), quotes) if part)


def evidence_text(report: MatchReport) -> str:
    """Every requirement with its verdict, reasoning and quotes: one line each."""
    lines = []
    for requirement, assessment in _pairs(report):
        kind = "must-have" if requirement.kind == "must_have" else "nice-to-have"
        lines.append(f"{requirement.id} ({kind}) {requirement.text}: {_verdict_note(assessment)}")
    return "\n".join(lines)


def summary_text(report: MatchReport) -> str:
    return (
        f"Score {report.score}/100 ({report.breakdown.counts}). "
        f"{report.analysis.summary.strip()} {REVIEW_NOTE}"
    )


# -- Greenhouse ---------------------------------------------------------------------------------


def greenhouse_scorecard(report: MatchReport) -> dict[str, Any]:
    """A scorecard-like object: the overall recommendation, one attribute per requirement."""
    attributes = [
        {
            "name": requirement.text,
            "type": ATTRIBUTE_TYPE.get(requirement.dimension, "Details"),
            "rating": ATTRIBUTE_RATING[assessment.verdict],
            "note": _verdict_note(assessment),
        }
        for requirement, assessment in _pairs(report)
    ]
    grouped: dict[str, list[str]] = {r: [] for r in GREENHOUSE_RATINGS}
    for attribute in attributes:
        if attribute["rating"] in grouped:
            grouped[attribute["rating"]].append(attribute["name"])
    return {
        "overall_recommendation": report.recommendation.greenhouse,
        "attributes": attributes,
        "ratings": grouped,
        "questions": [{"id": None, "question": "Key Take-Aways", "answer": summary_text(report)}],
        "note": evidence_text(report),
    }


def greenhouse_test_status(report: MatchReport, *, profile_url: str) -> dict[str, Any]:
    """The Assessment Partner API's ``test_status`` answer for a finished analysis."""
    return {
        "partner_status": "complete",
        "partner_profile_url": profile_url,
        "partner_score": report.score,
        "metadata": {
            "Recommendation": report.recommendation.greenhouse,
            "Must-haves met": (
                f"{report.breakdown.must_have_met}/{report.breakdown.must_have_total}"
            ),
            "Summary": summary_text(report),
        },
    }


# -- Lever ----------------------------------------------------------------------------------------


def lever_feedback(
    report: MatchReport,
    *,
    score_field: str = "rating",
    summary_field: str = "summary",
    evidence_field: str = "evidence",
) -> dict[str, Any]:
    """Feedback ``fieldValues`` for a form with a score-system field and two text fields (pass
    the form's own field ids). With no decision, the score field is left out."""
    values: list[dict[str, Any]] = []
    if report.recommendation.lever is not None:
        values.append({"id": score_field, "value": LEVER_SCORE[report.recommendation.lever]})
    values.append({"id": summary_field, "value": summary_text(report)})
    values.append({"id": evidence_field, "value": evidence_text(report)})
    return {"fieldValues": values}


# -- Ashby ----------------------------------------------------------------------------------------


def ashby_feedback(
    report: MatchReport,
    *,
    score_path: str = "overall_score",
    summary_path: str = "summary",
    evidence_path: str = "evidence",
) -> dict[str, Any]:
    """Feedback ``fieldSubmissions`` with a 1–4 score (left out with no decision) and text."""
    submissions: list[dict[str, Any]] = []
    if report.recommendation.lever is not None:
        score = ASHBY_SCORE[report.recommendation.lever]
        submissions.append({"path": score_path, "value": {"score": score}})
    submissions.append({"path": summary_path, "value": summary_text(report)})
    submissions.append({"path": evidence_path, "value": evidence_text(report)})
    return {"feedbackForm": {"fieldSubmissions": submissions}}
