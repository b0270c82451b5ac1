"""Requirement-extraction quality: the rule-based extractor scored against hand-labelled jobs.

Labels map a job id to the requirements a recruiter reads in the posting, each with its kind and
1-4 keywords; an extracted requirement matches a label when it holds at least half of them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agent.ingest.files import load_job
from agent.rubric.requirements import extract_requirements
from agent.text_tables import new_table, render_table

KINDS = ("must_have", "nice_to_have")


@dataclass(frozen=True)
class LabelledRequirement:
    """One requirement as a person labelled it: paraphrase, kind, lower-case match keywords."""

    text: str
    kind: str
    keywords: tuple[str, ...]


def _label(where: str, raw: Any) -> LabelledRequirement:
    """Validate one label entry, or raise ValueError saying where and what is wrong."""
    if not isinstance(raw, dict) or not str(raw.get("text") or "").strip():
        raise ValueError(f"{where}: expected an object with a non-empty 'text'")
    if raw.get("kind") not in KINDS:
        raise ValueError(f"{where}: 'kind' must be one of {KINDS}, got {raw.get('kind')!r}")
    words = raw.get("keywords")
    if not words or not isinstance(words, list) or not all(str(w).strip() for w in words):
        raise ValueError(f"{where}: 'keywords' must be a non-empty list of non-blank strings")
    keywords = tuple(" ".join(str(w).lower().split()) for w in words)
    return LabelledRequirement(str(raw["text"]), raw["kind"], keywords)


def load_requirement_labels(path: Path) -> dict[str, list[LabelledRequirement]]:
    """Read ``{job_id: [{text, kind, keywords}, ...]}``; ValueError (one line) when malformed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise ValueError(f"{path}: not valid JSON ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict) or not data:
        raise ValueError(f"{path}: expected a non-empty object of job id -> list of labels")
    if bad := [job for job, items in data.items() if not isinstance(items, list) or not items]:
        raise ValueError(f"{path}: expected a non-empty list of labels for {bad}")
    return {
        job: [_label(f"{path}: {job}[{i}]", item) for i, item in enumerate(items)]
        for job, items in data.items()
    }


def matches(extracted_text: str, label: LabelledRequirement) -> bool:
    """Case-insensitive: at least ceil(half) of the label's keywords (min 1) are in the text.

    A keyword must not start or end inside a word: "java" is not found in "javascript".
    """
    text = " ".join(extracted_text.lower().split())
    words = [" ".join(k.lower().split()) for k in label.keywords]
    hits = sum(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) is not None for w in words)
    return hits >= max(1, math.ceil(len(words) / 2))


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


@dataclass(frozen=True)
class JobScores:
    """Counts for one job (or all), the labels nothing matched and the unmatched extractions."""

    job_id: str
    extracted: int
    extracted_matched: int
    labels: int
    labels_matched: int
    pairs: int  # matched (extracted item, label) pairs
    kinds_agreed: int  # of those, pairs whose extracted kind equals the label's kind
    missed: tuple[str, ...] = ()
    false_positives: tuple[str, ...] = ()

    @property
    def ratios(self) -> dict[str, float | None]:
        """Precision, recall and kind agreement; None where there is nothing to divide by."""
        return {
            "precision": _ratio(self.extracted_matched, self.extracted),
            "recall": _ratio(self.labels_matched, self.labels),
            "kind_agreement": _ratio(self.kinds_agreed, self.pairs),
        }


_COUNTS = ("extracted", "extracted_matched", "labels", "labels_matched", "pairs", "kinds_agreed")


@dataclass(frozen=True)
class ExtractionScores:
    """Per-job scores and their micro-averaged (count-summed) total."""

    rows: tuple[JobScores, ...]

    @property
    def overall(self) -> JobScores:
        """All jobs' counts summed, so its ratios are micro-averages."""
        totals = [sum(getattr(row, name) for row in self.rows) for name in _COUNTS]
        missed = tuple(f"{row.job_id}: {text}" for row in self.rows for text in row.missed)
        false_positives = tuple(
            f"{row.job_id}: {text}" for row in self.rows for text in row.false_positives
        )
        return JobScores("overall", *totals, missed=missed, false_positives=false_positives)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: each row's counts, ratios, missed labels and false positives."""
        as_dict = [asdict(row) | row.ratios for row in (self.overall, *self.rows)]
        return {"overall": as_dict[0], "jobs": as_dict[1:]}

    def format_table(self) -> str:
        """A plain-text table (rendered by rich), one row per job, then the overall row."""
        table = new_table()
        for name in ("job", "extracted", "labels", "precision", "recall", "kind agreement"):
            table.add_column(name, justify="left" if name == "job" else "right")
        for row in (*self.rows, self.overall):
            shown = ["-" if v is None else f"{v:.2f}" for v in row.ratios.values()]
            table.add_row(row.job_id, str(row.extracted), str(row.labels), *shown)
        return "\n".join(render_table(table))


def _job_scores(
    job_id: str, items: list[tuple[str, str]], labels: Sequence[LabelledRequirement]
) -> JobScores:
    """Score one job's extracted ``(text, kind)`` items against its labels."""
    hits = [[i for i, label in enumerate(labels) if matches(text, label)] for text, _ in items]
    found = {i for hit in hits for i in hit}
    pairs = [
        (kind, labels[i].kind) for (_, kind), hit in zip(items, hits, strict=True) for i in hit
    ]
    return JobScores(
        job_id,
        len(items),
        sum(map(bool, hits)),
        len(labels),
        len(found),
        len(pairs),
        sum(mine == theirs for mine, theirs in pairs),
        missed=tuple(label.text for i, label in enumerate(labels) if i not in found),
        false_positives=tuple(text for (text, _), hit in zip(items, hits, strict=True) if not hit),
    )


def extraction_scores(
    extracted: Mapping[str, Sequence[tuple[str, str]]],
    labels: Mapping[str, Sequence[LabelledRequirement]],
) -> ExtractionScores:
    """Score each labelled job's extracted ``(text, kind)`` items (none if absent)."""
    if unknown := sorted(set(extracted) - set(labels)):
        raise ValueError(f"extracted jobs without labels: {unknown}")
    return ExtractionScores(
        tuple(_job_scores(job, list(extracted.get(job, ())), labs) for job, labs in labels.items())
    )


def measure_extraction(jobs_dir: Path, labels_path: Path) -> ExtractionScores:
    """Run the rule-based extractor on every labelled job in ``jobs_dir`` and score it."""
    labels = load_requirement_labels(labels_path)
    extracted = {}
    for job_id in labels:
        requirements = extract_requirements(load_job(jobs_dir / f"{job_id}.md").text)
        extracted[job_id] = [(req.text, req.kind) for req in requirements]
    return extraction_scores(extracted, labels)
