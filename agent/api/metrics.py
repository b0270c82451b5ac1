"""Prometheus metrics of the HTTP service: requests, analyses, speed, queue, speculation."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

from schemas.report import MatchReport
from serving.metrics import SpeculationCounters

disable_created_metrics()  # no *_created series: they double the scrape for nothing
PREFIX = "hiring_assistant"
LATENCY_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160, 320, 640)
TPOT_BUCKETS = (0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5)


class _Speculation(Collector):
    """The engine's cumulative draft and accepted token counts, read at each scrape."""

    def __init__(self, counters: Callable[[], SpeculationCounters]) -> None:
        self._counters = counters

    def collect(self) -> Iterator[Metric]:
        try:
            counters = self._counters()
        except Exception:  # an engine that cannot answer now: no sample this scrape
            return
        for name, value, doc in (
            ("drafts", counters.drafts, "Speculation steps that proposed drafts."),
            ("draft_tokens", counters.draft_tokens, "Tokens drafted by n-gram speculation."),
            ("accepted_tokens", counters.accepted_tokens, "Drafted tokens the model accepted."),
        ):
            family = CounterMetricFamily(f"{PREFIX}_spec_decode_{name}", doc)
            family.add_metric([], value)
            yield family


class ApiMetrics:
    def __init__(
        self, *, queue_depth: Callable[[], int], speculation: Callable[[], SpeculationCounters]
    ) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            f"{PREFIX}_http_requests",
            "HTTP requests by route, method and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            f"{PREFIX}_http_request_duration_seconds",
            "HTTP request latency by route and method.",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.analyses = Counter(
            f"{PREFIX}_analyses",
            "Analyses finished, by outcome.",
            ["outcome"],
            registry=self.registry,
        )
        self.tpot = Histogram(
            f"{PREFIX}_analysis_tpot_seconds",
            "Time per output token of each analysis's generation.",
            buckets=TPOT_BUCKETS,
            registry=self.registry,
        )
        self.analysis_seconds = Histogram(
            f"{PREFIX}_analysis_duration_seconds",
            "Time from acceptance to the saved analysis.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        depth = Gauge(
            f"{PREFIX}_queue_depth", "Analyses queued or running.", registry=self.registry
        )
        depth.set_function(queue_depth)
        self.registry.register(_Speculation(speculation))

    def analysis_done(self, report: MatchReport, seconds: float) -> None:
        self.analyses.labels("done").inc()
        self.analysis_seconds.observe(seconds)
        tpot_ms = report.metrics.get("tpot_ms")
        if isinstance(tpot_ms, int | float) and tpot_ms > 0:
            self.tpot.observe(tpot_ms / 1000)

    def analysis_failed(self) -> None:
        self.analyses.labels("failed").inc()
