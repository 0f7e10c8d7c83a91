"""Organisations: creation, profile changes and settings updates."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from google.protobuf import field_mask_pb2
from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import organization_settings
from services.crm.errors import Aborted, InvalidArgument, NotFound
from services.crm.repository import organizations as repo
from services.crm.repository._sql import Row
from services.crm.timezones import DEFAULT_TIME_ZONE, validate_time_zone


@dataclass(frozen=True)
class Profile:
    """What UpsertOrganization may set; empty strings and None mean "keep" on an update."""

    name: str
    time_zone: str
    plan: r.Plan | None
    plan_expires_at: datetime | None
    initial_settings: r.OrganizationSettings | None

    def validate(self) -> None:
        if len(self.name) > 200:
            raise InvalidArgument("name is longer than 200 characters")
        if self.time_zone:
            validate_time_zone(self.time_zone)
        if self.initial_settings is not None:
            organization_settings.validate(self.initial_settings)


async def upsert(conn: AsyncConnection, org: UUID, create: bool, profile: Profile, now: datetime) -> tuple[Row, bool]:
    if create:
        if not profile.name.strip():
            raise InvalidArgument("name is required to create an organisation")
        settings = organization_settings.initial(profile.initial_settings)
        row = await repo.insert(
            conn, org,
            name=profile.name.strip(),
            time_zone=profile.time_zone or DEFAULT_TIME_ZONE,
            plan_name=profile.plan.name if profile.plan else "",
            plan_expires_at=profile.plan_expires_at,
            settings=organization_settings.to_document(settings),
            now=now,
        )
        return row, True
    current = await repo.get(conn, org, lock=True)
    if current is None:
        raise NotFound(f"organization {org} not found (leave organization_id empty to create one)")
    row = await repo.update_profile(
        conn, org,
        name=profile.name.strip() or current["name"],
        time_zone=profile.time_zone or current["time_zone"],
        plan_name=profile.plan.name if profile.plan else current["plan_name"],
        plan_expires_at=profile.plan_expires_at if profile.plan else current["plan_expires_at"],
        now=now,
    )
    assert row is not None
    return row, False


async def update_settings(
    conn: AsyncConnection,
    org: UUID,
    new: r.OrganizationSettings,
    mask: field_mask_pb2.FieldMask,
    expected_version: int,
    now: datetime,
) -> tuple[Row, list[str]]:
    current = await repo.get(conn, org, lock=True)
    if current is None:
        raise NotFound(f"organization {org} not found")
    if expected_version and expected_version != current["settings_version"]:
        raise Aborted(
            f"settings changed meanwhile: expected_settings_version {expected_version}, "
            f"current {current['settings_version']}; re-read the organisation and apply the change again"
        )
    before = organization_settings.from_document(current["settings"])
    after = organization_settings.apply_update(before, new, mask)
    organization_settings.validate(after)
    row = await repo.update_settings(conn, org, organization_settings.to_document(after), now)
    return row, organization_settings.consequences(before, after)


async def require(conn: AsyncConnection, org: UUID) -> Row:
    row = await repo.get(conn, org)
    if row is None:
        raise NotFound(f"organization {org} not found")
    return row


async def require_exists(conn: AsyncConnection, org: UUID) -> None:
    """`require` for callers that need no column of the row."""
    if not await repo.exists(conn, org):
        raise NotFound(f"organization {org} not found")


async def settings_of(conn: AsyncConnection, org: UUID) -> r.OrganizationSettings:
    """The organisation's settings, to read (shared with the parsed-settings cache: do not modify)."""
    return organization_settings.PARSED.get(org, (await require(conn, org))["settings"])
