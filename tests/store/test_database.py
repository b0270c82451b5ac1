"""Opening databases: migrations on first use, refusing newer ones, one-line connection errors."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text

from agent.store import DatabaseError, open_database
from agent.store.database import configured_url, head_revision
from agent.store.tables import Base


def test_first_use_creates_every_table_at_the_latest_migration(database):
    assert database.revision() == head_revision()
    tables = set(inspect(database.engine).get_table_names())
    assert set(Base.metadata.tables) <= tables


def test_reopening_an_up_to_date_database_changes_nothing(database, database_url):
    again = open_database(database_url)
    assert again.revision() == head_revision()
    again.close()


def test_database_from_newer_code_is_refused(database, database_url):
    with database.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'f00dfeed'"))
    with pytest.raises(DatabaseError, match="newer than this version") as error:
        open_database(database_url)
    assert "f00dfeed" in str(error.value)


def test_unreachable_server_is_one_line_naming_url_without_password():
    url = "postgresql://hiring:s3cret-pw@127.0.0.1:1/nowhere"
    with pytest.raises(DatabaseError) as error:
        open_database(url)
    message = str(error.value)
    assert "127.0.0.1:1/nowhere" in message
    assert "s3cret-pw" not in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("url", "says"),
    [("not a url at all", "not a database URL"), ("mysql://h/db", "unsupported database")],
)
def test_malformed_or_unsupported_urls_are_refused(url, says):
    with pytest.raises(DatabaseError, match=says):
        open_database(url)


def test_sqlite_in_a_folder_that_cannot_exist_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(DatabaseError, match="cannot"):
        open_database(f"sqlite:///{blocker / 'sub' / 'store.db'}")


def test_default_is_sqlite_in_the_data_dir(monkeypatch, tmp_path):
    from serving.config import get_settings

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("HIRING_ASSISTANT_DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    try:
        assert configured_url() == f"sqlite:///{tmp_path / 'hiring-assistant.db'}"
        monkeypatch.setenv("DATABASE_URL", "postgresql://127.0.0.1/test")
        assert configured_url() == "postgresql://127.0.0.1/test"
    finally:
        get_settings.cache_clear()


def test_several_processes_opening_an_empty_database_migrate_it_once(database_url):
    from concurrent.futures import ThreadPoolExecutor

    def first_use(_: int) -> str | None:
        opened = open_database(database_url)
        try:
            return opened.revision()
        finally:
            opened.close()

    with ThreadPoolExecutor(max_workers=4) as pool:
        revisions = list(pool.map(first_use, range(4)))
    assert revisions == [head_revision()] * 4
