"""SQL of `event_log`: the outbox and the work queue.

Claim takes rows with `FOR UPDATE SKIP LOCKED`, so concurrent consumers skip each other's rows
instead of waiting or taking the same ones. A lease is a token and an expiry on the row; a row
whose lease expired is claimable again. NOTIFY is issued inside the writing transaction, so
listeners hear about an event only once it is committed.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, driver, js, many, one, q, run

CHANNEL = "crm_event_log"

_INSERT = q(
    """
    INSERT INTO crm.event_log
        (organization_id, event_id, kind, contact_id, payload, dedup_key, status, max_attempts, available_at,
         traceparent, created_at)
    VALUES (:org, :event, :kind, :contact, CAST(:payload AS jsonb), :dedup_key, 'pending', :max_attempts,
            :available_at, :traceparent, :now)
    ON CONFLICT (organization_id, kind, dedup_key) WHERE dedup_key IS NOT NULL DO NOTHING
    RETURNING *
    """
)
# The same insert, waking subscribers (when this transaction commits) in the same statement: the
# notification is sent for an inserted row only, never for a duplicate.
_INSERT_NOTIFYING = q(_INSERT.text.replace("RETURNING *", "RETURNING *, pg_notify(:channel, :message) AS notified"))
_BY_DEDUP = q(
    "SELECT * FROM crm.event_log WHERE organization_id = :org AND kind = :kind AND dedup_key = :dedup_key"
)
_NOTIFY = q("SELECT pg_notify(:channel, :message)")
_GET = q("SELECT * FROM crm.event_log WHERE organization_id = :org AND event_id = :event")
_GET_LOCKED = q("SELECT * FROM crm.event_log WHERE organization_id = :org AND event_id = :event FOR UPDATE")

# Oldest available first. An expired lease counts as available unless the event already used
# all its attempts (those are declared dead by `exhausted_leases` instead of being retried).
# Per kind (LATERAL, so `kind = k.kind` is an equality) two branches, each walking its partial
# index in order: a claim reads about `limit` rows per kind however long the log is. Rows locked
# in a branch but not picked are released at commit. Claim's two statements run on the asyncpg
# connection under the transaction (`_sql.driver`): a worker claims all the time, and SQLAlchemy's
# own work per statement cost more than these statements.
_CLAIM = """
    WITH waiting AS (
        SELECT w.* FROM unnest($1::text[]) AS k(kind), LATERAL (
            SELECT organization_id, event_id, available_at, position
            FROM crm.event_log
            WHERE status = 'pending' AND kind = k.kind AND available_at <= $3
              AND ($2::uuid IS NULL OR organization_id = $2::uuid)
            ORDER BY available_at, position
            LIMIT $4
            FOR UPDATE SKIP LOCKED
        ) AS w
    ), expired AS (
        SELECT x.* FROM unnest($1::text[]) AS k(kind), LATERAL (
            SELECT organization_id, event_id, available_at, position
            FROM crm.event_log
            WHERE status = 'leased' AND kind = k.kind AND lease_expires_at <= $3 AND attempts < max_attempts
              AND ($2::uuid IS NULL OR organization_id = $2::uuid)
            ORDER BY lease_expires_at
            LIMIT $4
            FOR UPDATE SKIP LOCKED
        ) AS x
    ), picked AS (
        SELECT organization_id, event_id
        FROM (SELECT * FROM waiting UNION ALL SELECT * FROM expired) AS candidates
        ORDER BY available_at, position
        LIMIT $4
    )
    UPDATE crm.event_log e
    SET status = 'leased', attempts = e.attempts + 1, lease_consumer = $5, lease_token = gen_random_uuid(),
        lease_expires_at = $6
    FROM picked
    WHERE e.organization_id = picked.organization_id AND e.event_id = picked.event_id
    RETURNING e.*
    """
_EXHAUSTED = """
    SELECT x.* FROM unnest($1::text[]) AS k(kind), LATERAL (
        SELECT organization_id, event_id FROM crm.event_log
        WHERE status = 'leased' AND kind = k.kind AND lease_expires_at <= $3 AND attempts >= max_attempts
          AND ($2::uuid IS NULL OR organization_id = $2::uuid)
        ORDER BY lease_expires_at
        LIMIT $4
        FOR UPDATE SKIP LOCKED
    ) AS x
    """
_COMPLETE = q(
    """
    UPDATE crm.event_log SET status = 'done', finished_at = :now, lease_expires_at = NULL
    WHERE organization_id = :org AND event_id = :event AND status = 'leased' AND lease_token = :token
    RETURNING event_id
    """
)
# A worker's acknowledgements, possibly of several organisations: each row is matched on its
# own (organization_id, event_id, lease_token), never on the event id alone.
_COMPLETE_MANY = q(
    """
    UPDATE crm.event_log e SET status = 'done', finished_at = :now, lease_expires_at = NULL
    FROM unnest(CAST(:orgs AS uuid[]), CAST(:events AS uuid[]), CAST(:tokens AS uuid[]))
        AS c(organization_id, event_id, token)
    WHERE e.organization_id = c.organization_id AND e.event_id = c.event_id
      AND e.status = 'leased' AND e.lease_token = c.token
    RETURNING e.organization_id, e.event_id
    """
)
_STATES = q(
    """
    SELECT e.organization_id, e.event_id, e.status, e.lease_token
    FROM crm.event_log e
    JOIN unnest(CAST(:orgs AS uuid[]), CAST(:events AS uuid[])) AS c(organization_id, event_id)
      ON e.organization_id = c.organization_id AND e.event_id = c.event_id
    """
)
_RETRY = q(
    """
    UPDATE crm.event_log SET status = 'pending', available_at = :available_at, last_error = :error,
        lease_consumer = NULL, lease_token = NULL, lease_expires_at = NULL
    WHERE organization_id = :org AND event_id = :event RETURNING *
    """
)
_DEAD = q(
    """
    UPDATE crm.event_log SET status = 'dead', last_error = :error, finished_at = :now, lease_expires_at = NULL
    WHERE organization_id = :org AND event_id = :event RETURNING *
    """
)
_EXTEND = q(
    """
    UPDATE crm.event_log SET lease_expires_at = :expires_at
    WHERE organization_id = :org AND event_id = :event AND status = 'leased' AND lease_token = :token
    RETURNING lease_expires_at
    """
)
_REQUEUE = q(
    """
    UPDATE crm.event_log SET status = 'pending', attempts = 0, available_at = :now, finished_at = NULL,
        lease_consumer = NULL, lease_token = NULL, lease_expires_at = NULL
    WHERE organization_id = :org AND event_id = :event RETURNING *
    """
)
_FINISH_PENDING = q(
    """
    UPDATE crm.event_log SET status = 'done', finished_at = :now, last_error = :note
    WHERE organization_id = :org AND event_id = :event AND status = 'pending'
    """
)
_LIST = q(
    """
    SELECT * FROM crm.event_log
    WHERE organization_id = :org
      AND (cardinality(CAST(:statuses AS text[])) = 0 OR status = ANY(CAST(:statuses AS text[])))
      AND (cardinality(CAST(:kinds AS text[])) = 0 OR kind = ANY(CAST(:kinds AS text[])))
      AND (CAST(:contact AS uuid) IS NULL OR contact_id = CAST(:contact AS uuid))
    ORDER BY created_at DESC, position DESC
    LIMIT :limit OFFSET :offset
    """
)
_STATS = q(
    """
    SELECT kind, status, count(*) AS count, min(created_at) AS oldest_created_at
    FROM crm.event_log
    WHERE CAST(:org AS uuid) IS NULL OR organization_id = CAST(:org AS uuid)
    GROUP BY kind, status
    ORDER BY kind, status
    """
)


async def insert(conn: AsyncConnection, org: UUID, event: UUID, *, kind: str, contact: UUID | None,
                 payload: dict[str, Any], dedup_key: str | None, max_attempts: int, available_at: datetime,
                 traceparent: str, now: datetime, notify: bool = False) -> Row | None:
    """The new event, or None when the dedup key already names one. With `notify`, a new event also
    wakes subscribers when this transaction commits (as `notify` does)."""
    params: dict[str, Any] = {}
    if notify:
        params = {"channel": CHANNEL, "message": _notice(org, kind)}
    return await one(conn, _INSERT_NOTIFYING if notify else _INSERT, org=org, event=event, kind=kind,
                     contact=contact, payload=js(payload), dedup_key=dedup_key, max_attempts=max_attempts,
                     available_at=available_at, traceparent=traceparent, now=now, **params)


def _notice(org: UUID, kind: str) -> str:
    return json.dumps({"organization_id": str(org), "kind": kind})


async def by_dedup_key(conn: AsyncConnection, org: UUID, kind: str, dedup_key: str) -> Row | None:
    return await one(conn, _BY_DEDUP, org=org, kind=kind, dedup_key=dedup_key)


async def notify(conn: AsyncConnection, org: UUID, kind: str) -> None:
    """Wake subscribers when this transaction commits."""
    await run(conn, _NOTIFY, channel=CHANNEL, message=_notice(org, kind))


async def get(conn: AsyncConnection, org: UUID, event: UUID, *, lock: bool = False) -> Row | None:
    return await one(conn, _GET_LOCKED if lock else _GET, org=org, event=event)


async def claim(conn: AsyncConnection, *, org: UUID | None, kinds: list[str], consumer: str, limit: int,
                now: datetime, expires_at: datetime) -> list[Any]:
    rows = await (await driver(conn)).fetch(_CLAIM, kinds, org, now, limit, consumer, expires_at)
    return sorted(rows, key=lambda row: (row["available_at"], row["position"]))


async def exhausted_leases(conn: AsyncConnection, *, org: UUID | None, kinds: list[str], now: datetime,
                           limit: int = 100) -> list[Any]:
    return await (await driver(conn)).fetch(_EXHAUSTED, kinds, org, now, limit)


async def complete(conn: AsyncConnection, org: UUID, event: UUID, token: UUID, now: datetime) -> bool:
    return await run(conn, _COMPLETE, org=org, event=event, token=token, now=now) == 1


async def complete_many(conn: AsyncConnection, completions: list[tuple[UUID, UUID, UUID]],
                        now: datetime) -> set[tuple[UUID, UUID]]:
    """Complete every (organisation, event, token) whose lease still holds; the (organisation, event) done.

    Runs in a `Store.all_tenants()` transaction (the worker's scope, as for Claim)."""
    rows = await many(conn, _COMPLETE_MANY, orgs=[o for o, _, _ in completions],
                      events=[e for _, e, _ in completions], tokens=[t for _, _, t in completions], now=now)
    return {(row["organization_id"], row["event_id"]) for row in rows}


async def states(conn: AsyncConnection, events: list[tuple[UUID, UUID]]) -> dict[tuple[UUID, UUID], Row]:
    rows = await many(conn, _STATES, orgs=[o for o, _ in events], events=[e for _, e in events])
    return {(row["organization_id"], row["event_id"]): row for row in rows}


async def retry(conn: AsyncConnection, org: UUID, event: UUID, *, error: str, available_at: datetime) -> Row:
    row = await one(conn, _RETRY, org=org, event=event, error=error, available_at=available_at)
    assert row is not None
    return row


async def dead(conn: AsyncConnection, org: UUID, event: UUID, *, error: str, now: datetime) -> Row:
    row = await one(conn, _DEAD, org=org, event=event, error=error, now=now)
    assert row is not None
    return row


async def extend(conn: AsyncConnection, org: UUID, event: UUID, token: UUID, expires_at: datetime) -> datetime | None:
    row = await one(conn, _EXTEND, org=org, event=event, token=token, expires_at=expires_at)
    return row["lease_expires_at"] if row else None


async def requeue(conn: AsyncConnection, org: UUID, event: UUID, now: datetime) -> Row:
    row = await one(conn, _REQUEUE, org=org, event=event, now=now)
    assert row is not None
    return row


async def finish_pending(conn: AsyncConnection, org: UUID, event: UUID, note: str, now: datetime) -> None:
    """Retire an event nobody should act on any more (its follow-up was cancelled)."""
    await run(conn, _FINISH_PENDING, org=org, event=event, note=note, now=now)


async def list_page(conn: AsyncConnection, org: UUID, *, statuses: list[str], kinds: list[str],
                    contact: UUID | None, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, statuses=statuses, kinds=kinds, contact=contact, limit=limit,
                      offset=offset)


async def stats(conn: AsyncConnection, org: UUID | None) -> list[Row]:
    return await many(conn, _STATS, org=org)
