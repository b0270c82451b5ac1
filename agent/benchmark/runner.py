"""Running the workload on one engine at three load levels, and comparing configurations."""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from agent.benchmark.configs import BenchConfig
from agent.benchmark.sla import Probe, SlaResult, SlaSearch, search_max_qps
from agent.benchmark.stats import summarize
from agent.benchmark.workload import WorkItem, Workload
from serving.config import EngineSettings
from serving.engine import Engine, Generation, GenerationRequest
from serving.metrics import SpeculationCounters

LEVELS = ("concurrency_1", "fixed_qps", "max_concurrency")
WARMUP = GenerationRequest(
    messages=[{"role": "user", "content": 'Answer {"ok": true} as JSON.'}],
    json_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
    max_tokens=16,
)


@dataclass
class ConfigRun:
    config: BenchConfig
    levels: dict[str, dict[str, Any]] = field(default_factory=dict)
    outputs: list[list[int]] = field(default_factory=list)  # concurrency_1, in workload order
    speculation: SpeculationCounters = field(default_factory=SpeculationCounters)
    engine_start_s: float = 0.0
    sla: SlaResult | None = None


Progress = Callable[[Generation], None]


async def _tracked(engine: Engine, item: WorkItem, progress: Progress) -> Generation:
    generation = await engine.agenerate(item.request)
    progress(generation)
    return generation


async def _sequential(
    engine: Engine, items: list[WorkItem], progress: Progress
) -> list[Generation]:
    return [await _tracked(engine, item, progress) for item in items]


async def _poisson(
    engine: Engine, items: list[WorkItem], qps: float, seed: int, progress: Progress
) -> list[Generation]:
    """Requests arrive as a Poisson process at ``qps`` (same seed, same arrivals, every config)."""
    tasks = [
        asyncio.ensure_future(_tracked(engine, item, progress))
        async for item in _arrivals(items, qps, seed)
    ]
    return list(await asyncio.gather(*tasks))


async def _arrivals(items: list[WorkItem], qps: float, seed: int) -> AsyncIterator[WorkItem]:
    """Each item at its Poisson arrival time (the same times for the same seed)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    arrival = 0.0
    for item in items:
        arrival += rng.expovariate(qps)
        delay = arrival - (time.perf_counter() - start)
        if delay > 0:
            await asyncio.sleep(delay)
        yield item


async def _poisson_within(
    engine: Engine, items: list[WorkItem], qps: float, seed: int, ceiling_s: float
) -> list[Generation] | None:
    """As ``_poisson``, but gives up, cancelling what still runs, as soon as the P90 is sure to
    be over ``ceiling_s``: once ``late_needed`` requests took (or have been waiting) longer
    than that. None then."""
    needed = late_needed(len(items))
    sent: list[tuple[float, asyncio.Task[Generation]]] = []

    async def send() -> None:
        async for item in _arrivals(items, qps, seed):
            sent.append(
                (time.perf_counter(), asyncio.ensure_future(engine.agenerate(item.request)))
            )

    def late() -> int:
        now = time.perf_counter()
        return sum(
            (task.result().metrics.e2e_s if task.done() else now - at) > ceiling_s
            for at, task in sent
            if not task.done() or task.exception() is None
        )

    sender = asyncio.ensure_future(send())
    while not (sender.done() and all(task.done() for _, task in sent)):
        if late() >= needed:
            sender.cancel()
            for _, task in sent:
                task.cancel()
            await asyncio.gather(sender, *(t for _, t in sent), return_exceptions=True)
            return None
        await asyncio.sleep(0.2)
    return [task.result() for _, task in sent]


def late_needed(requests: int) -> int:
    """How many requests over the ceiling make the P90 (numpy's linear interpolation) over it:
    the P90 is at least the value at position floor(0.9 × (n - 1)) of the sorted latencies."""
    return requests - math.floor(0.9 * (requests - 1))


def run_probe(
    engine: Engine, items: list[WorkItem], *, qps: float, seed: int, ceiling_s: float
) -> tuple[list[Generation] | None, float]:
    """One SLA probe: Poisson arrivals at ``qps``; None when it stopped early (over the ceiling)."""
    start = time.perf_counter()
    generations = asyncio.run(_poisson_within(engine, items, qps, seed, ceiling_s))
    return generations, time.perf_counter() - start


async def _all_at_once(
    engine: Engine, items: list[WorkItem], progress: Progress
) -> list[Generation]:
    return list(await asyncio.gather(*(_tracked(engine, i, progress) for i in items)))


def run_level(
    engine: Engine,
    items: list[WorkItem],
    level: str,
    *,
    qps: float,
    seed: int,
    progress: Progress | None = None,
) -> tuple[list[Generation], float, SpeculationCounters]:
    """Run ``items`` at one load level; ``progress`` hears of each request as it finishes.

    The speculation figures are the sum of each request's own."""
    progress = progress or (lambda _generation: None)
    start = time.perf_counter()
    if level == "concurrency_1":
        coro = _sequential(engine, items, progress)
    elif level == "fixed_qps":
        coro = _poisson(engine, items, qps, seed, progress)
    else:
        coro = _all_at_once(engine, items, progress)
    generations = asyncio.run(coro)
    wall = time.perf_counter() - start
    return generations, wall, sum((g.speculation for g in generations), SpeculationCounters())


class _Engines:
    """The engine of one config, made ready before each level and each SLA probe.

    Each starts with an empty prefix cache. Suffix decoding also remembers every earlier
    answer, and the levels and probes send the same requests again, so a suffix config gets a
    fresh engine each time: its drafts come only from other requests' answers, as in use."""

    def __init__(self, config: BenchConfig, base: EngineSettings) -> None:
        self.settings = config.settings(base)
        self.remembers = config.speculation.method == "suffix"
        self.engine: Engine | None = None
        self.used = False

    def start(self) -> Engine:
        from serving.factory import open_engine

        self.close()
        self.engine = open_engine(self.settings)
        self.engine.generate(WARMUP)
        self.used = False
        return self.engine

    def ready(self) -> Engine:
        engine = self.start() if self.engine is None or (self.remembers and self.used) else None
        engine = engine or self.engine
        assert engine is not None
        _reset_cache(engine)
        self.used = True
        return engine

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def run_config(
    config: BenchConfig,
    workload: Workload,
    base: EngineSettings,
    *,
    levels: tuple[str, ...],
    qps: Callable[[ConfigRun], float],  # asked with this run's levels so far
    seed: int,
    say: Callable[[str], None],
    sla: SlaSearch | None = None,
) -> ConfigRun:
    """Start (or reach) the engine for ``config``, warm it up, and run every level in turn;
    then, with ``sla``, search the highest arrival rate whose P90 meets its ceiling."""
    run = ConfigRun(config)
    say(f"[{config.name}] starting engine…")
    started = time.perf_counter()
    engines = _Engines(config, base)
    try:
        first = engines.start()
        run.engine_start_s = round(time.perf_counter() - started, 1)
        items = workload.items(first)
        if engines.remembers:
            say(f"[{config.name}] it remembers earlier answers: a fresh engine for each level")
        for level in levels:
            rate = qps(run) if level == "fixed_qps" else 0.0
            say(
                f"[{config.name}] {level}: {len(items)} requests"
                + (f" at {rate:.3f} req/s" if rate else "")
                + "…"
            )
            generations, wall, spec = run_level(
                engines.ready(),
                items,
                level,
                qps=rate,
                seed=seed,
                progress=_reporter(config, level, len(items), say),
            )
            summary = summarize([g.metrics for g in generations], wall)
            summary.update(_spec_summary(spec))
            if rate:
                summary["qps"] = round(rate, 4)
            run.levels[level] = summary
            run.speculation = run.speculation + spec
            if level == "concurrency_1":
                run.outputs = [g.token_ids for g in generations]
        if sla is not None:
            run.sla = _search(engines, items, run, sla, seed=seed, say=say)
    finally:
        engines.close()
    return run


def _search(
    engines: _Engines,
    items: list[WorkItem],
    run: ConfigRun,
    sla: SlaSearch,
    *,
    seed: int,
    say: Callable[[str], None],
) -> SlaResult:
    """Probe Poisson rates with the same requests and seed, starting at the full-load rate."""
    name = run.config.name

    def probe(rate: float) -> Probe:
        say(f"[{name}] SLA probe: {len(items)} requests at {rate:.3f} req/s…")
        engine = engines.ready()
        generations, wall = run_probe(engine, items, qps=rate, seed=seed, ceiling_s=sla.ceiling_s)
        if generations is None:
            say(
                f"  [{name}] stopped after {wall:.0f} s: {late_needed(len(items))} requests "
                f"over {sla.ceiling_s:g} s put the P90 over the ceiling"
            )
            return Probe(qps=round(rate, 4), p90_s=None, wall_s=round(wall, 1))
        summary = summarize([g.metrics for g in generations], wall)
        measured = Probe(
            qps=round(rate, 4),
            p90_s=summary["e2e_s_p90"],
            wall_s=round(wall, 1),
            output_tok_per_s=summary["output_tok_per_s"],
            requests_per_s=summary["requests_per_s"],
        )
        verdict = "within" if measured.meets(sla.ceiling_s) else "over"
        ceiling = f"{sla.ceiling_s:g} s"
        say(f"  [{name}] P90 {summary['e2e_s_p90']:.1f} s: {verdict} the {ceiling} ceiling")
        return measured

    full = run.levels.get("max_concurrency", {})
    one = run.levels.get("concurrency_1", {})
    return search_max_qps(
        probe,
        sla.ceiling_s,
        capacity_qps=full.get("requests_per_s", 0.0),
        unloaded_p90_s=one.get("e2e_s_p90"),
        probes=sla.probes,
    )


def _reset_cache(engine: Engine) -> None:
    """Every level and probe starts with an empty prefix cache (in-process only: a server
    keeps its cache)."""
    reset = getattr(engine, "reset_prefix_cache", None)
    if reset is not None:
        reset()


def _reporter(config: BenchConfig, level: str, total: int, say: Callable[[str], None]) -> Progress:
    """Say each finished request: ``[off] concurrency_1 3/20 · 712 tokens in 41.2 s``."""
    done = 0

    def report(generation: Generation) -> None:
        nonlocal done
        done += 1
        m = generation.metrics
        tokens = f"{m.output_tokens} tokens in {m.e2e_s:.1f} s"
        say(f"  [{config.name}] {level} {done}/{total} · {tokens}")

    return report


def _spec_summary(spec: SpeculationCounters) -> dict[str, Any]:
    return {
        "acceptance_rate": spec.acceptance_rate,
        "mean_acceptance_length": spec.mean_acceptance_length,
    }


def first_difference(a: list[int], b: list[int]) -> int | None:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))
