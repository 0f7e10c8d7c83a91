"""SQL of the batched basic registration (RegisterTurnBasics) and the batched closed-turn read.

Set-based and few: per organisation, RegisterTurnBasics reads everything its checks need with
ONE statement (`lookups`) and writes every row with ONE statement (`write`: data-modifying CTEs,
the rows travelling as one JSON document); BatchGetClosedTurns reads with three. They run on the
asyncpg connection under the caller's SQLAlchemy transaction (`_sql.driver`): on this hardware
SQLAlchemy's own work is about 0.2 ms of CPU per statement, more than most of these statements
cost, and an array parameter costs asyncpg a Python-level check per element, which one JSON
document (encoded in C, unpacked by PostgreSQL) does not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import driver, js

# Id lists travel as one JSON array ($2), unpacked by PostgreSQL (see the module docstring).
_UUIDS = "ARRAY(SELECT CAST(x AS uuid) FROM jsonb_array_elements_text(CAST(CAST({} AS text) AS jsonb)) AS x)"
_TEXTS = "ARRAY(SELECT jsonb_array_elements_text(CAST(CAST({} AS text) AS jsonb)))"
_CONTACTS = f"SELECT * FROM crm.contacts WHERE organization_id = $1 AND contact_id = ANY({_UUIDS.format('$2')})"
_CHECKPOINTS = f"SELECT * FROM crm.lead_checkpoints WHERE organization_id = $1 AND turn_id = ANY({_TEXTS.format('$2')})"
_OBLIGATIONS = (
    f"SELECT * FROM crm.obligations WHERE organization_id = $1 AND turn_id = ANY({_TEXTS.format('$2')}) "
    "ORDER BY created_at, turn_id, promise_index"
)

# The contacts the batch writes about, locked in id order (`FOR UPDATE`, so two batches touching
# the same contacts cannot deadlock each other; only the columns the checks use), and which of the
# batch's (rpc, key) pairs were used before (one index probe per pair).
_LOCK = f"""
WITH people AS (
    SELECT contact_id, anonymized, human_in_control, human_control_until FROM crm.contacts
    WHERE organization_id = $1 AND contact_id = ANY({_UUIDS.format('$2')})
    ORDER BY contact_id
    FOR UPDATE
)
SELECT u.rpcs, u.keys, p.ids, p.anonymized, p.in_control, p.untils
FROM (SELECT array_agg(k.rpc) AS rpcs, array_agg(k.key) AS keys
      FROM jsonb_array_elements(CAST(CAST($3 AS text) AS jsonb)) AS w
      JOIN crm.idempotency_keys AS k ON k.organization_id = $1 AND k.rpc = w->>0 AND k.key = w->>1) AS u,
     (SELECT array_agg(contact_id) AS ids, array_agg(anonymized) AS anonymized,
             array_agg(human_in_control) AS in_control, array_agg(human_control_until) AS untils FROM people) AS p
"""
# Then, in a statement of its own (its snapshot is taken once the locks are held, so it sees what a
# batch that held them before committed): the contacts' current stages with the marker of what set
# them (`source_seq`, `source_turn_id`) and their last `seq` handed out, the checkpoints (contact,
# `seq`) of the turns the stage changes name ($5), the turns that have an execution record, and the
# organisation's settings, only when their version differs from $4.
_LOOKUPS = f"""
SELECT s.ids, s.stages, s.seqs, s.marker_turns, e.turns, c.ids AS counter_ids, c.last_seqs,
       k.turns AS source_turns, k.contacts AS source_contacts, k.seqs AS source_seqs,
       (SELECT settings_version FROM crm.organizations WHERE organization_id = $1) AS settings_version,
       (SELECT settings FROM crm.organizations WHERE organization_id = $1 AND settings_version IS DISTINCT FROM $4)
           AS settings
FROM (SELECT array_agg(contact_id) AS ids, array_agg(stage_key) AS stages, array_agg(source_seq) AS seqs,
             array_agg(source_turn_id) AS marker_turns FROM crm.lead_state
      WHERE organization_id = $1 AND contact_id = ANY({_UUIDS.format('$2')})) AS s,
     (SELECT array_agg(contact_id) AS ids, array_agg(last_seq) AS last_seqs FROM crm.lead_checkpoint_counters
      WHERE organization_id = $1 AND contact_id = ANY({_UUIDS.format('$2')})) AS c,
     (SELECT array_agg(turn_id) AS turns, array_agg(contact_id) AS contacts, array_agg(seq) AS seqs
      FROM crm.lead_checkpoints WHERE organization_id = $1 AND turn_id = ANY({_TEXTS.format('$5')})) AS k,
     (SELECT array_agg(turn_id) AS turns FROM crm.turn_executions
      WHERE organization_id = $1 AND turn_id = ANY({_TEXTS.format('$3')})) AS e
"""
# The whole stored states of a few contacts: only when a turn of the batch leaves a stage set by a
# newer one alone, so its stored response carries the state as it stays.
_STATES = f"SELECT * FROM crm.lead_state WHERE organization_id = $1 AND contact_id = ANY({_UUIDS.format('$2')})"

# Every row of the batch in one statement: the lead states (the last per contact), the timeline
# lines, the outcomes on the execution records, the idempotency keys with their responses, and the
# completion of the turns' events under their leases. Data-modifying CTEs all run to completion
# whether or not the final SELECT reads them; it returns what the caller checks. In the document,
# a value many rows share (an actor, a details object, an RPC name) is written once in `shared`
# and rows name it by position; an instant is the write's offset in microseconds from $3.
_WRITE = """
WITH doc AS (SELECT $2::text::jsonb AS d),
states AS (
    INSERT INTO crm.lead_state
        (organization_id, contact_id, stage_key, stage_label, reason, source_turn_id, updated_by, updated_at,
         source_seq)
    SELECT $1, (t->>0)::uuid, t->>1, t->>2, t->>3, t->>4, doc.d->'shared'->((t->>5)::integer),
           CAST($3 AS timestamptz) + (t->>6)::bigint * interval '1 microsecond', (t->>7)::bigint
    FROM doc, jsonb_array_elements(doc.d->'states') AS t
    ON CONFLICT (organization_id, contact_id) DO UPDATE SET
        stage_key = excluded.stage_key, stage_label = excluded.stage_label, reason = excluded.reason,
        source_turn_id = excluded.source_turn_id, updated_by = excluded.updated_by, updated_at = excluded.updated_at,
        source_seq = excluded.source_seq
),
activities AS (
    INSERT INTO crm.crm_lead_activities
        (organization_id, activity_id, contact_id, kind, actor, summary_pt, turn_id, event_id, details,
         occurred_at, recorded_at)
    SELECT $1, (t->>0)::uuid, (t->>1)::uuid, t->>2, doc.d->'shared'->((t->>3)::integer), t->>4, t->>5, t->>6,
           doc.d->'shared'->((t->>7)::integer),
           coalesce((t->>9)::timestamptz, CAST($3 AS timestamptz) + (t->>8)::bigint * interval '1 microsecond'),
           CAST($3 AS timestamptz) + (t->>8)::bigint * interval '1 microsecond'
    FROM doc, jsonb_array_elements(doc.d->'activities') AS t
),
outcomes AS (
    UPDATE crm.turn_executions AS te
    SET operador = (doc.d->'shared'->((t->>1)::integer))
                   || jsonb_strip_nulls(jsonb_build_object('eventId', t->>2, 'finishedAt', t->>3)),
        operador_status = t->>4, operador_actions = (t->>5)::integer,
        recorded_at = CAST($3 AS timestamptz) + (t->>6)::bigint * interval '1 microsecond'
    FROM doc, jsonb_array_elements(doc.d->'outcomes') AS t
    WHERE te.organization_id = $1 AND te.turn_id = t->>0
    RETURNING 1
),
keys AS (
    INSERT INTO crm.idempotency_keys (organization_id, rpc, key, response, created_at)
    SELECT $1, doc.d->'shared'->>((t->>0)::integer), t->>1,
           substring(CAST($4 AS bytea) FROM (t->>2)::integer + 1 FOR (t->>3)::integer), $3
    FROM doc, jsonb_array_elements(doc.d->'keys') AS t
    ON CONFLICT DO NOTHING
    RETURNING 1
),
leases AS (
    SELECT (t->>0)::uuid AS event_id, (t->>1)::uuid AS token FROM doc, jsonb_array_elements(doc.d->'events') AS t
),
completed AS (
    UPDATE crm.event_log AS e SET status = 'done', finished_at = $3, lease_expires_at = NULL
    FROM leases
    WHERE e.organization_id = $1 AND e.event_id = leases.event_id AND e.status = 'leased'
      AND e.lease_token = leases.token
    RETURNING e.event_id
)
SELECT (SELECT count(*) FROM outcomes) AS outcomes, (SELECT count(*) FROM keys) AS keys,
       (SELECT array_agg(event_id) FROM completed) AS completed,
       (SELECT array_agg(e.event_id) FROM crm.event_log AS e JOIN leases ON e.event_id = leases.event_id
        WHERE e.organization_id = $1 AND e.status = 'done' AND e.lease_token = leases.token) AS done_before
"""


@dataclass
class Locked:
    """The contacts locked for the batch (by canonical id) and the keys used before."""

    used: set[tuple[str, str]] = field(default_factory=set)  # (rpc, key) already in idempotency_keys
    people: dict[str, tuple[bool, bool, datetime | None]] = field(default_factory=dict)  # anonymised, in control, until


@dataclass
class Lookups:
    stages: dict[str, str] = field(default_factory=dict)  # contact → its current stage key
    markers: dict[str, tuple[int | None, str]] = field(default_factory=dict)  # contact → (source_seq, source_turn_id)
    last_seqs: dict[str, int] = field(default_factory=dict)  # contact → its last seq handed out
    turn_seqs: dict[str, tuple[str, int]] = field(default_factory=dict)  # source turn → (its contact, its seq)
    executed: set[str] = field(default_factory=set)  # turns with an execution record
    settings_version: int | None = None  # None: the organisation does not exist
    settings: dict[str, Any] | None = None  # only when its version differs from the one the caller holds


@dataclass
class Rows:
    """The rows one `write` makes; each row is a list in the column order of its CTE. Instants are offsets in
    microseconds from the `now` given to `write`; `shared` holds the values rows name by position."""

    states: list[list[Any]] = field(default_factory=list)
    activities: list[list[Any]] = field(default_factory=list)
    outcomes: list[list[Any]] = field(default_factory=list)
    keys: list[list[Any]] = field(default_factory=list)  # [rpc, key, offset, length] of a response in `responses`
    responses: bytearray = field(default_factory=bytearray)  # every stored response, back to back
    events: list[list[str]] = field(default_factory=list)  # [event_id, lease token]
    shared: list[Any] = field(default_factory=list)
    _positions: dict[Any, int] = field(default_factory=dict)

    def share(self, key: Any, value: Any) -> int:
        """The position of a shared value (`key` tells equal values apart; `value` may be a function making it)."""
        position = self._positions.get(key)
        if position is None:
            position = self._positions[key] = len(self.shared)
            self.shared.append(value() if callable(value) else value)
        return position


@dataclass
class Written:
    outcomes: int
    keys: int
    completed: set[str]  # events completed now
    done_before: set[str]  # events already done under the same lease (a retried call)


async def contacts(conn: AsyncConnection, org: UUID, ids: list[str]) -> dict[str, Any]:
    """The contacts (whole rows) by canonical id."""
    rows = await (await driver(conn)).fetch(_CONTACTS, org, js(ids))
    return {str(row["contact_id"]): row for row in rows}


async def checkpoints(conn: AsyncConnection, org: UUID, turns: list[str]) -> dict[str, Any]:
    return {row["turn_id"]: row for row in await (await driver(conn)).fetch(_CHECKPOINTS, org, js(turns))}


async def obligations(conn: AsyncConnection, org: UUID, turns: list[str]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for row in await (await driver(conn)).fetch(_OBLIGATIONS, org, js(turns)):
        out.setdefault(row["turn_id"], []).append(row)
    return out


async def lock_contacts(conn: AsyncConnection, org: UUID, *, contacts: list[str],
                        keys: list[tuple[str, str]]) -> Locked:
    row = await (await driver(conn)).fetchrow(_LOCK, org, js(contacts), js(keys))
    found = Locked()
    if row["keys"]:
        found.used = set(zip(row["rpcs"], row["keys"], strict=True))
    if row["ids"]:
        found.people = {str(contact): (anonymized, in_control, until) for contact, anonymized, in_control, until
                        in zip(row["ids"], row["anonymized"], row["in_control"], row["untils"], strict=True)}
    return found


async def lookups(conn: AsyncConnection, org: UUID, *, contacts: list[str], turns: list[str],
                  settings_version: int | None, source_turns: list[str]) -> Lookups:
    row = await (await driver(conn)).fetchrow(_LOOKUPS, org, js(contacts), js(turns), settings_version,
                                              js(source_turns))
    found = Lookups(settings_version=row["settings_version"], settings=row["settings"])
    if row["ids"]:
        keys = [str(contact) for contact in row["ids"]]
        found.stages = dict(zip(keys, row["stages"], strict=True))
        found.markers = dict(zip(keys, zip(row["seqs"], row["marker_turns"], strict=True), strict=True))
    if row["counter_ids"]:
        found.last_seqs = {str(c): seq for c, seq in zip(row["counter_ids"], row["last_seqs"], strict=True)}
    if row["source_turns"]:
        found.turn_seqs = {turn: (str(contact), seq) for turn, contact, seq
                           in zip(row["source_turns"], row["source_contacts"], row["source_seqs"], strict=True)}
    if row["turns"]:
        found.executed = set(row["turns"])
    return found


async def states(conn: AsyncConnection, org: UUID, contacts: list[str]) -> dict[str, Any]:
    """The stored lead states (whole rows) of `contacts`, by canonical contact id."""
    return {str(row["contact_id"]): row for row in await (await driver(conn)).fetch(_STATES, org, js(contacts))}


async def write(conn: AsyncConnection, org: UUID, rows: Rows, now: datetime) -> Written:
    document = js({"states": rows.states, "activities": rows.activities, "outcomes": rows.outcomes,
                   "keys": rows.keys, "events": rows.events, "shared": rows.shared})
    row = await (await driver(conn)).fetchrow(_WRITE, org, document, now, bytes(rows.responses))
    return Written(outcomes=row["outcomes"], keys=row["keys"],
                   completed={str(e) for e in row["completed"] or ()},
                   done_before={str(e) for e in row["done_before"] or ()})


def add_key(rows: Rows, rpc: str, key: str, response: bytes) -> None:
    """An idempotency key and the response stored with it."""
    rows.keys.append([rows.share(rpc, rpc), key, len(rows.responses), len(response)])
    rows.responses += response
