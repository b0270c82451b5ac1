"""Is the model's free text something a recruiter would read, or degenerate filler?

A small model, its verdicts and quotes constrained by the schema, often fills the free-text
fields with a label (``not_met``), punctuation (``...``), a fragment (``Mett``), a loop
(``2014 - 2018] 2014 - 2018] …``) or a copy of the requirement. :func:`junk_reason` names what is
wrong with such text, or returns None for text worth showing.
"""

from __future__ import annotations

import re
from collections import Counter

from agent.rubric.facts import WORD_NUMBERS
from agent.rubric.text_tools import telling_stems
from schemas.analysis import VERDICTS

MIN_WORDS = 4  # fewer words than this say nothing a verdict does not already say
MIN_DISTINCT_SHARE = 0.5  # distinct words / words: below it, the text goes round in circles
REPEATED_NGRAM = 3  # a 3-word sequence ...
REPEATS = 3  # ... occurring this often is a loop
LONG_NGRAM = 4  # a 4-word sequence twice is a loop too ("no evidence either way, no evidence …")
COPIED_WORDS = 8  # this many words in a row from the profile: a copy, not an assessment
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d+")
# a sentence does not end on these: text that does stopped in the middle
_DANGLING = frozenset(
    "a an the and or but nor of in on at to for from with by as into than that which who whose "  # noqa: SIM905
    "whom where when while if is are was were be been has have had will would should can very "
    "such including".split()
)
_LABELS = (
    {v.replace("_", " ") for v in VERDICTS}
    | set(VERDICTS)
    | {
        "no evidence",
        "not met",
        "yes",
        "no",
        "n/a",
        "none",
        "unknown",
    }
)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _normalized(text: str) -> str:
    return " ".join(_words(text))


def _grams(words: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def junk_reason(
    text: str,
    *,
    echo_of: str | None = None,
    source: str | None = None,
    limit: int | None = None,
    instructions: str | None = None,
    about: str | None = None,
) -> str | None:
    """Why ``text`` is not worth showing (None when it is).

    ``echo_of`` is the text it must not merely copy (the requirement it reasons about);
    ``source`` the profile, which an assessment quotes as evidence, not as its reasoning;
    ``limit`` the field's length bound, where text without an ending was cut off;
    ``instructions`` the prompt's own text (its example answers), which is not about this profile;
    ``about`` what the text must name something of (a reasoning: its requirement and quotes), so
    "A dedicated developer with a passion for innovative solutions" under "AWS certification"
    is not taken for an assessment.
    """
    words = _words(text)
    if not words:
        return "no words"
    flat = _normalized(text)
    if flat in _LABELS or flat.replace(" ", "_") in VERDICTS:
        return "a verdict label"
    if len(words) < MIN_WORDS:
        return f"fewer than {MIN_WORDS} words"
    if echo_of is not None and flat in _normalized(echo_of):
        return "a copy of the requirement"
    if instructions is not None and f" {flat} " in f" {_normalized(instructions)} ":
        return "copied from the instructions"
    grams = _grams(words, REPEATED_NGRAM)
    if grams and grams.most_common(1)[0][1] >= REPEATS:
        return "a repeated phrase"
    long_grams = _grams(words, LONG_NGRAM)
    if long_grams and long_grams.most_common(1)[0][1] >= 2:
        return "a repeated phrase"
    profile = f" {_normalized(source)} " if source is not None else ""
    if profile and f" {flat} " in profile:
        return "copied from the profile"  # a whole line of it ("Agile development process")
    if profile and len(words) >= COPIED_WORDS:
        windows = (" ".join(words[i : i + COPIED_WORDS]) for i in range(len(words) - 7))
        if any(f" {w} " in profile for w in windows):
            return "copied from the profile"
    if limit is not None and len(text.strip()) >= limit - 1 and text.strip()[-1:] not in ".!?)":
        return "cut off at the length limit"
    if text.rstrip()[-1:] in ",;:-" or (text.rstrip()[-1:].isalpha() and words[-1] in _DANGLING):
        return "unfinished"  # "A highly skilled PHP Laravel developer who"
    if len(set(words)) / len(words) < MIN_DISTINCT_SHARE:
        return "repetitive"
    if sum(len(w) for w in words) < len(text.strip()) / 3:
        return "mostly symbols"
    if about is not None and not telling_stems(text) & telling_stems(about):
        return "says nothing about what it assesses"
    return None


_NUMBER_WORDS = {word: str(number) for word, number in WORD_NUMBERS.items()}
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w+#.-]*[\w+#]|[a-z]+[A-Z0-9+#][\w+#.-]*)")
_NEGATION = re.compile(r"\b(?:not|no|none|lacks?|without|missing|never|neither|nor)\b|n't\b", re.I)
_SUPPORTED = ("met", "partial")


def _numbers(text: str) -> set[str]:
    found = set(re.findall(r"\d+(?:\.\d+)?", text))
    return found | {_NUMBER_WORDS[w] for w in _words(text) if w in _NUMBER_WORDS}


def unfounded_reason(
    text: str,
    known: str,
    verdict: str | None = None,
    *,
    scope: str | None = None,
    profile: str | None = None,
) -> str | None:
    """Why ``text`` says what neither the profile nor the job says, or contradicts its verdict.

    ``known`` is everything the text may draw on (the profile and the requirements). A number
    or a name (a capitalised or technical word inside a sentence) that ``known`` lacks was made
    up (a 135M model wrote "Four years building Python services at Acme", the prompt's example,
    for a profile with neither); a reasoning under "met" or "partial" that denies, or one under
    "not met" or "no evidence" that denies nothing, says the opposite of its verdict.
    ``scope`` is what a reasoning is about (its requirement and quotes): a name from elsewhere
    ("does not mention Node.js" under "CSS preprocessors") is about another requirement.
    A denial that names what ``profile`` says ("does not mention JavaScript" for a JavaScript
    developer) is false.
    """
    if made_up := _numbers(text) - _numbers(known):
        return f"a number the profile does not give ({sorted(made_up)[0]})"
    said, about = known.lower(), (scope if scope is not None else known).lower()
    names = _NAME.findall(text)
    for name in names:
        if name.lower().strip(".-") not in said:
            return f"a name the profile does not give ({name})"
        if name.lower().strip(".-") not in about:
            return f"a name from elsewhere ({name})"
    denies = _NEGATION.search(text) is not None
    if denies and profile is not None:
        for name in names:
            if re.search(rf"(?<!\w){re.escape(name.strip('.-'))}(?!\w)", profile, re.I):
                return f"denies what the profile says ({name})"
    if verdict is not None and denies == (verdict in _SUPPORTED):
        return "contradicts its verdict"
    return None
