"""`lead_state.source_seq`: which turn last set the lead's stage, by its checkpoint `seq`.

Several Operador replicas (or one, after a retry) may register two closed turns of one contact
out of order. crm compares the turn's checkpoint `seq` with this marker and does not let an older
turn's registration move the stage back over a newer one's (services/crm/leads.py).

NULL means "unknown": the rows that existed before this revision carry no marker, so any turn may
set them, exactly as before. A write not tied to a turn (a person) stores the contact's last `seq`
handed out, so only turns closed after it can move the stage again.

Revision ID: crm_0004
Revises: crm_0003
Create Date: 2026-12-08
"""

from collections.abc import Sequence

from alembic import op

revision: str = "crm_0004"
down_revision: str | None = "crm_0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE crm.lead_state ADD COLUMN source_seq bigint")


def downgrade() -> None:
    op.execute("ALTER TABLE crm.lead_state DROP COLUMN source_seq")
