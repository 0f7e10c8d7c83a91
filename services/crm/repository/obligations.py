"""SQL of `obligations` (one per declared promise)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q

_INSERT = q(
    """
    INSERT INTO crm.obligations
        (organization_id, obligation_id, contact_id, turn_id, checkpoint_seq, promise_index, o_que, prazo, status,
         created_at)
    VALUES (:org, :obligation, :contact, :turn_id, :seq, :index, :o_que, :prazo, 'open', :now)
    RETURNING *
    """
)
_GET = q("SELECT * FROM crm.obligations WHERE organization_id = :org AND obligation_id = :obligation")
_GET_LOCKED = q(
    "SELECT * FROM crm.obligations WHERE organization_id = :org AND obligation_id = :obligation FOR UPDATE"
)
_OF_TURN = q(
    "SELECT * FROM crm.obligations WHERE organization_id = :org AND turn_id = :turn_id ORDER BY promise_index"
)
_RESOLVE = q(
    """
    UPDATE crm.obligations SET status = :status, resolution = :resolution, evidence = CAST(:evidence AS jsonb),
        resolved_by = CAST(:resolved_by AS jsonb), resolved_at = :now
    WHERE organization_id = :org AND obligation_id = :obligation RETURNING *
    """
)
_LIST = q(
    """
    SELECT * FROM crm.obligations
    WHERE organization_id = :org
      AND (CAST(:contact AS uuid) IS NULL OR contact_id = CAST(:contact AS uuid))
      AND (:turn_id = '' OR turn_id = :turn_id)
      AND (cardinality(CAST(:statuses AS text[])) = 0 OR status = ANY(CAST(:statuses AS text[])))
      AND (CAST(:due_before AS timestamptz) IS NULL OR prazo <= CAST(:due_before AS timestamptz))
    ORDER BY created_at, turn_id, promise_index
    LIMIT :limit OFFSET :offset
    """
)
_STATS = q(
    """
    SELECT count(*) AS declared,
           count(*) FILTER (WHERE status = 'open') AS open,
           count(*) FILTER (WHERE status = 'fulfilled') AS fulfilled,
           count(*) FILTER (WHERE status = 'failed') AS failed,
           count(*) FILTER (WHERE status = 'open' AND prazo < :now) AS overdue
    FROM crm.obligations
    WHERE organization_id = :org AND (CAST(:since AS timestamptz) IS NULL OR created_at >= CAST(:since AS timestamptz))
    """
)


async def insert(conn: AsyncConnection, org: UUID, obligation: UUID, contact: UUID, *, turn_id: str, seq: int,
                 index: int, o_que: str, prazo: datetime | None, now: datetime) -> Row:
    row = await one(conn, _INSERT, org=org, obligation=obligation, contact=contact, turn_id=turn_id, seq=seq,
                    index=index, o_que=o_que, prazo=prazo, now=now)
    assert row is not None
    return row


async def get(conn: AsyncConnection, org: UUID, obligation: UUID, *, lock: bool = False) -> Row | None:
    return await one(conn, _GET_LOCKED if lock else _GET, org=org, obligation=obligation)


async def of_turn(conn: AsyncConnection, org: UUID, turn_id: str) -> list[Row]:
    return await many(conn, _OF_TURN, org=org, turn_id=turn_id)


async def resolve(conn: AsyncConnection, org: UUID, obligation: UUID, *, status: str, resolution: str,
                  evidence: list[dict[str, str]], resolved_by: dict[str, Any], now: datetime) -> Row:
    row = await one(conn, _RESOLVE, org=org, obligation=obligation, status=status, resolution=resolution,
                    evidence=js(evidence), resolved_by=js(resolved_by), now=now)
    assert row is not None
    return row


async def list_page(conn: AsyncConnection, org: UUID, *, contact: UUID | None, turn_id: str, statuses: list[str],
                    due_before: datetime | None, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, contact=contact, turn_id=turn_id, statuses=statuses,
                      due_before=due_before, limit=limit, offset=offset)


async def stats(conn: AsyncConnection, org: UUID, *, since: datetime | None, now: datetime) -> Row:
    row = await one(conn, _STATS, org=org, since=since, now=now)
    assert row is not None
    return row
