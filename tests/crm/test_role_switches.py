"""The role switches: omitted means the defaults, off is stored as an explicit false, and crm_0003
rewrites the documents stored before the switches were explicit (docs/services/crm.md)."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command
from google.protobuf import field_mask_pb2
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.kit import db
from services.crm import organization_settings
from tests.crm.conftest import Crm
from tests.support.mesh import RunningMesh


async def _stored_roles(owner_engine: AsyncEngine, org: str) -> dict[str, object]:
    async with owner_engine.connect() as conn:
        settings = (
            await conn.execute(sa.text("SELECT settings FROM crm.organizations WHERE organization_id = :o"), {"o": org})
        ).scalar_one()
    return settings["roles"]


async def _roles(crm: Crm, org: str) -> r.RoleSettings:
    read = await crm.read.GetOrganization(rd.GetOrganizationRequest(organization_id=org), metadata=crm.metadata)
    return read.organization.settings.roles


async def test_initial_settings_without_roles_start_with_both_roles_on(crm: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org(initial_settings=r.OrganizationSettings(internal_vocabulary_additions=["planilha_x"]))
    roles = await _roles(crm, org)
    assert roles.conversador_enabled and roles.operador_enabled
    assert await _stored_roles(owner_engine, org) == {"conversadorEnabled": True, "operadorEnabled": True}


async def test_roles_given_at_creation_are_kept_and_a_false_is_stored_as_false(
    crm: Crm, owner_engine: AsyncEngine
) -> None:
    org = await crm.org(initial_settings=r.OrganizationSettings(roles=r.RoleSettings(conversador_enabled=True)))
    roles = await _roles(crm, org)
    assert roles.conversador_enabled and not roles.operador_enabled
    assert await _stored_roles(owner_engine, org) == {"conversadorEnabled": True, "operadorEnabled": False}


async def test_switching_the_conversador_off_is_stored_explicitly_and_said_in_pt_br(
    crm: Crm, owner_engine: AsyncEngine
) -> None:
    org = await crm.org()
    off = await crm.write.UpdateOrganizationSettings(
        wr.UpdateOrganizationSettingsRequest(
            organization_id=org,
            settings=r.OrganizationSettings(roles=r.RoleSettings(conversador_enabled=False)),
            update_mask=field_mask_pb2.FieldMask(paths=["roles.conversador_enabled"]),
        ),
        metadata=crm.metadata,
    )
    assert not off.organization.settings.roles.conversador_enabled
    assert off.organization.settings.roles.operador_enabled  # not named by the mask: kept
    assert any("cada mensagem recebida vira um atendimento" in line for line in off.consequences_pt)
    assert await _stored_roles(owner_engine, org) == {"conversadorEnabled": False, "operadorEnabled": True}
    assert not (await _roles(crm, org)).conversador_enabled


async def test_a_document_without_the_conversador_switch_reads_as_on(crm: Crm, owner_engine: AsyncEngine) -> None:
    """A document written before crm_0003 (or by hand) without the switch: the agent answered."""
    org = await crm.org()
    async with owner_engine.begin() as conn:
        await conn.execute(
            sa.text("UPDATE crm.organizations SET settings = settings - 'roles' WHERE organization_id = :o"),
            {"o": org},
        )
    roles = await _roles(crm, org)
    assert roles.conversador_enabled and not roles.operador_enabled


def test_the_stored_form_round_trips_every_combination_of_the_switches() -> None:
    for conversador in (True, False):
        for operador in (True, False):
            settings = organization_settings.default_settings()
            settings.roles.conversador_enabled, settings.roles.operador_enabled = conversador, operador
            document = organization_settings.to_document(settings)
            assert document["roles"] == {"conversadorEnabled": conversador, "operadorEnabled": operador}
            assert organization_settings.from_document(document) == settings


# ---------------------------------------------------------------------------------------------
# The data migration crm_0003, on a database of its own
# ---------------------------------------------------------------------------------------------


@pytest.fixture
async def old_database(mesh: RunningMesh) -> AsyncIterator[str]:
    """A new database with the crm schema at crm_0002 (before the switches were explicit)."""
    name = f"crm_roles_{uuid.uuid4().hex[:10]}"
    admin = create_async_engine(db.to_async_url(mesh.database_url), isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = mesh.database_url.rsplit("/", 1)[0] + f"/{name}"
    await db.migrate(url, "crm", "crm")
    engine = db.create_engine(url, pool_size=1, app_role=False)

    def down(connection: sa.Connection) -> None:
        config = db.alembic_config("crm", "crm")
        config.attributes["connection"] = connection
        command.downgrade(config, "crm_0002")
        connection.commit()

    async with engine.connect() as conn:
        await conn.run_sync(down)
    await engine.dispose()
    try:
        yield url
    finally:
        async with admin.connect() as conn:
            await conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        await admin.dispose()


async def test_the_migration_turns_omitted_switches_into_what_each_organisation_ran_with(old_database: str) -> None:
    documents = {
        # created with initial settings that did not mention roles: answered, no Operador model
        "omitted": {"internalVocabularyAdditions": ["x"]},
        # the same, after the admin switched the Operador on: still answered
        "operador_switched_on": {"roles": {"operadorEnabled": True}},
        # the same, after the admin switched the Operador off (roles present, both absent)
        "operador_switched_off": {"roles": {}},
        # created with the defaults: nothing to change
        "defaults": {"roles": {"conversadorEnabled": True, "operadorEnabled": True}},
        # written by hand with the proto names: explicit, kept
        "hand_written_off": {"roles": {"conversador_enabled": False, "operador_enabled": True}},
    }
    ids = {key: uuid.uuid4() for key in documents}
    engine = db.create_engine(old_database, pool_size=1, app_role=False)
    now = datetime.now(UTC)
    async with engine.begin() as conn:
        for key, document in documents.items():
            await conn.execute(
                sa.text(
                    "INSERT INTO crm.organizations (organization_id, name, time_zone, settings, created_at, updated_at)"
                    " VALUES (:id, :name, 'America/Sao_Paulo', CAST(:settings AS jsonb), :now, :now)"
                ),
                {"id": ids[key], "name": key, "settings": json.dumps(document), "now": now},
            )

    await db.migrate(old_database, "crm", "crm")

    async with engine.connect() as conn:
        rows = {
            row.name: row
            for row in (await conn.execute(sa.text("SELECT name, settings, settings_version FROM crm.organizations")))
        }
        version = (await conn.execute(sa.text("SELECT version_num FROM crm.alembic_version"))).scalar_one()
    await engine.dispose()
    assert version == db.head_revision("crm", "crm")

    def roles(key: str) -> dict[str, object]:
        return rows[key].settings["roles"]

    assert roles("omitted") == {"conversadorEnabled": True, "operadorEnabled": False}
    assert rows["omitted"].settings["internalVocabularyAdditions"] == ["x"]  # the rest untouched
    assert roles("operador_switched_on") == {"conversadorEnabled": True, "operadorEnabled": True}
    assert roles("operador_switched_off") == {"conversadorEnabled": True, "operadorEnabled": False}
    assert roles("defaults") == {"conversadorEnabled": True, "operadorEnabled": True}
    assert roles("hand_written_off") == {"conversador_enabled": False, "operador_enabled": True}
    # The Conversador's switch changed meaning (read false, reads true): the version moved there only.
    assert {key: rows[key].settings_version for key in documents} == {
        "omitted": 2, "operador_switched_on": 2, "operador_switched_off": 2, "defaults": 1, "hand_written_off": 1,
    }
    # What crm reads from the rewritten documents.
    assert not organization_settings.from_document(rows["hand_written_off"].settings).roles.conversador_enabled
    assert organization_settings.from_document(rows["omitted"].settings).roles.conversador_enabled
