"""A bias audit of a batch run's scores in the sense of NYC Local Law 144 (6 RCNY § 5-301).

Pure computation: the run's scores and a demographics file in, result models out. For a tool
that scores, the rules ask for the median score of the whole sample, each category's scoring
rate (the share of its candidates scoring above that median) and its impact ratio (its rate over
the highest category's rate), for sex, race/ethnicity and their intersection, with the number
of candidates of unknown category. A category under 2% of the data may be left out of the
impact ratios, with the reason given and its count and scoring rate still shown.
"""

from __future__ import annotations

import csv
import math
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from agent.errors import InputError

SOURCE = (
    "NYC Local Law 144 of 2021 (NYC Admin. Code §§ 20-870 to 20-874) and the rules of the NYC "
    "Department of Consumer and Worker Protection: 6 RCNY § 5-300 (definitions of scoring rate "
    "and impact ratio) and § 5-301 (bias audit; § 5-301(d): categories under 2% of the data)"
)
NOTICE = (
    "Decision support for human review. These figures describe how the assistant's scores "
    "relate to the demographics you supplied; they are not hiring decisions, and this report is "
    "not by itself the independent bias audit that Local Law 144 requires."
)
SMALL_SHARE = 0.02  # a category under 2% of the scored candidates: left out of impact ratios
UNKNOWN_VALUES = frozenset({"", "unknown", "n/a", "prefer not to say", "decline to state"})
DEFINITIONS = {
    "median": "The median score of every scored candidate of the run (the whole sample), "
    "computed with Python's statistics.median.",
    "scoring_rate": "The share of a category's candidates whose score is strictly above the "
    "sample's median; a score equal to the median does not count as above it.",
    "impact_ratio": "A category's scoring rate divided by the highest scoring rate among the "
    "categories of the same table (categories marked under 2% excluded from that highest rate).",
    "under_2_percent": "A category with fewer than 2% of the scored candidates is marked and "
    "left out of the impact-ratio calculation, as § 5-301(d) allows; its number of candidates "
    "and scoring rate are still reported.",
    "unknown": "A candidate with no value for a table's category (an empty value, one of "
    "'unknown', 'n/a', 'prefer not to say', 'decline to state', or no row in the demographics "
    "file) is counted as unknown and left out of that table's rates.",
    "excluded": "Candidates of the run without a score (analysis failed, duplicate profile, "
    "not analyzed yet, or analysis deleted) are not part of the sample.",
}
COLUMNS = ("candidate_id", "sex", "race_ethnicity")
_ALIASES = {"race_and_ethnicity": "race_ethnicity", "candidate": "candidate_id"}
TableKey = Literal["sex", "race_ethnicity", "intersectional"]


@dataclass(frozen=True)
class Person:
    sex: str | None
    race_ethnicity: str | None


@dataclass(frozen=True)
class Demographics:
    people: dict[str, Person]  # by candidate id


@dataclass(frozen=True)
class RunScores:
    """What the audit needs of a run: each scored candidate's score, and why others have none."""

    run_id: int
    job_title: str
    scores: dict[str, int]  # candidate id -> score of its saved analysis
    unscored: dict[str, str] = field(default_factory=dict)  # candidate ref -> item status
    complete: bool = True  # False while the run still has items to analyze


class CategoryResult(BaseModel):
    category: str
    candidates: int
    above_median: int
    scoring_rate: float
    share_of_sample: float
    under_2_percent: bool
    impact_ratio: float | None  # None: under 2%, or every rate of the table is 0
    excluded_reason: str | None = None


class TableResult(BaseModel):
    key: TableKey
    title: str
    categories: list[CategoryResult]
    unknown: int
    highest_rate: float | None
    note: str | None = None


class AuditResult(BaseModel):
    run_id: int
    job_title: str
    run_complete: bool
    scored: int
    median: float
    above_median: int
    excluded_no_score: dict[str, int]
    demographics_rows: int
    demographics_not_in_run: int
    scored_not_in_demographics: int
    tables: list[TableResult]
    definitions: dict[str, str]
    source: str
    notice: str


# -- the demographics file ----------------------------------------------------------------------


def _column(header: str) -> str:
    key = re.sub(r"[^a-z0-9]+", "_", header.strip().lower()).strip("_")
    return _ALIASES.get(key, key)


def _value(raw: str | None, spellings: dict[str, str]) -> str | None:
    """A category value; its first spelling in the file stands for every case variant."""
    text = " ".join((raw or "").split())
    if text.lower() in UNKNOWN_VALUES:
        return None
    return spellings.setdefault(text.lower(), text)


def read_demographics(path: Path) -> Demographics:
    """``candidate_id,sex,race_ethnicity`` rows (header case and spacing may vary)."""
    if not path.exists():
        raise InputError(f"demographics file not found: {path}")
    if path.is_dir():
        raise InputError(f"{path} is a folder; give a CSV file with {','.join(COLUMNS)}")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text; save it as a UTF-8 CSV file") from None
    try:
        rows = list(csv.reader(text.splitlines()))
    except csv.Error as exc:
        raise InputError(f"{path} is not a readable CSV file: {exc}") from None
    if not rows:
        raise InputError(f"{path} is empty; expected a header {','.join(COLUMNS)}")
    header = [_column(h) for h in rows[0]]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise InputError(
            f"{path}: missing column(s) {', '.join(missing)} (expected {','.join(COLUMNS)}; "
            f"found {','.join(rows[0]) or 'nothing'})"
        )
    at = {c: header.index(c) for c in COLUMNS}
    people: dict[str, Person] = {}
    first_row: dict[str, int] = {}
    spellings: dict[str, dict[str, str]] = {"sex": {}, "race_ethnicity": {}}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = row + [""] * (len(header) - len(row))
        cid = cells[at["candidate_id"]].strip()
        if not cid:
            raise InputError(f"{path}: row {number} has no candidate_id")
        if cid in people:
            raise InputError(
                f"{path}: candidate_id {cid!r} appears twice (rows {first_row[cid]} and {number})"
            )
        first_row[cid] = number
        people[cid] = Person(
            sex=_value(cells[at["sex"]], spellings["sex"]),
            race_ethnicity=_value(cells[at["race_ethnicity"]], spellings["race_ethnicity"]),
        )
    return Demographics(people)


# -- the audit ------------------------------------------------------------------------------------


def _intersection(person: Person) -> str | None:
    if person.sex is None or person.race_ethnicity is None:
        return None
    return f"{person.sex} × {person.race_ethnicity}"


_TABLES: tuple[tuple[TableKey, str, Callable[[Person], str | None]], ...] = (
    ("sex", "Sex", lambda p: p.sex),
    ("race_ethnicity", "Race/ethnicity", lambda p: p.race_ethnicity),
    ("intersectional", "Sex × race/ethnicity", _intersection),
)
_NOBODY = Person(None, None)


def _percent_down(share: float) -> str:
    """A share as a percentage cut (not rounded) to two places: 1/51 reads 1.96%, never 2.0%."""
    return f"{math.floor(share * 10_000) / 100:.2f}%"


def _table(
    key: TableKey, title: str, labels: dict[str, str | None], above: dict[str, bool]
) -> TableResult:
    groups: dict[str, list[bool]] = {}
    for cid, is_above in above.items():
        label = labels[cid]
        if label is not None:
            groups.setdefault(label, []).append(is_above)
    total = len(above)
    rows = []
    for label, flags in sorted(groups.items(), key=lambda kv: kv[0].lower()):
        share = len(flags) / total
        small = share < SMALL_SHARE
        reason = (
            f"{len(flags)} of {total} scored candidates ({_percent_down(share)}) is under 2% of "
            "the data: "
            "left out of the impact-ratio calculation, as 6 RCNY § 5-301(d) allows"
            if small
            else None
        )
        rate = sum(flags) / len(flags)
        rows.append(
            CategoryResult(
                category=label,
                candidates=len(flags),
                above_median=sum(flags),
                scoring_rate=rate,
                share_of_sample=share,
                under_2_percent=small,
                impact_ratio=None,
                excluded_reason=reason,
            )
        )
    highest = max((r.scoring_rate for r in rows if not r.under_2_percent), default=None)
    note = None
    if not rows:
        note = "No candidate has a known category in this table: no rates to compare."
    elif highest is None:
        note = "Every category is under 2% of the data: no impact ratio is calculated."
    elif highest == 0:
        note = (
            "No candidate of any category scored above the median: every scoring rate is 0, "
            "so impact ratios are undefined (a division by zero) and none is given."
        )
    else:
        for r in rows:
            if not r.under_2_percent:
                r.impact_ratio = r.scoring_rate / highest
    unknown = sum(1 for cid in above if labels[cid] is None)
    return TableResult(
        key=key, title=title, categories=rows, unknown=unknown, highest_rate=highest, note=note
    )


def run_audit(run: RunScores, demographics: Demographics) -> AuditResult:
    """The three tables of the audit for the run's scored candidates."""
    excluded: dict[str, int] = {}
    for status in run.unscored.values():
        excluded[status] = excluded.get(status, 0) + 1
    if not run.scores:
        shown = ", ".join(f"{n} {s}" for s, n in sorted(excluded.items())) or "no items"
        raise InputError(f"run {run.run_id} has no scored candidates to audit ({shown})")
    median = statistics.median(run.scores.values())
    above = {cid: score > median for cid, score in run.scores.items()}
    people = {cid: demographics.people.get(cid, _NOBODY) for cid in run.scores}
    in_run = run.scores.keys() | run.unscored.keys()
    return AuditResult(
        run_id=run.run_id,
        job_title=run.job_title,
        run_complete=run.complete,
        scored=len(run.scores),
        median=median,
        above_median=sum(above.values()),
        excluded_no_score=excluded,
        demographics_rows=len(demographics.people),
        demographics_not_in_run=sum(1 for cid in demographics.people if cid not in in_run),
        scored_not_in_demographics=sum(1 for cid in run.scores if cid not in demographics.people),
        tables=[
            _table(key, title, {cid: label(p) for cid, p in people.items()}, above)
            for key, title, label in _TABLES
        ],
        definitions=DEFINITIONS,
        source=SOURCE,
        notice=NOTICE,
    )
