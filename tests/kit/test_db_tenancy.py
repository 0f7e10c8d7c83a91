"""The kit's tenant transactions on a real PostgreSQL: the setting holds from the first statement
(it travels with BEGIN), row-level security applies, and nothing outlives the transaction."""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from collections.abc import AsyncIterator

import asyncpg
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.kit import db
from tests.support.mesh import RunningMesh

SEEN = sa.text("SELECT organization_id FROM crm.organizations WHERE organization_id IN (:a, :b)")
SETTING = sa.text("SELECT current_user, current_setting('balcao.organization_id', true)")


@pytest.fixture(scope="module")
async def orgs(mesh: RunningMesh) -> AsyncIterator[tuple[uuid.UUID, uuid.UUID]]:
    owner = db.create_engine(mesh.database_url, pool_size=1, app_role=False)
    a, b = uuid.uuid4(), uuid.uuid4()
    async with owner.begin() as conn:
        for org in (a, b):
            await conn.execute(
                sa.text(
                    "INSERT INTO crm.organizations (organization_id, name, time_zone, created_at, updated_at) "
                    "VALUES (:o, 'Kit tenancy', 'America/Sao_Paulo', now(), now())"
                ),
                {"o": org},
            )
    yield a, b
    async with owner.begin() as conn:
        await conn.execute(sa.text("DELETE FROM crm.organizations WHERE organization_id IN (:a, :b)"), {"a": a, "b": b})
    await owner.dispose()


@pytest.fixture
async def engine(mesh: RunningMesh) -> AsyncIterator[AsyncEngine]:
    # One connection, so every transaction below reuses the one before it.
    engine = db.create_engine(mesh.database_url, pool_size=1)
    yield engine
    await engine.dispose()


async def _seen(conn: sa.ext.asyncio.AsyncConnection, a: uuid.UUID, b: uuid.UUID) -> set[uuid.UUID]:
    return set((await conn.execute(SEEN, {"a": a, "b": b})).scalars())


async def test_a_tenant_transaction_sees_its_organisation_only(
    engine: AsyncEngine, orgs: tuple[uuid.UUID, uuid.UUID]
) -> None:
    a, b = orgs
    async with db.tenant(engine, a) as conn:
        assert await _seen(conn, a, b) == {a}  # the very first statement already runs as tenant a
        assert tuple((await conn.execute(SETTING)).one()) == ("balcao_app", str(a))
    async with db.tenant(engine, b) as conn:
        assert tuple((await conn.execute(SETTING)).one()) == ("balcao_app", str(b))
        assert await _seen(conn, a, b) == {b}
    async with db.all_tenants(engine) as conn:
        assert await _seen(conn, a, b) == {a, b}


async def test_the_setting_does_not_outlive_its_transaction(
    engine: AsyncEngine, orgs: tuple[uuid.UUID, uuid.UUID]
) -> None:
    a, b = orgs
    async with db.tenant(engine, a) as conn:
        assert await _seen(conn, a, b) == {a}
    async with engine.begin() as conn:
        assert await _seen(conn, a, b) == set()
        assert (await conn.execute(SETTING)).one()[1] in ("", None)
    # A tenant transaction that ran no statement never sent its BEGIN: its setting must not
    # ride on the next transaction of the connection.
    async with db.tenant(engine, a):
        pass
    async with engine.begin() as conn:
        assert await _seen(conn, a, b) == set()
    # Nor after a transaction rolled back by an error.
    with pytest.raises(RuntimeError):
        async with db.tenant(engine, a) as conn:
            raise RuntimeError("the body failed")
    async with engine.begin() as conn:
        assert await _seen(conn, a, b) == set()
    with pytest.raises(sa.exc.DBAPIError):
        async with db.tenant(engine, a) as conn:
            await conn.execute(sa.text("SELECT 1 / 0"))
    async with engine.begin() as conn:
        assert await _seen(conn, a, b) == set()


async def test_the_tenant_must_be_an_organisation_id(engine: AsyncEngine) -> None:
    with pytest.raises(ValueError):
        async with db.tenant(engine, "a' OR true --"):  # type: ignore[arg-type]
            pass


@pytest.mark.parametrize("value", ["it's", "back\\slash", "plain"])
async def test_any_setting_value_arrives_intact(engine: AsyncEngine, value: str) -> None:
    async with db.transaction(engine, {"balcao.kit_test": value}) as conn:
        assert (await conn.execute(sa.text("SELECT current_setting('balcao.kit_test')"))).scalar_one() == value


async def test_sql_run_on_asyncpg_directly_is_inside_the_tenant_transaction(
    engine: AsyncEngine, orgs: tuple[uuid.UUID, uuid.UUID]
) -> None:
    a, b = orgs
    seen = "SELECT organization_id FROM crm.organizations WHERE organization_id = ANY($1::uuid[])"
    async with db.tenant(engine, a) as conn:
        raw = await db.driver_in_transaction(conn)  # no statement ran through SQLAlchemy yet
        assert {r[0] for r in await raw.fetch(seen, [a, b])} == {a}
        assert await raw.fetchval("SELECT current_user") == "balcao_app"
        assert await _seen(conn, a, b) == {a}  # SQLAlchemy's statements share that transaction
    with pytest.raises(RuntimeError):
        async with db.tenant(engine, b) as conn:
            raw = await db.driver_in_transaction(conn)
            await raw.execute("UPDATE crm.organizations SET name = 'x' WHERE organization_id = $1", b)
            raise RuntimeError("the body failed")
    async with db.all_tenants(engine) as conn:
        names = (await conn.execute(sa.text("SELECT name FROM crm.organizations WHERE organization_id = :b"), {"b": b}))
        assert names.scalar_one() == "Kit tenancy"  # the direct write rolled back with the transaction


async def test_a_call_cancelled_half_way_never_leaves_its_connection_to_the_next_one(mesh: RunningMesh) -> None:
    """A caller's deadline cancels the handler wherever it is: during BEGIN, a statement (through
    SQLAlchemy or on asyncpg directly) or COMMIT. The next transaction on the pool must still be a
    transaction of its own: committed when it says so, with its own tenant setting. (Before the
    fix, one cancellation in a few left asyncpg's transaction block open: every later "commit" on
    that connection was a savepoint release inside a transaction nobody ended, under the setting
    of the tenant that was cancelled.)"""
    engine = db.create_engine(mesh.database_url, pool_size=1, app_role=False)  # one connection, reused
    table = f"public.kit_cancel_probe_{uuid.uuid4().hex[:8]}"
    async with engine.begin() as conn:
        await conn.execute(sa.text(f"CREATE TABLE {table} (turn int, tenant text)"))
    verifier = await asyncpg.connect(mesh.database_url)
    rng = random.Random(20261130)
    wrong: list[str] = []
    try:
        for turn in range(150):
            async def cancelled(through_sqlalchemy: bool) -> None:
                async with db.tenant(engine, uuid.uuid4()) as conn:
                    if through_sqlalchemy:
                        await conn.execute(sa.text(f"INSERT INTO {table} VALUES (-1, 'cancelled')"))
                    raw = await db.driver_in_transaction(conn)
                    for _ in range(3):
                        await raw.execute(f"INSERT INTO {table} VALUES (-1, 'cancelled')")

            task = asyncio.create_task(cancelled(rng.random() < 0.5))
            await asyncio.sleep(rng.random() * 0.004)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            org = uuid.uuid4()
            async with db.tenant(engine, org) as conn:
                raw = await db.driver_in_transaction(conn)
                await raw.execute(
                    f"INSERT INTO {table} VALUES ($1, current_setting('balcao.organization_id', true))", turn
                )
            committed = await verifier.fetch(f"SELECT tenant FROM {table} WHERE turn = $1", turn)
            if [r["tenant"] for r in committed] != [str(org)]:
                wrong.append(f"turn {turn}: committed {[r['tenant'] for r in committed]}, expected [{org}]")
    finally:
        await verifier.execute(f"DROP TABLE {table}")
        await verifier.close()
        await engine.dispose()
    assert wrong == []
