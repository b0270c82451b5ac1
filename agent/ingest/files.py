"""Reading the recruiter's files: plain text or Markdown, with one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agent.errors import InputError
from agent.ingest.documents import PDF_MAGIC, ZIP_MAGIC, docx_text, pdf_text
from agent.ingest.json_common import FormatError, looks_like_json, parse_json_document
from agent.ingest.json_job import job_to_parts
from agent.ingest.json_resume import resume_to_markdown
from agent.rubric.requirements import make_requirement, requirements_from_text
from agent.rubric.text_tools import strip_bullet
from schemas.inputs import CandidateProfile, JobPosting, Requirement, RequirementsSource

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
        return _tidy(pdf_text(data, f"{what} file {path}"))
    if data.startswith(ZIP_MAGIC):
        return _tidy(docx_text(data, f"{what} file {path}"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{what} file {path} is binary, not UTF-8 text or Markdown") from None
    if "\x00" in text:
        raise InputError(f"{what} file {path} is binary, not UTF-8 text or Markdown")
    if not text.strip():
        raise InputError(f"{what} file is empty: {path}")
    return _tidy(text)


def _tidy(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def _title(text: str, fallback: str) -> str:
    first = text.splitlines()[0].strip()
    if first.startswith("#"):
        return first.lstrip("#").strip() or fallback
    return first if len(first.split()) <= 8 else fallback


def load_job(path: Path) -> JobPosting:
    """A job from text/Markdown, or from a JSON Resume job description (``*.json``)."""
    text = read_document(path, "job")
    if looks_like_json(text):
        return _job_from_json(text, path)
    requirements, source = requirements_from_text(text)
    if not requirements:
        raise InputError(f"no requirements found in job file {path}")
    return JobPosting(
        title=_title(text, path.stem),
        text=text,
        requirements=requirements,
        requirements_source=source,
    )


def _job_from_json(text: str, path: Path) -> JobPosting:
    try:
        parts = job_to_parts(parse_json_document(text, "job"))
    except FormatError as exc:
        raise InputError(f"{exc} ({path})") from None
    requirements = [
        make_requirement(i, item["text"], kind=item["kind"])
        for i, item in enumerate(parts["requirements"], 1)
    ]
    source: RequirementsSource = "given"
    if not requirements:
        requirements, source = requirements_from_text(parts["text"])
    if not requirements:
        raise InputError(f"no requirements found in job file {path}")
    return JobPosting(
        title=parts["title"],
        company=parts["company"],
        location=parts["location"],
        text=parts["text"],
        requirements=requirements,
        requirements_source=source,
    )


def load_candidate(path: Path) -> CandidateProfile:
    """A candidate from text/Markdown, or from a JSON Resume (rendered to Markdown)."""
    text = read_document(path, "candidate")
    if not looks_like_json(text):
        return CandidateProfile(id=path.stem, text=text)
    try:
        data = parse_json_document(text, "candidate")
        name, markdown = resume_to_markdown(data)
    except FormatError as exc:
        raise InputError(f"{exc} ({path})") from None
    return CandidateProfile(id=path.stem, display_name=name or None, text=markdown, structured=data)


MAX_GIVEN_REQUIREMENTS = 20


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
    if not items:
        raise InputError(f"no requirements in {path}")
    if len(items) > MAX_GIVEN_REQUIREMENTS:
        raise InputError(
            f"{len(items)} requirements in {path}; the analysis takes {MAX_GIVEN_REQUIREMENTS} "
            "at most"
        )
    out = []
    for index, item in enumerate(items, 1):
        kind = item.get("kind")
        if kind not in (None, "must_have", "nice_to_have"):
            raise InputError(
                f'requirements file {path}: kind must be "must_have" or "nice_to_have"'
            )
        requirement = make_requirement(index, item["text"].strip(), kind=kind)
        if "weight" in item:
            try:
                requirement = Requirement(**{**requirement.model_dump(), "weight": item["weight"]})
            except ValidationError:
                raise InputError(
                    f"requirements file {path}: weight must be a number from 0 to 10"
                ) from None
        out.append(requirement)
    return out
