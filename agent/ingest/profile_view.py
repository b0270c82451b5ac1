"""One profile, three readers: the recruiter's visible text, the model's screened and blinded
text, and the map between them. The analysis graph asks for this once per analysis."""

from __future__ import annotations

from dataclasses import dataclass, replace

from agent.ingest.blinding import blinding_edits, candidate_names
from agent.ingest.injection import hidden_instructions, screening_edits
from agent.ingest.masking import MaskedText, apply_edits
from agent.ingest.visible_text import visible_and_hidden
from schemas.analysis import MatchAnalysis
from schemas.inputs import CandidateProfile

BLIND = "blind:"


@dataclass(frozen=True)
class ProfileView:
    visible: str  # what a human reader of the profile sees: quotes in the report come from it
    masked: MaskedText  # .text: what the model reads
    hidden: list[str]  # hidden fragments removed before anyone reads the profile
    blinded: dict[str, int]  # kind -> how many were replaced (never the values)
    flags: list[str]  # attempts to steer the screener, by kind

    @property
    def text(self) -> str:
        return self.masked.text


def profile_view(candidate: CandidateProfile, *, blind: bool = True) -> ProfileView:
    raw = candidate.text
    visible, hidden = visible_and_hidden(raw)
    screening = screening_edits(visible)
    edits = list(screening)
    if blind:
        names = candidate_names(visible, candidate.display_name, candidate.structured)
        edits += [replace(e, kind=BLIND + e.kind) for e in blinding_edits(visible, names)]
    masked = apply_edits(visible, edits)
    flags = sorted({e.kind for e in screening})
    if hidden:
        flags.append("hidden_text")
        if hidden_instructions(hidden):
            flags.append("hidden_instructions")
    return ProfileView(visible, masked, hidden, masked.counts(BLIND), sorted(flags))


def unmask_quotes(analysis: MatchAnalysis, masked: MaskedText) -> MatchAnalysis:
    """The analysis with every quote in the visible profile's own words (names and all)."""

    def back(quotes: list[str]) -> list[str]:
        out = []
        for quote in quotes:
            original = masked.to_original(quote)
            if original is None or original not in masked.original:
                raise ValueError(f"quote does not map back to the profile: {quote[:80]!r}")
            out.append(original)
        return list(dict.fromkeys(out))

    assessments = [
        a.model_copy(update={"evidence": back(a.evidence)}) for a in analysis.assessments
    ]
    ratings = {
        name: rating.model_copy(update={"evidence": back(rating.evidence)})
        for name, rating in analysis.ratings().items()
    }
    return analysis.model_copy(update={"assessments": assessments, **ratings})
