"""Fixtures of the agenda tests: an in-process agenda with a settable clock, on the mesh's PostgreSQL.

The mesh (tests/conftest.py) has already migrated the agenda schema. The servers here run the
same servicers as the agenda process, built by `services.agenda.server.definition` with a
`FakeClock`, and are reached over gRPC on a local port like any other caller would. Every
test works in a fresh organisation, so tests never see each other's rows.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime

import grpc
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.agenda.v1 import agenda_read_pb2_grpc, agenda_write_pb2_grpc
from balcao.kit import db
from balcao.kit.server import Database, create_server
from services.agenda.server import definition
from tests.agenda.support import AgendaClient
from tests.support.mesh import RunningMesh


@dataclass
class FakeClock:
    """The agenda's "now", set by each test."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture(scope="session")
def clock() -> FakeClock:
    return FakeClock(datetime(2018, 1, 1, tzinfo=UTC))


@pytest.fixture(scope="session")
async def agenda_database(mesh: RunningMesh) -> AsyncIterator[Database]:
    database = Database()
    database.attach(db.create_engine(mesh.database_url, pool_size=10))
    yield database
    await database.dispose()


@pytest.fixture(scope="session")
async def superuser(mesh: RunningMesh) -> AsyncIterator[AsyncEngine]:
    """An engine outside row-level security, to look at what the database really holds."""
    engine = db.create_engine(mesh.database_url, pool_size=2, app_role=False)
    yield engine
    await engine.dispose()


@pytest.fixture(scope="session")
async def agenda_server(mesh: RunningMesh, agenda_database: Database, clock: FakeClock) -> AsyncIterator[str]:
    running = await create_server(definition(agenda_database, clock), secret=mesh.secret, host="127.0.0.1", port=0)
    await running.set_serving(True)
    yield f"127.0.0.1:{running.port}"
    await running.server.stop(None)


@pytest.fixture(scope="session")
async def agenda(mesh: RunningMesh, agenda_server: str) -> AsyncIterator[AgendaClient]:
    """A client of the in-process agenda, signed as the Operador."""
    async with grpc.aio.insecure_channel(agenda_server) as channel:
        yield AgendaClient(
            agenda_read_pb2_grpc.AgendaReadServiceStub(channel),
            agenda_write_pb2_grpc.AgendaWriteServiceStub(channel),
            (("authorization", f"Bearer {mesh.token('operador', ttl=3600)}"),),
        )


@pytest.fixture
def org() -> uuid.UUID:
    return uuid.uuid4()


@pytest.fixture
def at(clock: FakeClock):  # type: ignore[no-untyped-def]
    """Set the agenda's clock: `at(datetime(...))`."""

    def set_now(moment: datetime) -> None:
        clock.now = moment

    return set_now
