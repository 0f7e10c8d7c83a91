"""SQL of the lead's memory: `lead_state`, `lead_checkpoints` (+ the seq counter), `lead_notes`,
and the timeline `crm_lead_activities`."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q, run, scalar

# --- lead_state -------------------------------------------------------------------------------

# Also one part of GetLeadSnapshot's statement (repository/snapshot.py).
GET_STATE = _GET_STATE = q("SELECT * FROM crm.lead_state WHERE organization_id = :org AND contact_id = :contact")
# `source_seq`: the turn's checkpoint seq; for a write not tied to a turn (a person), the contact's last
# seq handed out, so only turns closed after it may move the stage again (leads.superseded).
_PUT_STATE = q(
    """
    INSERT INTO crm.lead_state
        (organization_id, contact_id, stage_key, stage_label, reason, source_turn_id, updated_by, updated_at,
         source_seq)
    VALUES (:org, :contact, :stage_key, :stage_label, :reason, :source_turn_id, CAST(:updated_by AS jsonb), :now,
            coalesce(CAST(:source_seq AS bigint),
                     (SELECT last_seq FROM crm.lead_checkpoint_counters
                      WHERE organization_id = :org AND contact_id = :contact)))
    ON CONFLICT (organization_id, contact_id) DO UPDATE SET
        stage_key = excluded.stage_key, stage_label = excluded.stage_label, reason = excluded.reason,
        source_turn_id = excluded.source_turn_id, updated_by = excluded.updated_by, updated_at = excluded.updated_at,
        source_seq = excluded.source_seq
    RETURNING *
    """
)


async def get_state(conn: AsyncConnection, org: UUID, contact: UUID) -> Row | None:
    return await one(conn, _GET_STATE, org=org, contact=contact)


async def put_state(conn: AsyncConnection, org: UUID, contact: UUID, *, updated_by: dict[str, Any], now: datetime,
                    stage_key: str, stage_label: str, reason: str, source_turn_id: str,
                    source_seq: int | None) -> Row:
    row = await one(
        conn, _PUT_STATE, org=org, contact=contact, updated_by=js(updated_by), now=now, stage_key=stage_key,
        stage_label=stage_label, reason=reason, source_turn_id=source_turn_id, source_seq=source_seq,
    )
    assert row is not None
    return row


# --- lead_checkpoints ------------------------------------------------------------------------

# The counter row is created at 1 or incremented; either way the UPDATE holds the row lock until
# commit, so a concurrent close of the same contact waits and then reads the incremented value.
_NEXT_SEQ = q(
    """
    INSERT INTO crm.lead_checkpoint_counters (organization_id, contact_id, last_seq)
    VALUES (:org, :contact, 1)
    ON CONFLICT (organization_id, contact_id)
    DO UPDATE SET last_seq = crm.lead_checkpoint_counters.last_seq + 1
    RETURNING last_seq
    """
)
_INSERT_CHECKPOINT = q(
    """
    INSERT INTO crm.lead_checkpoints
        (organization_id, contact_id, seq, turn_id, unit_id, rolling_summary, commitments, objections,
         next_action, declaracao, agenda_reread, created_at)
    VALUES (:org, :contact, :seq, :turn_id, :unit_id, :rolling_summary, CAST(:commitments AS text[]),
            CAST(:objections AS text[]), :next_action, CAST(:declaracao AS jsonb), :agenda_reread, :now)
    RETURNING *
    """
)
# Also one part of GetLeadSnapshot's statement (repository/snapshot.py).
LATEST = _LATEST = q(
    "SELECT * FROM crm.lead_checkpoints WHERE organization_id = :org AND contact_id = :contact "
    "ORDER BY seq DESC LIMIT 1"
)
_BY_TURN = q("SELECT * FROM crm.lead_checkpoints WHERE organization_id = :org AND turn_id = :turn_id")
_BY_SEQ = q(
    "SELECT * FROM crm.lead_checkpoints WHERE organization_id = :org AND contact_id = :contact AND seq = :seq"
)
_LIST_CHECKPOINTS = q(
    "SELECT * FROM crm.lead_checkpoints WHERE organization_id = :org AND contact_id = :contact "
    "ORDER BY seq DESC LIMIT :limit OFFSET :offset"
)
# Seed 001's measurement: the latest checkpoint per contact BY SEQ, never by created_at.
_SUMMARY_STATS = q(
    """
    WITH latest AS (
        SELECT DISTINCT ON (organization_id, contact_id) length(rolling_summary) AS chars
        FROM crm.lead_checkpoints
        WHERE CAST(:org AS uuid) IS NULL OR organization_id = CAST(:org AS uuid)
        ORDER BY organization_id, contact_id, seq DESC
    )
    SELECT count(*) AS contacts,
           coalesce(percentile_cont(0.95) WITHIN GROUP (ORDER BY chars), 0) AS p95_chars,
           coalesce(max(chars), 0) AS max_chars
    FROM latest
    """
)
_REDACT_CHECKPOINTS = q(
    """
    UPDATE crm.lead_checkpoints SET rolling_summary = '', commitments = '{}', objections = '{}', next_action = ''
    WHERE organization_id = :org AND contact_id = :contact
    """
)


async def next_seq(conn: AsyncConnection, org: UUID, contact: UUID) -> int:
    return int(await scalar(conn, _NEXT_SEQ, org=org, contact=contact))


async def insert_checkpoint(conn: AsyncConnection, org: UUID, contact: UUID, seq: int, *, now: datetime,
                            declaracao: dict[str, Any], **fields: Any) -> Row:
    row = await one(conn, _INSERT_CHECKPOINT, org=org, contact=contact, seq=seq, now=now,
                    declaracao=js(declaracao), **fields)
    assert row is not None
    return row


async def latest_checkpoint(conn: AsyncConnection, org: UUID, contact: UUID) -> Row | None:
    return await one(conn, _LATEST, org=org, contact=contact)


async def checkpoint_by_turn(conn: AsyncConnection, org: UUID, turn_id: str) -> Row | None:
    return await one(conn, _BY_TURN, org=org, turn_id=turn_id)


# CloseTurn's first look, in one statement: whether the contact exists, and the turn's checkpoint
# (`seq` and its contact) when the turn was closed already.
_CONTACT_AND_TURN = q(
    """
    SELECT EXISTS (SELECT 1 FROM crm.contacts WHERE organization_id = :org AND contact_id = :contact)
               AS contact_exists,
           cp.seq, cp.contact_id
    FROM (SELECT 1) AS one
    LEFT JOIN crm.lead_checkpoints AS cp ON cp.organization_id = :org AND cp.turn_id = :turn_id
    """
)


async def contact_and_turn_checkpoint(conn: AsyncConnection, org: UUID, contact: UUID, turn_id: str) -> Row:
    """`contact_exists`, and the `seq` and `contact_id` of the turn's checkpoint (NULL when it has none)."""
    row = await one(conn, _CONTACT_AND_TURN, org=org, contact=contact, turn_id=turn_id)
    assert row is not None
    return row


async def checkpoint_by_seq(conn: AsyncConnection, org: UUID, contact: UUID, seq: int) -> Row | None:
    return await one(conn, _BY_SEQ, org=org, contact=contact, seq=seq)


async def list_checkpoints(conn: AsyncConnection, org: UUID, contact: UUID, *, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST_CHECKPOINTS, org=org, contact=contact, limit=limit, offset=offset)


async def rolling_summary_stats(conn: AsyncConnection, org: UUID | None) -> Row:
    row = await one(conn, _SUMMARY_STATS, org=org)
    assert row is not None
    return row


async def redact_checkpoints(conn: AsyncConnection, org: UUID, contact: UUID) -> None:
    await run(conn, _REDACT_CHECKPOINTS, org=org, contact=contact)


# --- lead_notes ------------------------------------------------------------------------------

_INSERT_NOTE = q(
    """
    INSERT INTO crm.lead_notes
        (organization_id, note_id, contact_id, key, title, body, author, source_turn_id, created_at, updated_at)
    VALUES (:org, :note, :contact, :key, :title, :body, CAST(:author AS jsonb), :source_turn_id, :now, :now)
    ON CONFLICT (organization_id, contact_id, key) WHERE key IS NOT NULL DO UPDATE SET
        title = excluded.title, body = excluded.body, author = excluded.author,
        source_turn_id = excluded.source_turn_id, updated_at = excluded.updated_at
    RETURNING *
    """
)
_NOTE_BY_ID = q(
    "SELECT * FROM crm.lead_notes WHERE organization_id = :org AND contact_id = :contact AND note_id = :note"
)
_NOTE_BY_KEY = q(
    "SELECT * FROM crm.lead_notes WHERE organization_id = :org AND contact_id = :contact AND key = :key"
)
_LIST_NOTES = q(
    "SELECT * FROM crm.lead_notes WHERE organization_id = :org AND contact_id = :contact "
    "ORDER BY updated_at DESC, note_id LIMIT :limit OFFSET :offset"
)
_DELETE_NOTES = q("DELETE FROM crm.lead_notes WHERE organization_id = :org AND contact_id = :contact")


async def save_note(conn: AsyncConnection, org: UUID, note: UUID, contact: UUID, *, key: str | None,
                    author: dict[str, Any], now: datetime, title: str, body: str, source_turn_id: str) -> Row:
    row = await one(conn, _INSERT_NOTE, org=org, note=note, contact=contact, key=key, author=js(author), now=now,
                    title=title, body=body, source_turn_id=source_turn_id)
    assert row is not None
    return row


async def note_by_id(conn: AsyncConnection, org: UUID, contact: UUID, note: UUID) -> Row | None:
    return await one(conn, _NOTE_BY_ID, org=org, contact=contact, note=note)


async def note_by_key(conn: AsyncConnection, org: UUID, contact: UUID, key: str) -> Row | None:
    return await one(conn, _NOTE_BY_KEY, org=org, contact=contact, key=key)


async def list_notes(conn: AsyncConnection, org: UUID, contact: UUID, *, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST_NOTES, org=org, contact=contact, limit=limit, offset=offset)


async def delete_notes(conn: AsyncConnection, org: UUID, contact: UUID) -> None:
    await run(conn, _DELETE_NOTES, org=org, contact=contact)


# --- crm_lead_activities ---------------------------------------------------------------------

_INSERT_ACTIVITY = q(
    """
    INSERT INTO crm.crm_lead_activities
        (organization_id, activity_id, contact_id, kind, actor, summary_pt, turn_id, event_id, details,
         occurred_at, recorded_at)
    VALUES (:org, :activity, :contact, :kind, CAST(:actor AS jsonb), :summary_pt, :turn_id, :event_id,
            CAST(:details AS jsonb), :occurred_at, :now)
    RETURNING *
    """
)
# Also one part of GetLeadSnapshot's statement (repository/snapshot.py).
LIST_ACTIVITIES = _LIST_ACTIVITIES = q(
    """
    SELECT * FROM crm.crm_lead_activities
    WHERE organization_id = :org AND contact_id = :contact
      AND (cardinality(CAST(:kinds AS text[])) = 0 OR kind = ANY(CAST(:kinds AS text[])))
      AND (:turn_id = '' OR turn_id = :turn_id)
      AND (CAST(:since AS timestamptz) IS NULL OR occurred_at >= CAST(:since AS timestamptz))
    ORDER BY occurred_at DESC, recorded_at DESC, activity_id
    LIMIT :limit OFFSET :offset
    """
)


async def insert_activity(conn: AsyncConnection, org: UUID, activity: UUID, contact: UUID, *, kind: str,
                          actor: dict[str, Any], summary_pt: str, turn_id: str = "", event_id: str = "",
                          details: dict[str, Any] | None = None, occurred_at: datetime, now: datetime) -> Row:
    row = await one(
        conn, _INSERT_ACTIVITY, org=org, activity=activity, contact=contact, kind=kind, actor=js(actor),
        summary_pt=summary_pt, turn_id=turn_id, event_id=event_id, details=js(details or {}),
        occurred_at=occurred_at, now=now,
    )
    assert row is not None
    return row


async def list_activities(conn: AsyncConnection, org: UUID, contact: UUID, *, kinds: list[str], turn_id: str,
                          since: datetime | None, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST_ACTIVITIES, org=org, contact=contact, kinds=kinds, turn_id=turn_id, since=since,
                      limit=limit, offset=offset)
