"""SQL of `follow_ups`."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q

_INSERT = q(
    """
    INSERT INTO crm.follow_ups
        (organization_id, follow_up_id, contact_id, due_at, reason, status, callback, fixed_text, obligation_id,
         source_turn_id, scheduled_by, event_id, created_at)
    VALUES (:org, :follow_up, :contact, :due_at, :reason, 'pending', :callback, :fixed_text, :obligation,
            :source_turn_id, CAST(:scheduled_by AS jsonb), :event, :now)
    RETURNING *
    """
)
_GET = q("SELECT * FROM crm.follow_ups WHERE organization_id = :org AND follow_up_id = :follow_up")
_GET_LOCKED = q("SELECT * FROM crm.follow_ups WHERE organization_id = :org AND follow_up_id = :follow_up FOR UPDATE")
_FINISH = q(
    """
    UPDATE crm.follow_ups SET status = :status, outcome_detail = :detail, executed_turn_id = :turn_id,
        finished_at = :now
    WHERE organization_id = :org AND follow_up_id = :follow_up RETURNING *
    """
)
# Also one part of GetLeadSnapshot's statement (repository/snapshot.py).
LIST = _LIST = q(
    """
    SELECT * FROM crm.follow_ups
    WHERE organization_id = :org
      AND (CAST(:contact AS uuid) IS NULL OR contact_id = CAST(:contact AS uuid))
      AND status = ANY(CAST(:statuses AS text[]))
      AND (CAST(:due_before AS timestamptz) IS NULL OR due_at <= CAST(:due_before AS timestamptz))
      AND (NOT :callbacks_only OR callback)
    ORDER BY due_at, follow_up_id
    LIMIT :limit OFFSET :offset
    """
)


async def insert(conn: AsyncConnection, org: UUID, follow_up: UUID, contact: UUID, *, scheduled_by: dict[str, Any],
                 now: datetime, **fields: Any) -> Row:
    row = await one(conn, _INSERT, org=org, follow_up=follow_up, contact=contact, scheduled_by=js(scheduled_by),
                    now=now, **fields)
    assert row is not None
    return row


async def get(conn: AsyncConnection, org: UUID, follow_up: UUID, *, lock: bool = False) -> Row | None:
    return await one(conn, _GET_LOCKED if lock else _GET, org=org, follow_up=follow_up)


async def finish(conn: AsyncConnection, org: UUID, follow_up: UUID, *, status: str, detail: str, turn_id: str,
                 now: datetime) -> Row:
    row = await one(conn, _FINISH, org=org, follow_up=follow_up, status=status, detail=detail, turn_id=turn_id,
                    now=now)
    assert row is not None
    return row


async def list_page(conn: AsyncConnection, org: UUID, *, contact: UUID | None, statuses: list[str],
                    due_before: datetime | None, callbacks_only: bool, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, contact=contact, statuses=statuses, due_before=due_before,
                      callbacks_only=callbacks_only, limit=limit, offset=offset)
