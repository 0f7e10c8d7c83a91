"""The crm's business facts, the event log, and row-level security on every tenant table.

Every key is led by `organization_id`. Every tenant table has ROW LEVEL SECURITY enabled and
FORCED (the app role is not the owner, and FORCE keeps even an owner session honest), with a
policy comparing `organization_id` to the transaction-local setting `balcao.organization_id`.
A second, narrow policy opens three tables to a transaction that set `balcao.scope = 'all'`:
`organizations` and `lead_checkpoints` for reading (ListOrganizations, the installation-wide
rolling-summary measurement) and `event_log` for reading and updating (a worker's Claim and
CompleteBatch across organisations, GetQueueStats). See docs/services/crm.md.

Revision ID: crm_0002
Revises: crm_0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "crm_0002"
down_revision: str | None = "crm_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TENANT_TABLES = (
    "organizations",
    "agent_versions",
    "contacts",
    "lead_state",
    "lead_checkpoint_counters",
    "lead_checkpoints",
    "lead_notes",
    "crm_lead_activities",
    "human_cases",
    "human_case_updates",
    "follow_ups",
    "obligations",
    "central_items",
    "knowledge_articles",
    "turn_executions",
    "event_log",
    "idempotency_keys",
)

HELPERS = """
-- The organisation the current transaction works for (NULL when none was set).
CREATE FUNCTION crm.current_organization_id() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE
RETURN NULLIF(current_setting('balcao.organization_id', true), '')::uuid;

-- True in the few transactions allowed to see every organisation (see the module docstring).
CREATE FUNCTION crm.cross_tenant_scope() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN coalesce(current_setting('balcao.scope', true), '') = 'all';
"""

TABLES = """
CREATE TABLE crm.organizations (
    organization_id uuid PRIMARY KEY,
    name text NOT NULL,
    time_zone text NOT NULL,
    plan_name text NOT NULL DEFAULT '',
    plan_expires_at timestamptz,
    settings jsonb NOT NULL DEFAULT '{}',
    settings_version bigint NOT NULL DEFAULT 1,
    last_assigned_attendant_id text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

CREATE TABLE crm.agent_versions (
    organization_id uuid NOT NULL REFERENCES crm.organizations ON DELETE CASCADE,
    version_id uuid NOT NULL,
    number integer NOT NULL,
    status text NOT NULL CHECK (status IN ('draft', 'published', 'superseded')),
    configuration jsonb NOT NULL,
    saved_by jsonb NOT NULL DEFAULT '{}',
    note text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    published_at timestamptz,
    PRIMARY KEY (organization_id, version_id),
    UNIQUE (organization_id, number)
);
CREATE UNIQUE INDEX uq_agent_versions_one_published ON crm.agent_versions (organization_id)
    WHERE status = 'published';
CREATE UNIQUE INDEX uq_agent_versions_one_draft ON crm.agent_versions (organization_id)
    WHERE status = 'draft';

CREATE TABLE crm.contacts (
    organization_id uuid NOT NULL REFERENCES crm.organizations ON DELETE CASCADE,
    contact_id uuid NOT NULL,
    phone_e164 text,
    whatsapp_jids text[] NOT NULL DEFAULT '{}',
    web_profile_id text,
    name text NOT NULL DEFAULT '',
    email text NOT NULL DEFAULT '',
    cpf text NOT NULL DEFAULT '',
    channel text NOT NULL DEFAULT 'unspecified',
    opted_out boolean NOT NULL DEFAULT false,
    opted_out_at timestamptz,
    blocked boolean NOT NULL DEFAULT false,
    anonymized boolean NOT NULL DEFAULT false,
    human_in_control boolean NOT NULL DEFAULT false,
    human_control_until timestamptz,
    assigned_attendant_id text NOT NULL DEFAULT '',
    legal_basis text NOT NULL DEFAULT 'unspecified',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, contact_id)
);
CREATE UNIQUE INDEX uq_contacts_phone ON crm.contacts (organization_id, phone_e164)
    WHERE phone_e164 IS NOT NULL;
CREATE UNIQUE INDEX uq_contacts_web_profile ON crm.contacts (organization_id, web_profile_id)
    WHERE web_profile_id IS NOT NULL;
CREATE INDEX ix_contacts_jids ON crm.contacts USING gin (whatsapp_jids);
CREATE INDEX ix_contacts_recent ON crm.contacts (organization_id, updated_at DESC);

CREATE TABLE crm.lead_state (
    organization_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    stage_key text NOT NULL,
    stage_label text NOT NULL DEFAULT '',
    reason text NOT NULL DEFAULT '',
    source_turn_id text NOT NULL DEFAULT '',
    updated_by jsonb NOT NULL DEFAULT '{}',
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, contact_id),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE
);

-- One row per contact holding the last `seq` handed out: CloseTurn increments it under the
-- row lock, so concurrent closes of one contact queue up and every seq is used once.
CREATE TABLE crm.lead_checkpoint_counters (
    organization_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    last_seq bigint NOT NULL,
    PRIMARY KEY (organization_id, contact_id),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE
);

CREATE TABLE crm.lead_checkpoints (
    organization_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    seq bigint NOT NULL CHECK (seq > 0),
    turn_id text NOT NULL,
    unit_id text NOT NULL DEFAULT '',
    rolling_summary text NOT NULL DEFAULT '',
    commitments text[] NOT NULL DEFAULT '{}',
    objections text[] NOT NULL DEFAULT '{}',
    next_action text NOT NULL DEFAULT '',
    declaracao jsonb NOT NULL DEFAULT '{}',
    agenda_reread text NOT NULL DEFAULT 'unspecified',
    created_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, contact_id, seq),
    UNIQUE (organization_id, turn_id),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE
);

CREATE TABLE crm.lead_notes (
    organization_id uuid NOT NULL,
    note_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    key text,
    title text NOT NULL DEFAULT '',
    body text NOT NULL DEFAULT '',
    author jsonb NOT NULL DEFAULT '{}',
    source_turn_id text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, note_id),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE
);
CREATE UNIQUE INDEX uq_lead_notes_key ON crm.lead_notes (organization_id, contact_id, key)
    WHERE key IS NOT NULL;

CREATE TABLE crm.crm_lead_activities (
    organization_id uuid NOT NULL,
    activity_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    kind text NOT NULL,
    actor jsonb NOT NULL DEFAULT '{}',
    summary_pt text NOT NULL,
    turn_id text NOT NULL DEFAULT '',
    event_id text NOT NULL DEFAULT '',
    details jsonb NOT NULL DEFAULT '{}',
    occurred_at timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, activity_id),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE
);
CREATE INDEX ix_crm_lead_activities_timeline
    ON crm.crm_lead_activities (organization_id, contact_id, occurred_at DESC);

CREATE TABLE crm.human_cases (
    organization_id uuid NOT NULL,
    case_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    status text NOT NULL CHECK (status IN ('open', 'in_progress', 'waiting_customer', 'closed')),
    reason text NOT NULL DEFAULT 'unspecified',
    reason_text text NOT NULL DEFAULT '',
    summary text NOT NULL DEFAULT '',
    declaracao jsonb,
    priority text NOT NULL DEFAULT 'normal',
    assigned_attendant_id text NOT NULL DEFAULT '',
    opened_by jsonb NOT NULL DEFAULT '{}',
    source_turn_id text NOT NULL DEFAULT '',
    central_item_id uuid,
    resolution text NOT NULL DEFAULT '',
    opened_at timestamptz NOT NULL,
    closed_at timestamptz,
    PRIMARY KEY (organization_id, case_id),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE
);
-- At most one case not closed per contact: OpenHumanCase returns it instead of a second one.
CREATE UNIQUE INDEX uq_human_cases_one_open ON crm.human_cases (organization_id, contact_id)
    WHERE status <> 'closed';

CREATE TABLE crm.human_case_updates (
    organization_id uuid NOT NULL,
    update_id uuid NOT NULL,
    case_id uuid NOT NULL,
    text text NOT NULL,
    author jsonb NOT NULL DEFAULT '{}',
    customer_facing boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, update_id),
    FOREIGN KEY (organization_id, case_id) REFERENCES crm.human_cases ON DELETE CASCADE
);
CREATE INDEX ix_human_case_updates_case ON crm.human_case_updates (organization_id, case_id, created_at);

CREATE TABLE crm.obligations (
    organization_id uuid NOT NULL,
    obligation_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    turn_id text NOT NULL,
    checkpoint_seq bigint NOT NULL DEFAULT 0,
    promise_index integer NOT NULL,
    o_que text NOT NULL,
    prazo timestamptz,
    status text NOT NULL CHECK (status IN ('open', 'fulfilled', 'failed')),
    resolution text NOT NULL DEFAULT '',
    evidence jsonb NOT NULL DEFAULT '[]',
    resolved_by jsonb,
    created_at timestamptz NOT NULL,
    resolved_at timestamptz,
    PRIMARY KEY (organization_id, obligation_id),
    UNIQUE (organization_id, turn_id, promise_index),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE
);
CREATE INDEX ix_obligations_contact ON crm.obligations (organization_id, contact_id, created_at);

CREATE TABLE crm.follow_ups (
    organization_id uuid NOT NULL,
    follow_up_id uuid NOT NULL,
    contact_id uuid NOT NULL,
    due_at timestamptz NOT NULL,
    reason text NOT NULL DEFAULT '',
    status text NOT NULL CHECK (status IN ('pending', 'sent', 'skipped', 'failed', 'cancelled')),
    callback boolean NOT NULL DEFAULT false,
    fixed_text text NOT NULL DEFAULT '',
    obligation_id uuid,
    source_turn_id text NOT NULL DEFAULT '',
    executed_turn_id text NOT NULL DEFAULT '',
    outcome_detail text NOT NULL DEFAULT '',
    scheduled_by jsonb NOT NULL DEFAULT '{}',
    event_id uuid,
    created_at timestamptz NOT NULL,
    finished_at timestamptz,
    PRIMARY KEY (organization_id, follow_up_id),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE,
    FOREIGN KEY (organization_id, obligation_id) REFERENCES crm.obligations
);
CREATE INDEX ix_follow_ups_due ON crm.follow_ups (organization_id, due_at) WHERE status = 'pending';
CREATE INDEX ix_follow_ups_contact ON crm.follow_ups (organization_id, contact_id, due_at);

CREATE TABLE crm.central_items (
    organization_id uuid NOT NULL,
    central_item_id uuid NOT NULL,
    kind text NOT NULL,
    severity text NOT NULL CHECK (severity IN ('info', 'warning', 'critical')),
    status text NOT NULL CHECK (status IN ('open', 'acknowledged', 'resolved', 'dismissed')),
    title_pt text NOT NULL,
    body_pt text NOT NULL DEFAULT '',
    code text NOT NULL DEFAULT '',
    contact_id uuid,
    turn_id text NOT NULL DEFAULT '',
    event_id text NOT NULL DEFAULT '',
    details jsonb NOT NULL DEFAULT '{}',
    raised_by jsonb NOT NULL DEFAULT '{}',
    dedup_key text,
    occurrences integer NOT NULL DEFAULT 1,
    resolution text NOT NULL DEFAULT '',
    resolved_by jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    resolved_at timestamptz,
    PRIMARY KEY (organization_id, central_item_id)
);
-- The same open problem is counted, not repeated.
CREATE UNIQUE INDEX uq_central_items_open_dedup ON crm.central_items (organization_id, dedup_key)
    WHERE dedup_key IS NOT NULL AND status IN ('open', 'acknowledged');
CREATE INDEX ix_central_items_inbox ON crm.central_items (organization_id, status, created_at DESC);

CREATE TABLE crm.knowledge_articles (
    organization_id uuid NOT NULL REFERENCES crm.organizations ON DELETE CASCADE,
    article_id uuid NOT NULL,
    title text NOT NULL,
    body text NOT NULL DEFAULT '',
    kind text NOT NULL CHECK (kind IN ('article', 'skill_reference')),
    unit_id text NOT NULL DEFAULT '',
    when_useful text NOT NULL DEFAULT '',
    published boolean NOT NULL DEFAULT false,
    updated_by jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('portuguese', crm.unaccent_immutable(title)), 'A')
        || setweight(to_tsvector('portuguese', crm.unaccent_immutable(body)), 'B')
    ) STORED,
    PRIMARY KEY (organization_id, article_id)
);
CREATE INDEX ix_knowledge_articles_search ON crm.knowledge_articles USING gin (search);

CREATE TABLE crm.turn_executions (
    organization_id uuid NOT NULL,
    turn_id text NOT NULL,
    contact_id uuid NOT NULL,
    unit_id text NOT NULL DEFAULT '',
    trigger text NOT NULL DEFAULT 'unspecified',
    outcome text NOT NULL DEFAULT 'unspecified',
    test boolean NOT NULL DEFAULT false,
    trace_id text NOT NULL DEFAULT '',
    checkpoint_seq bigint NOT NULL DEFAULT 0,
    record jsonb NOT NULL,
    inbound_preview text NOT NULL DEFAULT '',
    sent_preview text NOT NULL DEFAULT '',
    draft_count integer NOT NULL DEFAULT 0,
    veto_count integer NOT NULL DEFAULT 0,
    operador_status text NOT NULL DEFAULT 'unspecified',
    operador jsonb,
    operador_actions integer NOT NULL DEFAULT 0,
    input_tokens bigint NOT NULL DEFAULT 0,
    output_tokens bigint NOT NULL DEFAULT 0,
    cache_read_tokens bigint NOT NULL DEFAULT 0,
    cache_write_tokens bigint NOT NULL DEFAULT 0,
    model_duration_ms bigint NOT NULL DEFAULT 0,
    started_at timestamptz,
    finished_at timestamptz,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, turn_id),
    FOREIGN KEY (organization_id, contact_id) REFERENCES crm.contacts ON DELETE CASCADE
);
CREATE INDEX ix_turn_executions_recent ON crm.turn_executions (organization_id, started_at DESC);

CREATE TABLE crm.event_log (
    organization_id uuid NOT NULL REFERENCES crm.organizations ON DELETE CASCADE,
    event_id uuid NOT NULL,
    -- Publication order: breaks ties between events published at the same instant (FIFO).
    position bigint GENERATED ALWAYS AS IDENTITY,
    kind text NOT NULL,
    contact_id uuid,
    payload jsonb NOT NULL DEFAULT '{}',
    dedup_key text,
    status text NOT NULL CHECK (status IN ('pending', 'leased', 'done', 'dead')),
    attempts integer NOT NULL DEFAULT 0,
    max_attempts integer NOT NULL CHECK (max_attempts > 0),
    available_at timestamptz NOT NULL,
    lease_consumer text,
    lease_token uuid,
    lease_expires_at timestamptz,
    last_error text NOT NULL DEFAULT '',
    traceparent text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    finished_at timestamptz,
    PRIMARY KEY (organization_id, event_id)
);
CREATE UNIQUE INDEX uq_event_log_dedup ON crm.event_log (organization_id, kind, dedup_key)
    WHERE dedup_key IS NOT NULL;
-- What Claim scans: waiting events by kind and time, and leases that may have expired.
CREATE INDEX ix_event_log_pending ON crm.event_log (kind, available_at, position) WHERE status = 'pending';
CREATE INDEX ix_event_log_leased ON crm.event_log (kind, lease_expires_at) WHERE status = 'leased';
CREATE INDEX ix_event_log_recent ON crm.event_log (organization_id, created_at DESC);

-- (organization, rpc, key) → the first response, written in the transaction of the effect.
CREATE TABLE crm.idempotency_keys (
    organization_id uuid NOT NULL,
    rpc text NOT NULL,
    key text NOT NULL,
    response bytea NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, rpc, key)
);
"""

CROSS_TENANT_POLICIES = """
CREATE POLICY cross_tenant_read ON crm.organizations FOR SELECT USING (crm.cross_tenant_scope());
CREATE POLICY cross_tenant_read ON crm.lead_checkpoints FOR SELECT USING (crm.cross_tenant_scope());
CREATE POLICY cross_tenant_read ON crm.event_log FOR SELECT USING (crm.cross_tenant_scope());
CREATE POLICY cross_tenant_claim ON crm.event_log FOR UPDATE
    USING (crm.cross_tenant_scope()) WITH CHECK (crm.cross_tenant_scope());
"""


def _statements(script: str) -> list[str]:
    # Split on the semicolons that end a line; no statement here has one inside a line end.
    return [part.strip() for part in script.split(";\n") if part.strip()]


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public")
    # The extension may already live in another schema (installed by someone else): find it.
    schema = op.get_bind().execute(
        sa.text(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
            "WHERE e.extname = 'unaccent'"
        )
    ).scalar_one()
    # unaccent() is STABLE (it reads a dictionary by name); with the dictionary named and
    # schema-qualified the result depends on the argument only, so the wrapper may be declared
    # IMMUTABLE and used in a generated, indexed column.
    op.execute(
        f"""
        CREATE FUNCTION crm.unaccent_immutable(value text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        RETURN "{schema}".unaccent('"{schema}".unaccent'::regdictionary, value)
        """
    )
    # A text search configuration that ignores accents, for highlighting snippets in the
    # original (accented) text with a query built from unaccented words.
    op.execute("CREATE TEXT SEARCH CONFIGURATION crm.portuguese_unaccent (COPY = pg_catalog.portuguese)")
    op.execute(
        "ALTER TEXT SEARCH CONFIGURATION crm.portuguese_unaccent ALTER MAPPING FOR "
        f'hword, hword_part, word WITH "{schema}".unaccent, portuguese_stem'
    )
    for statement in _statements(HELPERS) + _statements(TABLES):
        op.execute(statement)
    for table in TENANT_TABLES:
        op.execute(f"ALTER TABLE crm.{table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE crm.{table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY tenant_isolation ON crm.{table} "
            "USING (organization_id = crm.current_organization_id()) "
            "WITH CHECK (organization_id = crm.current_organization_id())"
        )
    for statement in _statements(CROSS_TENANT_POLICIES):
        op.execute(statement)


def downgrade() -> None:
    for table in reversed(TENANT_TABLES):
        op.execute(f"DROP TABLE IF EXISTS crm.{table} CASCADE")
    op.execute("DROP TEXT SEARCH CONFIGURATION IF EXISTS crm.portuguese_unaccent")
    op.execute("DROP FUNCTION IF EXISTS crm.unaccent_immutable(text)")
    op.execute("DROP FUNCTION IF EXISTS crm.current_organization_id()")
    op.execute("DROP FUNCTION IF EXISTS crm.cross_tenant_scope()")
