"""Persistence: SQLAlchemy tables, Alembic migrations, and the repository functions."""

from agent.store.database import Database, DatabaseError, configured_url, open_database

__all__ = ["Database", "DatabaseError", "configured_url", "open_database"]
