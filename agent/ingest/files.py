"""Reading the recruiter's files: plain text or Markdown, with one-line errors for bad input."""

from __future__ import annotations

from pathlib import Path

from agent.errors import InputError
from agent.ingest.json_common import FormatError, looks_like_json, parse_json_document
from agent.ingest.json_job import job_to_parts
from agent.ingest.json_resume import resume_to_markdown
from agent.rubric.requirements import make_requirement, requirements_from_text
from schemas.inputs import CandidateProfile, JobPosting, RequirementsSource

MAX_FILE_BYTES = 1_000_000


def read_document(path: Path, what: str) -> str:
    """The text of a UTF-8 text or Markdown file, or an InputError saying what is wrong."""
    if not path.exists():
        raise InputError(f"{what} file not found: {path}")
    if not path.is_file():
        raise InputError(f"{what} path is not a file: {path}")
    data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise InputError(
            f"{what} file is too large ({len(data):,} bytes, limit {MAX_FILE_BYTES:,})"
        )
    if data.startswith(b"%PDF"):
        raise InputError(f"{what} file {path} is a PDF; convert it to text or Markdown first")
    if data.startswith(b"PK\x03\x04"):
        raise InputError(
            f"{what} file {path} is a zip/Office document; convert it to text or Markdown first"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{what} file {path} is binary, not UTF-8 text or Markdown") from None
    if "\x00" in text:
        raise InputError(f"{what} file {path} is binary, not UTF-8 text or Markdown")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise InputError(f"{what} file is empty: {path}")
    return text.strip()


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
