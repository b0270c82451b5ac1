"""ATS payloads from a real report (the graph answered by the scripted engine)."""

from __future__ import annotations

import pytest

from agent.ats.payloads import (
    ASHBY_SCORE,
    ATTRIBUTE_RATING,
    GREENHOUSE_RATINGS,
    LEVER_SCORE,
    REVIEW_NOTE,
    ashby_feedback,
    greenhouse_scorecard,
    greenhouse_test_status,
    lever_feedback,
)
from agent.ingest.files import load_candidate, load_job
from schemas.report import Recommendation
from tests.conftest import candidate_path, job_path
from tests.store.conftest import make_report


@pytest.fixture(scope="module")
def report():
    return make_report(load_job(job_path("job_008")), load_candidate(candidate_path("cand_033")))


@pytest.fixture(scope="module")
def undecided(report):
    no_decision = Recommendation(greenhouse="no_decision", lever=None, reason="no evidence")
    return report.model_copy(update={"recommendation": no_decision})


def test_greenhouse_scorecard_rates_every_requirement_with_its_quotes(report):
    card = greenhouse_scorecard(report)
    assert card["overall_recommendation"] == report.recommendation.greenhouse
    verdicts = {a.requirement_id: a for a in report.analysis.assessments}
    assert [a["name"] for a in card["attributes"]] == [r.text for r in report.requirements]
    profile = load_candidate(candidate_path("cand_033")).text
    for requirement, attribute in zip(report.requirements, card["attributes"], strict=True):
        assessment = verdicts[requirement.id]
        assert attribute["rating"] == ATTRIBUTE_RATING[assessment.verdict]
        for quote in assessment.evidence:
            assert f"“{quote}”" in attribute["note"] and quote in profile
    for rating, names in card["ratings"].items():
        assert rating in GREENHOUSE_RATINGS
        assert names == [a["name"] for a in card["attributes"] if a["rating"] == rating]
    assert REVIEW_NOTE in card["questions"][0]["answer"]


def test_greenhouse_test_status_carries_the_score_and_where_to_read_more(report):
    status = greenhouse_test_status(report, profile_url="https://ha.example/analyses/7")
    assert status["partner_status"] == "complete"
    assert status["partner_score"] == report.score
    assert status["partner_profile_url"] == "https://ha.example/analyses/7"
    assert REVIEW_NOTE in status["metadata"]["Summary"]


def test_lever_and_ashby_scores_follow_the_recommendation(report):
    lever = {f["id"]: f["value"] for f in lever_feedback(report, score_field="f1")["fieldValues"]}
    assert lever["f1"] == LEVER_SCORE[report.recommendation.lever]
    assert lever["f1"].split(" - ")[0] == str(ASHBY_SCORE[report.recommendation.lever])
    ashby = ashby_feedback(report)["feedbackForm"]["fieldSubmissions"]
    by_path = {s["path"]: s["value"] for s in ashby}
    assert by_path["overall_score"] == {"score": ASHBY_SCORE[report.recommendation.lever]}
    for requirement in report.requirements:
        assert requirement.text in lever["evidence"] and requirement.text in by_path["evidence"]


def test_no_decision_leaves_the_score_out_instead_of_inventing_one(undecided):
    lever = lever_feedback(undecided)["fieldValues"]
    assert [f["id"] for f in lever] == ["summary", "evidence"]
    ashby = ashby_feedback(undecided)["feedbackForm"]["fieldSubmissions"]
    assert [s["path"] for s in ashby] == ["summary", "evidence"]
    assert greenhouse_scorecard(undecided)["overall_recommendation"] == "no_decision"
