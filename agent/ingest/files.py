"""Reading the recruiter's files: plain text or Markdown, with one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent.errors import InputError
from agent.ingest.documents import PDF_MAGIC, ZIP_MAGIC, docx_text, pdf_text
from agent.ingest.inputs import (
    candidate_from_resume,
    candidate_from_text,
    given_requirements,
    job_from_json,
    job_from_text,
    tidy,
)
from agent.ingest.json_common import FormatError, looks_like_json, parse_json_document
from agent.rubric.text_tools import strip_bullet
from schemas.inputs import CandidateProfile, JobPosting, Requirement

MAX_FILE_BYTES = 1_000_000
MAX_DOCUMENT_BYTES = 10_000_000  # a PDF or .docx carries fonts and images besides its text


def read_document(path: Path, what: str) -> str:
    """The text of a UTF-8 text or Markdown file, a PDF or a Word .docx document, or an
    InputError saying what is wrong."""
    if not path.exists():
        raise InputError(f"{what} file not found: {path}")
    if not path.is_file():
        raise InputError(f"{what} path is not a file: {path}")
    data = path.read_bytes()
    document = data.startswith((PDF_MAGIC, ZIP_MAGIC))
    limit = MAX_DOCUMENT_BYTES if document else MAX_FILE_BYTES
    if len(data) > limit:
        raise InputError(f"{what} file is too large ({len(data):,} bytes, limit {limit:,})")
    if data.startswith(PDF_MAGIC):
        return tidy(pdf_text(data, f"{what} file {path}"))
    if data.startswith(ZIP_MAGIC):
        return tidy(docx_text(data, f"{what} file {path}"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{what} file {path} is binary, not UTF-8 text or Markdown") from None
    if "\x00" in text:
        raise InputError(f"{what} file {path} is binary, not UTF-8 text or Markdown")
    if not text.strip():
        raise InputError(f"{what} file is empty: {path}")
    return tidy(text)


def load_job(path: Path) -> JobPosting:
    """A job from text/Markdown, or from a JSON Resume job description (``*.json``)."""
    text = read_document(path, "job")
    where = f"job file {path}"
    if looks_like_json(text):
        try:
            data = parse_json_document(text, "job")
        except FormatError as exc:
            raise InputError(f"{exc} ({path})") from None
        return job_from_json(data, where=where)
    return job_from_text(text, where=where, fallback_title=path.stem)


def load_candidate(path: Path) -> CandidateProfile:
    """A candidate from text/Markdown, or from a JSON Resume (rendered to Markdown)."""
    text = read_document(path, "candidate")
    where = f"candidate file {path}"
    if not looks_like_json(text):
        return candidate_from_text(text, candidate_id=path.stem, where=where)
    try:
        data = parse_json_document(text, "candidate")
    except FormatError as exc:
        raise InputError(f"{exc} ({path})") from None
    return candidate_from_resume(data, candidate_id=path.stem, where=where)


def load_requirements(path: Path) -> list[Requirement]:
    """A recruiter's own requirements: a JSON list (of texts, or of objects with ``text`` and
    optional ``kind``/``weight``), or one per line (list markers dropped; "nice to have" in a
    line makes it one). Ids are R1..Rn in the file's order."""
    text = read_document(path, "requirements")
    items: list[dict[str, Any]] = []
    if text.lstrip().startswith("["):
        try:
            raw = json.loads(text)
        except ValueError as exc:
            raise InputError(f"requirements file {path} is not valid JSON: {exc}") from None
        for entry in raw:
            if isinstance(entry, str):
                items.append({"text": entry})
            elif isinstance(entry, dict) and isinstance(entry.get("text"), str):
                items.append(entry)
            else:
                raise InputError(
                    f"requirements file {path}: each entry must be a text or an object with "
                    f'"text", got {json.dumps(entry)[:60]}'
                )
    else:
        items = [{"text": strip_bullet(line)} for line in text.splitlines() if strip_bullet(line)]
    return given_requirements(items, where=f"requirements file {path}")
