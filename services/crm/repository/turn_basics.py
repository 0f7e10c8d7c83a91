"""SQL of the batched basic registration (RegisterTurnBasics) and the batched closed-turn read.

Set-based: each statement covers every turn of one organisation in the batch (arrays through
`unnest`), so a batch of a hundred turns costs about ten statements, not several hundred.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, many, q, run

_CONTACTS = q(
    "SELECT * FROM crm.contacts WHERE organization_id = :org AND contact_id = ANY(CAST(:contacts AS uuid[]))"
)
# Locked in a fixed order, so two batches touching the same contacts cannot deadlock each other.
_CONTACTS_LOCKED = q(  # only what the batch checks (anonymised, a person in control)
    "SELECT contact_id, anonymized, human_in_control, human_control_until FROM crm.contacts "
    "WHERE organization_id = :org AND contact_id = ANY(CAST(:contacts AS uuid[])) "
    "ORDER BY contact_id FOR UPDATE"
)
_CHECKPOINTS = q(
    "SELECT * FROM crm.lead_checkpoints WHERE organization_id = :org AND turn_id = ANY(CAST(:turns AS text[]))"
)
_OBLIGATIONS = q(
    "SELECT * FROM crm.obligations WHERE organization_id = :org AND turn_id = ANY(CAST(:turns AS text[])) "
    "ORDER BY created_at, turn_id, promise_index"
)
_STATES = q(  # only the stage: the batch compares it to tell a STAGE_CHANGED line
    "SELECT contact_id, stage_key FROM crm.lead_state "
    "WHERE organization_id = :org AND contact_id = ANY(CAST(:contacts AS uuid[]))"
)
_EXECUTIONS = q(
    "SELECT turn_id FROM crm.turn_executions WHERE organization_id = :org AND turn_id = ANY(CAST(:turns AS text[]))"
)
_USED_KEYS = q(
    "SELECT rpc, key FROM crm.idempotency_keys WHERE organization_id = :org AND key = ANY(CAST(:keys AS text[]))"
)
_PUT_STATES = q(
    """
    INSERT INTO crm.lead_state
        (organization_id, contact_id, stage_key, stage_label, reason, source_turn_id, updated_by, updated_at)
    SELECT :org, t.contact, t.stage_key, t.stage_label, t.reason, t.source_turn_id, CAST(t.updated_by AS jsonb),
           t.updated_at
    FROM unnest(CAST(:contacts AS uuid[]), CAST(:stage_keys AS text[]), CAST(:stage_labels AS text[]),
                CAST(:reasons AS text[]), CAST(:source_turn_ids AS text[]), CAST(:updated_bys AS text[]),
                CAST(:updated_ats AS timestamptz[]))
         AS t(contact, stage_key, stage_label, reason, source_turn_id, updated_by, updated_at)
    ON CONFLICT (organization_id, contact_id) DO UPDATE SET
        stage_key = excluded.stage_key, stage_label = excluded.stage_label, reason = excluded.reason,
        source_turn_id = excluded.source_turn_id, updated_by = excluded.updated_by, updated_at = excluded.updated_at
    """
)
_INSERT_ACTIVITIES = q(
    """
    INSERT INTO crm.crm_lead_activities
        (organization_id, activity_id, contact_id, kind, actor, summary_pt, turn_id, event_id, details,
         occurred_at, recorded_at)
    SELECT :org, t.activity, t.contact, t.kind, CAST(t.actor AS jsonb), t.summary_pt, t.turn_id, t.event_id,
           CAST(t.details AS jsonb), t.occurred_at, t.recorded_at
    FROM unnest(CAST(:activities AS uuid[]), CAST(:contacts AS uuid[]), CAST(:kinds AS text[]),
                CAST(:actors AS text[]), CAST(:summaries AS text[]), CAST(:turn_ids AS text[]),
                CAST(:event_ids AS text[]), CAST(:details AS text[]), CAST(:occurred_ats AS timestamptz[]),
                CAST(:recorded_ats AS timestamptz[]))
         AS t(activity, contact, kind, actor, summary_pt, turn_id, event_id, details, occurred_at, recorded_at)
    """
)
_SET_OUTCOMES = q(
    """
    UPDATE crm.turn_executions AS te
    SET operador = CAST(t.operador AS jsonb), operador_status = t.status, operador_actions = t.actions,
        recorded_at = t.recorded_at
    FROM unnest(CAST(:turns AS text[]), CAST(:operadores AS text[]), CAST(:statuses AS text[]),
                CAST(:actions AS integer[]), CAST(:recorded_ats AS timestamptz[]))
         AS t(turn_id, operador, status, actions, recorded_at)
    WHERE te.organization_id = :org AND te.turn_id = t.turn_id
    """
)
_SAVE_KEYS = q(
    """
    INSERT INTO crm.idempotency_keys (organization_id, rpc, key, response, created_at)
    SELECT :org, t.rpc, t.key, t.response, :now
    FROM unnest(CAST(:rpcs AS text[]), CAST(:keys AS text[]), CAST(:responses AS bytea[])) AS t(rpc, key, response)
    ON CONFLICT DO NOTHING
    """
)


async def contacts(conn: AsyncConnection, org: UUID, ids: list[UUID], *, lock: bool = False) -> dict[UUID, Row]:
    rows = await many(conn, _CONTACTS_LOCKED if lock else _CONTACTS, org=org, contacts=ids)
    return {row["contact_id"]: row for row in rows}


async def checkpoints(conn: AsyncConnection, org: UUID, turns: list[str]) -> dict[str, Row]:
    return {row["turn_id"]: row for row in await many(conn, _CHECKPOINTS, org=org, turns=turns)}


async def obligations(conn: AsyncConnection, org: UUID, turns: list[str]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for row in await many(conn, _OBLIGATIONS, org=org, turns=turns):
        out.setdefault(row["turn_id"], []).append(row)
    return out


async def states(conn: AsyncConnection, org: UUID, ids: list[UUID]) -> dict[UUID, Row]:
    return {row["contact_id"]: row for row in await many(conn, _STATES, org=org, contacts=ids)}


async def executions(conn: AsyncConnection, org: UUID, turns: list[str]) -> set[str]:
    return {row["turn_id"] for row in await many(conn, _EXECUTIONS, org=org, turns=turns)}


async def used_keys(conn: AsyncConnection, org: UUID, keys: list[str]) -> set[tuple[str, str]]:
    return {(row["rpc"], row["key"]) for row in await many(conn, _USED_KEYS, org=org, keys=keys)}


async def put_states(conn: AsyncConnection, org: UUID, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(_PUT_STATES, {"org": org, **_columns(rows, {
            "contacts": "contact_id", "stage_keys": "stage_key", "stage_labels": "stage_label", "reasons": "reason",
            "source_turn_ids": "source_turn_id", "updated_bys": "updated_by_json", "updated_ats": "updated_at"})})


async def insert_activities(conn: AsyncConnection, org: UUID, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(_INSERT_ACTIVITIES, {"org": org, **_columns(rows, {
            "activities": "activity_id", "contacts": "contact_id", "kinds": "kind", "actors": "actor_json",
            "summaries": "summary_pt", "turn_ids": "turn_id", "event_ids": "event_id", "details": "details_json",
            "occurred_ats": "occurred_at", "recorded_ats": "recorded_at"})})


async def set_outcomes(conn: AsyncConnection, org: UUID, rows: list[dict[str, Any]]) -> int:
    if not rows:
        return 0
    return await run(conn, _SET_OUTCOMES, org=org, **_columns(rows, {
        "turns": "turn_id", "operadores": "operador_json", "statuses": "status", "actions": "actions",
        "recorded_ats": "recorded_at"}))


async def save_keys(conn: AsyncConnection, org: UUID, rows: list[tuple[str, str, bytes]], now: datetime) -> int:
    if not rows:
        return 0
    return await run(conn, _SAVE_KEYS, org=org, now=now, rpcs=[r[0] for r in rows], keys=[r[1] for r in rows],
                     responses=[r[2] for r in rows])


def _columns(rows: list[dict[str, Any]], names: dict[str, str]) -> dict[str, list[Any]]:
    return {param: [row[column] for row in rows] for param, column in names.items()}
