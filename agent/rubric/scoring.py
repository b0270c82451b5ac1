"""The score: computed in code from the verdicts and weights, never taken from the model.

Each requirement earns a credit (met 1, partial 0.5, otherwise 0) times its weight; must-haves
count twice as much as nice-to-haves. A must-have that is not met caps the score below the "yes"
band; one with no evidence caps it below "strong yes". The recommendation follows the score;
"strong yes" also needs every must-have met.
"""

from __future__ import annotations

import json

from agent.rubric.text_tools import content_hash
from schemas.analysis import MatchAnalysis, Verdict
from schemas.inputs import Requirement
from schemas.report import Recommendation, ScoreBreakdown

CREDIT: dict[Verdict, float] = {
    "met": 1.0,
    "partial": 0.5,
    "not_met": 0.0,
    "insufficient_evidence": 0.0,
}
KIND_FACTOR = {"must_have": 2.0, "nice_to_have": 1.0}
CAP_MUST_NOT_MET = 49
CAP_MUST_UNSUPPORTED = 74
STRONG_YES, YES, NO = 80, 60, 35


def rubric_version() -> str:
    """Short hash of the scoring constants: a changed rubric makes a new analysis."""
    constants = {
        "credit": CREDIT,
        "kind_factor": KIND_FACTOR,
        "caps": [CAP_MUST_NOT_MET, CAP_MUST_UNSUPPORTED],
        "bands": [STRONG_YES, YES, NO],
    }
    return content_hash(json.dumps(constants, sort_keys=True))[:12]


def score_analysis(requirements: list[Requirement], analysis: MatchAnalysis) -> ScoreBreakdown:
    verdicts = {a.requirement_id: a.verdict for a in analysis.assessments}
    total = earned = 0.0
    for r in requirements:
        weight = r.weight * KIND_FACTOR[r.kind]
        total += weight
        earned += weight * CREDIT[verdicts[r.id]]
    uncapped = round(100 * earned / total) if total else 0
    must = [verdicts[r.id] for r in requirements if r.kind == "must_have"]
    nice = [verdicts[r.id] for r in requirements if r.kind == "nice_to_have"]
    cap, reason = None, None
    if "not_met" in must:
        cap, reason = CAP_MUST_NOT_MET, f"{must.count('not_met')} must-have(s) not met"
    elif "insufficient_evidence" in must:
        n = must.count("insufficient_evidence")
        cap, reason = CAP_MUST_UNSUPPORTED, f"{n} must-have(s) without evidence"
    score = min(uncapped, cap) if cap is not None else uncapped
    must_met, nice_met = must.count("met"), nice.count("met")
    counts = f"{must_met}/{len(must)} required"
    if nice:
        counts += f", {nice_met}/{len(nice)} nice-to-have"
    return ScoreBreakdown(
        score=score,
        uncapped_score=uncapped,
        cap=cap if cap is not None and cap < uncapped else None,
        cap_reason=reason if cap is not None and cap < uncapped else None,
        must_have_met=must_met,
        must_have_total=len(must),
        nice_to_have_met=nice_met,
        nice_to_have_total=len(nice),
        counts=counts,
    )


def recommend(
    requirements: list[Requirement], analysis: MatchAnalysis, breakdown: ScoreBreakdown
) -> Recommendation:
    """Greenhouse's five values and Lever's four-point scale from the score."""
    unknown = sum(a.verdict == "insufficient_evidence" for a in analysis.assessments)
    if unknown * 2 > len(requirements):
        return Recommendation(
            greenhouse="no_decision",
            lever=None,
            reason=f"{unknown} of {len(requirements)} requirements have no evidence either way",
        )
    s = breakdown.score
    all_must = breakdown.must_have_met == breakdown.must_have_total
    if s >= STRONG_YES and all_must:
        return Recommendation(greenhouse="strong_yes", lever="strong_hire", reason=f"score {s}")
    if s >= YES:
        return Recommendation(greenhouse="yes", lever="hire", reason=f"score {s}")
    if s >= NO:
        return Recommendation(greenhouse="no", lever="no_hire", reason=f"score {s}")
    return Recommendation(greenhouse="definitely_not", lever="strong_no_hire", reason=f"score {s}")
