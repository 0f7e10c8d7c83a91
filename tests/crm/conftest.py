"""Fixtures of the crm tests: stubs on the mesh's real crm process, and an in-process crm with a
clock the test moves (for leases and backoff), both on the mesh's real PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc, event_queue_pb2_grpc
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.kit import db
from balcao.kit.identity import mint_token
from balcao.kit.server import Database, create_server
from services.crm.config import Settings
from services.crm.server import build
from tests.support.mesh import RunningMesh


@dataclass
class Crm:
    """Stubs of the three crm services, calling as one caller of the mesh."""

    read: crm_read_pb2_grpc.CrmReadServiceStub
    write: crm_write_pb2_grpc.CrmWriteServiceStub
    queue: event_queue_pb2_grpc.EventQueueServiceStub
    metadata: tuple[tuple[str, str], ...]

    async def org(self, name: str = "Clínica Sorriso", **fields: Any) -> str:
        response = await self.write.UpsertOrganization(
            wr.UpsertOrganizationRequest(name=name, time_zone="America/Sao_Paulo", **fields), metadata=self.metadata
        )
        return response.organization.organization_id

    async def contact(self, org: str, phone: str | None = None, **fields: Any) -> str:
        phone = phone or random_phone()
        response = await self.write.UpsertContact(
            wr.UpsertContactRequest(organization_id=org, phone=phone, **fields), metadata=self.metadata
        )
        return response.contact.contact_id


    async def quiet_contact(self, org: str, phone: str | None = None, **fields: Any) -> str:
        """A contact whose conversation a person holds.

        The mesh's Operador and runtime workers act on every closed turn of the whole database;
        a conversation held by a person is one they must leave alone (DESIGN §6 `stop`, and
        OperadorOutcome SKIPPED_HUMAN_IN_CONTROL), so tests that close turns for this contact
        see only what crm itself wrote.
        """
        contact = await self.contact(org, phone, **fields)
        await self.write.SetHumanControl(
            wr.SetHumanControlRequest(organization_id=org, contact_id=contact, human_in_control=True,
                                      reason="teste"),
            metadata=self.metadata,
        )
        return contact


def random_phone() -> str:
    """A valid São Paulo mobile nobody else in the test run uses."""
    return f"+55119{uuid.uuid4().int % 10**8:08d}"


def stubs(channel: grpc.aio.Channel, token: str) -> Crm:
    return Crm(
        crm_read_pb2_grpc.CrmReadServiceStub(channel),
        crm_write_pb2_grpc.CrmWriteServiceStub(channel),
        event_queue_pb2_grpc.EventQueueServiceStub(channel),
        (("authorization", f"Bearer {token}"),),
    )


@pytest.fixture(scope="session")
async def crm(mesh: RunningMesh) -> AsyncIterator[Crm]:
    """The mesh's crm process, called as the gateway (allowed on every crm RPC but the admin-only ones)."""
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        yield stubs(channel, mesh.token("gateway", ttl=3600))


class FakeClock:
    """Now, as the test says: starts at the real time and only moves when told."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class LocalCrm:
    crm: Crm
    clock: FakeClock
    settings: Settings


LOCAL_SECRET = "local-crm-test-secret-0123456789"


@pytest.fixture(scope="session")
async def local(mesh: RunningMesh) -> AsyncIterator[LocalCrm]:
    """An in-process crm on port 0 with a FakeClock, a 10 s lease, 3 attempts and a 2 s backoff base."""
    settings = Settings(
        mesh_secret=LOCAL_SECRET, database_url=mesh.database_url, queue_lease_seconds=10, queue_max_attempts=3,
        queue_backoff_base_seconds=2, queue_backoff_max_seconds=60, queue_poll_seconds=5,
    )
    database = Database()
    database.attach(db.create_engine(mesh.database_url, pool_size=20))
    clock = FakeClock()
    definition = build(settings, database, clock=clock)
    assert definition.on_ready is not None
    stop_notifications = await definition.on_ready()
    running = await create_server(definition, secret=LOCAL_SECRET.encode(), host="127.0.0.1", port=0)
    await running.set_serving(True)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            yield LocalCrm(stubs(channel, mint_token(LOCAL_SECRET.encode(), "gateway", ttl=3600)), clock, settings)
    finally:
        if stop_notifications is not None:
            await stop_notifications()
        await running.server.stop(0)
        await database.dispose()


@pytest.fixture(scope="session")
async def owner_engine(mesh: RunningMesh) -> AsyncIterator[AsyncEngine]:
    """The database as its owner (RLS bypassed): to look at what the crm wrote, or did not."""
    engine = db.create_engine(mesh.database_url, pool_size=2, app_role=False)
    yield engine
    await engine.dispose()


@pytest.fixture(scope="session")
async def app_engine(mesh: RunningMesh) -> AsyncIterator[AsyncEngine]:
    """The database as the application role, the way the crm itself connects (RLS applies)."""
    engine = db.create_engine(mesh.database_url, pool_size=2)
    yield engine
    await engine.dispose()


TENANT_TABLES = (
    "agent_versions", "contacts", "lead_state", "lead_checkpoint_counters", "lead_checkpoints", "lead_notes",
    "crm_lead_activities", "human_cases", "human_case_updates", "follow_ups", "obligations", "central_items",
    "knowledge_articles", "turn_executions", "event_log", "idempotency_keys",
)


async def close_turn_footprint(engine: AsyncEngine, org: str) -> dict[str, int]:
    """What CloseTurn writes, counted for `org` (other services' own writes left out)."""
    queries = {
        "lead_checkpoints": "SELECT count(*) FROM crm.lead_checkpoints WHERE organization_id = :org",
        "last_seq": "SELECT coalesce(sum(last_seq), 0) FROM crm.lead_checkpoint_counters WHERE organization_id = :org",
        "obligations": "SELECT count(*) FROM crm.obligations WHERE organization_id = :org",
        "turn_executions": "SELECT count(*) FROM crm.turn_executions WHERE organization_id = :org",
        "turn_closed": "SELECT count(*) FROM crm.event_log WHERE organization_id = :org AND kind = 'turn_closed'",
    }
    async with engine.connect() as conn:
        return {name: (await conn.execute(sa.text(sql), {"org": org})).scalar_one() for name, sql in queries.items()}


async def row_counts(engine: AsyncEngine, org: str) -> dict[str, int]:
    """How many rows each tenant table holds for `org`, read as the owner."""
    counts = {}
    async with engine.connect() as conn:
        for table in TENANT_TABLES:
            counts[table] = (
                await conn.execute(sa.text(f"SELECT count(*) FROM crm.{table} WHERE organization_id = :org"),
                                   {"org": org})
            ).scalar_one()
    return counts
