"""The turn runtime's tables: inbound messages, per-contact conversations, turns, the send ledger.

- `inbound_messages`: every accepted customer message, unique on (organisation, channel instance,
  sender, provider message id) so a redelivery is recognised; `seq` numbers a contact's messages
  in the order they were accepted (assigned under the conversation's row lock, so a turn never
  skips a message that committed late).
- `conversations`: one row per contact: the controller's state (`route`, `reply_key`,
  `requirements`, `pending`, `payload`, `transient`, the channel), the durable debounce
  (`due_at`, `burst_started_at`), the claim a replica holds while it runs the contact's turn
  (`claimed_by`, `claim_token`, `claim_expires_at`: a lease, so a dead replica's claim expires),
  and the `watermark`: the highest `seq` handled, which only moves forward.
- `turns`: one row per turn (inbound or proactive), its status, attempts and backoff, and what a
  caller of GetTurn sees; `progress` keeps what a retry needs to resume after the send.
- `outbound_parts`: the send ledger, keyed by turn and part, with the body's SHA-256: a retried
  turn finds its parts there and never sends them again.

Every key is led by `organization_id`; row-level security compares it with the transaction-local
`balcao.organization_id`, and the worker's cross-tenant scan sets `balcao.scope = 'all'`.

Revision ID: gateway_0002
Revises: gateway_0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

from alembic import op

revision: str = "gateway_0002"
down_revision: str | None = "gateway_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("conversations", "inbound_messages", "turns", "outbound_parts")

SCRIPT = """
CREATE FUNCTION gateway.current_organization_id() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE
RETURN NULLIF(current_setting('balcao.organization_id', true), '')::uuid;

CREATE FUNCTION gateway.cross_tenant_scope() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN coalesce(current_setting('balcao.scope', true), '') = 'all';

CREATE TABLE gateway.conversations (
    organization_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    channel text NOT NULL DEFAULT 'test',
    channel_instance text NOT NULL DEFAULT '',
    reply_to text NOT NULL DEFAULT '',
    phone text NOT NULL DEFAULT '',
    route text NOT NULL DEFAULT '',
    reply_key text NOT NULL DEFAULT '',
    requirements jsonb NOT NULL DEFAULT '{}'::jsonb,
    pending jsonb,
    payload jsonb NOT NULL DEFAULT '{}'::jsonb,
    transient jsonb NOT NULL DEFAULT '{}'::jsonb,
    last_seq bigint NOT NULL DEFAULT 0,
    watermark bigint NOT NULL DEFAULT 0,
    due_at timestamptz,
    burst_started_at timestamptz,
    claimed_by text,
    claim_token uuid,
    claim_expires_at timestamptz,
    opt_out_confirmed_at timestamptz,
    last_inbound_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_conversations PRIMARY KEY (organization_id, contact_id),
    CONSTRAINT ck_conversations_watermark_not_ahead CHECK (watermark <= last_seq)
);
CREATE INDEX ix_conversations_due_at ON gateway.conversations (due_at) WHERE due_at IS NOT NULL;

CREATE TABLE gateway.inbound_messages (
    organization_id uuid NOT NULL,
    inbound_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    seq bigint NOT NULL,
    channel text NOT NULL,
    channel_instance text NOT NULL,
    sender_key text NOT NULL,
    message_id text NOT NULL,
    jid text NOT NULL DEFAULT '',
    message_type text NOT NULL,
    text text NOT NULL DEFAULT '',
    attachment_note text NOT NULL DEFAULT '',
    details jsonb NOT NULL DEFAULT '{}'::jsonb,
    sender_name text NOT NULL DEFAULT '',
    from_business boolean NOT NULL DEFAULT false,
    answerable boolean NOT NULL DEFAULT true,
    sent_at timestamptz,
    received_at timestamptz NOT NULL DEFAULT now(),
    turn_id uuid,
    CONSTRAINT pk_inbound_messages PRIMARY KEY (organization_id, inbound_id),
    CONSTRAINT uq_inbound_messages_delivery UNIQUE (organization_id, channel_instance, sender_key, message_id),
    CONSTRAINT uq_inbound_messages_contact_seq UNIQUE (organization_id, contact_id, seq)
);
CREATE INDEX ix_inbound_messages_turn ON gateway.inbound_messages (organization_id, turn_id);

CREATE TABLE gateway.turns (
    organization_id uuid NOT NULL,
    turn_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    trigger text NOT NULL,
    trigger_detail jsonb NOT NULL DEFAULT '{}'::jsonb,
    idempotency_key text,
    status text NOT NULL,
    outcome text NOT NULL DEFAULT '',
    stage text NOT NULL DEFAULT 'new',
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    last_error text NOT NULL DEFAULT '',
    trace_id text NOT NULL DEFAULT '',
    unit_id text NOT NULL DEFAULT '',
    inbound_upto bigint NOT NULL DEFAULT 0,
    waiting_until timestamptz,
    detail_pt text NOT NULL DEFAULT '',
    result jsonb NOT NULL DEFAULT '{}'::jsonb,
    progress jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    finished_at timestamptz,
    CONSTRAINT pk_turns PRIMARY KEY (organization_id, turn_id),
    CONSTRAINT uq_turns_idempotency_key UNIQUE (organization_id, idempotency_key),
    CONSTRAINT ck_turns_status CHECK (status IN ('queued', 'running', 'waiting', 'retrying', 'done', 'failed')),
    CONSTRAINT ck_turns_trigger CHECK (trigger IN ('inbound', 'proactive'))
);
CREATE INDEX ix_turns_open ON gateway.turns (organization_id, contact_id, created_at)
    WHERE status IN ('queued', 'running', 'waiting', 'retrying');

CREATE TABLE gateway.outbound_parts (
    organization_id uuid NOT NULL,
    turn_id uuid NOT NULL,
    part_index integer NOT NULL,
    contact_id uuid NOT NULL,
    kind text NOT NULL,
    channel text NOT NULL,
    channel_instance text NOT NULL DEFAULT '',
    sender text NOT NULL DEFAULT '',
    recipient text NOT NULL DEFAULT '',
    body text NOT NULL,
    body_sha256 text NOT NULL,
    status text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    provider_message_id text NOT NULL DEFAULT '',
    last_error text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    CONSTRAINT pk_outbound_parts PRIMARY KEY (organization_id, turn_id, part_index),
    CONSTRAINT ck_outbound_parts_status CHECK (status IN ('sending', 'sent', 'failed'))
);
CREATE INDEX ix_outbound_parts_contact ON gateway.outbound_parts (organization_id, contact_id, created_at);
CREATE INDEX ix_outbound_parts_sender ON gateway.outbound_parts (organization_id, sender, created_at);
"""


def _statements(script: str) -> list[str]:
    # Statements end with a semicolon at the end of a line; none has one inside a line end.
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
    op.execute("DROP FUNCTION gateway.cross_tenant_scope()")
    op.execute("DROP FUNCTION gateway.current_organization_id()")
