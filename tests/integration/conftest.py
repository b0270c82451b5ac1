"""Integration tests share real vLLM engines: at most one alive at a time, started once each.

Start-up takes about a minute, so tests ask the pool for the configuration they need and the
pool keeps the engine until a test needs another configuration (files are ordered to switch once).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from agent.ingest.files import load_candidate, load_job
from agent.service import prepare_request
from serving.config import EngineSettings, SpeculationConfig
from serving.engine import GenerationRequest
from serving.vllm_engine import VLLMEngine
from tests.conftest import candidate_path, job_path

# Lets a test run a function in vLLM's model worker (collective_rpc pickles it); vLLM reads it
# when its processes start, so it is set before any engine starts. Tests only.
os.environ.setdefault("VLLM_ALLOW_INSECURE_SERIALIZATION", "1")

NGRAM = SpeculationConfig()
OFF = SpeculationConfig(method="off")
# (job, candidate): strong and weak matches from the sample data's pairs.json
PAIRS = [
    ("job_008", "cand_033"),
    ("job_008", "cand_056"),
    ("job_014", "cand_037"),
    ("job_005", "cand_051"),
]


class EnginePool:
    def __init__(self) -> None:
        self._engine: VLLMEngine | None = None
        self._spec: SpeculationConfig | None = None

    def get(self, spec: SpeculationConfig) -> VLLMEngine:
        if self._engine is not None and self._spec == spec:
            return self._engine
        self.close()
        settings = EngineSettings().model_copy(update={"speculation": spec})
        self._engine, self._spec = VLLMEngine(settings), spec
        return self._engine

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
        self._engine, self._spec = None, None


@pytest.fixture(scope="session")
def engines() -> Iterator[EnginePool]:
    pool = EnginePool()
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def pair_inputs() -> list[tuple]:
    return [(load_job(job_path(job)), load_candidate(candidate_path(cand))) for job, cand in PAIRS]


@pytest.fixture(scope="session")
def pair_requests(engines, pair_inputs) -> list[GenerationRequest]:
    """The analysis requests of the sample pairs, as the graph builds them."""
    engine = engines.get(NGRAM)
    return [prepare_request(job, candidate, engine) for job, candidate in pair_inputs]


@pytest.fixture(scope="session")
def speculative_outputs(engines, pair_requests):
    """The sample requests generated once, concurrently, with n-gram speculation on."""
    engine = engines.get(NGRAM)
    before = engine.speculation_counters()
    generations = engine.generate_many(pair_requests)
    return generations, engine.speculation_counters() - before
