"""Migrations run by a database owner that is not a superuser, as on a managed PostgreSQL
(CloudNativePG's application user owns the database and may create roles, nothing more).

Such an owner is bound by the FORCE ROW LEVEL SECURITY of crm's tables, so a data migration that
reads or rewrites rows must set the scope or the tenant the policies ask for; the tests elsewhere
migrate as the superuser and would not notice if one did not.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.ext.asyncio import create_async_engine

from balcao.kit import db
from tests.support.mesh import RunningMesh


@pytest.fixture(params=[True], ids=["granted"])
async def owned_database(mesh: RunningMesh, request: pytest.FixtureRequest) -> AsyncIterator[tuple[str, str]]:
    """(URL as the owner, URL as the superuser) of a new database owned by a new non-superuser."""
    role, name, password = f"owner_{uuid.uuid4().hex[:10]}", f"owned_{uuid.uuid4().hex[:10]}", uuid.uuid4().hex
    admin = create_async_engine(db.to_async_url(mesh.database_url), isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(sa.text(f"CREATE ROLE {role} LOGIN NOSUPERUSER CREATEROLE PASSWORD '{password}'"))
        await conn.execute(sa.text(f'CREATE DATABASE "{name}" OWNER {role}'))
        if request.param:
            # The mesh's PostgreSQL already has the application role (created by the superuser), so
            # a DBA grants it to the new owner; on a cluster of its own the owner creates and takes it.
            await conn.execute(sa.text(f"GRANT {db.APP_ROLE} TO {role}"))
    server = mesh.database_url.rsplit("/", 1)[0]
    try:
        yield server.replace("postgres@", f"{role}:{password}@") + f"/{name}", f"{server}/{name}"
    finally:
        async with admin.connect() as conn:
            await conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            await conn.execute(sa.text(f"DROP ROLE {role}"))
        await admin.dispose()


async def test_every_schema_migrates_to_head_and_crms_data_migration_rewrites_under_row_level_security(
    owned_database: tuple[str, str],
) -> None:
    as_owner, as_superuser = owned_database
    for service in ("crm", "agenda", "gateway"):
        await db.migrate(as_owner, service, service)

    # An organisation stored before crm_0003 (its settings without the Conversador's switch), then
    # the owner migrates again from crm_0002: crm_0003 must see the row through the policies.
    owner = db.create_engine(as_owner, pool_size=1, app_role=False)

    def back_to_crm_0002(connection: sa.Connection) -> None:
        config = db.alembic_config("crm", "crm")
        config.attributes["connection"] = connection
        command.downgrade(config, "crm_0002")
        connection.commit()

    async with owner.connect() as conn:
        await conn.run_sync(back_to_crm_0002)
    await owner.dispose()
    superuser = db.create_engine(as_superuser, pool_size=1, app_role=False)
    organization = uuid.uuid4()
    async with superuser.begin() as conn:
        await conn.execute(
            sa.text(
                "INSERT INTO crm.organizations (organization_id, name, time_zone, settings, created_at, updated_at) "
                "VALUES (:id, 'Clínica antiga', 'America/Sao_Paulo', CAST(:settings AS jsonb), now(), now())"
            ),
            {"id": organization, "settings": json.dumps({"roles": {"operadorEnabled": True}})},
        )

    await db.migrate(as_owner, "crm", "crm")

    async with superuser.connect() as conn:
        settings = (await conn.execute(sa.text("SELECT settings FROM crm.organizations"))).scalar_one()
        version = (await conn.execute(sa.text("SELECT version_num FROM crm.alembic_version"))).scalar_one()
    await superuser.dispose()
    assert version == db.head_revision("crm", "crm")
    assert settings["roles"] == {"conversadorEnabled": True, "operadorEnabled": True}


@pytest.mark.parametrize("owned_database", [False], ids=["not_granted"], indirect=True)
async def test_a_migration_that_cannot_run_says_why(owned_database: tuple[str, str]) -> None:
    as_owner, _ = owned_database
    # The role exists, made by someone else, and nobody granted it: the owner may not take it.
    with pytest.raises(sa.exc.DBAPIError) as failure:
        await db.migrate(as_owner, "crm", "crm")
    assert db.APP_ROLE in str(failure.value)  # the migration's own error, named
    assert "current transaction is aborted" not in str(failure.value)
