"""The score: computed in code from the verdicts, weights and facts, never taken from the model.

Each requirement earns a credit times its weight; must-haves count twice as much as
nice-to-haves. Met earns 1, not met or no evidence 0. Partial earns between 1/4 and 3/4 by how
much of the requirement the profile shows: the share of its terms the profile names and, when it
asks for years, the share of those years the profile shows (the smaller of the two); 1/2 when
facts are not known. A must-have that is not met scales the score into 0-49 (below the "yes"
band), one with no evidence into 0-74 (below "strong yes"): scaled, not clipped, so two
candidates who both miss a must-have still differ by everything else. The recommendation
follows the score; "strong yes" also needs every must-have met. Same verdicts and facts, same
score.
"""

from __future__ import annotations

import json
from typing import Any

from agent.rubric.facts import candidate_years
from agent.rubric.terms import names_none
from agent.rubric.text_tools import content_hash
from schemas.analysis import MatchAnalysis, Verdict
from schemas.inputs import Requirement
from schemas.report import Recommendation, ScoreBreakdown

CREDIT: dict[Verdict, float] = {
    "met": 1.0,
    "partial": 0.5,  # without facts; with them PARTIAL_FLOOR + PARTIAL_SPAN * support
    "not_met": 0.0,
    "insufficient_evidence": 0.0,
}
PARTIAL_FLOOR, PARTIAL_SPAN = 0.25, 0.5
KIND_FACTOR = {"must_have": 2.0, "nice_to_have": 1.0}
CAP_MUST_NOT_MET = 49
CAP_MUST_UNSUPPORTED = 74
STRONG_YES, YES, NO = 80, 60, 35


def rubric_version() -> str:
    """Short hash of the scoring constants: a changed rubric makes a new analysis."""
    constants = {
        "credit": CREDIT,
        "partial": [PARTIAL_FLOOR, PARTIAL_SPAN, "terms and years"],
        "cap_mode": "scaled",
        "kind_factor": KIND_FACTOR,
        "caps": [CAP_MUST_NOT_MET, CAP_MUST_UNSUPPORTED],
        "bands": [STRONG_YES, YES, NO],
    }
    return content_hash(json.dumps(constants, sort_keys=True))[:12]


def partial_support(requirement_id: str, facts: dict[str, Any]) -> float | None:
    """How much of a requirement the profile shows (0-1), from the facts; None when unknown."""
    known = facts.get("requirements", {}).get(requirement_id)
    if known is None or "term_coverage" not in known:
        return None
    support = float(known["term_coverage"])
    asked, years = known.get("required_years"), candidate_years(facts)
    if asked and years is not None and years < asked:
        support = min(support, years / asked)
    return support


def credit(requirement_id: str, verdict: Verdict, facts: dict[str, Any]) -> float:
    """The share of a requirement's weight that the verdict earns."""
    support = partial_support(requirement_id, facts) if verdict == "partial" else None
    return CREDIT[verdict] if support is None else PARTIAL_FLOOR + PARTIAL_SPAN * support


def score_analysis(
    requirements: list[Requirement], analysis: MatchAnalysis, facts: dict[str, Any] | None = None
) -> ScoreBreakdown:
    verdicts = {a.requirement_id: a.verdict for a in analysis.assessments}
    total = earned = 0.0
    for r in requirements:
        weight = r.weight * KIND_FACTOR[r.kind]
        total += weight
        earned += weight * credit(r.id, verdicts[r.id], facts or {})
    uncapped = round(100 * earned / total) if total else 0
    must = [verdicts[r.id] for r in requirements if r.kind == "must_have"]
    nice = [verdicts[r.id] for r in requirements if r.kind == "nice_to_have"]
    cap, reason = None, None
    if "not_met" in must:
        cap, reason = CAP_MUST_NOT_MET, f"{must.count('not_met')} must-have(s) not met"
    elif "insufficient_evidence" in must:
        n = must.count("insufficient_evidence")
        cap, reason = CAP_MUST_UNSUPPORTED, f"{n} must-have(s) without evidence"
    score = round(uncapped * cap / 100) if cap is not None else uncapped
    applied = cap is not None and score < uncapped
    must_met, nice_met = must.count("met"), nice.count("met")
    counts = f"{must_met}/{len(must)} required"
    if nice:
        counts += f", {nice_met}/{len(nice)} nice-to-have"
    return ScoreBreakdown(
        score=score,
        uncapped_score=uncapped,
        cap=cap if applied else None,
        cap_reason=reason if applied else None,
        must_have_met=must_met,
        must_have_total=len(must),
        nice_to_have_met=nice_met,
        nice_to_have_total=len(nice),
        counts=counts,
    )


def recommend(
    requirements: list[Requirement],
    analysis: MatchAnalysis,
    breakdown: ScoreBreakdown,
    facts: dict[str, Any] | None = None,
) -> Recommendation:
    """Greenhouse's five values and Lever's four-point scale from the score.

    "No decision" when most requirements have no evidence either way; a requirement naming
    things (Django, Kubernetes) that the profile never names is not such a one: that absence
    is an answer (a Java resume for a Django role read "no decision" at 12/100)."""
    known = (facts or {}).get("requirements", {})
    unknown = sum(
        a.verdict == "insufficient_evidence" and not names_none(known.get(a.requirement_id, {}))
        for a in analysis.assessments
    )
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
