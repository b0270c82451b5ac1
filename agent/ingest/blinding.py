"""Blinding: what the model must not see about a person, as edits of the visible profile.

Name, email, phone, street address, profile links and handles, photo links, date of birth and
age, gender words and pronouns, marital status and nationality are replaced by neutral
placeholders ("[name]", "[email]", ...). None of them says whether a person can do a job, and
language models are known to rank identical resumes differently by the name on them. The
recruiter still reads the original: quotes map back (see :mod:`agent.ingest.masking`).

Names come from the candidate record (display name), a JSON Resume's ``basics.name``, a
``Name:`` line, and the profile's first line when it is shaped like a name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import phonenumbers

from agent.ingest.masking import Edit

NAME = "[name]"
_LABEL = (
    r"^[ \t]*(?:[-*#>]+[ \t]*)?(?:\*\*|__)?{label}(?:\*\*|__)?[ \t]*[:：][ \t]*(?:\*\*|__)?[ \t]*"
)


def _labelled(labels: str) -> re.Pattern[str]:
    """A ``Label: value`` line (bullets, bold and headings allowed); group ``v`` is the value."""
    return re.compile(_LABEL.format(label=f"(?:{labels})") + r"(?P<v>[^\n]*\S)", re.I | re.M)


_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_PHOTO_URL = re.compile(r"\S+\.(?:jpe?g|png|gif|webp|heic)\b\S*", re.I)
_URL = re.compile(
    r"(?:https?://|www\.)[^\s)>\]]+|"
    r"\b(?:linkedin\.com|github\.com|gitlab\.com|twitter\.com|x\.com|facebook\.com|"
    r"instagram\.com|medium\.com|behance\.net|dribbble\.com|stackoverflow\.com)/[^\s)>\]]*",
    re.I,
)
_HANDLE = re.compile(r"(?<![\w@.])@[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?")
_STREET = re.compile(
    r"\b\d{1,6}[A-Za-z]?\s+(?:[A-Z][\w'.-]*\s+){1,4}"
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|"
    r"Terrace|Parkway|Pkwy|Square|Sq|Highway|Hwy)\b\.?"
    r"(?:,?\s*(?:Apt|Apartment|Suite|Ste|Unit|#)\.?\s*[\w-]+)?"
)
_ADDRESS_LINE = _labelled(r"(?:home |street |postal |mailing )?address")
_BIRTH_LINE = _labelled(r"date of birth|birth ?date|d\.?o\.?b\.?|born|place of birth")
_BORN = re.compile(r"\bborn\b[^\n.;]*?\b(?:19|20)\d\d\b", re.I)
_AGE_LINE = _labelled(r"age")
_AGE = re.compile(r"\b(?:aged? \d{1,2}\b|\d{1,2}[ -]years?[ -]old\b)", re.I)
_GENDER_LINE = _labelled(r"gender|sex|pronouns")
_MARITAL_LINE = _labelled(r"marital status|family status|civil status|marital")
_NATIONALITY_LINE = _labelled(r"nationality|citizenship|place of origin")
_TRAIT_LINE = _labelled(r"ethnicity|race|religion|disability|veteran status")
_PRONOUN = re.compile(r"\b(?:he|she|him|her|his|hers|himself|herself)\b", re.I)
_GENDER_WORD = re.compile(
    r"\b(?:male|female|woman|women|mother|father|wife|husband|girl|boy|mom|dad|"
    r"gentleman|lady|ladies|sorority|fraternity|maternity|paternity)\b",
    re.I,
)
_TITLE = re.compile(r"\b(?:Mrs?|Ms|Miss|Mx)\b\.?[ \t]+[A-Z][\w'’-]+")
_MARITAL_WORD = re.compile(r"\b(?:married|divorced|widowed|widow|widower)\b", re.I)
_NAME_WORD = r"[A-Z][A-Za-z'’-]*\.?"
_NAME_SHAPE = re.compile(rf"{_NAME_WORD}(?:[ \t]+{_NAME_WORD}){{1,3}}")
_WORD_CHAR = re.compile(r"\w")  # digits inside a word (a commit hash) are no phone number
_NAME_LINE = _labelled(r"(?:full |candidate )?name")
_DECORATION = re.compile(r"^[#>*_\[\s-]+|[*_\]\s]+$")
# words of a resume's headings and titles, never of a name ("**PROFESSIONAL EXPERIENCE**")
_NOT_NAME_WORDS = (
    "resume résumé curriculum vitae cv profile summary professional experience work history "
    "employment education skills technical contact objective about projects certifications "
    "references languages interests achievements awards publications personal details "
    "information career senior junior lead staff principal software engineer developer "
    "manager analyst designer consultant scientist architect director intern assistant "
    "specialist administrator officer coordinator executive head candidate applicant"
)
_NOT_NAME = frozenset(_NOT_NAME_WORDS.split())


def header_name(text: str) -> str | None:
    """The name a profile opens with: a ``Name:`` line near the top, or a first line such as
    ``**ADAM ERICKSON**`` or ``# Jane Doe`` (below a "RESUME" line, if any): two to four
    capitalised words, none of them a word of a resume's headings or job titles. No list of
    first names decides it: such lists know far fewer of some groups' names (Faker's missed 14%
    of the Asian men's names of the fairness data and none of the white men's), so blinding by
    them would itself be biased."""
    top = "\n".join(text.splitlines()[:8])
    if match := _NAME_LINE.search(top):
        return _DECORATION.sub("", match["v"]) or None
    for first in [line for line in text.splitlines() if line.strip()][:3]:
        line = _DECORATION.sub("", first)
        words = [w.strip(".").lower() for w in line.split()]
        if all(w in _NOT_NAME for w in words):
            continue  # "**RESUME**" above the name
        if not _NAME_SHAPE.fullmatch(line) or any(w in _NOT_NAME for w in words):
            return None
        return line
    return None


def candidate_names(
    text: str, display_name: str | None = None, structured: dict[str, Any] | None = None
) -> list[str]:
    """Every name the candidate goes by, longest first."""
    names = [display_name, header_name(text)]
    basics = (structured or {}).get("basics")
    if isinstance(basics, dict) and isinstance(basics.get("name"), str):
        names.append(basics["name"])
    found = {" ".join(n.split()) for n in names if n and n.strip() and len(n.strip()) > 1}
    return sorted(found, key=len, reverse=True)


def _name_pattern(name: str) -> re.Pattern[str]:
    """The name as written, in any case, spacing or order ("Doe, Jane")."""
    words = [re.escape(w) for w in name.split()]
    forms = [r"[ \t]+".join(words)]
    if len(words) > 1:
        forms.append(words[-1] + r",?[ \t]+" + r"[ \t]+".join(words[:-1]))
    return re.compile(rf"(?<![\w]){'|'.join(f'(?:{f})' for f in forms)}(?![\w])", re.I)


def _matches(pattern: re.Pattern[str], text: str, kind: str, placeholder: str) -> list[Edit]:
    return [Edit(m.start(), m.end(), placeholder, kind) for m in pattern.finditer(text)]


def _values(pattern: re.Pattern[str], text: str, kind: str, placeholder: str) -> list[Edit]:
    """The value of each ``Label: value`` line."""
    return [Edit(m.start("v"), m.end("v"), placeholder, kind) for m in pattern.finditer(text)]


def _phones(text: str) -> list[Edit]:
    # POSSIBLE, not VALID: a made-up (555) number is still a phone number to hide
    matcher = phonenumbers.PhoneNumberMatcher(text, "US", leniency=phonenumbers.Leniency.POSSIBLE)
    return [
        Edit(m.start, m.end, "[phone]", "phone")
        for m in matcher
        if not _WORD_CHAR.match(text[m.start - 1 : m.start])
        and not _WORD_CHAR.match(text[m.end : m.end + 1])
    ]


def blinding_edits(text: str, names: Iterable[str]) -> list[Edit]:
    """What to replace in ``text`` (the visible profile) so that none of it reaches the model."""
    edits: list[Edit] = []
    for name in names:
        edits += _matches(_name_pattern(name), text, "name", NAME)
    edits += _values(_NAME_LINE, text, "name", NAME)
    edits += _matches(_EMAIL, text, "email", "[email]")
    edits += _matches(_IMAGE, text, "photo", "[photo]")
    edits += _matches(_PHOTO_URL, text, "photo", "[photo]")
    edits += _matches(_URL, text, "link", "[link]")
    edits += _matches(_HANDLE, text, "handle", "[handle]")
    edits += _phones(text)
    edits += _values(_ADDRESS_LINE, text, "address", "[address]")
    edits += _matches(_STREET, text, "address", "[address]")
    edits += _values(_BIRTH_LINE, text, "date_of_birth", "[date of birth]")
    edits += _matches(_BORN, text, "date_of_birth", "born [date of birth]")
    edits += _values(_AGE_LINE, text, "age", "[age]")
    edits += _matches(_AGE, text, "age", "[age]")
    edits += _values(_GENDER_LINE, text, "gender", "[gender]")
    edits += _matches(_PRONOUN, text, "pronoun", "[pronoun]")
    edits += _matches(_GENDER_WORD, text, "gender", "[gender]")
    edits += _matches(_TITLE, text, "name", NAME)
    edits += _values(_MARITAL_LINE, text, "marital_status", "[marital status]")
    edits += _matches(_MARITAL_WORD, text, "marital_status", "[marital status]")
    edits += _values(_NATIONALITY_LINE, text, "nationality", "[nationality]")
    edits += _values(_TRAIT_LINE, text, "protected_trait", "[withheld]")
    return edits
