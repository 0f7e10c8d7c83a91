"""Baseline: the gateway schema exists (created with its grants before Alembic runs).

Revision ID: gateway_0001
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

revision: str = "gateway_0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
