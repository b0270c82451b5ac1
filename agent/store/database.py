"""Opening the database named by ``DATABASE_URL`` (default: SQLite in the user data dir).

Opening checks the connection (one-line error naming the URL without its password), refuses a
database migrated by newer code, and applies the migrations on first use of an empty database.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from agent.errors import DatabaseError
from serving.config import data_dir, get_settings

MIGRATIONS = Path(__file__).with_name("migrations")
DB_FILE = "hiring-assistant.db"
PG_MIGRATION_LOCK = 7_316_200  # pg_advisory_lock key: one migrator at a time


def configured_url() -> str:
    """``DATABASE_URL`` if set, else a SQLite file in the data directory."""
    explicit = os.environ.get("DATABASE_URL", "").strip()
    if explicit:
        return explicit
    return f"sqlite:///{data_dir(get_settings()) / DB_FILE}"


def shown(url: str | URL) -> str:
    """The URL as it may be printed: password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparseable URL>"


def _parse(url: str) -> URL:
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(f"not a database URL: {shown(url)!s}") from None
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    if not (parsed.drivername.startswith("sqlite") or parsed.drivername.startswith("postgresql")):
        raise DatabaseError(f"unsupported database {shown(parsed)}: use sqlite:// or postgresql://")
    return parsed


WAL_SWITCH_ATTEMPTS = 50  # 0.1 s apart


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" below starts transactions
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=30000")
    # Switching a new file to WAL can fail at once with "database is locked" while another
    # process does the same (SQLite does not always wait for that lock): retry briefly.
    for attempts_left in reversed(range(WAL_SWITCH_ATTEMPTS)):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError:
            if not attempts_left:
                raise
            time.sleep(0.1)
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin_immediate(connection: Connection) -> None:
    """Take the write lock at BEGIN: a read-then-write transaction cannot fail with "locked"."""
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


class Database:
    """An engine and a session factory for one database URL."""

    def __init__(self, url: str) -> None:
        self.url = _parse(url)
        self.is_sqlite = self.url.drivername.startswith("sqlite")
        kwargs: dict[str, Any] = {"pool_pre_ping": True}
        if self.is_sqlite and self.url.database not in (None, "", ":memory:"):
            folder = Path(self.url.database).expanduser().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseError(
                    f"cannot create the folder of {shown(self.url)}: {exc.strerror}"
                ) from None
            kwargs["connect_args"] = {"timeout": 30}
        try:
            self.engine: Engine = create_engine(self.url, **kwargs)
        except (NoSuchModuleError, ImportError) as exc:
            raise DatabaseError(f"no driver for {shown(self.url)}: {exc}") from None
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", _sqlite_begin_immediate)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def __repr__(self) -> str:
        return f"Database({shown(self.url)})"

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session in one transaction: committed on success, rolled back on error."""
        with self._sessions.begin() as session:
            yield session

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- migrations -------------------------------------------------------------------------

    def revision(self) -> str | None:
        with self._connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def upgrade(self) -> str:
        """Apply pending migrations (one migrator at a time); returns the revision now current."""
        with self._migration_lock(), self._connect() as connection:
            self._refuse_newer(MigrationContext.configure(connection).get_current_revision())
            command.upgrade(_alembic_config(connection), "head")
            connection.commit()
        return head_revision()

    def ensure_schema(self) -> None:
        """Refuse a newer database; migrate an older or empty one."""
        current = self.revision()
        self._refuse_newer(current)
        if current != head_revision():
            self.upgrade()

    def _refuse_newer(self, current: str | None) -> None:
        if current is None:
            return
        known = {script.revision for script in _scripts().walk_revisions()}
        if current not in known:
            raise DatabaseError(
                f"database {shown(self.url)} is at migration {current}, newer than this version "
                f"of hiring-assistant knows (latest {head_revision()}): upgrade hiring-assistant"
            )

    def _connect(self) -> Connection:
        try:
            return self.engine.connect()
        except SQLAlchemyError as exc:
            reason = str(getattr(exc, "orig", exc)).strip().splitlines()[0]
            raise DatabaseError(f"cannot connect to database {shown(self.url)}: {reason}") from None

    @contextmanager
    def _migration_lock(self) -> Iterator[None]:
        if self.is_sqlite:
            if self.url.database in (None, "", ":memory:"):
                yield
                return
            lock_path = Path(f"{self.url.database}.migrate-lock").expanduser()
            with lock_path.open("w") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX)
                yield
            return
        with self._connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": PG_MIGRATION_LOCK})
            try:
                yield
            finally:
                connection.execute(
                    text("SELECT pg_advisory_unlock(:key)"), {"key": PG_MIGRATION_LOCK}
                )


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_alembic_config())


def head_revision() -> str:
    head = _scripts().get_current_head()
    assert head is not None
    return head


def open_database(url: str | None = None, *, migrate: bool = True) -> Database:
    """The database at ``url`` (default: configured), checked, and migrated when ``migrate``."""
    database = Database(url or configured_url())
    try:
        if migrate:
            database.ensure_schema()
        else:
            database._refuse_newer(database.revision())
    except SQLAlchemyError as exc:
        database.close()
        reason = str(getattr(exc, "orig", exc)).strip().splitlines()[0]
        raise DatabaseError(f"database {shown(database.url)}: {reason}") from None
    except DatabaseError:
        database.close()
        raise
    return database
