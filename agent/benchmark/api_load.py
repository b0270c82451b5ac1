"""A bounded load test of the HTTP API: N clients, each sending M analyses one after another.

Each client posts ``/v1/analyses?wait=true`` and waits for the report; a 429 or 503 is honoured
(wait ``Retry-After``, send again), so the test also checks that a busy service turns work away
politely and loses none of it. Latency is from a request's first send to its final answer.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import httpx

from agent.benchmark.stats import percentile

BUSY = (429, 503)
MAX_RETRY_WAIT_S = 30.0


@dataclass(frozen=True)
class LoadResult:
    client: int
    index: int
    status: int | None  # None: no answer at all (a lost request)
    latency_s: float
    busy_retries: int
    analysis_id: int | None
    error: str | None


def _one(
    http: httpx.Client, body: dict[str, Any], client: int, index: int, deadline_s: float
) -> LoadResult:
    started = time.perf_counter()
    retries = 0
    while True:
        try:
            response = http.post("/v1/analyses", params={"wait": "true"}, json=body)
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"[:200]
            return LoadResult(
                client, index, None, time.perf_counter() - started, retries, None, error
            )
        waited = time.perf_counter() - started
        if response.status_code in BUSY and waited < deadline_s:
            retries += 1
            time.sleep(min(float(response.headers.get("Retry-After", "1")), MAX_RETRY_WAIT_S))
            continue
        ok = response.status_code == 200
        return LoadResult(
            client,
            index,
            response.status_code,
            time.perf_counter() - started,
            retries,
            response.json().get("id") if ok else None,
            None if ok else response.text[:200],
        )


def run_load(
    url: str,
    key: str,
    job_text: str,
    profiles: list[tuple[str, str]],
    *,
    clients: int = 8,
    per_client: int = 4,
    timeout_s: float = 1800.0,
) -> dict[str, Any]:
    """Send ``clients × per_client`` analyses; profiles are (id, text), used in turn."""
    results: list[LoadResult] = []
    lock = threading.Lock()

    def client_loop(client: int) -> None:
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=url, headers=headers, timeout=timeout_s) as http:
            for index in range(per_client):
                profile_id, text = profiles[(client * per_client + index) % len(profiles)]
                body = {
                    "job": {"text": job_text},
                    "candidate": {"id": f"{profile_id}-load{client}.{index}", "text": text},
                }
                result = _one(http, body, client, index, timeout_s)
                with lock:
                    results.append(result)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(client_loop, range(clients)))
    wall_s = time.perf_counter() - started
    return summarize(results, wall_s, clients=clients, per_client=per_client)


def summarize(
    results: list[LoadResult], wall_s: float, *, clients: int, per_client: int
) -> dict[str, Any]:
    ok = [r for r in results if r.status == 200]
    latencies = [r.latency_s for r in ok]
    by_status: dict[str, int] = {}
    for r in results:
        by_status[str(r.status)] = by_status.get(str(r.status), 0) + 1
    figures: dict[str, Any] = {
        "clients": clients,
        "per_client": per_client,
        "sent": clients * per_client,
        "answered": sum(1 for r in results if r.status is not None),
        "ok": len(ok),
        "lost": clients * per_client - sum(1 for r in results if r.status is not None),
        "by_status": by_status,
        "busy_retries": sum(r.busy_retries for r in results),
        "wall_s": round(wall_s, 2),
        "analyses_per_min": round(60 * len(ok) / wall_s, 2) if wall_s > 0 else 0.0,
    }
    if latencies:
        for q in (50, 90, 99):
            figures[f"latency_p{q}_s"] = round(percentile(latencies, q), 2)
        figures["latency_max_s"] = round(max(latencies), 2)
    figures["results"] = [asdict(r) for r in sorted(results, key=lambda r: (r.client, r.index))]
    return figures
