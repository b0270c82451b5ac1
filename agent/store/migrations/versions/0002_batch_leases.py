"""batch item leases

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

A claimed batch item carries its worker and a lease expiry, so an item held by a worker that
died is taken back once the lease runs out.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("batch_items") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("batch_items") as batch:
        batch.drop_column("lease_expires_at")
        batch.drop_column("lease_owner")
