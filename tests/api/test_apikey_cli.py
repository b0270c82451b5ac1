"""`hiring-assistant apikey create|list|revoke`, and what a made key opens over HTTP."""

from __future__ import annotations

from typer.testing import CliRunner

from agent.cli.app import app
from agent.store.api_keys import hash_key
from agent.store.tables import ApiKey, AuditEvent
from tests.api.conftest import serve

runner = CliRunner()


def _run(database_url: str, *args: str):
    return runner.invoke(app, list(args), env={"DATABASE_URL": database_url})


def test_a_key_is_shown_once_stored_hashed_listed_and_revoked(database_url):
    made = _run(database_url, "apikey", "create", "greenhouse-sync")
    assert made.exit_code == 0, made.output
    key = made.stdout.strip().splitlines()[-1]
    assert key.startswith("ha_") and len(key) > 40
    with serve(database_url) as api:
        with api.assistant.database.session() as session:
            row = session.query(ApiKey).one()
            assert row.key_hash == hash_key(key) and key not in (row.prefix, row.name)
            events = [e.event for e in session.query(AuditEvent)]
            assert "api_key_created" in events
        opened = api.client.get("/v1/webhooks", headers={"Authorization": f"Bearer {key}"})
        assert opened.status_code == 200
        listed = _run(database_url, "apikey", "list")
        assert "greenhouse-sync" in listed.output and key[:7] in listed.output
        assert key not in listed.output and "active" in listed.output
        again = _run(database_url, "apikey", "create", "greenhouse-sync")
        assert again.exit_code == 2 and "exists already" in again.output
        revoked = _run(database_url, "apikey", "revoke", "greenhouse-sync")
        assert revoked.exit_code == 0 and "revoked" in revoked.output
        closed = api.client.get("/v1/webhooks", headers={"Authorization": f"Bearer {key}"})
        assert closed.status_code == 401
    assert "revoked" in _run(database_url, "apikey", "list").output
    unknown = _run(database_url, "apikey", "revoke", "nobody")
    assert unknown.exit_code == 2 and "no API key named 'nobody'" in unknown.output


def test_no_keys_yet_says_how_to_make_one(database_url):
    assert "apikey create NAME" in _run(database_url, "apikey", "list").output
