"""A person's labels for job × candidate pairs: an overall grade, per-requirement verdicts, or both.

The file is a JSON list; each entry names a job and a candidate (ids such as ``job_008`` or
paths) and carries ``grade`` (a number, higher is a better match), ``verdicts`` (requirement →
verdict), or both::

    [{"job": "job_008", "candidate": "cand_033", "grade": 4,
      "verdicts": {"R1": "met", "Experience with SQL databases": "partial"}}]

A verdict's key is a requirement id (``R1``) or the requirement's text; text is matched to the
analysed requirement with the most words in common (at least half of the label's words), so a
label survives small changes in extraction. Labels that match no requirement are counted apart.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from agent.rubric.text_tools import content_words
from schemas.analysis import Verdict
from schemas.inputs import Requirement

VERDICTS: tuple[str, ...] = get_args(Verdict)


@dataclass(frozen=True)
class LabelledPair:
    """A job × candidate pair as a person judged it."""

    job: str  # a job id such as "job_008" or a path, as written in the file
    candidate: str  # a candidate id such as "cand_033" or a path
    grade: float | None = None
    verdicts: dict[str, str] = field(default_factory=dict)


def _grade(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where}: grade must be a finite number, got {value!r}")
    return float(value)


def _verdicts(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not value:
        raise ValueError(f"{where}: verdicts must be a non-empty object of requirement: verdict")
    for key, verdict in value.items():
        if verdict not in VERDICTS:
            raise ValueError(
                f"{where}: verdict for {key!r} must be one of {', '.join(VERDICTS)}, "
                f"got {verdict!r}"
            )
    return dict(value)


def _labelled_pair(entry: Any, index: int, path: Path) -> LabelledPair:
    """Validate one entry of a labels file."""
    where = f"{path}: entry {index}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: expected an object, got {type(entry).__name__}")
    for key in ("job", "candidate"):
        if key not in entry:
            raise ValueError(f"{where}: missing key {key!r}")
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise ValueError(f"{where}: {key!r} must be a non-empty string")
    if "grade" not in entry and "verdicts" not in entry:
        raise ValueError(f"{where}: missing key 'grade' (or 'verdicts')")
    grade = _grade(entry["grade"], where) if "grade" in entry else None
    verdicts = _verdicts(entry["verdicts"], where) if "verdicts" in entry else {}
    return LabelledPair(entry["job"], entry["candidate"], grade, verdicts)


def load_labels(path: Path) -> list[LabelledPair]:
    """Read a labels file; a one-line ``ValueError`` naming the file and entry when it is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of labels, got {type(data).__name__}")
    return [_labelled_pair(entry, index, path) for index, entry in enumerate(data)]


def find_requirement(key: str, requirements: list[Requirement]) -> Requirement | None:
    """The requirement a label's key names: by id, by text, or by most words in common."""
    for r in requirements:
        if key == r.id or key.casefold().strip() == r.text.casefold().strip():
            return r
    wanted = content_words(key)
    if not wanted:
        return None
    best = max(requirements, key=lambda r: len(wanted & content_words(r.text)), default=None)
    if best is None or 2 * len(wanted & content_words(best.text)) < len(wanted):
        return None
    return best


@dataclass
class VerdictAgreement:
    """How often the analysis gave the verdict a person gave, over labelled requirements."""

    agreed: int = 0
    compared: int = 0
    unmatched: list[str] = field(default_factory=list)

    def add(
        self, label: LabelledPair, requirements: list[Requirement], given: dict[str, str]
    ) -> None:
        """Compare one pair's labels with the verdicts its analysis gave (by requirement id)."""
        for key, verdict in label.verdicts.items():
            requirement = find_requirement(key, requirements)
            if requirement is None or requirement.id not in given:
                self.unmatched.append(f"{label.job} × {label.candidate}: {key}")
                continue
            self.compared += 1
            self.agreed += given[requirement.id] == verdict

    @property
    def share(self) -> float | None:
        return round(self.agreed / self.compared, 3) if self.compared else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "agreed": self.agreed,
            "compared": self.compared,
            "agreement": self.share,
            "unmatched": self.unmatched,
        }
