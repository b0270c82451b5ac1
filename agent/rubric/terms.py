"""Skill terms a requirement and a profile share, so the model need not guess them.

* :func:`mentioned_terms` - the requirement's skill terms that the profile also mentions.
* :func:`term_coverage` - the share of the requirement's distinct terms the profile mentions.
* :func:`named_terms` - the requirement's names (Kubernetes, PostgreSQL, C#), not plain words.

A plain word also matches the profile's other forms of it, by its Snowball stem
("administration" in the requirement, "Administrator" in the profile); names and acronyms
("Go", "AWS", "C#") match only as written, or as a listed synonym.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.rubric.text_tools import FILLER_WORDS, content_words, stem

_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("javascript", "js", "ecmascript"),
    ("typescript", "ts"),
    ("postgresql", "postgres", "postgressql", "pgsql"),
    ("kubernetes", "k8s"),
    ("machine learning", "ml"),
    ("artificial intelligence", "ai"),
    ("natural language processing", "nlp"),
    ("amazon web services", "aws"),
    ("google cloud platform", "google cloud", "gcp"),
    ("microsoft azure", "azure"),
    ("ci/cd", "ci", "continuous integration", "continuous delivery", "continuous deployment"),
    ("react", "reactjs", "react.js"),
    ("node.js", "node", "nodejs"),
    ("vue.js", "vue", "vuejs"),
    ("angular", "angularjs", "angular.js"),
    ("mongodb", "mongo"),
    ("elasticsearch", "elastic search"),
    ("sql server", "mssql", "ms sql"),
    ("c#", "csharp", "c sharp"),
    (".net", "dotnet"),
    ("objective-c", "objc"),
    ("user experience", "ux"),
    ("user interface", "ui"),
)
_GROUP_OF = {variant: group for group in _SYNONYMS for variant in group}
_PLAIN_WORD = re.compile(r"[A-Za-z][a-z]{3,}")  # a word, not a name such as "Go" or "AWS"
_LETTERS = re.compile(r"[A-Za-z]+")
_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])\.?[A-Za-z0-9](?:[A-Za-z0-9+#.\-]*[A-Za-z0-9+#])?",
)
_LEFT_EDGE = r"(?<![A-Za-z0-9+#])(?<![A-Za-z0-9]\.)"
_RIGHT_EDGE = r"(?![A-Za-z0-9+#])(?!\.[A-Za-z0-9])"


def _variant_pattern(variant: str, *, plural: bool) -> str:
    """Regex body for one spelling: separators flexible, optionally a plural 's' tolerated.

    With ``plural``, "API" also matches "APIs" and "APIs" also matches "API".
    """
    parts = [re.escape(part) for part in re.split(r"[\s-]+", variant) if part]
    body = r"[\s-]*".join(parts)
    if not plural or not variant.isalpha() or len(variant) < 3:
        return body
    if len(variant) >= 4 and variant.endswith("s") and not variant.endswith("ss"):
        body = re.escape(variant[:-1])
    return body + r"(?:e?s)?"


def _term_regex(term: str) -> re.Pattern[str]:
    """Case-insensitive whole-token regex matching ``term`` or any of its synonyms."""
    group = _GROUP_OF.get(term.lower())
    if group:
        bodies = sorted((_variant_pattern(v, plural=False) for v in group), key=len, reverse=True)
    else:
        bodies = [_variant_pattern(term, plural=True)]
    return re.compile(rf"{_LEFT_EDGE}(?:{'|'.join(bodies)}){_RIGHT_EDGE}", re.IGNORECASE)


_PHRASES = re.compile(
    rf"{_LEFT_EDGE}(?:"
    + "|".join(re.escape(v) for v in sorted(_GROUP_OF, key=len, reverse=True))
    + rf"){_RIGHT_EDGE}",
    re.IGNORECASE,
)


def _is_term(token: str) -> bool:
    """A known synonym, or a non-stopword token that looks like a skill or technology.

    Tokens with capitals, digits or ``+ # .`` need two characters; plain lower-case words
    need three. Tokens without letters (numbers, versions) never count.
    """
    if token.lower() in _GROUP_OF:
        return True
    if token.lower() in FILLER_WORDS:
        return False
    if not re.search(r"[A-Za-z]", token) or not content_words(token):
        return False
    looks_technical = token != token.lower() or re.search(r"[\d+#.]", token) is not None
    return looks_technical or len(token) > 2


def _requirement_terms(requirement_text: str) -> list[str]:
    """Candidate terms of a requirement in order of appearance (synonym phrases first)."""
    spans: list[tuple[int, int]] = []
    for match in _PHRASES.finditer(requirement_text):
        spans.append(match.span())
    for match in _TOKEN.finditer(requirement_text):
        if not any(s < match.end() and match.start() < e for s, e in spans):
            spans.append(match.span())
    terms = [requirement_text[s:e] for s, e in sorted(spans)]
    return [t for t in terms if _is_term(t) or "-" in t]


def _term_key(term: str) -> str:
    """Deduplication key: the synonym group's main spelling, or the lower-cased term."""
    return _GROUP_OF.get(term.lower(), (term.lower(),))[0]


def mentioned_terms(requirement_text: str, profile_text: str) -> list[str]:
    """The requirement's skill terms that the profile also mentions, in requirement order.

    Matching is case-insensitive and whole-token ("Java" does not match "JavaScript"),
    synonyms count as the same term ("K8s" = "Kubernetes") and the requirement's spelling
    is reported. A hyphenated term that is not found whole ("Python-based") falls back to
    its parts.
    """
    found: list[str] = []
    seen: set[str] = set()
    for term in _requirement_terms(requirement_text):
        for candidate in _term_candidates(term, profile_text):
            key = _term_key(candidate)
            if key not in seen:
                seen.add(key)
                found.append(candidate)
    return found


@lru_cache(maxsize=32)
def _profile_stems(profile_text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _LETTERS.findall(profile_text))


def _mentions(term: str, profile_text: str) -> bool:
    """The profile names the term: as written or a synonym, or, for a plain word, another form."""
    if _term_regex(term).search(profile_text):
        return True
    if term.lower() in _GROUP_OF or not _PLAIN_WORD.fullmatch(term):
        return False
    return stem(term) in _profile_stems(profile_text)


def _term_candidates(term: str, profile_text: str) -> list[str]:
    """The term itself if the profile mentions it, else its mentioned hyphen-parts, if any."""
    if _is_term(term) and _mentions(term, profile_text):
        return [term]
    if "-" not in term or term.lower() in _GROUP_OF:
        return []
    parts = [part for part in term.split("-") if _is_term(part)]
    return [part for part in parts if _mentions(part, profile_text)]


_CLAUSE_START = re.compile(r"(?:^|[.:;!?•]|\s-)\s*$")


def named_terms(requirement_text: str) -> list[str]:
    """The requirement's terms that are names rather than plain words: a known technology
    (a synonym group), a token with capitals inside, digits or ``+ # .`` (SQL, C#, Node.js),
    or a capitalized word within a clause ("in Kubernetes"), not at its start ("Experience")."""
    names: list[str] = []
    for match in _TOKEN.finditer(requirement_text):
        token = match.group()
        if not _is_term(token):
            continue
        inner_capital = token[1:] != token[1:].lower()
        technical = inner_capital or re.search(r"[\d+#.]", token) is not None
        capitalized = token[0].isupper() and not _CLAUSE_START.search(
            requirement_text[: match.start()]
        )
        if token.lower() in _GROUP_OF or technical or capitalized:
            names.append(token)
    return names


def names_mentioned(requirement_text: str, profile_text: str) -> int:
    """How many of the requirement's names the profile mentions (or a synonym of them)."""
    return sum(bool(_term_candidates(n, profile_text)) for n in named_terms(requirement_text))


def names_none(requirement_facts: dict[str, object]) -> bool:
    """From a requirement's facts: it names things the profile never names (an answer, not
    a gap in the evidence)."""
    return bool(requirement_facts.get("names")) and not requirement_facts.get("names_mentioned", 1)


def term_count(requirement_text: str) -> int:
    """How many distinct skill terms the requirement has (synonyms counted once)."""
    return len({_term_key(term) for term in _requirement_terms(requirement_text)})


# Wording that claims less than experience: "Familiar with Flutter and willing to learn more".
_HEDGE = re.compile(
    r"\b(?:familiar(?:ity)? with|basic (?:knowledge|understanding|exposure)|exposure to|"
    r"(?:willing|eager|keen) to learn|currently learning|learning to|beginner|introductory|"
    r"some (?:experience|exposure|knowledge|familiarity)|interested in|coursework)\b",
    re.IGNORECASE,
)
HEDGED_CREDIT = 0.5  # a term the profile names only with such wording counts half
# ... unless the requirement asks no more than that ("Basic (user level) knowledge of Linux")
_ASKS_LITTLE = re.compile(r"\b(?:basic|familiar(?:ity)?|exposure|awareness)\b", re.IGNORECASE)


@lru_cache(maxsize=32)
def _profile_lines(profile_text: str) -> tuple[str, ...]:
    """The profile's sentences and list items, where a hedge applies to what it names."""
    parts = (re.split(r"(?<=[.!?])\s+", line) for line in profile_text.splitlines())
    return tuple(p for group in parts for p in group if p.strip())


def _firmly_named(term: str, profile_text: str) -> bool:
    """Some sentence names the term without hedging ("Flutter developer for 7 years")."""
    return any(
        _term_candidates(term, line) and not _HEDGE.search(line)
        for line in _profile_lines(profile_text)
    )


def hedged_terms(requirement_text: str, profile_text: str) -> list[str]:
    """The requirement's terms the profile names only with hedged wording ("familiar with")."""
    return [
        term
        for term in mentioned_terms(requirement_text, profile_text)
        if not _firmly_named(term, profile_text)
    ]


def term_coverage(requirement_text: str, profile_text: str) -> float:
    """Share of the requirement's skill terms that the profile mentions (0 when it has none).

    Synonyms are one term ("JS or JavaScript"), and a hyphenated term is one term, covered when
    the profile names it or one of its parts ("Python-based" by "Python"). A term the profile
    names only as "familiar with", "basic knowledge of", "willing to learn" and the like counts
    half, unless that is all the requirement asks ("Basic knowledge of Linux"): between 0 and 1.
    """
    hedged = 1.0 if _ASKS_LITTLE.search(requirement_text) else HEDGED_CREDIT
    credit: dict[str, float] = {}
    for term in _requirement_terms(requirement_text):
        key = _term_key(term)
        found = _term_candidates(term, profile_text)
        value = 0.0
        if found:
            firm = any(_firmly_named(f, profile_text) for f in found)
            value = 1.0 if firm else hedged
        credit[key] = max(credit.get(key, 0.0), value)
    if not credit:
        return 0.0
    return round(sum(credit.values()) / len(credit), 3)
