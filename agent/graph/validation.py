"""Checking the model's answer: schema, one assessment per requirement in order, grounded quotes."""

from __future__ import annotations

from pydantic import ValidationError

from agent.rubric.evidence import quote_is_grounded
from schemas.analysis import UNSUPPORTED_VERDICTS, MatchAnalysis
from schemas.inputs import Requirement


class AnalysisInvalidError(ValueError):
    """The model's answer failed validation; carries every problem found and the raw output."""

    def __init__(self, problems: list[str], raw_output: str) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
        self.raw_output = raw_output


def validate_analysis(
    raw_output: str, requirements: list[Requirement], profile_text: str
) -> MatchAnalysis:
    """Parse and check the answer; raise AnalysisInvalidError listing what is wrong.

    ``profile_text`` is the *visible* profile: a quote of hidden text fails like an invented one.
    """
    try:
        analysis = MatchAnalysis.model_validate_json(raw_output)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in err['loc']) or 'output'}: {err['msg']}"
            for err in exc.errors()
        ]
        raise AnalysisInvalidError(problems, raw_output) from None
    problems: list[str] = []
    got = [a.requirement_id for a in analysis.assessments]
    expected = [r.id for r in requirements]
    if got != expected:
        problems.append(f"assessments must cover {expected} once each, in order; got {got}")
    quoted = [(a.requirement_id, a.evidence) for a in analysis.assessments]
    quoted += [(name, rating.evidence) for name, rating in analysis.ratings().items()]
    for where, quotes in quoted:
        for quote in quotes:
            if not quote_is_grounded(quote, profile_text):
                problems.append(
                    f"{where}: quote not found verbatim in the visible profile: {quote[:80]!r}"
                )
    for assessment in analysis.assessments:
        if not assessment.evidence and assessment.verdict not in UNSUPPORTED_VERDICTS:
            problems.append(
                f"{assessment.requirement_id}: verdict {assessment.verdict!r} needs evidence"
            )
    if problems:
        raise AnalysisInvalidError(problems, raw_output)
    return analysis
