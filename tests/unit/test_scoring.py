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


def test_must_have_not_met_caps_the_score():
    reqs = [*REQS, Requirement(id="R4", text="Go", weight=0.1)]
    b = score_analysis(reqs, _analysis("met", "met", "met", "not_met"))
    assert b.uncapped_score > CAP_MUST_NOT_MET
    assert b.score == CAP_MUST_NOT_MET and b.cap == CAP_MUST_NOT_MET
    assert b.cap_reason == "1 must-have(s) not met"
    rec = recommend(reqs, _analysis("met", "met", "met", "not_met"), b)
    assert rec.greenhouse == "no"


def test_must_have_without_evidence_caps_below_strong_yes():
    reqs = [*REQS, Requirement(id="R4", text="Go", weight=0.1)]
    b = score_analysis(reqs, _analysis("met", "met", "met", "insufficient_evidence"))
    assert b.score == CAP_MUST_UNSUPPORTED


def test_mostly_unknown_gives_no_decision():
    analysis = _analysis("insufficient_evidence", "insufficient_evidence", "met")
    rec = recommend(REQS, analysis, score_analysis(REQS, analysis))
    assert (rec.greenhouse, rec.lever) == ("no_decision", None)


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
