import pytest

from agent.rubric.scoring import CAP_MUST_NOT_MET, CAP_MUST_UNSUPPORTED, recommend, score_analysis
from schemas.analysis import MatchAnalysis
from schemas.inputs import Requirement

REQS = [
    Requirement(id="R1", text="Python"),
    Requirement(id="R2", text="SQL"),
    Requirement(id="R3", text="Docker", kind="nice_to_have"),
]


def _analysis(*verdicts: str) -> MatchAnalysis:
    rating = {"evidence": [], "rating": 3, "rationale": "Fine."}
    return MatchAnalysis(
        assessments=[
            {
                "requirement_id": f"R{i}",
                "evidence": ["q"] if v in ("met", "partial") else [],
                "verdict": v,
                "reasoning": "Because.",
            }
            for i, v in enumerate(verdicts, 1)
        ],
        skills=rating,
        seniority=rating,
        domain_experience=rating,
        summary="Ok.",
    )


def test_all_met_is_100_and_strong_yes():
    analysis = _analysis("met", "met", "met")
    b = score_analysis(REQS, analysis)
    assert (b.score, b.counts, b.cap) == (100, "2/2 required, 1/1 nice-to-have", None)
    rec = recommend(REQS, analysis, b)
    assert (rec.greenhouse, rec.lever) == ("strong_yes", "strong_hire")


def test_weights_partial_credit_and_kind_factor():
    # must-haves weigh 2, nice-to-have 1: (2*1 + 2*0.5 + 1*0) / 5 = 60
    b = score_analysis(REQS, _analysis("met", "partial", "not_met"))
    assert b.score == 60
    assert b.counts == "1/2 required, 0/1 nice-to-have"


def test_must_have_not_met_scales_the_score_below_yes():
    reqs = [*REQS, Requirement(id="R4", text="Go", weight=0.1)]
    b = score_analysis(reqs, _analysis("met", "met", "met", "not_met"))
    assert b.uncapped_score == 96
    assert b.score == round(96 * CAP_MUST_NOT_MET / 100) == 47 and b.cap == CAP_MUST_NOT_MET
    assert b.cap_reason == "1 must-have(s) not met"
    rec = recommend(reqs, _analysis("met", "met", "met", "not_met"), b)
    assert rec.greenhouse == "no"


def test_must_have_without_evidence_caps_below_strong_yes():
    reqs = [*REQS, Requirement(id="R4", text="Go", weight=0.1)]
    b = score_analysis(reqs, _analysis("met", "met", "met", "insufficient_evidence"))
    assert b.score == round(96 * CAP_MUST_UNSUPPORTED / 100) == 71


def test_two_candidates_missing_a_must_have_still_differ_by_the_rest():
    strong = score_analysis(REQS, _analysis("met", "not_met", "met"))
    weak = score_analysis(REQS, _analysis("partial", "not_met", "not_met"))
    assert strong.score > weak.score
    assert strong.score < CAP_MUST_NOT_MET + 1 and weak.cap is not None


def _facts(coverage: float, asked: float | None = None, years: float | None = None) -> dict:
    return {
        "experience_years": years,
        "requirements": {
            rid: {"term_coverage": coverage, "required_years": asked} for rid in ("R1", "R2", "R3")
        },
    }


def test_partial_earns_more_the_more_of_the_requirement_the_profile_shows():
    analysis = _analysis("partial", "partial", "partial")
    low = score_analysis(REQS, analysis, _facts(0.0)).score
    mid = score_analysis(REQS, analysis, _facts(0.5)).score
    high = score_analysis(REQS, analysis, _facts(1.0)).score
    assert (low, mid, high) == (25, 50, 75)
    assert score_analysis(REQS, analysis).score == 50  # without facts: one half
    # asked for 5 years, the profile shows 2: the years bound the credit, not the terms
    assert score_analysis(REQS, analysis, _facts(1.0, asked=5, years=2)).score == round(
        100 * (0.25 + 0.5 * 2 / 5)
    )


def test_mostly_unknown_gives_no_decision():
    analysis = _analysis("insufficient_evidence", "insufficient_evidence", "met")
    rec = recommend(REQS, analysis, score_analysis(REQS, analysis))
    assert (rec.greenhouse, rec.lever) == ("no_decision", None)


def test_never_naming_what_the_role_names_is_an_answer_not_no_decision():
    """A profile that names neither Python nor SQL has not left them open: it lacks them."""
    analysis = _analysis("insufficient_evidence", "insufficient_evidence", "met")
    never = {"names": 1, "names_mentioned": 0}
    facts = {"requirements": {"R1": never, "R2": never}}
    rec = recommend(REQS, analysis, score_analysis(REQS, analysis), facts)
    assert rec.greenhouse == "definitely_not"
    facts["requirements"]["R2"] = {"names": 1, "names_mentioned": 1}  # named, yet unclear
    rec = recommend(REQS, analysis, score_analysis(REQS, analysis), facts)
    assert rec.greenhouse == "definitely_not"  # 1 unanswered of 3: still decided
    facts["requirements"] = {}  # nothing known: as before
    assert recommend(REQS, analysis, score_analysis(REQS, analysis), facts).greenhouse == (
        "no_decision"
    )


@pytest.mark.parametrize(
    ("verdicts", "greenhouse"),
    [(("met", "partial", "met"), "yes"), (("not_met", "not_met", "not_met"), "definitely_not")],
)
def test_score_bands(verdicts, greenhouse):
    analysis = _analysis(*verdicts)
    assert recommend(REQS, analysis, score_analysis(REQS, analysis)).greenhouse == greenhouse


def test_same_verdicts_same_score():
    scores = {score_analysis(REQS, _analysis("met", "partial", "met")).score for _ in range(5)}
    assert len(scores) == 1
