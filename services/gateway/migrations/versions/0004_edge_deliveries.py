"""The edge's durable intake: webhook deliveries stored before the 2xx, and shared rate counters.

- `edge_deliveries`: one row per WhatsApp message a webhook carried, unique on (organisation,
  channel instance, sender, provider message id): the insert that finds the row already there is
  how a redelivery is recognised. The row keeps the request body until the runtime has taken the
  message (`state` 'pending' → 'done', or 'rejected' when the runtime refuses it as sent); the
  drain claims pending rows with a lease (`claimed_until`), the oldest per sender first, and
  backs off after a failure (`next_attempt_at`, `attempts`, `last_error`). The body is dropped
  once the message is taken; the key stays for deduplication until the retention prunes it.
- `edge_rate_counters`: messages accepted per fixed one-minute window, per organisation (`key`
  empty) and per contact (`key` = the sender), shared by every replica: one UPSERT … RETURNING in
  the same statement as the deliveries' insert.

Both follow the schema's row-level security; the edge writes them under `balcao.scope = 'all'`
(the organisation is what the instance name tells it).

Revision ID: gateway_0004
Revises: gateway_0003
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = "gateway_0004"
down_revision: str | None = "gateway_0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("edge_deliveries", "edge_rate_counters")

SCRIPT = """
CREATE TABLE gateway.edge_deliveries (
    organization_id uuid NOT NULL,
    channel_instance text NOT NULL,
    sender_key text NOT NULL,
    message_id text NOT NULL,
    from_business boolean NOT NULL DEFAULT false,
    body bytea,
    state text NOT NULL DEFAULT 'pending',
    attempts integer NOT NULL DEFAULT 0,
    claimed_until timestamptz,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error text NOT NULL DEFAULT '',
    received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz,
    CONSTRAINT pk_edge_deliveries PRIMARY KEY (organization_id, channel_instance, sender_key, message_id),
    CONSTRAINT ck_edge_deliveries_state CHECK (state IN ('pending', 'done', 'rejected', 'failed'))
);

CREATE INDEX ix_edge_deliveries_pending ON gateway.edge_deliveries (organization_id, sender_key, received_at)
    WHERE state = 'pending';

CREATE INDEX ix_edge_deliveries_due ON gateway.edge_deliveries (next_attempt_at) WHERE state = 'pending';

CREATE INDEX ix_edge_deliveries_finished ON gateway.edge_deliveries (finished_at) WHERE state <> 'pending';

CREATE TABLE gateway.edge_rate_counters (
    organization_id uuid NOT NULL,
    key text NOT NULL,
    window_start timestamptz NOT NULL,
    hits integer NOT NULL,
    CONSTRAINT pk_edge_rate_counters PRIMARY KEY (organization_id, key, window_start)
);

CREATE INDEX ix_edge_rate_counters_window_start ON gateway.edge_rate_counters (window_start);
"""


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";\n") if s.strip()]


def upgrade() -> None:
    for statement in _statements(SCRIPT):
        op.execute(statement)
    for table in TABLES:
        op.execute(f"ALTER TABLE gateway.{table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE gateway.{table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY tenant_isolation ON gateway.{table} "
            "USING (organization_id = gateway.current_organization_id() OR gateway.cross_tenant_scope()) "
            "WITH CHECK (organization_id = gateway.current_organization_id() OR gateway.cross_tenant_scope())"
        )


def downgrade() -> None:
    for table in reversed(TABLES):
        op.execute(f"DROP TABLE gateway.{table}")
