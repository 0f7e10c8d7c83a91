"""SQL of `contacts`."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, many, one, q, run

# Also one part of GetLeadSnapshot's statement (repository/snapshot.py).
GET = _GET = q("SELECT * FROM crm.contacts WHERE organization_id = :org AND contact_id = :contact")
_GET_LOCKED = q("SELECT * FROM crm.contacts WHERE organization_id = :org AND contact_id = :contact FOR UPDATE")
_BY_PHONE = q("SELECT * FROM crm.contacts WHERE organization_id = :org AND phone_e164 = :phone")
_BY_JID = q(
    "SELECT * FROM crm.contacts WHERE organization_id = :org AND whatsapp_jids @> ARRAY[CAST(:jid AS text)] "
    "ORDER BY created_at LIMIT 1"
)
_BY_WEB = q("SELECT * FROM crm.contacts WHERE organization_id = :org AND web_profile_id = :web")
_LOCK_IDENTITY = q("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")
# The first lock of an upsert also says whether the organisation exists (a statement saved).
_LOCK_IDENTITY_OF_ORG = q(
    "SELECT pg_advisory_xact_lock(hashtextextended(:key, 0)), "
    "EXISTS (SELECT 1 FROM crm.organizations WHERE organization_id = :org) AS organization_exists"
)
_INSERT = q(
    """
    INSERT INTO crm.contacts
        (organization_id, contact_id, phone_e164, whatsapp_jids, web_profile_id, name, email, cpf, channel,
         legal_basis, created_at, updated_at)
    VALUES (:org, :contact, :phone, CAST(:jids AS text[]), :web, :name, :email, :cpf, :channel,
            :legal_basis, :now, :now)
    RETURNING *
    """
)
_COMPLETE = q(
    """
    UPDATE crm.contacts SET
        phone_e164 = coalesce(phone_e164, :phone),
        whatsapp_jids = CASE WHEN CAST(:jid AS text) IS NULL OR whatsapp_jids @> ARRAY[CAST(:jid AS text)]
                             THEN whatsapp_jids ELSE whatsapp_jids || CAST(:jid AS text) END,
        web_profile_id = coalesce(web_profile_id, :web),
        name = CASE WHEN :name = '' THEN name ELSE :name END,
        email = CASE WHEN :email = '' THEN email ELSE :email END,
        cpf = CASE WHEN :cpf = '' THEN cpf ELSE :cpf END,
        channel = CASE WHEN channel = 'unspecified' THEN :channel ELSE channel END,
        legal_basis = CASE WHEN :legal_basis = 'unspecified' THEN legal_basis ELSE :legal_basis END,
        updated_at = :now
    WHERE organization_id = :org AND contact_id = :contact
    RETURNING *
    """
)
_SET_FLAGS = {
    "opted_out": q(
        """
        UPDATE crm.contacts SET opted_out = :value,
            opted_out_at = CASE WHEN :value THEN coalesce(opted_out_at, :now) ELSE NULL END, updated_at = :now
        WHERE organization_id = :org AND contact_id = :contact RETURNING *
        """
    ),
    "blocked": q(
        "UPDATE crm.contacts SET blocked = :value, updated_at = :now "
        "WHERE organization_id = :org AND contact_id = :contact RETURNING *"
    ),
}
_SET_HUMAN_CONTROL = q(
    """
    UPDATE crm.contacts SET human_in_control = :value,
        human_control_until = CASE WHEN :value THEN CAST(:until AS timestamptz) ELSE NULL END, updated_at = :now
    WHERE organization_id = :org AND contact_id = :contact RETURNING *
    """
)
_ASSIGN = q(
    "UPDATE crm.contacts SET assigned_attendant_id = :attendant, updated_at = :now "
    "WHERE organization_id = :org AND contact_id = :contact RETURNING *"
)
_ANONYMIZE = q(
    """
    UPDATE crm.contacts SET phone_e164 = NULL, whatsapp_jids = '{}', web_profile_id = NULL, name = '',
        email = '', cpf = '', anonymized = true, updated_at = :now
    WHERE organization_id = :org AND contact_id = :contact RETURNING *
    """
)
_LIST = q(
    """
    SELECT * FROM crm.contacts
    WHERE organization_id = :org
      AND (:query = '' OR name ILIKE '%' || :query || '%' OR (:digits <> '' AND phone_e164 LIKE '%' || :digits || '%'))
    ORDER BY updated_at DESC, contact_id
    LIMIT :limit OFFSET :offset
    """
)
_EXISTS = q("SELECT 1 FROM crm.contacts WHERE organization_id = :org AND contact_id = :contact")


async def get(conn: AsyncConnection, org: UUID, contact: UUID, *, lock: bool = False) -> Row | None:
    return await one(conn, _GET_LOCKED if lock else _GET, org=org, contact=contact)


async def exists(conn: AsyncConnection, org: UUID, contact: UUID) -> bool:
    return await one(conn, _EXISTS, org=org, contact=contact) is not None


async def by_phone(conn: AsyncConnection, org: UUID, phone_e164: str) -> Row | None:
    return await one(conn, _BY_PHONE, org=org, phone=phone_e164)


async def by_jid(conn: AsyncConnection, org: UUID, jid: str) -> Row | None:
    return await one(conn, _BY_JID, org=org, jid=jid)


async def by_web_profile(conn: AsyncConnection, org: UUID, web_profile_id: str) -> Row | None:
    return await one(conn, _BY_WEB, org=org, web=web_profile_id)


async def lock_identities(conn: AsyncConnection, org: UUID, identities: list[str]) -> bool:
    """Serialise concurrent upserts of the same phone/JID/profile (sorted: no deadlock); whether the
    organisation exists (asked with the first lock)."""
    exists = False
    for n, identity in enumerate(sorted(set(identities))):
        key = f"crm.contact:{org}:{identity}"
        if n == 0:
            row = await one(conn, _LOCK_IDENTITY_OF_ORG, key=key, org=org)
            exists = bool(row is not None and row["organization_exists"])
        else:
            await run(conn, _LOCK_IDENTITY, key=key)
    return exists


async def insert(conn: AsyncConnection, org: UUID, contact: UUID, *, now: datetime, **fields: Any) -> Row:
    row = await one(conn, _INSERT, org=org, contact=contact, now=now, **fields)
    assert row is not None
    return row


async def complete(conn: AsyncConnection, org: UUID, contact: UUID, *, now: datetime, **fields: Any) -> Row:
    row = await one(conn, _COMPLETE, org=org, contact=contact, now=now, **fields)
    assert row is not None
    return row


async def set_flag(
    conn: AsyncConnection, org: UUID, contact: UUID, flag: str, value: bool, now: datetime
) -> Row | None:
    return await one(conn, _SET_FLAGS[flag], org=org, contact=contact, value=value, now=now)


async def set_human_control(
    conn: AsyncConnection, org: UUID, contact: UUID, value: bool, until: datetime | None, now: datetime
) -> Row | None:
    return await one(conn, _SET_HUMAN_CONTROL, org=org, contact=contact, value=value, until=until, now=now)


async def assign_attendant(
    conn: AsyncConnection, org: UUID, contact: UUID, attendant: str, now: datetime
) -> Row | None:
    return await one(conn, _ASSIGN, org=org, contact=contact, attendant=attendant, now=now)


async def anonymize(conn: AsyncConnection, org: UUID, contact: UUID, now: datetime) -> Row | None:
    return await one(conn, _ANONYMIZE, org=org, contact=contact, now=now)


async def list_page(conn: AsyncConnection, org: UUID, *, query: str, digits: str, limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, query=query, digits=digits, limit=limit, offset=offset)

