"""JSON Resume candidates, turned into readable Markdown.

The analysis quotes the candidate's text verbatim, so the JSON is first rendered as plain Markdown
and that text is what gets analysed. Contact details (email, phone, URLs, profiles, street
address) are left out so the analysis stays blind to them, and so are graduation dates and
scores, which hint at age.
"""

from __future__ import annotations

from agent.ingest.json_common import (
    FormatError,
    bullets,
    entry_list,
    joined,
    month_of,
    object_at,
    paragraphs,
    period_of,
    plain_text,
    render_sections,
    section,
    skill_text,
    strings,
)

_RESUME_CORE = ("basics", "work", "education", "skills")


def resume_to_markdown(data: dict) -> tuple[str, str]:
    """(display name, Markdown text) of a JSON Resume; the name is '' when the resume has none."""
    if not isinstance(data, dict):
        raise FormatError("the JSON is not a JSON Resume: expected an object")
    if not any(data.get(key) for key in _RESUME_CORE):
        raise FormatError("the JSON is not a JSON Resume: no basics, work, education or skills")
    basics = object_at(data, "basics", "JSON Resume")
    name = plain_text(basics.get("name"))
    headline = _basics_lines(basics)
    sections = _resume_sections(data, basics)
    if not any(sections) and not plain_text(basics.get("label")):
        raise FormatError("JSON Resume has nothing to analyse besides contact details")
    return name, render_sections([[f"# {name or 'Candidate'}"], headline, *sections])


def _resume_sections(data: dict, basics: dict) -> list[list[str]]:
    """The resume's Markdown sections after the headline, empty ones included as []."""

    def entries(key: str) -> list[dict]:
        return entry_list(data, key, "JSON Resume")

    return [
        section("Summary", [[paragraphs(basics.get("summary"))]]),
        section("Work experience", [_role_block(e, "name") for e in entries("work")]),
        section("Volunteering", [_role_block(e, "organization") for e in entries("volunteer")]),
        section("Education", [_education_block(e) for e in entries("education")]),
        section("Skills", [_skill_lines(entries("skills"))]),
        section("Certificates", [_certificate_lines(entries("certificates"))]),
        section("Languages", [_language_lines(entries("languages"))]),
        section("Projects", [_project_block(e) for e in entries("projects")]),
    ]


def _basics_lines(basics: dict) -> list[str]:
    """The headline (label) and city/country; contact details are deliberately left out."""
    location = basics.get("location")
    place = ""
    if isinstance(location, dict):
        place = joined(plain_text(location.get("city")), plain_text(location.get("countryCode")))
    lines = [plain_text(basics.get("label")), f"Location: {place}" if place else ""]
    return "\n\n".join(line for line in lines if line).splitlines()


def _role_block(entry: dict, organisation_key: str) -> list[str]:
    """One job or volunteer role: heading with position, organisation and period, then details."""
    organisation = plain_text(entry.get(organisation_key)) or plain_text(entry.get("company"))
    heading = joined(plain_text(entry.get("position")), organisation)
    period = period_of(entry)
    details: list[str] = []
    for paragraph in (paragraphs(entry.get("description")), paragraphs(entry.get("summary"))):
        if paragraph:
            details += ["", paragraph]
    highlights = strings(entry.get("highlights"))
    if highlights:
        details += ["", *bullets(highlights)]
    if not (heading or details):
        return []
    return [f"### {joined(heading or 'Role', f'({period})' if period else '', sep=' ')}", *details]


def _education_block(entry: dict) -> list[str]:
    """Degree, field and institution, and courses; dates and scores are left out."""
    study, area = plain_text(entry.get("studyType")), plain_text(entry.get("area"))
    degree = f"{study} in {area}" if study and area else study or area
    heading = joined(degree, plain_text(entry.get("institution")))
    courses = strings(entry.get("courses"))
    if not heading and not courses:
        return []
    lines = [f"### {heading or 'Education'}"]
    if courses:
        lines += ["", f"Courses: {', '.join(courses)}"]
    return lines


def _skill_lines(skills: list[dict]) -> list[str]:
    """``- Name (level): kw1, kw2`` for each skill."""
    return bullets([line for line in (skill_text(skill) for skill in skills) if line])


def _certificate_lines(certificates: list[dict]) -> list[str]:
    """``- Name, Issuer (2020-05)`` for each certificate."""
    lines = []
    for certificate in certificates:
        text = joined(plain_text(certificate.get("name")), plain_text(certificate.get("issuer")))
        date = month_of(certificate.get("date"))
        if text:
            lines.append(f"{text} ({date})" if date else text)
    return bullets(lines)


def _language_lines(languages: list[dict]) -> list[str]:
    """``- English (Native speaker)`` for each language."""
    lines = []
    for entry in languages:
        language, fluency = plain_text(entry.get("language")), plain_text(entry.get("fluency"))
        if language:
            lines.append(f"{language} ({fluency})" if fluency else language)
    return bullets(lines)


def _project_block(entry: dict) -> list[str]:
    """One project: name and period, description, highlights, roles and keywords."""
    name, period = plain_text(entry.get("name")), period_of(entry)
    description = paragraphs(entry.get("description"))
    highlights = strings(entry.get("highlights"))
    if not (name or description or highlights):
        return []
    lines = [f"### {joined(name or 'Project', f'({period})' if period else '', sep=' ')}"]
    if description:
        lines += ["", description]
    if highlights:
        lines += ["", *bullets(highlights)]
    details = [
        f"{label}: {', '.join(values)}"
        for label, values in (
            ("Roles", strings(entry.get("roles"))),
            ("Keywords", strings(entry.get("keywords"))),
        )
        if values
    ]
    if details:
        lines += ["", *details]
    return lines
