"""What JSON Resume candidates and job postings share: parsing, shape checks, Markdown helpers.

A JSON document is rendered as plain Markdown and that text is what gets analysed (and quoted).
Unknown keys are ignored; a section of the wrong type is a FormatError.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FULL_DATE = re.compile(r"^(\d{4}-\d{2})-\d{2}$")


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


def plain_text(value: Any) -> str:
    """A scalar as one clean line of text; anything else (objects, arrays, null) as ''."""
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, str | int | float):
        return " ".join(str(value).split())
    return ""


def paragraphs(value: Any) -> str:
    """A free-text field with its line breaks kept and each line tidied; '' if not text."""
    if not isinstance(value, str):
        return ""
    lines = [" ".join(line.split()) for line in value.replace("\r\n", "\n").split("\n")]
    return "\n".join(lines).strip()


def strings(value: Any) -> list[str]:
    """The non-empty scalar items of a list, as text ([] when ``value`` is not a list)."""
    if not isinstance(value, list):
        return []
    return [item for item in (plain_text(v) for v in value) if item]


def entry_list(data: dict, key: str, where: str) -> list[dict]:
    """The objects listed under ``key``; a FormatError when the value is not a list of objects."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise FormatError(f"{where} '{key}' must be a list, not {_json_type(value)}")
    if not all(isinstance(item, dict) for item in value):
        raise FormatError(f"{where} '{key}' must be a list of objects")
    return value


def object_at(data: dict, key: str, where: str) -> dict:
    """The object under ``key`` ({} when absent); a FormatError when it is not an object."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FormatError(f"{where} '{key}' must be an object, not {_json_type(value)}")
    return value


def month_of(value: Any) -> str:
    """An ISO 8601 date shortened to year-month (``2016-01-01`` -> ``2016-01``)."""
    text = plain_text(value)
    match = _FULL_DATE.match(text)
    return match.group(1) if match else text


def period_of(entry: dict) -> str:
    """``2016-01 – Present``, ``2014-03 – 2016-01``, ``until 2016-01`` or ''."""
    start, end = month_of(entry.get("startDate")), month_of(entry.get("endDate"))
    if start:
        return f"{start} – {end or 'Present'}"
    return f"until {end}" if end else ""


def bullets(items: list[str]) -> list[str]:
    """Markdown bullet lines."""
    return [f"- {item}" for item in items]


def joined(*parts: str, sep: str = ", ") -> str:
    """The non-empty parts joined with ``sep``."""
    return sep.join(part for part in parts if part)


def section(title: str, blocks: list[list[str]]) -> list[str]:
    """A ``## title`` section from non-empty blocks of lines, or [] when there are none."""
    blocks = [block for block in blocks if any(line.strip() for line in block)]
    if not blocks:
        return []
    lines = [f"## {title}"]
    for block in blocks:
        lines += ["", *block]
    return lines


def render_sections(sections: list[list[str]]) -> str:
    """Sections separated by blank lines."""
    return "\n\n".join("\n".join(section) for section in sections if section).strip()


def skill_text(skill: dict) -> str:
    """``Name (level): kw1, kw2``, leaving out whichever parts are missing."""
    name, level = plain_text(skill.get("name")), plain_text(skill.get("level"))
    keywords = ", ".join(strings(skill.get("keywords")))
    label = f"{name} ({level})" if name and level else name or level
    return f"{label}: {keywords}" if label and keywords else label or keywords
