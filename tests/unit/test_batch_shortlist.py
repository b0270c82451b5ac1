"""The batch shortlist: ranked by score, ties by must-haves met, failed candidates last."""

from __future__ import annotations

import csv
import io

import pytest

from agent.batch.shortlist import COLUMNS, Entry, shortlist_csv, strongest_quote
from agent.ingest.files import load_candidate, load_job
from agent.service import analyze, prepare_request
from schemas.report import MatchReport
from serving.fake_engine import ScriptedEngine
from tests.conftest import candidate_path, job_path
from tests.unit.fake_answers import valid_answer


@pytest.fixture(scope="module")
def report() -> MatchReport:
    job, candidate = load_job(job_path("job_008")), load_candidate(candidate_path("cand_033"))
    request = prepare_request(job, candidate, ScriptedEngine())
    return analyze(job, candidate, ScriptedEngine().enqueue(valid_answer(request)))


def _scored(report: MatchReport, score: int, must_met: int) -> MatchReport:
    breakdown = report.breakdown.model_copy(update={"must_have_met": must_met})
    return report.model_copy(update={"score": score, "breakdown": breakdown})


def test_rows_rank_by_score_then_must_haves_then_id_and_list_failures_last(report):
    entries = [
        Entry("c_low", report=_scored(report, 40, 3), analysis_id=1),
        Entry("c_bad", name="Bad File", reason="candidate file x.pdf is a PDF with no text layer"),
        Entry("c_tie_b", report=_scored(report, 70, 5), analysis_id=2),
        Entry("c_top", name="Top", report=_scored(report, 90, 6), analysis_id=3),
        Entry("c_tie_a", report=_scored(report, 70, 5), analysis_id=4),
        Entry("c_tie_more", report=_scored(report, 70, 6), analysis_id=5),
    ]
    sheet = list(csv.DictReader(io.StringIO(shortlist_csv(entries))))
    assert tuple(sheet[0]) == COLUMNS
    assert [r["candidate_id"] for r in sheet] == [
        "c_top",
        "c_tie_more",
        "c_tie_a",
        "c_tie_b",
        "c_low",
        "c_bad",
    ]
    assert [r["rank"] for r in sheet] == ["1", "2", "3", "4", "5", ""]
    top, failed = sheet[0], sheet[-1]
    assert (top["name"], top["score"], top["analysis_id"], top["status"]) == (
        "Top",
        "90",
        "3",
        "done",
    )
    assert top["greenhouse"] == report.recommendation.greenhouse
    assert top["must_haves_met"] == f"6/{report.breakdown.must_have_total}"
    assert (failed["status"], failed["name"], failed["score"]) == ("failed", "Bad File", "")
    assert "no text layer" in failed["reason"]


def test_the_strongest_quote_is_a_met_must_haves(report):
    quote = strongest_quote(report)
    met_must = [
        a.evidence[0]
        for a in report.analysis.assessments
        if a.verdict == "met"
        and a.evidence
        and next(r for r in report.requirements if r.id == a.requirement_id).kind == "must_have"
    ]
    assert met_must and quote == met_must[0]
    nothing = report.analysis.model_copy(
        update={
            "assessments": [
                a.model_copy(update={"verdict": "not_met"}) for a in report.analysis.assessments
            ]
        }
    )
    assert strongest_quote(report.model_copy(update={"analysis": nothing})) == ""
    partly = report.analysis.model_copy(
        update={
            "assessments": [
                a.model_copy(update={"verdict": "partial"}) for a in report.analysis.assessments
            ]
        }
    )
    assert any(a.evidence for a in partly.assessments)
    assert strongest_quote(report.model_copy(update={"analysis": partly})) == ""
