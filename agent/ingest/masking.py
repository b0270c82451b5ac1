"""The profile the model reads: the visible profile with spans replaced, and the way back.

Blinding (names, contacts, ...) and screening (instructions to the screener, fake role tags)
both describe what they change as :class:`Edit` spans of the visible profile. :func:`apply_edits`
makes the text the model reads and keeps where each edit came from, so a quote the model picks
from its text maps back to the exact words of the visible profile the recruiter reads.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Edit:
    """Replace ``original[start:end]`` with ``replacement``; ``kind`` says why (for counts)."""

    start: int
    end: int
    replacement: str
    kind: str


@dataclass(frozen=True)
class _Piece:
    """Where an edit landed: ``text[start:end]`` stands for ``original[orig_start:orig_end]``."""

    start: int
    end: int
    orig_start: int
    orig_end: int


@dataclass(frozen=True)
class MaskedText:
    original: str
    text: str
    edits: tuple[Edit, ...] = ()
    _pieces: tuple[_Piece, ...] = field(default=(), repr=False)

    def counts(self, prefix: str = "") -> dict[str, int]:
        """How many edits of each kind (kinds starting with ``prefix``, which is dropped)."""
        kinds = Counter(e.kind[len(prefix) :] for e in self.edits if e.kind.startswith(prefix))
        return dict(sorted(kinds.items()))

    def _to_original(self, position: int, *, is_end: bool) -> int:
        delta = 0
        for piece in self._pieces:
            if position < piece.start or (is_end and position == piece.start):
                break
            if position < piece.end or (not is_end and position == piece.end == piece.start):
                return piece.orig_end if is_end else piece.orig_start
            delta = piece.orig_end - piece.end
        return position + delta

    def to_original(self, quote: str) -> str | None:
        """The visible profile's words for a quote of ``text`` (None if it is not in it)."""
        at = self.text.find(quote)
        if at < 0:
            return None
        start = self._to_original(at, is_end=False)
        end = self._to_original(at + len(quote), is_end=True)
        return self.original[start:end].strip()


def _resolve(edits: list[Edit]) -> list[Edit]:
    """Non-overlapping edits in order: of two that overlap, the one starting first (the longer
    one at a tie) wins, so a removed line swallows the name inside it."""
    kept: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.start, -(e.end - e.start))):
        if edit.end <= edit.start and not edit.replacement:
            continue
        if kept and edit.start < kept[-1].end:
            continue
        kept.append(edit)
    return kept


def apply_edits(original: str, edits: list[Edit]) -> MaskedText:
    """The text with every (resolved) edit applied, and how to map quotes back."""
    kept = _resolve(edits)
    parts: list[str] = []
    pieces: list[_Piece] = []
    cursor = length = 0
    for edit in kept:
        parts.append(original[cursor : edit.start])
        length += edit.start - cursor
        parts.append(edit.replacement)
        pieces.append(_Piece(length, length + len(edit.replacement), edit.start, edit.end))
        length += len(edit.replacement)
        cursor = edit.end
    parts.append(original[cursor:])
    return MaskedText(original, "".join(parts), tuple(kept), tuple(pieces))
