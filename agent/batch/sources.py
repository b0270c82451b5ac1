"""The candidates of a batch: from folders, globs, single files, and ``.jsonl`` / ``.csv`` lists.

Every candidate the recruiter pointed at ends up in exactly one place: ``candidates`` (to
analyze), ``failed`` (with a one-line reason: a file with no text, a row without text), or
``duplicates`` (the same profile text as a candidate already taken, with its id). A bad file
never stops the others.
"""

from __future__ import annotations

import csv
import glob
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.errors import InputError
from agent.ingest.files import load_candidate, read_document
from agent.rubric.text_tools import content_hash
from schemas.inputs import CandidateProfile

PROFILE_SUFFIXES = (".md", ".markdown", ".txt", ".json", ".pdf", ".docx")
LIST_SUFFIXES = (".jsonl", ".csv")
_SUFFIXES = PROFILE_SUFFIXES + LIST_SUFFIXES
_GLOB_CHARS = "*?["


@dataclass(frozen=True)
class FailedSource:
    """A candidate that could not be read: where it was, and why."""

    source: str
    reason: str


@dataclass(frozen=True)
class Duplicate:
    """A candidate whose profile text is the same as an earlier one's."""

    source: str
    candidate_id: str
    same_as: str


@dataclass
class CandidateSet:
    candidates: list[CandidateProfile] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # candidate id -> where it came from
    failed: list[FailedSource] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    _by_hash: dict[str, str] = field(default_factory=dict)

    def add(self, candidate: CandidateProfile, source: str) -> None:
        """Take the candidate, unless its text (or its id) was seen already."""
        digest = content_hash(candidate.text)
        if digest in self._by_hash:
            self.duplicates.append(Duplicate(source, candidate.id, self._by_hash[digest]))
            return
        if candidate.id in self.sources:
            self.failed.append(
                FailedSource(
                    source, f"id {candidate.id!r} is already used by {self.sources[candidate.id]}"
                )
            )
            return
        self._by_hash[digest] = candidate.id
        self.sources[candidate.id] = source
        self.candidates.append(candidate)

    def fail(self, source: str, reason: str) -> None:
        self.failed.append(FailedSource(source, reason))


def collect_candidates(refs: list[str]) -> CandidateSet:
    """Every candidate the references name, in the order given (a folder's files by name).

    A reference that names nothing at all (a missing path, a glob matching no file) is an
    InputError: that is a typo in the command, not a bad candidate.
    """
    found = CandidateSet()
    for ref in refs:
        for path in _expand(ref):
            if path.suffix.lower() in LIST_SUFFIXES:
                _read_list(path, found)
            else:
                _read_profile(path, found)
    return found


def _expand(ref: str) -> list[Path]:
    if any(char in ref for char in _GLOB_CHARS):
        matches = sorted(Path(m) for m in glob.glob(ref, recursive=True) if Path(m).is_file())
        if not matches:
            raise InputError(f"no candidate files match {ref}")
        return matches
    path = Path(ref)
    if path.is_dir():
        files = sorted(
            p
            for p in path.iterdir()
            if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in _SUFFIXES
        )
        if not files:
            raise InputError(f"no candidate files in {path} (looked for {', '.join(_SUFFIXES)})")
        return files
    if not path.exists():
        raise InputError(f"candidates not found: {ref}")
    return [path]


def _read_profile(path: Path, found: CandidateSet) -> None:
    try:
        found.add(load_candidate(path), str(path))
    except InputError as exc:
        found.fail(str(path), str(exc))


def _read_list(path: Path, found: CandidateSet) -> None:
    """One candidate a line (``.jsonl``) or a row (``.csv``): id, name, and text or path."""
    try:
        text = read_document(path, "candidates list")
    except InputError as exc:
        found.fail(str(path), str(exc))
        return
    if path.suffix.lower() == ".csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        entries = [(f"{path}:{n}", row) for n, row in enumerate(rows, start=2)]
    else:
        entries = [
            (f"{path}:{n}", _json_or_none(line))
            for n, line in enumerate(text.splitlines(), start=1)
            if line.strip()
        ]
    for source, row in entries:
        _read_entry(row, source, path.parent, found)


def _json_or_none(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _read_entry(row: Any, source: str, folder: Path, found: CandidateSet) -> None:
    if not isinstance(row, dict):
        found.fail(source, "not a JSON object")
        return
    given = {k.strip().lower(): v for k, v in row.items() if isinstance(k, str)}
    cid = str(given.get("id") or "").strip()
    name = str(given.get("name") or "").strip() or None
    text = given.get("text")
    if isinstance(text, str) and text.strip():
        if not cid:
            found.fail(source, "a candidate with text needs an id")
            return
        found.add(CandidateProfile(id=cid, display_name=name, text=text.strip()), source)
        return
    ref = str(given.get("path") or "").strip()
    if not ref:
        found.fail(source, "needs a text or a path")
        return
    path = Path(ref) if Path(ref).is_absolute() else folder / ref
    try:
        candidate = load_candidate(path)
    except InputError as exc:
        found.fail(source, str(exc))
        return
    update = {"id": cid or candidate.id}
    if name:
        update["display_name"] = name
    found.add(candidate.model_copy(update=update), source)
