"""Facts that code can compute from a resume or requirement, so the model need not guess them.

* :func:`experience_years` - years covered by the date ranges in a resume, overlaps merged.
* :func:`stated_experience_years` - the largest explicit claim ("over 6 years of experience").
* :func:`required_years` - the minimum years a requirement asks for ("3-5 years" -> 3).

Skill terms a requirement and a profile share are in :mod:`agent.rubric.terms`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any

# ---------------------------------------------------------------------------
# Date ranges
# ---------------------------------------------------------------------------

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"(?:19|20)\d\d"
_NOW_WORDS = r"present|current(?:ly)?|now|today|ongoing"


def _date(prefix: str) -> str:
    """Regex for one date: 'Jan 2016', 'January, 2016', '06/2018', '2018-06' or '2018'."""
    p = prefix
    return (
        rf"(?:(?P<{p}mon>{_MONTH})\.?,?\s*(?P<{p}y1>{_YEAR})(?!\d)"
        rf"|(?P<{p}m2>0?[1-9]|1[0-2])/(?P<{p}y2>{_YEAR})(?!\d)"
        rf"|(?P<{p}y3>{_YEAR})-(?P<{p}m3>0[1-9]|1[0-2])(?![\d/])"
        rf"|(?P<{p}y4>{_YEAR})(?![\d/]))"
    )


_RANGE = re.compile(
    rf"(?<![\w/]){_date('s')}"
    r"\s*(?:[-–—−]+|\bto\b|\buntil\b|\btill\b|\bthrough\b)\s*"
    rf"(?:(?P<now>{_NOW_WORDS})\b|{_date('e')})",
    re.IGNORECASE,
)


def _parse_date(match: re.Match[str], prefix: str, *, is_end: bool) -> datetime.date:
    """The first day of a start date, or the day after an end date (ranges are half-open).

    A bare year starts on 1 January or ends on 31 December of that year.
    """
    group = match.groupdict()
    year = next(int(group[f"{prefix}y{i}"]) for i in range(1, 5) if group[f"{prefix}y{i}"])
    if group[f"{prefix}mon"]:
        month: int | None = _MONTHS[group[f"{prefix}mon"].lower()]
    elif group[f"{prefix}m2"] or group[f"{prefix}m3"]:
        month = int(group[f"{prefix}m2"] or group[f"{prefix}m3"])
    else:
        month = None
    if not is_end:
        return datetime.date(year, month or 1, 1)
    if month is None or month == 12:
        return datetime.date(year + 1, 1, 1)
    return datetime.date(year, month + 1, 1)


_HEADING = re.compile(
    r"#{1,6}\s*(?P<md>.+)|\*\*(?P<bold>[^*]+)\*\*:?|__(?P<under>[^_]+)__:?"
    r"|(?P<colon>[A-Za-z][A-Za-z &/,-]*):|(?P<caps>[A-Z][A-Z &/,-]+)"
)
_EDUCATION = re.compile(r"\b(?:education|academic|qualifications?|degrees?)\b", re.IGNORECASE)


def _heading(line: str) -> str | None:
    """The text of a section heading line ("# Skills", "**EDUCATION**", "Education:"), or None."""
    match = _HEADING.fullmatch(line.strip())
    if not match:
        return None
    title = next(group for group in match.groups() if group)
    return title if len(title.split()) <= 5 else None


def _education_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of education sections: from such a heading to the next heading."""
    spans: list[tuple[int, int]] = []
    section_start: int | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        title = _heading(line)
        if title is not None:
            if section_start is not None:
                spans.append((section_start, offset))
            section_start = offset if _EDUCATION.search(title) else None
        offset += len(line)
    if section_start is not None:
        spans.append((section_start, offset))
    return spans


def _date_ranges(text: str, today: datetime.date) -> Iterator[tuple[datetime.date, datetime.date]]:
    """Half-open (start, end) ranges found in ``text``, clipped to ``today``.

    Ranges that end before they start, start after today, or sit in an education section
    (study is not work experience) are skipped.
    """
    education = _education_spans(text)
    for match in _RANGE.finditer(text):
        if any(start <= match.start() < end for start, end in education):
            continue
        start = _parse_date(match, "s", is_end=False)
        end = today if match["now"] else _parse_date(match, "e", is_end=True)
        end = min(end, today)
        if start < end:
            yield start, end


def experience_years(text: str, today: datetime.date | None = None) -> float | None:
    """Total years covered by the resume's date ranges, overlaps merged, to one decimal.

    Ranges under an education heading are left out.

    "Present", "current", "now" and "today" mean ``today`` (default: the real date).
    Returns None when no usable range is found.
    """
    today = today or datetime.date.today()
    ranges = sorted(_date_ranges(text, today))
    if not ranges:
        return None
    total_days = 0
    current_start, current_end = ranges[0]
    for start, end in ranges[1:]:
        if start <= current_end:
            current_end = max(current_end, end)
        else:
            total_days += (current_end - current_start).days
            current_start, current_end = start, end
    total_days += (current_end - current_start).days
    return round(total_days / 365.25, 1)


# ---------------------------------------------------------------------------
# Numbers of years
# ---------------------------------------------------------------------------

WORD_NUMBERS = {
    word: number
    for number, word in enumerate(
        [
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ],
        start=1,
    )
}
_NUMBER = r"\d{1,2}(?:\.\d+)?|" + "|".join(rf"{w}\b" for w in WORD_NUMBERS)
_YEARS = re.compile(
    rf"(?<![\w.])(?P<low>{_NUMBER})(?:\s*\(\d{{1,2}}\))?"
    rf"(?:\s*(?:-|–|—|to)\s*(?P<high>{_NUMBER}))?"
    r"\s*(?P<plus>\+)?\s*(?:years?|yrs?)(?:\(s\))?(?![a-z])",
    re.IGNORECASE,
)
_MAX_PLAUSIBLE_YEARS = 50
_CLAIM_BEFORE = re.compile(
    r"\b(?:over|more than|at least|nearly|almost|about|around|approximately|roughly)\s*$",
    re.IGNORECASE,
)
_CLAIM_AFTER = re.compile(r"[’']?\s+(?:[\w#+./-]+\s+){0,5}?experience\b", re.IGNORECASE)


def _number(token: str) -> float:
    """A digit string or an English number word as a float."""
    token = token.lower()
    return float(WORD_NUMBERS[token]) if token in WORD_NUMBERS else float(token)


def _year_mentions(text: str) -> Iterator[tuple[float, re.Match[str]]]:
    """Each "N years" / "N+ years" / "N-M years" mention as (lower bound, match)."""
    for match in _YEARS.finditer(text):
        low = _number(match["low"])
        if 0 < low <= _MAX_PLAUSIBLE_YEARS:
            yield low, match


def stated_experience_years(text: str) -> float | None:
    """The largest explicit experience claim in ``text``, or None.

    Counts "6+ years", "over 6 years ..." and "N years of ... experience" (up to five words
    between), but not bare tenures like "5 years at Google".
    """
    claims = [
        low
        for low, match in _year_mentions(text)
        if match["plus"]
        or _CLAIM_BEFORE.search(text, max(0, match.start() - 30), match.start())
        or _CLAIM_AFTER.match(text, match.end())
    ]
    return max(claims, default=None)


def required_years(requirement_text: str) -> float | None:
    """The minimum number of years a requirement asks for, or None.

    "5+ years" -> 5, "3-5 years" -> 3, "at least 2 years" -> 2, "10 years (Required)" -> 10.
    When several are mentioned the largest lower bound (the binding one) is returned.
    """
    return max((low for low, _ in _year_mentions(requirement_text)), default=None)


def candidate_years(facts: dict[str, Any]) -> float | None:
    """The candidate's years of experience as code found them: dated roles or a stated claim."""
    found = [facts.get("experience_years"), facts.get("stated_experience_years")]
    return max((y for y in found if y is not None), default=None)
