"""SQL of `organizations` (the tenant, its plan and settings)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q, run, scalar

_INSERT = q(
    """
    INSERT INTO crm.organizations
        (organization_id, name, time_zone, plan_name, plan_expires_at, settings, created_at, updated_at)
    VALUES (:org, :name, :tz, :plan_name, :plan_expires_at, CAST(:settings AS jsonb), :now, :now)
    RETURNING *
    """
)
_GET = q("SELECT * FROM crm.organizations WHERE organization_id = :org")
_EXISTS = q("SELECT true FROM crm.organizations WHERE organization_id = :org")
_GET_LOCKED = q("SELECT * FROM crm.organizations WHERE organization_id = :org FOR UPDATE")
_UPDATE_PROFILE = q(
    """
    UPDATE crm.organizations
    SET name = :name, time_zone = :tz, plan_name = :plan_name, plan_expires_at = :plan_expires_at,
        updated_at = :now
    WHERE organization_id = :org
    RETURNING *
    """
)
_UPDATE_SETTINGS = q(
    """
    UPDATE crm.organizations
    SET settings = CAST(:settings AS jsonb), settings_version = settings_version + 1, updated_at = :now
    WHERE organization_id = :org
    RETURNING *
    """
)
_LIST = q("SELECT * FROM crm.organizations ORDER BY name, organization_id LIMIT :limit OFFSET :offset")
_SET_LAST_ATTENDANT = q(
    "UPDATE crm.organizations SET last_assigned_attendant_id = :attendant WHERE organization_id = :org"
)


async def insert(
    conn: AsyncConnection,
    org: UUID,
    *,
    name: str,
    time_zone: str,
    plan_name: str,
    plan_expires_at: datetime | None,
    settings: dict[str, Any],
    now: datetime,
) -> Row:
    row = await one(
        conn, _INSERT, org=org, name=name, tz=time_zone, plan_name=plan_name,
        plan_expires_at=plan_expires_at, settings=js(settings), now=now,
    )
    assert row is not None
    return row


async def get(conn: AsyncConnection, org: UUID, *, lock: bool = False) -> Row | None:
    return await one(conn, _GET_LOCKED if lock else _GET, org=org)


async def exists(conn: AsyncConnection, org: UUID) -> bool:
    """Whether the organisation exists (without reading its settings document)."""
    return bool(await scalar(conn, _EXISTS, org=org))


async def update_profile(
    conn: AsyncConnection,
    org: UUID,
    *,
    name: str,
    time_zone: str,
    plan_name: str,
    plan_expires_at: datetime | None,
    now: datetime,
) -> Row | None:
    return await one(
        conn, _UPDATE_PROFILE, org=org, name=name, tz=time_zone, plan_name=plan_name,
        plan_expires_at=plan_expires_at, now=now,
    )


async def update_settings(conn: AsyncConnection, org: UUID, settings: dict[str, Any], now: datetime) -> Row:
    row = await one(conn, _UPDATE_SETTINGS, org=org, settings=js(settings), now=now)
    assert row is not None
    return row


async def list_all(conn: AsyncConnection, *, limit: int, offset: int) -> list[Row]:
    """Every organisation: only in a `Store.all_tenants()` transaction."""
    return await many(conn, _LIST, limit=limit, offset=offset)


async def set_last_assigned_attendant(conn: AsyncConnection, org: UUID, attendant_id: str) -> None:
    await run(conn, _SET_LAST_ATTENDANT, org=org, attendant=attendant_id)
