"""The bias audit's arithmetic (NYC LL144, 6 RCNY § 5-301) on data small enough to check by hand.

The expected numbers below were worked out on paper from the scores and categories written in
each test, not computed by the code under test.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from agent.errors import InputError, classify
from agent.fairness.audit import (
    AuditResult,
    Demographics,
    Person,
    RunScores,
    TableResult,
    read_demographics,
    run_audit,
)
from agent.fairness.audit_exports import CSV_COLUMNS, audit_csv, audit_json, write_audit

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

# Ten candidates. Sorted scores 10 20 30 40 50 50 60 70 80 90: the median is (50 + 50) / 2 = 50,
# and exactly four (c01-c04) score strictly above it; c05 and c06 sit on the median.
SCORES = {"c01": 90, "c02": 80, "c03": 70, "c04": 60, "c05": 50,
          "c06": 50, "c07": 40, "c08": 30, "c09": 20, "c10": 10}  # fmt: skip
CSV_TEXT = """Candidate ID , SEX, Race/Ethnicity
c01,Female,Asian
c02,female,White
c03,Male,White
c04,F emale,Black
c05,Male,Black
c06,Female,Asian
c07,Male,white
c08,Male,Asian
c09,,Black
c99,Male,Asian
"""  # c04's value has a typo on purpose: "F emale" is a category of its own (see below)


def _people(text: str, tmp_path: Path) -> Demographics:
    path = tmp_path / "demographics.csv"
    path.write_text(text, encoding="utf-8")
    return read_demographics(path)


def _by_name(table: TableResult) -> dict[str, tuple[int, int, float, float | None]]:
    return {
        c.category: (c.candidates, c.above_median, round(c.scoring_rate, 4),
                     None if c.impact_ratio is None else round(c.impact_ratio, 4))
        for c in table.categories
    }  # fmt: skip


@pytest.fixture
def ten(tmp_path) -> AuditResult:
    text = CSV_TEXT.replace("F emale", "Female")
    run = RunScores(1, "Django Developer", SCORES, unscored={"bad.pdf": "failed"})
    return run_audit(run, _people(text, tmp_path))


def test_impact_ratios_of_ten_candidates_match_the_hand_computation(ten):
    assert ten.median == 50
    assert ten.scored == 10 and ten.above_median == 4
    sex, race, both = ten.tables
    # Female c01 c02 c04 c06: 3 of 4 above (c06 is on the median) = 0.75; Male c03 c05 c07 c08:
    # 1 of 4 = 0.25; impact ratio 0.25 / 0.75 = 1/3. Unknown: c09 (empty) and c10 (no row).
    assert _by_name(sex) == {"Female": (4, 3, 0.75, 1.0), "Male": (4, 1, 0.25, 0.3333)}
    assert sex.unknown == 2 and sex.highest_rate == 0.75
    # Asian c01 c06 c08: 1/3; White c02 c03 c07 ("white" is the same category): 2/3; Black
    # c04 c05 c09: 1/3. Highest 2/3, so Asian and Black are (1/3) / (2/3) = 0.5. Unknown: c10.
    assert _by_name(race) == {
        "Asian": (3, 1, 0.3333, 0.5),
        "Black": (3, 1, 0.3333, 0.5),
        "White": (3, 2, 0.6667, 1.0),
    }
    assert race.unknown == 1
    # Both known for c01-c08 only (c09 has no sex, c10 no row): unknown 2.
    assert _by_name(both) == {
        "Female × Asian": (2, 1, 0.5, 0.5),
        "Female × Black": (1, 1, 1.0, 1.0),
        "Female × White": (1, 1, 1.0, 1.0),
        "Male × Asian": (1, 0, 0.0, 0.0),
        "Male × Black": (1, 0, 0.0, 0.0),
        "Male × White": (2, 1, 0.5, 0.5),
    }
    assert both.unknown == 2


def test_a_score_equal_to_the_median_is_not_above_it(ten):
    female = ten.tables[0].categories[0]
    assert female.category == "Female"
    # with ">=" c06 (50) would count: 4 of 4 = 1.0, and Male (c05 at 50) 2 of 4
    assert female.above_median == 3 and female.scoring_rate == 0.75
    odd = run_audit(
        RunScores(2, "job", {"a": 10, "b": 20, "c": 30}),
        Demographics({"a": Person("F", "X"), "b": Person("F", "X"), "c": Person("F", "X")}),
    )
    assert odd.median == 20 and odd.above_median == 1  # only 30; 20 is the median itself


def test_counts_of_unscored_candidates_and_rows_outside_the_run(ten):
    assert ten.excluded_no_score == {"failed": 1}
    assert ten.demographics_rows == 10
    assert ten.demographics_not_in_run == 1  # c99
    assert ten.scored_not_in_demographics == 1  # c10


def test_case_variants_of_a_value_are_one_category_but_a_typo_is_its_own(tmp_path):
    result = run_audit(RunScores(1, "job", SCORES), _people(CSV_TEXT, tmp_path))
    sex = _by_name(result.tables[0])
    # "female" joins "Female"; "F emale" (c04, 60, above) stands alone: Female c01 c02 c06 is
    # 2 of 3, "F emale" 1 of 1 = 1.0 (the highest), Male 1 of 4 = 0.25
    assert sex == {
        "F emale": (1, 1, 1.0, 1.0),
        "Female": (3, 2, 0.6667, 0.6667),
        "Male": (4, 1, 0.25, 0.25),
    }


def _fifty_one(tiny_count_in_b: int = 20) -> tuple[RunScores, Demographics]:
    """A: 15 score 80 and 10 score 20; B: 5 score 80 and ``tiny_count_in_b`` score 20; one
    candidate of category T scores 100."""
    scores: dict[str, int] = {}
    people: dict[str, Person] = {}
    groups = [("A", 80, 15), ("A", 20, 10), ("B", 80, 5), ("B", 20, tiny_count_in_b), ("T", 100, 1)]
    for race, score, count in groups:
        for _ in range(count):
            cid = f"p{len(scores):02d}"
            scores[cid] = score
            people[cid] = Person("Female" if len(scores) % 2 else "Male", race)
    return RunScores(3, "job", scores), Demographics(people)


def test_a_category_under_two_percent_is_marked_and_left_out_of_the_highest_rate():
    result = run_audit(*_fifty_one())
    # 51 scores: 30 of 20, 20 of 80, one 100; the 26th is 20, the median. T is 1/51 = 1.96%.
    assert result.median == 20
    race = result.tables[1]
    rows = {c.category: c for c in race.categories}
    assert rows["T"].under_2_percent and rows["T"].impact_ratio is None
    assert rows["T"].scoring_rate == 1.0 and rows["T"].candidates == 1  # still reported
    assert "1 of 51" in rows["T"].excluded_reason and "5-301(d)" in rows["T"].excluded_reason
    # the highest rate is A's 15/25 = 0.6, not T's 1.0: A 1.0, B (5/25) / 0.6 = 1/3
    assert race.highest_rate == 0.6
    assert _by_name(race)["A"] == (25, 15, 0.6, 1.0)
    assert _by_name(race)["B"] == (25, 5, 0.2, 0.3333)
    assert not rows["A"].under_2_percent


def test_exactly_two_percent_is_not_under_two_percent():
    result = run_audit(*_fifty_one(tiny_count_in_b=19))
    # 50 candidates: T is 1/50 = 2.0%, so it counts and its 1.0 is the highest rate;
    # A 15/25 = 0.6, B 5/24 = 0.2083
    race = _by_name(result.tables[1])
    assert race == {"A": (25, 15, 0.6, 0.6), "B": (24, 5, 0.2083, 0.2083), "T": (1, 1, 1.0, 1.0)}


def test_every_rate_zero_leaves_impact_ratios_undefined():
    scores = {"a": 50, "b": 50, "c": 50, "d": 50}
    people = {cid: Person("F" if cid < "c" else "M", "X") for cid in scores}
    result = run_audit(RunScores(4, "job", scores), Demographics(people))
    assert result.median == 50 and result.above_median == 0
    for table in result.tables:
        assert table.highest_rate == 0
        assert all(c.impact_ratio is None and c.scoring_rate == 0 for c in table.categories)
        assert "undefined" in (table.note or "")


def test_no_known_category_and_no_scored_candidate(tmp_path):
    result = run_audit(RunScores(5, "job", {"a": 1, "b": 2}), Demographics({}))
    assert all(t.unknown == 2 and not t.categories for t in result.tables)
    assert "No candidate has a known category" in (result.tables[0].note or "")
    with pytest.raises(InputError, match=r"run 6 has no scored candidates to audit \(2 failed"):
        run_audit(
            RunScores(6, "job", {}, unscored={"x": "failed", "y": "failed"}), Demographics({})
        )


def test_unknown_words_count_as_unknown(tmp_path):
    text = "candidate_id,sex,race_ethnicity\na,Unknown,X\nb,Prefer not to say,X\nc,F,n/a\n"
    people = _people(text, tmp_path).people
    assert people["a"].sex is None and people["b"].sex is None
    assert people["c"] == Person("F", None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,sex,race\nc1,F,X\n", "missing column(s) candidate_id, race_ethnicity"),
        ("candidate_id,sex,race_ethnicity\nc1,F,X\nc1,M,Y\n", "'c1' appears twice (rows 2 and 3)"),
        ("candidate_id,sex,race_ethnicity\n,F,X\n", "row 2 has no candidate_id"),
        ("", "is empty"),
    ],
)
def test_bad_demographics_files_get_one_line_input_errors(tmp_path, text, message):
    with pytest.raises(InputError) as caught:
        _people(text, tmp_path)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert classify(caught.value).exit_code == 2


def test_a_missing_or_binary_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="demographics file not found"):
        read_demographics(tmp_path / "nope.csv")
    binary = tmp_path / "x.csv"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(InputError, match="not UTF-8"):
        read_demographics(binary)


def test_csv_and_json_hold_every_row_and_the_definitions(ten):
    rows = list(csv.DictReader(io.StringIO(audit_csv(ten))))
    assert len(rows) == 2 + 3 + 6 and tuple(rows[0]) == CSV_COLUMNS
    male = next(r for r in rows if r["table"] == "sex" and r["category"] == "Male")
    assert male["impact_ratio"] == "0.3333" and male["table_unknown"] == "2"
    assert "human review" in male["basis"] and "5-301" in male["basis"]
    data = json.loads(audit_json(ten))
    assert data["median"] == 50 and data["excluded_no_score"] == {"failed": 1}
    assert set(data["definitions"]) >= {"median", "scoring_rate", "impact_ratio", "unknown"}
    assert "6 RCNY § 5-300" in data["source"] and "§ 5-301" in data["source"]
    assert "human review" in data["notice"]


def test_the_page_shows_the_tables_in_a_real_browser_offline(tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `make browser`", pytrace=False)
    from playwright.sync_api import sync_playwright

    page_path = write_audit(run_audit(*_fifty_one()), tmp_path / "audit")["html"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True)
        page = context.new_page()
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(page_path.as_uri())
        race = page.locator("table[data-table=race_ethnicity] tbody tr")
        assert race.count() == 3
        assert race.nth(1).locator("td").all_inner_texts()[:4] == ["B", "25", "5", "20.0%"]
        assert "0.333" in race.nth(1).inner_text()
        assert (
            "under 2%" in race.nth(2).inner_text() and "not calculated" in race.nth(2).inner_text()
        )
        assert page.locator("table.audit").count() == 3
        assert "Decision support for human review" in page.locator(".note").inner_text()
        assert "6 RCNY § 5-300" in page.locator("dl.defs").inner_text()
        assert requests == [page_path.as_uri()]  # nothing fetched but the page itself
        page.screenshot(path=str(tmp_path / "audit.png"), full_page=True)
        browser.close()
