"""Checking the model's answer: schema, one assessment per requirement in order, grounded quotes."""

from __future__ import annotations

from pydantic import ValidationError

from agent.evidence import quote_is_grounded
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
    """Parse and check the answer; raise AnalysisInvalidError listing what is wrong."""
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
    for assessment in analysis.assessments:
        for quote in assessment.evidence:
            if not quote_is_grounded(quote, profile_text):
                problems.append(
                    f"{assessment.requirement_id}: quote not found verbatim in the profile: "
                    f"{quote[:80]!r}"
                )
        if not assessment.evidence and assessment.verdict not in UNSUPPORTED_VERDICTS:
            problems.append(
                f"{assessment.requirement_id}: verdict {assessment.verdict!r} needs evidence"
            )
    if problems:
        raise AnalysisInvalidError(problems, raw_output)
    return analysis
