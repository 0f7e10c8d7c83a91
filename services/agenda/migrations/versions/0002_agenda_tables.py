"""The agenda: resources, services, calendar_appointments, their history and the idempotency ledger.

Double booking is impossible in the database itself:
- `agenda.calendar_appointments_capacity` (a BEFORE INSERT/UPDATE trigger) locks the resource
  row, counts the non-cancelled appointments overlapping the new interval at its busiest
  moment and refuses (SQLSTATE 23P01) when the resource's capacity is reached. It also sets
  `exclusive` (capacity 1), which the exclusion constraint reads;
- `ex_calendar_appointments_no_overlap` excludes two overlapping non-cancelled exclusive
  appointments of one resource, whatever writes them.
`agenda.book_if_room` and `agenda.move_if_room` are how the service writes an interval: they
catch that refusal inside the database, so a refused booking releases the resource lock at
once instead of holding it for a round trip to the service (and they return no row).
Every table has row-level security forced on, keyed on the transaction-local setting
`balcao.organization_id`.

Revision ID: agenda_0002
Revises: agenda_0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

from alembic import op

revision: str = "agenda_0002"
down_revision: str | None = "agenda_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TENANT = "NULLIF(current_setting('balcao.organization_id', true), '')::uuid"
TABLES = ("resources", "services", "calendar_appointments", "appointment_history", "idempotency_keys")

UPGRADE = [
    "CREATE EXTENSION IF NOT EXISTS btree_gist",
    """
    CREATE TABLE agenda.services (
        organization_id uuid NOT NULL,
        service_id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        duration_minutes integer NOT NULL DEFAULT 0,
        place jsonb,
        video_call text,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_services PRIMARY KEY (organization_id, service_id),
        CONSTRAINT ck_services_name CHECK (btrim(name) <> ''),
        CONSTRAINT ck_services_duration CHECK (duration_minutes >= 0),
        CONSTRAINT ck_services_video_call CHECK (video_call IN ('never', 'optional', 'always'))
    )
    """,
    """
    CREATE TABLE agenda.resources (
        organization_id uuid NOT NULL,
        resource_id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        kind text NOT NULL DEFAULT 'person',
        time_zone text NOT NULL,
        business_hours jsonb NOT NULL DEFAULT '{"weekly": [], "overrides": []}',
        slot_minutes integer NOT NULL,
        capacity integer NOT NULL DEFAULT 1,
        place jsonb NOT NULL DEFAULT '{}',
        video_call text NOT NULL DEFAULT 'never',
        min_notice_minutes integer NOT NULL DEFAULT 0,
        booking_horizon_days integer NOT NULL DEFAULT 0,
        service_ids uuid[] NOT NULL DEFAULT '{}',
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_resources PRIMARY KEY (organization_id, resource_id),
        CONSTRAINT ck_resources_name CHECK (btrim(name) <> ''),
        CONSTRAINT ck_resources_kind CHECK (kind IN ('unspecified', 'person', 'room', 'group_class', 'equipment')),
        CONSTRAINT ck_resources_time_zone CHECK (time_zone <> ''),
        CONSTRAINT ck_resources_slot_minutes CHECK (slot_minutes >= 1),
        CONSTRAINT ck_resources_capacity CHECK (capacity >= 1),
        CONSTRAINT ck_resources_video_call CHECK (video_call IN ('never', 'optional', 'always')),
        CONSTRAINT ck_resources_min_notice CHECK (min_notice_minutes >= 0),
        CONSTRAINT ck_resources_horizon CHECK (booking_horizon_days >= 0)
    )
    """,
    """
    CREATE TABLE agenda.calendar_appointments (
        organization_id uuid NOT NULL,
        appointment_id uuid NOT NULL DEFAULT gen_random_uuid(),
        contact_id uuid NOT NULL,
        resource_id uuid NOT NULL,
        service_id uuid,
        start_time timestamptz NOT NULL,
        end_time timestamptz NOT NULL,
        time_zone text NOT NULL,
        status text NOT NULL,
        place jsonb NOT NULL DEFAULT '{}',
        video_call_status text NOT NULL DEFAULT 'none',
        video_call_url text NOT NULL DEFAULT '',
        notes text NOT NULL DEFAULT '',
        cancellation_reason text NOT NULL DEFAULT '',
        source_turn_id text NOT NULL DEFAULT '',
        booked_by text NOT NULL DEFAULT '',
        idempotency_key text,
        exclusive boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_calendar_appointments PRIMARY KEY (organization_id, appointment_id),
        CONSTRAINT fk_calendar_appointments_resource_id_resources
            FOREIGN KEY (organization_id, resource_id) REFERENCES agenda.resources (organization_id, resource_id),
        CONSTRAINT fk_calendar_appointments_service_id_services
            FOREIGN KEY (organization_id, service_id) REFERENCES agenda.services (organization_id, service_id),
        CONSTRAINT ck_calendar_appointments_interval CHECK (end_time > start_time),
        CONSTRAINT ck_calendar_appointments_status CHECK (status IN ('pending', 'confirmed', 'cancelled')),
        CONSTRAINT ck_calendar_appointments_video_call_status
            CHECK (video_call_status IN ('none', 'pending', 'ready', 'failed')),
        CONSTRAINT ck_calendar_appointments_time_zone CHECK (time_zone <> ''),
        CONSTRAINT ex_calendar_appointments_no_overlap EXCLUDE USING gist (
            organization_id WITH =,
            resource_id WITH =,
            tstzrange(start_time, end_time, '[)') WITH &&
        ) WHERE (status <> 'cancelled' AND exclusive)
    )
    """,
    """
    CREATE UNIQUE INDEX uq_calendar_appointments_idempotency_key
        ON agenda.calendar_appointments (organization_id, idempotency_key) WHERE idempotency_key IS NOT NULL
    """,
    """
    CREATE INDEX ix_calendar_appointments_contact
        ON agenda.calendar_appointments (organization_id, contact_id, start_time)
    """,
    """
    CREATE INDEX ix_calendar_appointments_resource_time
        ON agenda.calendar_appointments USING gist (organization_id, resource_id, tstzrange(start_time, end_time, '[)'))
        WHERE status <> 'cancelled'
    """,
    """
    CREATE INDEX ix_calendar_appointments_start
        ON agenda.calendar_appointments (organization_id, start_time, appointment_id)
    """,
    """
    CREATE TABLE agenda.appointment_history (
        organization_id uuid NOT NULL,
        appointment_id uuid NOT NULL,
        change_id bigint GENERATED ALWAYS AS IDENTITY,
        change text NOT NULL,
        actor text NOT NULL DEFAULT '',
        reason text NOT NULL DEFAULT '',
        source_turn_id text NOT NULL DEFAULT '',
        previous_start_time timestamptz,
        previous_end_time timestamptz,
        changed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_appointment_history PRIMARY KEY (organization_id, appointment_id, change_id),
        CONSTRAINT fk_appointment_history_appointment_id_calendar_appointments
            FOREIGN KEY (organization_id, appointment_id)
            REFERENCES agenda.calendar_appointments (organization_id, appointment_id),
        CONSTRAINT ck_appointment_history_change
            CHECK (change IN ('booked', 'rescheduled', 'cancelled', 'confirmed', 'video_call'))
    )
    """,
    """
    CREATE TABLE agenda.idempotency_keys (
        organization_id uuid NOT NULL,
        idempotency_key text NOT NULL,
        method text NOT NULL,
        response bytea,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_idempotency_keys PRIMARY KEY (organization_id, idempotency_key)
    )
    """,
    """
    CREATE FUNCTION agenda.calendar_appointments_capacity() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        room integer;
        taken integer;
    BEGIN
        IF NEW.status = 'cancelled' THEN
            RETURN NEW;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.status <> 'cancelled' AND OLD.resource_id = NEW.resource_id
           AND OLD.start_time = NEW.start_time AND OLD.end_time = NEW.end_time THEN
            RETURN NEW;  -- the interval it already held: nothing new to count
        END IF;
        -- The lock serialises every booking of this resource until commit, so the count below
        -- (a fresh snapshot in READ COMMITTED) sees each booking committed before this one.
        SELECT capacity INTO room FROM agenda.resources
         WHERE organization_id = NEW.organization_id AND resource_id = NEW.resource_id
           FOR NO KEY UPDATE;
        IF room IS NULL THEN
            RETURN NEW;  -- the foreign key reports the unknown resource
        END IF;
        NEW.exclusive := room = 1;
        SELECT coalesce(max(busy.n), 0) INTO taken
          FROM (SELECT (SELECT count(*) FROM agenda.calendar_appointments b
                         WHERE b.organization_id = NEW.organization_id AND b.resource_id = NEW.resource_id
                           AND b.status <> 'cancelled' AND b.appointment_id <> NEW.appointment_id
                           AND b.start_time <= p.moment AND b.end_time > p.moment) AS n
                  FROM (SELECT greatest(a.start_time, NEW.start_time) AS moment
                          FROM agenda.calendar_appointments a
                         WHERE a.organization_id = NEW.organization_id AND a.resource_id = NEW.resource_id
                           AND a.status <> 'cancelled' AND a.appointment_id <> NEW.appointment_id
                           AND tstzrange(a.start_time, a.end_time, '[)')
                               && tstzrange(NEW.start_time, NEW.end_time, '[)')) AS p) AS busy;
        IF taken >= room THEN
            RAISE EXCEPTION 'resource % is full from % to % (capacity %)',
                NEW.resource_id, NEW.start_time, NEW.end_time, room
                USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'calendar_appointments_capacity';
        END IF;
        RETURN NEW;
    END
    $$
    """,
    """
    CREATE TRIGGER calendar_appointments_capacity
        BEFORE INSERT OR UPDATE ON agenda.calendar_appointments
        FOR EACH ROW EXECUTE FUNCTION agenda.calendar_appointments_capacity()
    """,
    """
    CREATE FUNCTION agenda.book_if_room(
        p_organization_id uuid, p_contact_id uuid, p_resource_id uuid, p_service_id uuid,
        p_start timestamptz, p_end timestamptz, p_time_zone text, p_status text, p_place jsonb,
        p_video_call_status text, p_notes text, p_source_turn_id text, p_booked_by text, p_idempotency_key text
    ) RETURNS SETOF agenda.calendar_appointments
    LANGUAGE plpgsql AS $$
    DECLARE
        booked agenda.calendar_appointments;
    BEGIN
        INSERT INTO agenda.calendar_appointments (
            organization_id, contact_id, resource_id, service_id, start_time, end_time, time_zone, status,
            place, video_call_status, notes, source_turn_id, booked_by, idempotency_key)
        VALUES (p_organization_id, p_contact_id, p_resource_id, p_service_id, p_start, p_end, p_time_zone,
            p_status, p_place, p_video_call_status, p_notes, p_source_turn_id, p_booked_by, p_idempotency_key)
        RETURNING * INTO booked;
        INSERT INTO agenda.appointment_history (organization_id, appointment_id, change, actor, source_turn_id)
        VALUES (p_organization_id, booked.appointment_id, 'booked', p_booked_by, p_source_turn_id);
        RETURN NEXT booked;
    EXCEPTION WHEN exclusion_violation THEN
        RETURN;  -- full: this block's subtransaction is rolled back, and the resource lock with it
    END
    $$
    """,
    """
    CREATE FUNCTION agenda.move_if_room(
        p_organization_id uuid, p_appointment_id uuid, p_resource_id uuid, p_start timestamptz,
        p_end timestamptz, p_time_zone text, p_status text, p_place jsonb, p_actor text, p_reason text,
        p_source_turn_id text
    ) RETURNS SETOF agenda.calendar_appointments
    LANGUAGE plpgsql AS $$
    DECLARE
        before agenda.calendar_appointments;
        moved agenda.calendar_appointments;
    BEGIN
        SELECT * INTO before FROM agenda.calendar_appointments
         WHERE organization_id = p_organization_id AND appointment_id = p_appointment_id;
        UPDATE agenda.calendar_appointments
           SET resource_id = p_resource_id, start_time = p_start, end_time = p_end, time_zone = p_time_zone,
               status = p_status, place = p_place, updated_at = now()
         WHERE organization_id = p_organization_id AND appointment_id = p_appointment_id
        RETURNING * INTO moved;
        INSERT INTO agenda.appointment_history (organization_id, appointment_id, change, actor, reason,
            source_turn_id, previous_start_time, previous_end_time)
        VALUES (p_organization_id, p_appointment_id, 'rescheduled', p_actor, p_reason, p_source_turn_id,
            before.start_time, before.end_time);
        RETURN NEXT moved;
    EXCEPTION WHEN exclusion_violation THEN
        RETURN;
    END
    $$
    """,
]


def upgrade() -> None:
    for statement in UPGRADE:
        op.execute(statement)
    for table in TABLES:
        op.execute(f"ALTER TABLE agenda.{table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE agenda.{table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY tenant_isolation ON agenda.{table} "
            f"USING (organization_id = {TENANT}) WITH CHECK (organization_id = {TENANT})"
        )


def downgrade() -> None:
    op.execute("DROP FUNCTION IF EXISTS agenda.move_if_room")
    op.execute("DROP FUNCTION IF EXISTS agenda.book_if_room")
    op.execute("DROP TRIGGER IF EXISTS calendar_appointments_capacity ON agenda.calendar_appointments")
    op.execute("DROP FUNCTION IF EXISTS agenda.calendar_appointments_capacity()")
    for table in reversed(TABLES):
        op.execute(f"DROP TABLE IF EXISTS agenda.{table}")
