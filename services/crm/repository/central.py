"""SQL of `central_items`, the Central inbox."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q, run

# With a dedup key, an open item with the same key is counted again instead of repeated;
# `inserted` tells the two apart (xmax is 0 only on a freshly inserted row version).
_RAISE = q(
    """
    INSERT INTO crm.central_items
        (organization_id, central_item_id, kind, severity, status, title_pt, body_pt, code, contact_id, turn_id,
         event_id, details, raised_by, dedup_key, created_at, updated_at)
    VALUES (:org, :item, :kind, :severity, 'open', :title_pt, :body_pt, :code, :contact, :turn_id, :event_id,
            CAST(:details AS jsonb), CAST(:raised_by AS jsonb), :dedup_key, :now, :now)
    ON CONFLICT (organization_id, dedup_key) WHERE dedup_key IS NOT NULL AND status IN ('open', 'acknowledged')
    DO UPDATE SET occurrences = crm.central_items.occurrences + 1, updated_at = excluded.updated_at,
        details = excluded.details,
        severity = CASE WHEN excluded.severity = 'critical' THEN 'critical' ELSE crm.central_items.severity END
    RETURNING *, (xmax = 0) AS inserted
    """
)
_GET = q("SELECT * FROM crm.central_items WHERE organization_id = :org AND central_item_id = :item")
_SET_STATUS = q(
    """
    UPDATE crm.central_items SET status = :status, resolution = :resolution,
        resolved_by = CAST(:resolved_by AS jsonb), updated_at = :now,
        resolved_at = CASE WHEN :status IN ('resolved', 'dismissed') THEN CAST(:now AS timestamptz) END
    WHERE organization_id = :org AND central_item_id = :item RETURNING *
    """
)
_RESOLVE_BY_KEY = q(
    """
    UPDATE crm.central_items SET status = 'resolved', resolution = :resolution,
        resolved_by = CAST(:resolved_by AS jsonb), updated_at = :now, resolved_at = :now
    WHERE organization_id = :org AND dedup_key = :dedup_key AND status IN ('open', 'acknowledged')
    """
)
_LIST = q(
    """
    SELECT * FROM crm.central_items
    WHERE organization_id = :org
      AND status = ANY(CAST(:statuses AS text[]))
      AND (cardinality(CAST(:severities AS text[])) = 0 OR severity = ANY(CAST(:severities AS text[])))
      AND (cardinality(CAST(:kinds AS text[])) = 0 OR kind = ANY(CAST(:kinds AS text[])))
      AND (CAST(:contact AS uuid) IS NULL OR contact_id = CAST(:contact AS uuid))
    ORDER BY CASE severity WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, created_at DESC, central_item_id
    LIMIT :limit OFFSET :offset
    """
)


async def raise_item(conn: AsyncConnection, org: UUID, item: UUID, *, kind: str, severity: str, title_pt: str,
                     body_pt: str = "", code: str = "", contact: UUID | None = None, turn_id: str = "",
                     event_id: str = "", details: dict[str, Any] | None = None, raised_by: dict[str, Any],
                     dedup_key: str | None, now: datetime) -> Row:
    row = await one(
        conn, _RAISE, org=org, item=item, kind=kind, severity=severity, title_pt=title_pt, body_pt=body_pt, code=code,
        contact=contact, turn_id=turn_id, event_id=event_id, details=js(details or {}), raised_by=js(raised_by),
        dedup_key=dedup_key, now=now,
    )
    assert row is not None
    return row


async def get(conn: AsyncConnection, org: UUID, item: UUID) -> Row | None:
    return await one(conn, _GET, org=org, item=item)


async def set_status(conn: AsyncConnection, org: UUID, item: UUID, *, status: str, resolution: str,
                     resolved_by: dict[str, Any], now: datetime) -> Row | None:
    return await one(conn, _SET_STATUS, org=org, item=item, status=status, resolution=resolution,
                     resolved_by=js(resolved_by), now=now)


async def resolve_by_key(conn: AsyncConnection, org: UUID, dedup_key: str, *, resolution: str,
                         resolved_by: dict[str, Any], now: datetime) -> None:
    await run(conn, _RESOLVE_BY_KEY, org=org, dedup_key=dedup_key, resolution=resolution,
              resolved_by=js(resolved_by), now=now)


async def list_page(conn: AsyncConnection, org: UUID, *, statuses: list[str], severities: list[str],
                    kinds: list[str], contact: UUID | None, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, statuses=statuses, severities=severities, kinds=kinds, contact=contact,
                      limit=limit, offset=offset)
