"""Job postings in the JSON Resume job schema, turned into a title, text and requirements."""

from __future__ import annotations

from agent.ingest.json_common import (
    FormatError,
    bullets,
    entry_list,
    joined,
    object_at,
    paragraphs,
    plain_text,
    render_sections,
    section,
    skill_text,
    strings,
)


def job_to_parts(data: dict) -> dict:
    """Title, company, location, Markdown text and typed requirements of a JSON job posting."""
    if not isinstance(data, dict):
        raise FormatError("the JSON job is not a job description: expected an object")
    title = plain_text(data.get("title"))
    if not title:
        raise FormatError("the JSON job has no 'title'")
    description = paragraphs(data.get("description"))
    qualifications = strings(data.get("qualifications"))
    skills = [s for s in (skill_text(x) for x in entry_list(data, "skills", "JSON job")) if s]
    if not (description or qualifications or skills):
        raise FormatError("the JSON job has no description, qualifications or skills")
    company = plain_text(data.get("company")) or None
    location = _job_location(data)
    tools = [t for t in (_tool_text(x) for x in entry_list(data, "tools", "JSON job")) if t]
    experience = plain_text(data.get("experience"))
    requirements = _requirements(
        [*qualifications, *([f"Experience: {experience}"] if experience else []), *skills], tools
    )
    text = render_sections(
        [
            [f"# {title}"],
            _job_facts(data, company, location),
            section("Description", [[description]]),
            section("Responsibilities", [bullets(strings(data.get("responsibilities")))]),
            section("Qualifications", [bullets(qualifications)]),
            section("Skills", [bullets(skills)]),
            section("Tools", [bullets(tools)]),
            section("Projects", [bullets(_job_projects(data))]),
        ]
    )
    return {
        "title": title,
        "company": company,
        "location": location,
        "text": text,
        "requirements": requirements,
    }


def _job_location(data: dict) -> str | None:
    """``Berlin, DE``, ``Remote (Full)``, both joined by `` · ``, or None."""
    location = object_at(data, "location", "JSON job")
    parts: list[str] = []
    for key in ("city", "region", "countryCode"):
        part = plain_text(location.get(key))
        if part and part.casefold() not in {p.casefold() for p in parts}:
            parts.append(part)
    place = ", ".join(parts)
    remote = data.get("remote")
    if remote is True:
        mode = "Remote"
    else:
        level = plain_text(remote)
        mode = f"Remote ({level})" if level and level.casefold() not in {"none", "no"} else ""
    return joined(place, mode, sep=" · ") or None


def _job_facts(data: dict, company: str | None, location: str | None) -> list[str]:
    """``Label: value`` lines for the posting's short facts, skipping missing ones."""
    facts = (
        ("Company", company or ""),
        ("Location", location or ""),
        ("Employment type", plain_text(data.get("type"))),
        ("Experience", plain_text(data.get("experience"))),
        ("Salary", plain_text(data.get("salary"))),
        ("Posted", plain_text(data.get("date"))),
    )
    return [f"{label}: {value}" for label, value in facts if value]


def _tool_text(tool: dict) -> str:
    """``Name: kw1, kw2`` for one tool."""
    name, keywords = plain_text(tool.get("name")), ", ".join(strings(tool.get("keywords")))
    return f"{name}: {keywords}" if name and keywords else name or keywords


def _job_projects(data: dict) -> list[str]:
    """``Name: description`` for each project (plain strings are accepted too)."""
    projects = data.get("projects")
    if not isinstance(projects, list):
        return []
    lines = []
    for project in projects:
        if isinstance(project, dict):
            line = joined(
                plain_text(project.get("name")), plain_text(project.get("description")), sep=": "
            )
        else:
            line = plain_text(project)
        if line:
            lines.append(line)
    return lines


def _requirements(must_have: list[str], nice_to_have: list[str]) -> list[dict]:
    """Requirement dicts in order, exact duplicates dropped (the first kind wins)."""
    seen: set[str] = set()
    result = []
    for kind, texts in (("must_have", must_have), ("nice_to_have", nice_to_have)):
        for text in texts:
            if text.casefold() not in seen:
                seen.add(text.casefold())
                result.append({"text": text, "kind": kind})
    return result
