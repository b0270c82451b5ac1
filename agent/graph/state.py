"""The graph's state: a TypedDict; Pydantic models only at the boundaries."""

from __future__ import annotations

from typing import Any, TypedDict

from agent.ingest.masking import MaskedText
from schemas.analysis import MatchAnalysis
from schemas.inputs import CandidateProfile, JobPosting, Requirement
from schemas.report import MatchReport
from serving.engine import GenerationRequest, Message
from serving.metrics import RequestMetrics, SpeculationCounters


class AnalysisFailure(TypedDict):
    errors: list[str]
    last_output: str | None
    attempts: int


class AnalysisState(TypedDict, total=False):
    # inputs
    job: JobPosting
    candidate: CandidateProfile
    requirements: list[Requirement]  # optional: given by the caller, else extracted
    # normalize
    visible_profile: str  # what the recruiter reads; the report's quotes are its words
    profile: MaskedText  # what the model reads (.text), screened and blinded, and the way back
    hidden_text: list[str]
    blinded: dict[str, int]
    flags: list[str]
    facts: dict[str, Any]
    # render / generate / repair
    request: GenerationRequest
    messages: list[Message]
    raw_output: str | None
    metrics: RequestMetrics
    speculation: SpeculationCounters
    attempts: int
    # validate / outcome
    errors: list[str]
    analysis: MatchAnalysis | None
    report: MatchReport
    failure: AnalysisFailure
