"""JSON Resume candidates and JSON Resume job postings, turned into readable Markdown.

The analysis quotes the candidate's text verbatim, so a JSON document is first rendered as plain
Markdown and that text is what gets analysed. Contact details (email, phone, URLs, profiles,
street address) are left out so the analysis stays blind to them, and so are graduation dates
and scores, which hint at age. Unknown keys are ignored; a section of the wrong type is an error.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FULL_DATE = re.compile(r"^(\d{4}-\d{2})-\d{2}$")
_RESUME_CORE = ("basics", "work", "education", "skills")


class FormatError(ValueError):
    """A document in the wrong shape; the message is one line meant for the user."""


# --- shared helpers -------------------------------------------------------------------------


def looks_like_json(text: str) -> bool:
    """True when the first non-space character of ``text`` is ``{``."""
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def parse_json_document(text: str, what: str) -> dict:
    """The JSON object in ``text``, or a FormatError naming ``what`` and where parsing failed."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            f"{what} file is not valid JSON: {error.msg} at line {error.lineno}, "
            f"column {error.colno}"
        ) from None
    if not isinstance(data, dict):
        raise FormatError(
            f"{what} file is not valid JSON: expected an object at the top level, "
            f"found {_json_type(data)}"
        )
    return data


def _json_type(value: Any) -> str:
    """The JSON name of ``value``'s type, with an article, for error messages."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    return "an object"


def _text(value: Any) -> str:
    """A scalar as one clean line of text; anything else (objects, arrays, null) as ''."""
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, str | int | float):
        return " ".join(str(value).split())
    return ""


def _paragraphs(value: Any) -> str:
    """A free-text field with its line breaks kept and each line tidied; '' if not text."""
    if not isinstance(value, str):
        return ""
    lines = [" ".join(line.split()) for line in value.replace("\r\n", "\n").split("\n")]
    return "\n".join(lines).strip()


def _strings(value: Any) -> list[str]:
    """The non-empty scalar items of a list, as text ([] when ``value`` is not a list)."""
    if not isinstance(value, list):
        return []
    return [item for item in (_text(v) for v in value) if item]


def _entries(data: dict, key: str, where: str) -> list[dict]:
    """The objects listed under ``key``; a FormatError when the value is not a list of objects."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise FormatError(f"{where} '{key}' must be a list, not {_json_type(value)}")
    if not all(isinstance(item, dict) for item in value):
        raise FormatError(f"{where} '{key}' must be a list of objects")
    return value


def _object(data: dict, key: str, where: str) -> dict:
    """The object under ``key`` ({} when absent); a FormatError when it is not an object."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FormatError(f"{where} '{key}' must be an object, not {_json_type(value)}")
    return value


def _date(value: Any) -> str:
    """An ISO 8601 date shortened to year-month (``2016-01-01`` -> ``2016-01``)."""
    text = _text(value)
    match = _FULL_DATE.match(text)
    return match.group(1) if match else text


def _period(entry: dict) -> str:
    """``2016-01 – Present``, ``2014-03 – 2016-01``, ``until 2016-01`` or ''."""
    start, end = _date(entry.get("startDate")), _date(entry.get("endDate"))
    if start:
        return f"{start} – {end or 'Present'}"
    return f"until {end}" if end else ""


def _bullets(items: list[str]) -> list[str]:
    """Markdown bullet lines."""
    return [f"- {item}" for item in items]


def _joined(*parts: str, sep: str = ", ") -> str:
    """The non-empty parts joined with ``sep``."""
    return sep.join(part for part in parts if part)


def _section(title: str, blocks: list[list[str]]) -> list[str]:
    """A ``## title`` section from non-empty blocks of lines, or [] when there are none."""
    blocks = [block for block in blocks if any(line.strip() for line in block)]
    if not blocks:
        return []
    lines = [f"## {title}"]
    for block in blocks:
        lines += ["", *block]
    return lines


def _render(sections: list[list[str]]) -> str:
    """Sections separated by blank lines."""
    return "\n\n".join("\n".join(section) for section in sections if section).strip()


# --- candidates: JSON Resume ----------------------------------------------------------------


def resume_to_markdown(data: dict) -> tuple[str, str]:
    """(display name, Markdown text) of a JSON Resume; the name is '' when the resume has none."""
    if not isinstance(data, dict):
        raise FormatError("JSON file is not a JSON Resume: expected an object")
    if not any(data.get(key) for key in _RESUME_CORE):
        raise FormatError("JSON file is not a JSON Resume: no basics, work, education or skills")
    basics = _object(data, "basics", "JSON Resume")
    name = _text(basics.get("name"))
    headline = _basics_lines(basics)
    sections = _resume_sections(data, basics)
    if not any(sections) and not _text(basics.get("label")):
        raise FormatError("JSON Resume has nothing to analyse besides contact details")
    return name, _render([[f"# {name or 'Candidate'}"], headline, *sections])


def _resume_sections(data: dict, basics: dict) -> list[list[str]]:
    """The resume's Markdown sections after the headline, empty ones included as []."""

    def entries(key: str) -> list[dict]:
        return _entries(data, key, "JSON Resume")

    return [
        _section("Summary", [[_paragraphs(basics.get("summary"))]]),
        _section("Work experience", [_role_block(e, "name") for e in entries("work")]),
        _section("Volunteering", [_role_block(e, "organization") for e in entries("volunteer")]),
        _section("Education", [_education_block(e) for e in entries("education")]),
        _section("Skills", [_skill_lines(entries("skills"))]),
        _section("Certificates", [_certificate_lines(entries("certificates"))]),
        _section("Languages", [_language_lines(entries("languages"))]),
        _section("Projects", [_project_block(e) for e in entries("projects")]),
    ]


def _basics_lines(basics: dict) -> list[str]:
    """The headline (label) and city/country; contact details are deliberately left out."""
    location = basics.get("location")
    place = ""
    if isinstance(location, dict):
        place = _joined(_text(location.get("city")), _text(location.get("countryCode")))
    lines = [_text(basics.get("label")), f"Location: {place}" if place else ""]
    return "\n\n".join(line for line in lines if line).splitlines()


def _role_block(entry: dict, organisation_key: str) -> list[str]:
    """One job or volunteer role: heading with position, organisation and period, then details."""
    organisation = _text(entry.get(organisation_key)) or _text(entry.get("company"))
    heading = _joined(_text(entry.get("position")), organisation)
    period = _period(entry)
    details: list[str] = []
    for paragraph in (_paragraphs(entry.get("description")), _paragraphs(entry.get("summary"))):
        if paragraph:
            details += ["", paragraph]
    highlights = _strings(entry.get("highlights"))
    if highlights:
        details += ["", *_bullets(highlights)]
    if not (heading or details):
        return []
    return [f"### {_joined(heading or 'Role', f'({period})' if period else '', sep=' ')}", *details]


def _education_block(entry: dict) -> list[str]:
    """Degree, field and institution, and courses; dates and scores are left out."""
    study, area = _text(entry.get("studyType")), _text(entry.get("area"))
    degree = f"{study} in {area}" if study and area else study or area
    heading = _joined(degree, _text(entry.get("institution")))
    courses = _strings(entry.get("courses"))
    if not heading and not courses:
        return []
    lines = [f"### {heading or 'Education'}"]
    if courses:
        lines += ["", f"Courses: {', '.join(courses)}"]
    return lines


def _skill_lines(skills: list[dict]) -> list[str]:
    """``- Name (level): kw1, kw2`` for each skill."""
    return _bullets([line for line in (_skill_text(skill) for skill in skills) if line])


def _skill_text(skill: dict) -> str:
    """``Name (level): kw1, kw2``, leaving out whichever parts are missing."""
    name, level = _text(skill.get("name")), _text(skill.get("level"))
    keywords = ", ".join(_strings(skill.get("keywords")))
    label = f"{name} ({level})" if name and level else name or level
    return f"{label}: {keywords}" if label and keywords else label or keywords


def _certificate_lines(certificates: list[dict]) -> list[str]:
    """``- Name, Issuer (2020-05)`` for each certificate."""
    lines = []
    for certificate in certificates:
        text = _joined(_text(certificate.get("name")), _text(certificate.get("issuer")))
        date = _date(certificate.get("date"))
        if text:
            lines.append(f"{text} ({date})" if date else text)
    return _bullets(lines)


def _language_lines(languages: list[dict]) -> list[str]:
    """``- English (Native speaker)`` for each language."""
    lines = []
    for entry in languages:
        language, fluency = _text(entry.get("language")), _text(entry.get("fluency"))
        if language:
            lines.append(f"{language} ({fluency})" if fluency else language)
    return _bullets(lines)


def _project_block(entry: dict) -> list[str]:
    """One project: name and period, description, highlights, roles and keywords."""
    name, period = _text(entry.get("name")), _period(entry)
    description = _paragraphs(entry.get("description"))
    highlights = _strings(entry.get("highlights"))
    if not (name or description or highlights):
        return []
    lines = [f"### {_joined(name or 'Project', f'({period})' if period else '', sep=' ')}"]
    if description:
        lines += ["", description]
    if highlights:
        lines += ["", *_bullets(highlights)]
    details = [
        f"{label}: {', '.join(values)}"
        for label, values in (
            ("Roles", _strings(entry.get("roles"))),
            ("Keywords", _strings(entry.get("keywords"))),
        )
        if values
    ]
    if details:
        lines += ["", *details]
    return lines


# --- jobs: JSON Resume job schema -----------------------------------------------------------


def job_to_parts(data: dict) -> dict:
    """Title, company, location, Markdown text and typed requirements of a JSON job posting."""
    if not isinstance(data, dict):
        raise FormatError("JSON job file is not a job description: expected an object")
    title = _text(data.get("title"))
    if not title:
        raise FormatError("JSON job file has no 'title'")
    description = _paragraphs(data.get("description"))
    qualifications = _strings(data.get("qualifications"))
    skills = [s for s in (_skill_text(x) for x in _entries(data, "skills", "JSON job")) if s]
    if not (description or qualifications or skills):
        raise FormatError("JSON job file has no description, qualifications or skills")
    company = _text(data.get("company")) or None
    location = _job_location(data)
    tools = [t for t in (_tool_text(x) for x in _entries(data, "tools", "JSON job")) if t]
    experience = _text(data.get("experience"))
    requirements = _requirements(
        [*qualifications, *([f"Experience: {experience}"] if experience else []), *skills], tools
    )
    text = _render(
        [
            [f"# {title}"],
            _job_facts(data, company, location),
            _section("Description", [[description]]),
            _section("Responsibilities", [_bullets(_strings(data.get("responsibilities")))]),
            _section("Qualifications", [_bullets(qualifications)]),
            _section("Skills", [_bullets(skills)]),
            _section("Tools", [_bullets(tools)]),
            _section("Projects", [_bullets(_job_projects(data))]),
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
    location = _object(data, "location", "JSON job")
    parts: list[str] = []
    for key in ("city", "region", "countryCode"):
        part = _text(location.get(key))
        if part and part.casefold() not in {p.casefold() for p in parts}:
            parts.append(part)
    place = ", ".join(parts)
    remote = data.get("remote")
    if remote is True:
        mode = "Remote"
    else:
        level = _text(remote)
        mode = f"Remote ({level})" if level and level.casefold() not in {"none", "no"} else ""
    return _joined(place, mode, sep=" · ") or None


def _job_facts(data: dict, company: str | None, location: str | None) -> list[str]:
    """``Label: value`` lines for the posting's short facts, skipping missing ones."""
    facts = (
        ("Company", company or ""),
        ("Location", location or ""),
        ("Employment type", _text(data.get("type"))),
        ("Experience", _text(data.get("experience"))),
        ("Salary", _text(data.get("salary"))),
        ("Posted", _text(data.get("date"))),
    )
    return [f"{label}: {value}" for label, value in facts if value]


def _tool_text(tool: dict) -> str:
    """``Name: kw1, kw2`` for one tool."""
    name, keywords = _text(tool.get("name")), ", ".join(_strings(tool.get("keywords")))
    return f"{name}: {keywords}" if name and keywords else name or keywords


def _job_projects(data: dict) -> list[str]:
    """``Name: description`` for each project (plain strings are accepted too)."""
    projects = data.get("projects")
    if not isinstance(projects, list):
        return []
    lines = []
    for project in projects:
        if isinstance(project, dict):
            line = _joined(_text(project.get("name")), _text(project.get("description")), sep=": ")
        else:
            line = _text(project)
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
