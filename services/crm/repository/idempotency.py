"""SQL of `idempotency_keys`: (organisation, rpc, key) → the first response."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import q, run, scalar

# Inserting the key first makes a concurrent call with the same key wait on the unique index
# until this transaction ends: then it either finds the stored response (we committed) or
# inserts the key itself (we rolled back).
_CLAIM = q(
    """
    INSERT INTO crm.idempotency_keys (organization_id, rpc, key, response, created_at)
    VALUES (:org, :rpc, :key, '', :now)
    ON CONFLICT DO NOTHING
    RETURNING true
    """
)
_STORED = q("SELECT response FROM crm.idempotency_keys WHERE organization_id = :org AND rpc = :rpc AND key = :key")
_SAVE = q(
    "UPDATE crm.idempotency_keys SET response = :response "
    "WHERE organization_id = :org AND rpc = :rpc AND key = :key"
)


async def claim(conn: AsyncConnection, org: UUID, rpc: str, key: str, now: datetime) -> bool:
    """True when this transaction is the first with the key."""
    return bool(await scalar(conn, _CLAIM, org=org, rpc=rpc, key=key, now=now))


async def stored_response(conn: AsyncConnection, org: UUID, rpc: str, key: str) -> bytes:
    return bytes(await scalar(conn, _STORED, org=org, rpc=rpc, key=key))


async def save_response(conn: AsyncConnection, org: UUID, rpc: str, key: str, response: bytes) -> None:
    await run(conn, _SAVE, org=org, rpc=rpc, key=key, response=response)
