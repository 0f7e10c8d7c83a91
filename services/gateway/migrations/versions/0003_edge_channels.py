"""The edge's configuration: channel instances (Evolution) and web channel API keys.

- `channel_instances`: one row per Evolution instance (one WhatsApp number). The instance name is
  unique across the installation (the webhook names it before the organisation is known); the
  Evolution base URL, the instance token (`api_key`, needed in clear to send), the webhook secret
  (a static header, or the HS256 `jwt_key` Evolution signs with: both need the clear value), the
  header name, and whether groups, broadcasts and newsletters are taken.
- `web_channel_keys`: an organisation's web channel API keys, stored as SHA-256 digests only (the
  secret is shown once when issued); `revoked_at` refuses a key from then on.

Both tables follow the schema's row-level security; the edge's lookups by instance name or key
digest run under `balcao.scope = 'all'` because the organisation is what they find out.

Revision ID: gateway_0003
Revises: gateway_0002
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = "gateway_0003"
down_revision: str | None = "gateway_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("channel_instances", "web_channel_keys")

SCRIPT = """
CREATE TABLE gateway.channel_instances (
    organization_id uuid NOT NULL,
    instance_name text NOT NULL,
    channel text NOT NULL DEFAULT 'whatsapp',
    base_url text NOT NULL,
    api_key text NOT NULL DEFAULT '',
    webhook_secret text NOT NULL DEFAULT '',
    webhook_secret_header text NOT NULL DEFAULT 'x-balcao-webhook-secret',
    jwt_key text NOT NULL DEFAULT '',
    sender_number text NOT NULL DEFAULT '',
    allow_groups boolean NOT NULL DEFAULT false,
    allow_broadcasts boolean NOT NULL DEFAULT false,
    allow_newsletters boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_channel_instances PRIMARY KEY (organization_id, instance_name),
    CONSTRAINT uq_channel_instances_instance_name UNIQUE (instance_name),
    CONSTRAINT ck_channel_instances_channel CHECK (channel IN ('whatsapp'))
);

CREATE TABLE gateway.web_channel_keys (
    organization_id uuid NOT NULL,
    key_id uuid NOT NULL,
    label text NOT NULL DEFAULT '',
    prefix text NOT NULL,
    secret_sha256 text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at timestamptz,
    CONSTRAINT pk_web_channel_keys PRIMARY KEY (organization_id, key_id),
    CONSTRAINT uq_web_channel_keys_secret_sha256 UNIQUE (secret_sha256)
);
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
