"""SQL of `idempotency_keys`: (organisation, rpc, key) → the first response."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import q, scalar

# The key and the response in one statement, at the end of the write's transaction. A concurrent
# transaction that inserted the key first makes this one wait on the unique index until it ends:
# then the key is ours (it rolled back) or the insert does nothing (it committed: a replay).
_STORE = q(
    """
    INSERT INTO crm.idempotency_keys (organization_id, rpc, key, response, created_at)
    VALUES (:org, :rpc, :key, :response, :now)
    ON CONFLICT DO NOTHING
    RETURNING true
    """
)
_STORED = q("SELECT response FROM crm.idempotency_keys WHERE organization_id = :org AND rpc = :rpc AND key = :key")


async def store(conn: AsyncConnection, org: UUID, rpc: str, key: str, response: bytes, now: datetime) -> bool:
    """Store the key with its response; False when another transaction has stored the key (nothing written)."""
    return bool(await scalar(conn, _STORE, org=org, rpc=rpc, key=key, response=response, now=now))


async def claim(conn: AsyncConnection, org: UUID, rpc: str, key: str, now: datetime) -> bool:
    """Take the key (with an empty response) unless another transaction has it; True when taken. Waits, like
    `store`, for a transaction that holds the key uncommitted."""
    return await store(conn, org, rpc, key, b"", now)


async def stored_response(conn: AsyncConnection, org: UUID, rpc: str, key: str) -> bytes | None:
    value = await scalar(conn, _STORED, org=org, rpc=rpc, key=key)
    return None if value is None else bytes(value)
