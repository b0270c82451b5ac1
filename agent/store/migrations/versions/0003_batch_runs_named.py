"""batch runs: name, identity and candidates

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02

A run has a name and a key (the job and the candidate set), so running the same command again
continues the same run; an item points at its stored candidate and says where it came from, so
any worker can analyze it without the original files.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("batch_runs") as batch:
        batch.add_column(sa.Column("name", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("run_key", sa.String(length=64), nullable=True))
        batch.create_index("ix_batch_runs_run_key", ["run_key"])
    with op.batch_alter_table("batch_items") as batch:
        batch.add_column(sa.Column("source", sa.String(length=1000), nullable=True))
        batch.add_column(
            sa.Column(
                "candidate_id",
                sa.Integer(),
                sa.ForeignKey(
                    "candidates.id", name="fk_batch_items_candidate", ondelete="SET NULL"
                ),
                nullable=True,
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("batch_items") as batch:
        batch.drop_constraint("fk_batch_items_candidate", type_="foreignkey")
        batch.drop_column("candidate_id")
        batch.drop_column("source")
    with op.batch_alter_table("batch_runs") as batch:
        batch.drop_index("ix_batch_runs_run_key")
        batch.drop_column("run_key")
        batch.drop_column("name")
