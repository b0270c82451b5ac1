"""Outgoing webhooks: where to announce finished work, and a record of every delivery attempt."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from agent.errors import NotFoundError
from agent.store.repository import record_event
from agent.store.tables import Webhook, WebhookDelivery


def add_webhook(
    session: Session, *, url: str, events: list[str], secret: str | None = None
) -> Webhook:
    """A webhook for ``events``; a secret is made when none is given."""
    row = Webhook(url=url, secret=secret or secrets.token_hex(32), events=sorted(set(events)))
    session.add(row)
    session.flush()
    record_event(session, event="webhook_added", details={"webhook": row.id, "events": row.events})
    return row


def webhooks(session: Session, *, event: str | None = None) -> list[Webhook]:
    """Every webhook, or those that want ``event``."""
    rows = session.scalars(select(Webhook).order_by(Webhook.id)).all()
    return [row for row in rows if event is None or event in row.events]


def remove_webhook(session: Session, *, webhook_id: int) -> None:
    row = session.get(Webhook, webhook_id)
    if row is None:
        raise NotFoundError(f"no webhook with id {webhook_id}")
    session.delete(row)
    record_event(session, event="webhook_removed", details={"webhook": webhook_id})


def record_delivery(
    session: Session,
    *,
    webhook_id: int,
    delivery_id: str,
    event: str,
    attempt: int,
    status_code: int | None,
    error: str | None,
) -> None:
    session.add(
        WebhookDelivery(
            webhook_id=webhook_id,
            delivery_id=delivery_id,
            event=event,
            attempt=attempt,
            status_code=status_code,
            error=None if error is None else error[:500],
        )
    )


def deliveries(session: Session, *, webhook_id: int) -> Sequence[WebhookDelivery]:
    query = select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id)
    return session.scalars(query.order_by(WebhookDelivery.id)).all()
