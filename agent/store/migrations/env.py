"""Alembic environment: runs the migrations on the connection hiring-assistant hands it."""

from __future__ import annotations

from alembic import context

from agent.store.tables import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through `hiring-assistant db upgrade`")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
