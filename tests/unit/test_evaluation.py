"""Ranking evaluation: metrics, task building on the shipped samples, and label loading."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import pytest

from agent.evaluation.labels import LabelledPair, VerdictAgreement, find_requirement, load_labels
from agent.evaluation.ranking import (
    EvalReport,
    RankingTask,
    TaskResult,
    mean_reciprocal_rank,
    ranking_tasks,
    reciprocal_rank,
    run_ranking_eval,
    spearman,
    top1_accuracy,
)
from schemas.inputs import Requirement
from tests.conftest import SAMPLES

PAIRS = SAMPLES / "pairs.json"
JOBS = SAMPLES / "jobs"


def _strong_weak() -> dict[str, tuple[str, str]]:
    data = json.loads(PAIRS.read_text(encoding="utf-8"))
    return {p["job_id"]: (p["strong"], p["weak"]) for p in data["pairs"] if "strong" in p}


def _title(job_id: str) -> str:
    return (JOBS / f"{job_id}.md").read_text(encoding="utf-8").splitlines()[0].lstrip("# ")


# --- reciprocal rank -------------------------------------------------------------------------


def test_reciprocal_rank_clear_winner_and_third_place():
    assert reciprocal_rank({"a": 90, "b": 50, "c": 10}, "a") == 1.0
    assert reciprocal_rank({"a": 10, "b": 50, "c": 90}, "a") == pytest.approx(1 / 3)


def test_reciprocal_rank_tie_with_another_candidate_gives_rank_two():
    assert reciprocal_rank({"a": 80, "b": 80, "c": 10}, "a") == 0.5


def test_reciprocal_rank_all_equal_is_worst_rank():
    assert reciprocal_rank({"a": 5, "b": 5, "c": 5, "d": 5}, "a") == 0.25


def test_reciprocal_rank_tie_below_a_leader():
    assert reciprocal_rank({"x": 99, "a": 70, "b": 70}, "a") == pytest.approx(1 / 3)


def test_reciprocal_rank_missing_intended_raises():
    with pytest.raises(ValueError, match="'z'"):
        reciprocal_rank({"a": 1.0}, "z")


def test_top1_and_mrr_over_pairs():
    results = [
        ({"a": 9, "b": 1}, "a"),  # rank 1
        ({"a": 5, "b": 5}, "a"),  # tie -> rank 2
        ({"a": 1, "b": 2, "c": 3, "d": 4}, "a"),  # rank 4
    ]
    assert top1_accuracy(results) == pytest.approx(1 / 3)
    assert mean_reciprocal_rank(results) == pytest.approx((1 + 0.5 + 0.25) / 3)


def test_top1_on_empty_results_raises():
    with pytest.raises(ValueError):
        top1_accuracy([])


# --- spearman ---------------------------------------------------------------------------------


def test_spearman_perfect_and_reversed():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == pytest.approx(-1.0)


def test_spearman_is_rank_based_not_linear():
    assert spearman([1, 2, 3, 4], [1, 10, 100, 1000]) == pytest.approx(1.0)


def test_spearman_with_ties_matches_hand_computation():
    # ranks of xs: [1, 2.5, 2.5, 4]; ys: [1, 2, 3, 4]; both means 2.5.
    # cov = 2.25 + 0 + 0 + 2.25 = 4.5; var_x = 4.5; var_y = 5 -> r = 4.5 / sqrt(22.5) = sqrt(0.9)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(math.sqrt(0.9))


def test_spearman_ties_on_both_sides():
    # xs ranks [1.5, 1.5, 3, 4], ys ranks [1, 2.5, 2.5, 4]; deviations from 2.5:
    # dx = [-1, -1, .5, 1.5], dy = [-1.5, 0, 0, 1.5]; cov = 1.5 + 2.25 = 3.75
    # var_x = 1 + 1 + .25 + 2.25 = 4.5, var_y = 4.5 -> r = 3.75 / 4.5
    assert spearman([3, 3, 7, 9], [0, 5, 5, 8]) == pytest.approx(3.75 / 4.5)


@pytest.mark.parametrize(
    ("xs", "ys"),
    [([], []), ([1.0], [2.0]), ([1, 1, 1], [1, 2, 3]), ([1, 2, 3], [4, 4, 4])],
)
def test_spearman_none_cases(xs, ys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scipy's constant-input warning must not leak
        assert spearman(xs, ys) is None


def test_spearman_returns_a_python_float_and_none_for_nan_input():
    rho = spearman([1, 2, 3], [1, 3, 2])
    assert type(rho) is float and rho == pytest.approx(0.5)
    assert spearman([1.0, math.nan, 3.0], [1, 2, 3]) is None


def test_spearman_length_mismatch_raises():
    with pytest.raises(ValueError):
        spearman([1, 2], [1, 2, 3])


# --- ranking tasks on the shipped samples ------------------------------------------------------


def test_ranking_tasks_cover_the_sixteen_source2_jobs():
    tasks = ranking_tasks(PAIRS, JOBS)
    labels = _strong_weak()
    assert [t.job_id for t in tasks] == [f"job_{n:03d}" for n in range(5, 21)]
    for task in tasks:
        strong, weak = labels[task.job_id]
        assert task.intended == strong
        assert strong in task.candidates
        assert weak in task.candidates
        assert len(task.candidates) == 4
        assert len(set(task.candidates)) == 4


def test_distractors_are_strong_resumes_of_jobs_with_another_title():
    labels = _strong_weak()
    owner = {strong: job for job, (strong, _) in labels.items()}
    for seed in range(10):
        for task in ranking_tasks(PAIRS, JOBS, distractors=3, seed=seed):
            strong, weak = labels[task.job_id]
            distractors = set(task.candidates) - {strong, weak}
            assert len(distractors) == 3
            for candidate in distractors:
                assert candidate in owner, "distractors must be strong resumes"
                assert _title(owner[candidate]) != _title(task.job_id)


def test_same_title_jobs_are_never_each_others_distractors():
    labels = _strong_weak()
    pairs = [("job_006", "job_007"), ("job_011", "job_012"), ("job_014", "job_015")]
    for seed in range(20):
        tasks = {t.job_id: t for t in ranking_tasks(PAIRS, JOBS, distractors=5, seed=seed)}
        for a, b in pairs:
            assert labels[b][0] not in tasks[a].candidates
            assert labels[a][0] not in tasks[b].candidates


def test_ranking_tasks_are_deterministic_per_seed():
    first = ranking_tasks(PAIRS, JOBS, seed=7)
    assert ranking_tasks(PAIRS, JOBS, seed=7) == first
    assert ranking_tasks(PAIRS, JOBS, seed=8) != first


def test_candidate_order_is_shuffled():
    tasks = ranking_tasks(PAIRS, JOBS, seed=0)
    positions = {t.candidates.index(t.intended) for t in tasks}
    assert len(positions) > 1


def test_limit_keeps_the_first_jobs_in_id_order():
    full = ranking_tasks(PAIRS, JOBS, seed=3)
    limited = ranking_tasks(PAIRS, JOBS, seed=3, limit=5)
    assert limited == full[:5]
    assert [t.job_id for t in limited] == ["job_005", "job_006", "job_007", "job_008", "job_009"]


def test_zero_distractors_leaves_strong_and_weak():
    for task in ranking_tasks(PAIRS, JOBS, distractors=0):
        assert set(task.candidates) == set(_strong_weak()[task.job_id])


def test_too_many_distractors_raises():
    with pytest.raises(ValueError, match="distractors"):
        ranking_tasks(PAIRS, JOBS, distractors=100)


# --- run_ranking_eval --------------------------------------------------------------------------


def _tasks() -> list[RankingTask]:
    return [
        RankingTask("job_a", "good_a", ("x1", "good_a", "x2")),
        RankingTask("job_b", "good_b", ("good_b", "y1", "y2")),
        RankingTask("job_c", "good_c", ("z1", "z2", "good_c")),
    ]


def _fake_score(job_id: str, candidates: list[str]) -> dict[str, float]:
    table = {
        "job_a": {"x1": 10, "good_a": 90, "x2": 40},  # rank 1
        "job_b": {"good_b": 50, "y1": 50, "y2": 20},  # tie -> rank 2
        "job_c": {"z1": 80, "z2": 70, "good_c": 60},  # rank 3
    }
    return {c: table[job_id][c] for c in candidates}


def test_run_ranking_eval_computes_top1_and_mrr():
    report = run_ranking_eval(_tasks(), _fake_score)
    assert isinstance(report, EvalReport)
    assert [row.rank for row in report.rows] == [1, 2, 3]
    assert [row.top1 for row in report.rows] == [True, False, False]
    assert report.tasks == 3
    assert report.top1_accuracy == pytest.approx(1 / 3)
    assert report.mrr == pytest.approx((1 + 1 / 2 + 1 / 3) / 3)


def test_run_ranking_eval_passes_task_candidates_to_scorer():
    seen: list[tuple[str, list[str]]] = []

    def score(job_id: str, candidates: list[str]) -> dict[str, float]:
        seen.append((job_id, candidates))
        return dict.fromkeys(candidates, 1.0)

    run_ranking_eval(_tasks(), score)
    assert seen == [(t.job_id, list(t.candidates)) for t in _tasks()]


def test_report_to_dict_is_json_and_table_lists_every_job():
    report = run_ranking_eval(_tasks(), _fake_score)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["tasks"] == 3
    assert data["rows"][1] == {
        "job": "job_b",
        "intended": "good_b",
        "rank": 2,
        "top1": False,
        "strong_above_weak": None,
        "scores": {"good_b": 50.0, "y1": 50.0, "y2": 20.0},
    }
    table = report.format_table()
    lines = table.splitlines()
    row_c = next(line for line in lines if line.startswith("job_c"))
    assert row_c.split() == ["job_c", "good_c", "60.0", "80.0", "3"]
    assert "MRR 0.611" in table
    assert "top-1 accuracy 0.333" in table
    assert lines[0].split() == ["job", "intended", "score", "best", "other", "rank"]
    assert lines[-1] == "tasks 3   top-1 accuracy 0.333   MRR 0.611"
    assert "\x1b" not in table  # plain text, no ANSI codes


def test_report_table_keeps_cells_literal_and_within_120_columns():
    long_job = "job_" + "x" * 150
    rows = (
        TaskResult(job="job_[bold]x[/bold]", intended="a", rank=1, scores={"a": 2.0}),
        TaskResult(job=long_job, intended="a", rank=2, scores={"a": 1.0, "b": 3.0}),
    )
    table = EvalReport(rows).format_table()
    assert "job_[bold]x[/bold]" in table  # not read as rich markup
    assert max(len(line) for line in table.splitlines()) <= 120
    job_column = "".join(line.split()[0] for line in table.splitlines()[2:-1])
    assert long_job in job_column  # folded onto several lines, not lost


def test_run_ranking_eval_rejects_missing_scores():
    with pytest.raises(ValueError, match="job_a"):
        run_ranking_eval(_tasks(), lambda job, cands: {cands[0]: 1.0})


def test_task_result_best_other_score():
    row = TaskResult(job="j", intended="a", rank=1, scores={"a": 3.0, "b": 2.0, "c": 1.0})
    assert row.best_other_score == 2.0
    assert row.intended_score == 3.0


# --- graded labels -----------------------------------------------------------------------------


def _write(tmp_path: Path, content: object) -> Path:
    path = tmp_path / "labels.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_load_labels_reads_ids_and_paths(tmp_path):
    path = _write(
        tmp_path,
        [
            {"job": "job_008", "candidate": "cand_033", "grade": 3},
            {"job": "samples/jobs/job_008.md", "candidate": "x/cand_056.md", "grade": 0.5},
        ],
    )
    assert load_labels(path) == [
        LabelledPair("job_008", "cand_033", 3.0),
        LabelledPair("samples/jobs/job_008.md", "x/cand_056.md", 0.5),
    ]


def test_load_labels_missing_key_names_file_and_index(tmp_path):
    path = _write(
        tmp_path,
        [{"job": "job_008", "candidate": "cand_033", "grade": 1}, {"job": "job_008", "grade": 2}],
    )
    with pytest.raises(ValueError) as info:
        load_labels(path)
    message = str(info.value)
    assert str(path) in message
    assert "entry 1" in message
    assert "'candidate'" in message
    assert "\n" not in message


def test_labels_take_verdicts_with_or_without_a_grade(tmp_path):
    path = _write(
        tmp_path,
        [
            {"job": "job_008", "candidate": "cand_033", "verdicts": {"R1": "met"}},
            {"job": "job_008", "candidate": "cand_056", "grade": 1, "verdicts": {"SQL": "not_met"}},
        ],
    )
    first, second = load_labels(path)
    assert first.grade is None and first.verdicts == {"R1": "met"}
    assert second.grade == 1.0 and second.verdicts == {"SQL": "not_met"}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"job": "j", "candidate": "c"}, "missing key 'grade' (or 'verdicts')"),
        (
            {"job": "j", "candidate": "c", "verdicts": {"R1": "yes"}},
            "verdict for 'R1' must be one of",
        ),
        ({"job": "j", "candidate": "c", "verdicts": []}, "verdicts must be a non-empty object"),
    ],
)
def test_bad_verdict_labels_are_named(tmp_path, entry, message):
    path = _write(tmp_path, [entry])
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        load_labels(path)
    assert "entry 0" in str(info.value)


REQS = [
    Requirement(id="R1", text="5+ years of Python and Django development"),
    Requirement(id="R2", text="Experience with SQL databases such as PostgreSQL"),
    Requirement(id="R3", text="Good communication skills", kind="nice_to_have"),
]


def test_a_label_finds_its_requirement_by_id_text_or_words():
    assert find_requirement("R2", REQS).id == "R2"
    assert find_requirement("good communication skills", REQS).id == "R3"
    assert find_requirement("Python/Django experience", REQS).id == "R1"
    assert find_requirement("Kubernetes on AWS", REQS) is None


def test_verdict_agreement_counts_matches_and_unmatched_labels():
    label = LabelledPair(
        "job_008",
        "cand_033",
        verdicts={"R1": "met", "SQL databases": "partial", "R3": "met", "Kubernetes": "met"},
    )
    tally = VerdictAgreement()
    tally.add(label, REQS, {"R1": "met", "R2": "met", "R3": "met"})
    assert (tally.agreed, tally.compared, tally.share) == (2, 3, 0.667)
    assert tally.unmatched == ["job_008 × cand_033: Kubernetes"]


@pytest.mark.parametrize("grade", ["high", None, True, [1]])
def test_load_labels_non_numeric_grade(tmp_path, grade):
    path = _write(tmp_path, [{"job": "job_008", "candidate": "cand_033", "grade": grade}])
    with pytest.raises(ValueError, match=r"entry 0: grade must be a finite number") as info:
        load_labels(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("content", [{"job": "job_008"}, "42", '"text"'])
def test_load_labels_not_a_list(tmp_path, content):
    path = _write(tmp_path, content)
    with pytest.raises(ValueError, match="expected a JSON list") as info:
        load_labels(path)
    assert str(path) in str(info.value)


def test_load_labels_invalid_json(tmp_path):
    path = _write(tmp_path, "[{not json")
    with pytest.raises(ValueError, match="not valid JSON") as info:
        load_labels(path)
    assert "\n" not in str(info.value)


def test_eval_counts_who_wrote_the_text():
    from agent.evaluation.runner import TextTally, analyze_candidates, scores_of
    from agent.ingest.files import load_candidate, load_job
    from agent.service import prepare_request
    from serving.fake_engine import ScriptedEngine
    from tests.conftest import candidate_path, job_path
    from tests.unit.fake_answers import valid_answer

    job, good = job_path("job_008"), candidate_path("cand_033")
    answer = valid_answer(prepare_request(load_job(job), load_candidate(good), ScriptedEngine()))
    failures: list[str] = []
    texts = TextTally()
    engine = ScriptedEngine().enqueue(answer)
    scores = scores_of(analyze_candidates(engine, job, [good], failures, texts))
    assert scores["cand_033"] >= 0 and failures == []
    # the scripted answer's reasonings pass; its one-word rationales ("Solid.") are composed
    fields = len(answer["assessments"]) + 4
    assert texts.to_dict() == {
        "model_written": fields - 3,
        "fields": fields,
        "model_text_share": round((fields - 3) / fields, 3),
    }


def test_ranking_eval_keeps_every_report_and_writes_them_one_a_line(tmp_path):
    from agent.evaluation.runner import ranking_eval, write_results
    from agent.ingest.files import load_candidate, load_job
    from agent.service import prepare_request
    from schemas.report import MatchReport
    from serving.fake_engine import ScriptedEngine
    from tests.conftest import SAMPLES, candidate_path, job_path
    from tests.unit.fake_answers import valid_answer

    pairs = [("job_008", "cand_033"), ("job_005", "cand_051")]
    answers = [
        valid_answer(
            prepare_request(
                load_job(job_path(j)), load_candidate(candidate_path(c)), ScriptedEngine()
            )
        )
        for j, c in pairs
    ]
    engine = ScriptedEngine().enqueue(*answers)  # one candidate a task: answered in this order
    tasks = [RankingTask(j, c, (c,)) for j, c in pairs]
    kept: list[MatchReport] = []
    said: list[str] = []
    results = ranking_eval(engine, SAMPLES, tasks, said.append, kept)
    assert [r.candidate["id"] for r in kept] == ["cand_033", "cand_051"]
    assert results["failures"] == [] and results["text"]["fields"] > 0
    written = write_results(tmp_path, results, kept)
    assert [p.name for p in written] == ["results.json", "reports.jsonl"]
    lines = written[1].read_text().splitlines()
    assert [MatchReport.model_validate_json(line).score for line in lines] == [
        r.score for r in kept
    ]


def test_strong_above_weak_counts_strict_wins_over_the_jobs_weak_resume():
    tasks = [
        RankingTask("job_a", "good_a", ("x1", "good_a", "x2"), weak="x1"),  # 90 > 10
        RankingTask("job_b", "good_b", ("good_b", "y1", "y2"), weak="y1"),  # 50 = 50: not above
        RankingTask("job_c", "good_c", ("z1", "z2", "good_c")),  # no weak resume: not counted
    ]
    report = run_ranking_eval(tasks, _fake_score)
    assert report.strong_above_weak == 0.5
    assert report.format_table().splitlines()[-1].endswith("strong above weak 0.500")


def test_labelled_eval_reports_spearman_and_verdict_agreement():
    from agent.evaluation.runner import labelled_eval
    from agent.ingest.files import load_candidate, load_job
    from agent.service import prepare_request
    from serving.fake_engine import ScriptedEngine
    from tests.conftest import candidate_path, job_path
    from tests.unit.fake_answers import valid_answer

    job = load_job(job_path("job_008"))
    engine = ScriptedEngine()
    pairs = []
    for grade, cand in enumerate(["cand_056", "cand_033"]):
        request = prepare_request(job, load_candidate(candidate_path(cand)), ScriptedEngine())
        answer = valid_answer(request)
        engine.enqueue(answer)
        first = answer["assessments"][0]
        labelled = {first["requirement_id"]: first["verdict"], "Kubernetes operators": "met"}
        pairs.append(LabelledPair("job_008", cand, float(grade), labelled))
    lines: list[str] = []
    result = labelled_eval(engine, SAMPLES, pairs, lines.append)
    assert result["failures"] == []
    assert result["verdicts"]["agreed"] == result["verdicts"]["compared"] == 2
    assert len(result["verdicts"]["unmatched"]) == 2
    assert any(line.startswith("Verdict agreement: 2 of 2") for line in lines)
    assert [row["candidate"] for row in result["rows"]] == ["cand_056", "cand_033"]
