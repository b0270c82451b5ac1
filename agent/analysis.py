"""One match analysis: prompt, grounded JSON schema, generation, validation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.evidence import profile_passages, related_passages
from agent.inputs import InputError
from agent.validation import validate_analysis
from prompts import render_chat, template_version
from schemas.analysis import MatchAnalysis
from schemas.inputs import CandidateProfile, JobPosting
from schemas.output_schema import build_analysis_schema
from serving.engine import Engine, EngineInfo, GenerationRequest
from serving.metrics import RequestMetrics, SpeculationCounters

PROMPT = "analysis"
MIN_ANSWER_TOKENS = 512


@dataclass(frozen=True)
class AnalysisResult:
    job: JobPosting
    candidate: CandidateProfile
    analysis: MatchAnalysis
    raw_output: str
    metrics: RequestMetrics
    speculation: SpeculationCounters
    engine: EngineInfo
    prompt_version: str

    def speculation_dict(self) -> dict[str, Any]:
        spec = self.engine.speculation
        return {
            "method": spec.method,
            "num_speculative_tokens": spec.num_speculative_tokens if spec.enabled else None,
            "prompt_lookup_max": spec.prompt_lookup_max if spec.enabled else None,
            "prompt_lookup_min": spec.prompt_lookup_min if spec.enabled else None,
            **self.speculation.to_dict(),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": {"title": self.job.title},
            "candidate": {"id": self.candidate.id},
            "requirements": [r.model_dump() for r in self.job.requirements],
            "analysis": self.analysis.model_dump(),
            "metrics": {**self.metrics.to_dict(), "speculation": self.speculation_dict()},
            "provenance": {
                "engine": self.engine.name,
                "model": self.engine.model,
                "prompt_version": self.prompt_version,
                **self.engine.extra,
            },
        }


def build_request(job: JobPosting, candidate: CandidateProfile) -> GenerationRequest:
    """The chat prompt and the per-request JSON schema for this job and candidate."""
    passages = profile_passages(candidate.text)
    allowed = {r.id: related_passages(r, passages) for r in job.requirements}
    messages = render_chat(
        PROMPT,
        job=job,
        candidate=candidate,
        requirements=job.requirements,
        allowed_quotes=allowed,
    )
    return GenerationRequest(
        messages=messages, json_schema=build_analysis_schema(job.requirements, allowed)
    )


def check_fits_context(engine: Engine, request: GenerationRequest) -> None:
    """Refuse inputs that leave the model no room to answer, before generating."""
    prompt_tokens = engine.count_prompt_tokens(request.messages)
    limit = engine.info.max_model_len - MIN_ANSWER_TOKENS
    if prompt_tokens > limit:
        raise InputError(
            f"job and candidate are too long together: {prompt_tokens} prompt tokens, the model "
            f"takes {limit} (context {engine.info.max_model_len} minus {MIN_ANSWER_TOKENS} for "
            f"the answer); shorten the files"
        )


def analyze(job: JobPosting, candidate: CandidateProfile, engine: Engine) -> AnalysisResult:
    """Generate and validate one analysis; raises AnalysisInvalidError on a bad answer."""
    request = build_request(job, candidate)
    check_fits_context(engine, request)
    before = engine.speculation_counters()
    generation = engine.generate(request)
    speculation = engine.speculation_counters() - before
    analysis = validate_analysis(generation.text, job.requirements, candidate.text)
    return AnalysisResult(
        job=job,
        candidate=candidate,
        analysis=analysis,
        raw_output=generation.text,
        metrics=generation.metrics,
        speculation=speculation,
        engine=engine.info,
        prompt_version=template_version(PROMPT),
    )
