"""SQL of `agent_versions` (the versioned agent configuration: one draft, one published)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q, run

_GET = q("SELECT * FROM crm.agent_versions WHERE organization_id = :org AND version_id = :version")
_BY_STATUS = q("SELECT * FROM crm.agent_versions WHERE organization_id = :org AND status = :status")
_DRAFT_LOCKED = q("SELECT * FROM crm.agent_versions WHERE organization_id = :org AND status = 'draft' FOR UPDATE")
_INSERT_DRAFT = q(
    """
    INSERT INTO crm.agent_versions
        (organization_id, version_id, number, status, configuration, saved_by, note, created_at)
    VALUES (:org, :version,
            (SELECT coalesce(max(number), 0) + 1 FROM crm.agent_versions WHERE organization_id = :org),
            'draft', CAST(:configuration AS jsonb), CAST(:saved_by AS jsonb), :note, :now)
    RETURNING *
    """
)
# A save replaces the draft under a new version id, so an editor holding the old id notices.
_REPLACE_DRAFT = q(
    """
    UPDATE crm.agent_versions SET version_id = :version, configuration = CAST(:configuration AS jsonb),
        saved_by = CAST(:saved_by AS jsonb), note = :note, created_at = :now
    WHERE organization_id = :org AND version_id = :old_version RETURNING *
    """
)
_SUPERSEDE_PUBLISHED = q(
    "UPDATE crm.agent_versions SET status = 'superseded' WHERE organization_id = :org AND status = 'published' "
    "RETURNING version_id"
)
_PUBLISH = q(
    "UPDATE crm.agent_versions SET status = 'published', published_at = :now "
    "WHERE organization_id = :org AND version_id = :version RETURNING *"
)
_LOCK_ORG_VERSIONS = q("SELECT pg_advisory_xact_lock(hashtextextended('crm.agent_versions:' || :org, 0))")
_LIST = q(
    "SELECT * FROM crm.agent_versions WHERE organization_id = :org ORDER BY number DESC LIMIT :limit OFFSET :offset"
)


async def lock(conn: AsyncConnection, org: UUID) -> None:
    """Serialise configuration changes of one organisation (draft saves and publications)."""
    await run(conn, _LOCK_ORG_VERSIONS, org=str(org))


async def get(conn: AsyncConnection, org: UUID, version: UUID) -> Row | None:
    return await one(conn, _GET, org=org, version=version)


async def by_status(conn: AsyncConnection, org: UUID, status: str) -> Row | None:
    return await one(conn, _BY_STATUS, org=org, status=status)


async def draft_locked(conn: AsyncConnection, org: UUID) -> Row | None:
    return await one(conn, _DRAFT_LOCKED, org=org)


async def insert_draft(conn: AsyncConnection, org: UUID, version: UUID, *, configuration: dict[str, Any],
                       saved_by: dict[str, Any], note: str, now: datetime) -> Row:
    row = await one(conn, _INSERT_DRAFT, org=org, version=version, configuration=js(configuration),
                    saved_by=js(saved_by), note=note, now=now)
    assert row is not None
    return row


async def replace_draft(conn: AsyncConnection, org: UUID, old_version: UUID, version: UUID, *,
                        configuration: dict[str, Any], saved_by: dict[str, Any], note: str, now: datetime) -> Row:
    row = await one(conn, _REPLACE_DRAFT, org=org, old_version=old_version, version=version,
                    configuration=js(configuration), saved_by=js(saved_by), note=note, now=now)
    assert row is not None
    return row


async def publish(conn: AsyncConnection, org: UUID, version: UUID, now: datetime) -> tuple[Row, UUID | None]:
    superseded = await one(conn, _SUPERSEDE_PUBLISHED, org=org)
    row = await one(conn, _PUBLISH, org=org, version=version, now=now)
    assert row is not None
    return row, superseded["version_id"] if superseded else None


async def list_page(conn: AsyncConnection, org: UUID, *, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, limit=limit, offset=offset)
