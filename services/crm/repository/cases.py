"""SQL of `human_cases` and `human_case_updates`."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q

_OPEN_OF_CONTACT = q(
    "SELECT * FROM crm.human_cases WHERE organization_id = :org AND contact_id = :contact AND status <> 'closed' "
    "FOR UPDATE"
)
_INSERT = q(
    """
    INSERT INTO crm.human_cases
        (organization_id, case_id, contact_id, status, reason, reason_text, summary, declaracao, priority,
         opened_by, source_turn_id, opened_at)
    VALUES (:org, :case, :contact, 'open', :reason, :reason_text, :summary, CAST(:declaracao AS jsonb), :priority,
            CAST(:opened_by AS jsonb), :source_turn_id, :now)
    ON CONFLICT DO NOTHING
    RETURNING *
    """
)
_GET = q("SELECT * FROM crm.human_cases WHERE organization_id = :org AND case_id = :case")
_GET_LOCKED = q("SELECT * FROM crm.human_cases WHERE organization_id = :org AND case_id = :case FOR UPDATE")
_SET_CENTRAL_ITEM = q(
    "UPDATE crm.human_cases SET central_item_id = :item WHERE organization_id = :org AND case_id = :case RETURNING *"
)
_SET_STATUS = q(
    "UPDATE crm.human_cases SET status = :status WHERE organization_id = :org AND case_id = :case RETURNING *"
)
_CLOSE = q(
    """
    UPDATE crm.human_cases SET status = 'closed', resolution = :resolution, closed_at = :now
    WHERE organization_id = :org AND case_id = :case RETURNING *
    """
)
# Also one part of GetLeadSnapshot's statement (repository/snapshot.py).
LIST = _LIST = q(
    """
    SELECT * FROM crm.human_cases
    WHERE organization_id = :org
      AND (CAST(:contact AS uuid) IS NULL OR contact_id = CAST(:contact AS uuid))
      AND status = ANY(CAST(:statuses AS text[]))
    ORDER BY opened_at DESC, case_id
    LIMIT :limit OFFSET :offset
    """
)
_INSERT_UPDATE = q(
    """
    INSERT INTO crm.human_case_updates (organization_id, update_id, case_id, text, author, customer_facing, created_at)
    VALUES (:org, :update, :case, :text, CAST(:author AS jsonb), :customer_facing, :now)
    RETURNING *
    """
)
_UPDATES = q(
    "SELECT * FROM crm.human_case_updates WHERE organization_id = :org AND case_id = ANY(CAST(:cases AS uuid[])) "
    "ORDER BY created_at, update_id"
)


async def open_case_of(conn: AsyncConnection, org: UUID, contact: UUID) -> Row | None:
    return await one(conn, _OPEN_OF_CONTACT, org=org, contact=contact)


async def insert(conn: AsyncConnection, org: UUID, case: UUID, contact: UUID, *, declaracao: dict[str, Any] | None,
                 opened_by: dict[str, Any], now: datetime, **fields: Any) -> Row | None:
    """The new case, or None when another open case of the contact won the race."""
    return await one(
        conn, _INSERT, org=org, case=case, contact=contact,
        declaracao=js(declaracao) if declaracao is not None else None,
        opened_by=js(opened_by), now=now, **fields,
    )


async def get(conn: AsyncConnection, org: UUID, case: UUID, *, lock: bool = False) -> Row | None:
    return await one(conn, _GET_LOCKED if lock else _GET, org=org, case=case)


async def set_central_item(conn: AsyncConnection, org: UUID, case: UUID, item: UUID) -> Row:
    row = await one(conn, _SET_CENTRAL_ITEM, org=org, case=case, item=item)
    assert row is not None
    return row


async def set_status(conn: AsyncConnection, org: UUID, case: UUID, status: str) -> Row:
    row = await one(conn, _SET_STATUS, org=org, case=case, status=status)
    assert row is not None
    return row


async def close(conn: AsyncConnection, org: UUID, case: UUID, resolution: str, now: datetime) -> Row:
    row = await one(conn, _CLOSE, org=org, case=case, resolution=resolution, now=now)
    assert row is not None
    return row


async def list_page(conn: AsyncConnection, org: UUID, *, contact: UUID | None, statuses: list[str], limit: int,
                    offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, contact=contact, statuses=statuses, limit=limit, offset=offset)


async def add_update(conn: AsyncConnection, org: UUID, update: UUID, case: UUID, *, text: str,
                     author: dict[str, Any], customer_facing: bool, now: datetime) -> Row:
    row = await one(conn, _INSERT_UPDATE, org=org, update=update, case=case, text=text, author=js(author),
                    customer_facing=customer_facing, now=now)
    assert row is not None
    return row


async def updates_of(conn: AsyncConnection, org: UUID, cases: list[UUID]) -> dict[UUID, list[Row]]:
    grouped: dict[UUID, list[Row]] = {case: [] for case in cases}
    for row in await many(conn, _UPDATES, org=org, cases=cases):
        grouped[row["case_id"]].append(row)
    return grouped
