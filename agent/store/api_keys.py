"""API keys for the HTTP service: a key is shown once when made; the store keeps its hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from agent.errors import InputError, NotFoundError
from agent.store.repository import record_event
from agent.store.tables import ApiKey, utc_now

KEY_PREFIX = "ha_"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def create_api_key(session: Session, *, name: str) -> tuple[ApiKey, str]:
    """A new key named ``name``: its row and the key itself (never stored, shown once)."""
    name = name.strip()
    if not name or len(name) > 100:
        raise InputError("a key's name must be 1 to 100 characters")
    if session.scalars(select(ApiKey).where(ApiKey.name == name)).first() is not None:
        raise InputError(f"a key named {name!r} exists already (revoke it, or pick another name)")
    key = new_key()
    row = ApiKey(name=name, key_hash=hash_key(key), prefix=key[: len(KEY_PREFIX) + 4])
    session.add(row)
    session.flush()
    record_event(session, event="api_key_created", details={"key": row.id, "name": name})
    return row, key


def api_keys(session: Session) -> Sequence[ApiKey]:
    return session.scalars(select(ApiKey).order_by(ApiKey.id)).all()


def revoke_api_key(session: Session, *, name: str) -> ApiKey:
    row = session.scalars(select(ApiKey).where(ApiKey.name == name)).first()
    if row is None:
        raise NotFoundError(f"no API key named {name!r}")
    if row.revoked_at is None:
        row.revoked_at = utc_now()
        record_event(session, event="api_key_revoked", details={"key": row.id, "name": name})
    return row


def key_is_valid(session: Session, key: str, bootstrap: Sequence[str] = ()) -> bool:
    """True for a stored key that is not revoked, or one of the ``bootstrap`` keys."""
    if any(hmac.compare_digest(key.encode(), given.encode()) for given in bootstrap):
        return True
    row = session.scalars(select(ApiKey).where(ApiKey.key_hash == hash_key(key))).first()
    return row is not None and row.revoked_at is None
