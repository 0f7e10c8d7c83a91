"""The crm's SQL, and nothing else: one module per group of tables, all on `Store` transactions.

Every function takes the connection of a transaction opened by `Store.tenant(...)` (which sets
the organisation for row-level security) and still filters on `organization_id` itself: RLS is
the second barrier, never the only one. `Store.all_tenants()` is the one cross-tenant door, used
by ListOrganizations, the installation-wide rolling-summary measurement and the event queue.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from balcao.kit import db
from services.crm.repository._sql import q, run

if TYPE_CHECKING:
    from balcao.kit.server import Database

_SET_TENANT = q("SELECT set_config('balcao.organization_id', :org, true)")


class Store:
    """Opens the crm's transactions. Row-level security reads the settings made here."""

    def __init__(self, database: Database) -> None:
        self._database = database

    @property
    def engine(self) -> AsyncEngine:
        return self._database.engine

    @asynccontextmanager
    async def tenant(self, organization_id: UUID) -> AsyncIterator[AsyncConnection]:
        """A transaction that sees (and may write) one organisation's rows only."""
        async with db.tenant(self.engine, organization_id) as conn:
            yield conn

    @asynccontextmanager
    async def snapshot(self, organization_id: UUID) -> AsyncIterator[AsyncConnection]:
        """A read-only transaction of one organisation at REPEATABLE READ: every statement in it
        sees the same snapshot (taken at its first statement), so several reads agree with each
        other. The isolation level rides on the BEGIN itself (no extra round trip); a read-only
        transaction at this level never fails on a concurrent write."""
        async with self.engine.connect() as conn:
            await conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
            async with conn.begin():
                await use_tenant(conn, organization_id)  # begins the transaction, then sets the tenant
                yield conn

    @asynccontextmanager
    async def all_tenants(self) -> AsyncIterator[AsyncConnection]:
        """A transaction allowed through the narrow cross-tenant policies (see the migration)."""
        async with db.all_tenants(self.engine) as conn:
            yield conn

    @asynccontextmanager
    async def batch(self, first: UUID) -> AsyncIterator[AsyncConnection]:
        """One transaction for a batch that spans organisations. It starts on the `first` one's rows
        (the setting travels with BEGIN, as in `tenant`); `use_tenant` then moves it to the next
        organisation whose statements follow (row-level security reads that setting)."""
        async with db.tenant(self.engine, first) as conn:
            yield conn


async def use_tenant(conn: AsyncConnection, organization_id: UUID) -> None:
    """Point the transaction's row-level security at one organisation."""
    await run(conn, _SET_TENANT, org=str(organization_id))


__all__ = ["Store", "use_tenant"]
