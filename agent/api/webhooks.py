"""Outgoing webhooks: a signed POST to every registered URL when work finishes.

Each delivery is a JSON body ``{"id", "event", "created_at", "data"}`` with headers
``X-Hiring-Assistant-Event``, ``X-Hiring-Assistant-Delivery`` (the same id on every retry),
``X-Hiring-Assistant-Timestamp`` (Unix seconds) and ``X-Hiring-Assistant-Signature:
v1=<hex>``, the HMAC-SHA256 of ``"{timestamp}.{body}"`` with the webhook's secret (check it, and
refuse old timestamps, to stop forgeries and replays). A delivery that fails (no answer, or not
2xx) is retried with exponential backoff; every attempt is recorded in the store.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import httpx
from tenacity import RetryError, Retrying, stop_after_attempt, wait_exponential

from agent.store import Database
from agent.store.webhooks import record_delivery, webhooks

log = logging.getLogger("hiring_assistant.webhooks")
SIGNATURE_HEADER = "X-Hiring-Assistant-Signature"
TIMESTAMP_HEADER = "X-Hiring-Assistant-Timestamp"


def signature(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "v1=" + digest.hexdigest()


def verify(secret: str, headers: dict[str, str], body: bytes, *, max_age_s: float = 300) -> bool:
    """What a receiver does: the signature matches and the timestamp is recent."""
    lowered = {k.lower(): v for k, v in headers.items()}
    timestamp = lowered.get(TIMESTAMP_HEADER.lower(), "")
    given = lowered.get(SIGNATURE_HEADER.lower(), "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > max_age_s:
        return False
    return hmac.compare_digest(signature(secret, timestamp, body), given)


class _NotDelivered(Exception):
    pass


class Notifier:
    """Delivers events on a few background threads; ``close`` waits for deliveries under way."""

    def __init__(
        self,
        database: Database,
        *,
        attempts: int = 5,
        backoff_s: float = 2.0,
        timeout_s: float = 10.0,
    ) -> None:
        self._database = database
        self._attempts = attempts
        self._backoff_s = backoff_s
        self._client = httpx.Client(timeout=timeout_s, follow_redirects=False)
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook")

    def notify(self, event: str, data: dict[str, Any]) -> None:
        with self._database.session() as session:
            targets = [(w.id, w.url, w.secret) for w in webhooks(session, event=event)]
        for webhook_id, url, secret in targets:
            self._pool.submit(self._deliver, webhook_id, url, secret, event, data)

    def _deliver(
        self, webhook_id: int, url: str, secret: str, event: str, data: dict[str, Any]
    ) -> None:
        delivery_id = str(uuid.uuid4())
        body = json.dumps(
            {
                "id": delivery_id,
                "event": event,
                "created_at": datetime.now(UTC).isoformat(),
                "data": data,
            }
        ).encode()
        retrying = Retrying(
            stop=stop_after_attempt(self._attempts),
            wait=wait_exponential(multiplier=self._backoff_s, max=300),
            reraise=False,
        )
        try:
            for attempt in retrying:
                with attempt:
                    self._attempt(
                        webhook_id,
                        url,
                        secret,
                        event,
                        delivery_id,
                        body,
                        attempt.retry_state.attempt_number,
                    )
        except RetryError:
            log.warning(
                "webhook %s: %s delivery %s failed after %s attempts",
                webhook_id,
                event,
                delivery_id,
                self._attempts,
            )

    def _attempt(
        self,
        webhook_id: int,
        url: str,
        secret: str,
        event: str,
        delivery_id: str,
        body: bytes,
        number: int,
    ) -> None:
        timestamp = str(int(time.time()))
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "hiring-assistant-webhooks",
            "X-Hiring-Assistant-Event": event,
            "X-Hiring-Assistant-Delivery": delivery_id,
            TIMESTAMP_HEADER: timestamp,
            SIGNATURE_HEADER: signature(secret, timestamp, body),
        }
        status: int | None = None
        error: str | None = None
        try:
            status = self._client.post(url, content=body, headers=headers).status_code
            if not 200 <= status < 300:
                error = f"answered {status}"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"[:200]
        with self._database.session() as session:
            record_delivery(
                session,
                webhook_id=webhook_id,
                delivery_id=delivery_id,
                event=event,
                attempt=number,
                status_code=status,
                error=error,
            )
        log.info(
            "webhook %s: %s delivery %s attempt %s: %s",
            webhook_id,
            event,
            delivery_id,
            number,
            error or status,
        )
        if error is not None:
            raise _NotDelivered(error)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._client.close()
