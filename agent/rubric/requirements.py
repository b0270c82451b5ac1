"""Requirements of a job, extracted deterministically from its text.

The text is cut into sections at its headings (also a heading glued to the end of the line
before it, as scraped postings have: "Apache httpdRoles and Responsibilities"). Items (list-like
lines) under requirement-like headings (Requirements, Qualifications, Skills, "we need someone
who has:") come first, then items elsewhere that ask for something (a degree, years, "experience
with", "a plus"), then items under neutral headings, then responsibilities; benefits, salary and
company blurbs are skipped. A short line is a heading only when it reads as one (Title Case or
heading words such as "Requirements"), so "Strong communication skills" stays an item. A word
cut at its start by scraping ("ull stack") is mended from the posting's own words or the item
dropped; a run of short tool lists under one heading becomes one requirement. Near-duplicates
are dropped and the list is capped.
"""

from __future__ import annotations

import re

from agent.rubric.text_tools import content_hash, content_words, strip_bullet
from schemas.inputs import Dimension, Requirement, RequirementKind, RequirementsSource

MAX_REQUIREMENTS = 8
ASKING = 0.5  # rank of an asking item outside the requirement sections: after them, before the rest
MAX_ITEM_WORDS = 40
TOOL_ITEM_WORDS = 6  # items this short, listing names, are tools ...
TOOL_LIST_ITEMS = 4  # ... and this many in one section make one requirement
_GLUED_HEADING = re.compile(
    r"(?<=[a-z0-9)])((?:Key |Main )?(?:Roles and Responsibilities|Responsibilities|Requirements|"
    r"Qualifications|Benefits|Skills|What you.?ll (?:do|need)|About (?:us|the role)))\s*:?\s*$"
)
_HEADING_WORDS = re.compile(
    r"requirements|qualifications|responsibilities|duties|benefits|nice to have|must.have|"
    r"what you.?ll (?:do|need|bring)|what we offer|about (?:us|the role|you)|who you are|"
    r"you bring|to the table|\btools\b|tech stack",
    re.I,
)
# An item that asks for something, wherever it stands ("3-5 years development experience with
# HTML5" listed under Responsibilities after the duties): ranked with the requirements.
_ASKS = re.compile(
    r"\bdegree\b|bachelor|master|\d+\s*\+?\s*(?:-\s*\d+\s*)?(?:years?|yrs)|"
    r"experience (?:with|in|of)|knowledge of|familiar|proficien|understanding of|"
    r"\ba plus\b|\brequired\b|desirabl|preferred|certif|must have",
    re.I,
)
_DUTY_VERB = re.compile(  # "Understand business requirements" is a duty, not a heading
    r"(?:understand|participate|provide|write|fix|build|develop|design|manage|maintain|create|"
    r"support|ensure|work|help|lead|own|drive|deliver|collaborate|review|test|monitor)\b",
    re.I,
)
_TEMPLATE_JUNK = re.compile(r"[{}]")
_BULLET = re.compile(r"(?:[-*•·▪◦–]|\d+[.)])\s")
_REQUIRED = re.compile(
    r"requirement|qualification|skill|must.have|you have|you bring|you.?ll need|who you are|"
    r"someone who|looking for|experience|education|tools|technolog|nice to have|preferred",
    re.I,
)
_RESPONSIBILITY = re.compile(r"responsibilit|what you.?ll do|you get to do|duties|role", re.I)
_SKIPPED = re.compile(
    r"benefit|perk|about|salary|compensation|location|job type|industry|we offer|why join|"
    r"information|equal opportunit|how to apply",
    re.I,
)


_NICE = re.compile(
    r"nice.to.have|preferred|\bbonus\b|\bplus\b|desirabl|an advantage|would be great|ideally|"
    r"optional|not required",
    re.I,
)
_DIMENSIONS: list[tuple[Dimension, re.Pattern[str]]] = [
    (
        "education",
        re.compile(
            r"degree|bachelor|master|\bms/|ph\.?d|b\.?tech|\bb\.e\b|m\.?tech|\bmca\b|"
            r"diploma|graduate|certif|\bug\b|\bpg\b",
            re.I,
        ),
    ),
    (
        "location",
        re.compile(
            r"\bremote\b|relocat|on.?site|based in|commut|\blocation\b|\btravel\b|hybrid", re.I
        ),
    ),
    (
        "seniority",
        re.compile(
            r"\d+\s*\+?\s*(?:-|to)?\s*\d*\s*(?:years?|yrs)|\bsenior\b|\blead\b|leadership|"
            r"manag(?:e|ing) (?:a )?team|mentor",
            re.I,
        ),
    ),
    (
        "domain_experience",
        re.compile(
            r"industry|domain|sector|financ|bank|health|retail|e-?commerce|insurance|telecom|"
            r"customer|stakeholder",
            re.I,
        ),
    ),
]


def classify(text: str, *, under_nice_heading: bool = False) -> tuple[RequirementKind, Dimension]:
    """Must-have or nice-to-have, and the dimension, from the requirement's own words."""
    kind: RequirementKind = (
        "nice_to_have" if under_nice_heading or _NICE.search(text) else ("must_have")
    )
    for dimension, pattern in _DIMENSIONS:
        if pattern.search(text):
            return kind, dimension
    return kind, "skills"


def _title_case(text: str) -> bool:
    """Every word of four letters or more capitalised ("Education / Skill Set"), brackets aside;
    not an item that is merely short ("Strong communication skills")."""
    words = re.sub(r"\([^)]*\)", " ", text).split()
    return bool(words) and all(w[:1].isupper() for w in words if len(w) >= 4 and w.isalpha())


def _heading_text(line: str) -> str | None:
    """The heading's text when ``line`` is a heading, else None."""
    stripped = line.strip()
    text = stripped.strip("#*: ").strip()
    if not text:
        return None
    if stripped.startswith("#") or (stripped.endswith(":") and len(text.split()) <= 16):
        return text
    is_short = len(text.split()) <= 6 and not text.endswith((".", ","))
    is_item = line[:1].isspace() or _BULLET.match(line) or _DUTY_VERB.match(text)
    looks_like_one = _title_case(text) or _HEADING_WORDS.search(text)
    if is_short and not is_item and text[:1].isupper() and looks_like_one:
        return text
    return None


def _priority(heading: str) -> int | None:
    """0 requirement-like, 1 neutral, 2 responsibilities, None skipped."""
    if _SKIPPED.search(heading) and not _REQUIRED.search(heading):
        return None
    if _REQUIRED.search(heading):
        return 0
    return 2 if _RESPONSIBILITY.search(heading) else 1


def _unglued(lines: list[str]) -> list[str]:
    """Lines with a heading glued to their end split off onto a line of its own."""
    out: list[str] = []
    for line in lines:
        glued = _GLUED_HEADING.search(line)
        if glued and line[: glued.start()].strip():
            out += [line[: glued.start()].rstrip(), glued.group(1)]
        else:
            out.append(line)
    return out


def _mended(text: str, job_text: str) -> str | None:
    """The item as a recruiter would write it: template braces dropped ("JavaScript {{or
    CoffeeScript}}"), a scraped-off word start restored where the posting has the whole phrase
    ("ull stack" → "Full stack"); None for a fragment the posting never uses otherwise ("pected
    ratio …"), which is scraping debris."""
    text = " ".join(_TEMPLATE_JUNK.sub("", text).split())
    words = text.split()
    if len(words) < 2 or not words[0][:1].islower():
        return text
    if not words[0].isalpha():  # "work: 1 year", "e.g." — not a cut word
        return text
    fragment, following = words[0], re.escape(words[1])
    whole = re.search(rf"\b([A-Za-z]+{fragment})\s+{following}\b", job_text, re.I)
    if whole is not None:
        return " ".join([whole.group(1).capitalize(), *words[1:]])
    elsewhere = re.findall(rf"\b{fragment}\b", job_text, re.I)
    return text if len(elsewhere) > 1 else None


def _name_words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,/;]+", text) if w]


_PROSE_WORDS = re.compile(r"\b(?:in|with|of|for|to|the|a|an|and|or|at|on|as)\b", re.I)


def _is_tool_item(text: str) -> bool:
    """A short list of names: "Git/Gerrit / Jenkins / PyCharm", "Linux, Shell Scripting",
    "ExtJS"; not a sentence ("Experience with AJAX.", "Degree in Computer Science")."""
    words = _name_words(text)
    if not words or len(words) > TOOL_ITEM_WORDS or text.rstrip().endswith("."):
        return False
    if _PROSE_WORDS.search(text) or not (len(words) <= 2 or re.search(r"[,/]", text)):
        return False
    names = sum(1 for w in words if w[:1].isupper() or any(c in w for c in ".+#"))
    return names >= len(words) / 2


def _section_items(
    items: list[tuple[str, bool]], heading: str | None, *, asks: bool = False
) -> list[tuple[str, bool]]:
    """A section's requirements: its tool lists as one (when it has several), then its other
    items long enough to say something. Under a heading that asks for things ("Requirements",
    "Nice to have"), a lone short name ("REST APIs", "Docker") is a requirement of its own."""
    tools = [(t, nice) for t, nice in items if _is_tool_item(t)]
    merged: list[tuple[str, bool]] = []
    if len(tools) >= TOOL_LIST_ITEMS:
        merged = [(f"{heading or 'Tools'}: " + "; ".join(t for t, _ in tools), tools[0][1])]
        items = [item for item in items if item not in tools]
    return merged + [
        (t, n)
        for t, n in items
        if 3 <= len(t.split()) <= MAX_ITEM_WORDS or (asks and (t, n) in tools)
    ]


def _ranked_items(job_text: str) -> list[tuple[str, bool]]:
    """List-like lines by section priority, each with whether its heading says nice-to-have."""
    lines = job_text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]  # the title
    lines = _unglued(lines)
    buckets: dict[float, list[tuple[str, bool]]] = {0: [], ASKING: [], 1: [], 2: []}
    sections: list[tuple[int, str | None, list[tuple[str, bool]]]] = [(1, None, [])]
    nice_heading = False
    for raw in lines:
        if not raw.strip():
            continue
        heading = _heading_text(raw)
        if heading is not None:
            priority = _priority(heading)
            nice_heading = bool(_NICE.search(heading))
            sections.append((-1 if priority is None else priority, heading, []))
            continue
        text = _mended(strip_bullet(raw), job_text)
        if text:
            sections[-1][2].append((text, nice_heading))
    for priority, heading, items in sections:
        if priority >= 0:
            asks_for = priority == 0 or bool(heading and _NICE.search(heading))
            for item in _section_items(items, heading, asks=asks_for):
                asks = _ASKS.search(item[0]) and not _DUTY_VERB.match(item[0])
                buckets[ASKING if priority > 0 and asks else priority].append(item)
    return [item for key in sorted(buckets) for item in buckets[key]]


def _asking_sentences(job_text: str, limit: int) -> list[str]:
    """For a job written as prose: its sentences that ask for something, in order."""
    body = job_text.split("\n", 1)[1] if job_text.startswith("# ") else job_text
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", body) if len(s.split()) > 4]
    asking = [s for s in sentences if _REQUIRED.search(s) or re.search(r"\bmust\b|\bplus\b", s)]
    return (asking or sentences)[:limit]


def section_requirements(job_text: str, limit: int = MAX_REQUIREMENTS) -> list[Requirement]:
    """Items under the job's headings, requirement-like first; [] for a job written as prose."""
    chosen: list[tuple[str, bool]] = []
    seen: list[set[str]] = []
    for text, nice in _ranked_items(job_text):
        words = content_words(text)
        if not words or any(len(words & s) / len(words | s) > 0.6 for s in seen):
            continue
        chosen.append((text.rstrip(".;"), nice))
        seen.append(words)
        if len(chosen) == limit:
            break
    return [
        make_requirement(i, text, under_nice_heading=nice)
        for i, (text, nice) in enumerate(chosen, 1)
    ]


def prose_fallback(job_text: str, limit: int = MAX_REQUIREMENTS) -> list[Requirement]:
    """Without a model: a prose job's sentences that ask for something."""
    return [make_requirement(i, t) for i, t in enumerate(_asking_sentences(job_text, limit), 1)]


def extract_requirements(job_text: str, limit: int = MAX_REQUIREMENTS) -> list[Requirement]:
    """Up to ``limit`` requirements, ids R1..Rn, without a model (sections, else prose)."""
    return requirements_from_text(job_text, limit)[0]


def requirements_from_text(
    job_text: str, limit: int = MAX_REQUIREMENTS
) -> tuple[list[Requirement], RequirementsSource]:
    """Requirements found without a model, and where: the job's sections, or its prose."""
    from_sections = section_requirements(job_text, limit)
    if from_sections:
        return from_sections, "sections"
    return prose_fallback(job_text, limit), "prose"


def make_requirement(
    index: int, text: str, *, under_nice_heading: bool = False, kind: RequirementKind | None = None
) -> Requirement:
    """Requirement ``R<index>`` with its kind (unless given) and dimension classified; stray
    punctuation a scraped posting leaves before the text (". Proficiency in ...") is dropped."""
    text = text.lstrip(" .,;:")
    found_kind, dimension = classify(text, under_nice_heading=under_nice_heading)
    return Requirement(id=f"R{index}", text=text, kind=kind or found_kind, dimension=dimension)


def requirements_hash(requirements: list[Requirement]) -> str:
    """The hash provenance and the store record for a list of requirements."""
    return content_hash("\n".join(r.model_dump_json() for r in requirements))
