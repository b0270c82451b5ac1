"""Jobs and candidates from text or JSON already in memory: what files, the Python API and the
HTTP API all go through, so a posting reads the same whichever door it came in by."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from agent.errors import InputError
from agent.ingest.json_common import FormatError
from agent.ingest.json_job import job_to_parts
from agent.ingest.json_resume import resume_to_markdown
from agent.rubric.requirements import make_requirement, requirements_from_text
from schemas.inputs import CandidateProfile, JobPosting, Requirement, RequirementsSource


def tidy(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def _title(text: str, fallback: str) -> str:
    first = text.splitlines()[0].strip()
    if first.startswith("#"):
        return first.lstrip("#").strip() or fallback
    return first if len(first.split()) <= 8 else fallback


def job_from_text(text: str, *, where: str, fallback_title: str = "Job") -> JobPosting:
    """A job from its text or Markdown; its requirements from its headings or its prose."""
    text = tidy(text)
    if not text:
        raise InputError(f"the job is empty ({where})")
    requirements, source = requirements_from_text(text)
    if not requirements:
        raise InputError(f"no requirements found in the job ({where})")
    return JobPosting(
        title=_title(text, fallback_title),
        text=text,
        requirements=requirements,
        requirements_source=source,
    )


def job_from_json(data: Any, *, where: str) -> JobPosting:
    """A job from a JSON Resume job description (the ``jsonresume.org`` job schema)."""
    if not isinstance(data, dict):
        raise InputError(f"the job JSON must be an object ({where})")
    try:
        parts = job_to_parts(data)
    except FormatError as exc:
        raise InputError(f"{exc} ({where})") from None
    requirements = [
        make_requirement(i, item["text"], kind=item["kind"])
        for i, item in enumerate(parts["requirements"], 1)
    ]
    source: RequirementsSource = "given"
    if not requirements and parts["text"].strip():
        requirements, source = requirements_from_text(parts["text"])
    if not requirements:
        raise InputError(f"no requirements found in the job ({where})")
    return JobPosting(
        title=parts["title"],
        company=parts["company"],
        location=parts["location"],
        text=parts["text"],
        requirements=requirements,
        requirements_source=source,
    )


def candidate_from_text(
    text: str, *, candidate_id: str, where: str, display_name: str | None = None
) -> CandidateProfile:
    text = tidy(text)
    if not text:
        raise InputError(f"the candidate's profile is empty ({where})")
    return CandidateProfile(id=candidate_id, display_name=display_name, text=text)


def candidate_from_resume(data: Any, *, candidate_id: str, where: str) -> CandidateProfile:
    """A candidate from a JSON Resume (rendered to the Markdown the model reads and quotes)."""
    if not isinstance(data, dict):
        raise InputError(f"a JSON Resume must be an object ({where})")
    try:
        name, markdown = resume_to_markdown(data)
    except FormatError as exc:
        raise InputError(f"{exc} ({where})") from None
    if not markdown.strip():
        raise InputError(f"the JSON Resume has nothing to analyze ({where})")
    return CandidateProfile(
        id=candidate_id, display_name=name or None, text=markdown, structured=data
    )


MAX_GIVEN_REQUIREMENTS = 20


def given_requirements(items: list[dict[str, Any]], *, where: str) -> list[Requirement]:
    """A recruiter's own requirements (``text``, optional ``kind`` and ``weight`` each), as
    R1..Rn in their order."""
    if not items:
        raise InputError(f"no requirements in {where}")
    if len(items) > MAX_GIVEN_REQUIREMENTS:
        raise InputError(
            f"{len(items)} requirements in {where}; the analysis takes {MAX_GIVEN_REQUIREMENTS} "
            "at most"
        )
    out = []
    for index, item in enumerate(items, 1):
        text = item.get("text")
        if not isinstance(text, str) or not text.strip():
            raise InputError(f"{where}: requirement {index} has no text")
        kind = item.get("kind")
        if kind not in (None, "must_have", "nice_to_have"):
            raise InputError(f'{where}: kind must be "must_have" or "nice_to_have"')
        requirement = make_requirement(index, text.strip(), kind=kind)
        if item.get("weight") is not None:
            try:
                requirement = Requirement(**{**requirement.model_dump(), "weight": item["weight"]})
            except ValidationError:
                raise InputError(f"{where}: weight must be a number from 0 to 10") from None
        out.append(requirement)
    return out
