"""Small text helpers shared by requirement extraction and evidence retrieval."""

from __future__ import annotations

import hashlib
import re
import threading

import snowballstemmer

_WORD = re.compile(r"[a-z0-9][a-z0-9+#.]*")
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "for",
        "from",
        "has",
        "have",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "such",
        "that",
        "the",
        "their",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
        "you",
        "your",
        "we",
        "who",
        "what",
        "which",
        "all",
        "any",
        "other",
        "etc",
        "e.g",
        "i.e",
        "experience",
        "experienced",
        "ability",
        "able",
        "strong",
        "good",
        "excellent",
        "knowledge",
        "skills",
        "skill",
        "work",
        "working",
        "years",
        "year",
        "plus",
        "must",
        "should",
        "including",
        "using",
        "use",
        "well",
        "new",
        "team",
    ]
)


# Words a requirement wraps around what it asks ("Minimum 3 years ... with tools like X is
# mandatory"): not skills, so they are not terms to look for, and a quote sharing only these
# does not show the requirement.
FILLER_WORDS = frozenset(
    "ability able advanced basic both bonus competency concepts demonstrated desired expert "  # noqa: SIM905
    "expertise familiar familiarity good great hands highly ideal ideally least level like "
    "mandatory minimum more most multiple one particularly points preferably preferred prior "
    "proficiency proficient proven range related required similar solid strong technologies "
    "tools understanding user various variety whether wide excellent including using working "
    "experience knowledge skills years year plus looking seeking based candidate".split()
)


def content_words(text: str) -> set[str]:
    """Lower-cased words minus stopwords, with trailing dots stripped (``node.js`` kept)."""
    words = {w.rstrip(".") for w in _WORD.findall(text.lower())}
    return {w for w in words if w and w not in STOPWORDS and len(w) > 1}


_STEMMERS = threading.local()  # a Snowball stemmer keeps state while it works: one per thread


def stem(word: str) -> str:
    """The Snowball stem of a lower-cased word ("administrator" and "administration" alike)."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word.lower())


def telling_stems(text: str) -> set[str]:
    """Stems of the words that say what a text is about (no stopwords, no filler words)."""
    return {stem(w) for w in content_words(text) - FILLER_WORDS}


def strip_bullet(line: str) -> str:
    """Remove leading list markers and whitespace, keep the rest verbatim."""
    return re.sub(r"^\s*(?:[-*•·▪◦–]+|\d+[.)])\s*", "", line).strip()


def content_hash(text: str) -> str:
    """The short hash provenance records for an input (first 16 hex digits of SHA-256)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]
