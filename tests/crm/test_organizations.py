"""Organisations on the real crm: creation, time zones, settings with their consequences."""

from __future__ import annotations

import uuid

import grpc
import pytest
import sqlalchemy as sa
from google.protobuf import field_mask_pb2
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from tests.crm.conftest import Crm


async def test_a_new_organisation_starts_with_both_roles_on_and_reads_back(crm: Crm) -> None:
    created = await crm.write.UpsertOrganization(
        wr.UpsertOrganizationRequest(name="Clínica Sorriso", time_zone="America/Recife",
                                     plan=r.Plan(name="Essencial")),
        metadata=crm.metadata,
    )
    assert created.created
    read = await crm.read.GetOrganization(
        rd.GetOrganizationRequest(organization_id=created.organization.organization_id), metadata=crm.metadata
    )
    organization = read.organization
    assert organization.name == "Clínica Sorriso"
    assert organization.time_zone == "America/Recife"
    assert organization.plan.name == "Essencial"
    assert not organization.plan.HasField("expires_at")
    assert organization.settings.roles.conversador_enabled and organization.settings.roles.operador_enabled
    assert organization.settings.followup.callback_enabled
    assert "handoff" in organization.settings.reply_catalog
    assert organization.settings_version == 1


async def test_an_update_changes_the_profile_and_keeps_what_it_does_not_name(crm: Crm) -> None:
    org = await crm.org("Fazenda Boa Vista")
    updated = await crm.write.UpsertOrganization(
        wr.UpsertOrganizationRequest(organization_id=org, time_zone="America/Cuiaba"), metadata=crm.metadata
    )
    assert not updated.created
    assert updated.organization.name == "Fazenda Boa Vista"
    assert updated.organization.time_zone == "America/Cuiaba"


async def test_a_time_zone_that_is_not_iana_is_refused_and_nothing_is_written(
    crm: Crm, owner_engine: AsyncEngine
) -> None:
    name = f"Loja {uuid.uuid4()}"
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.UpsertOrganization(
            wr.UpsertOrganizationRequest(name=name, time_zone="GMT-3 Brasília"), metadata=crm.metadata
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "IANA" in caught.value.details()
    async with owner_engine.connect() as conn:
        count = (await conn.execute(sa.text("SELECT count(*) FROM crm.organizations WHERE name = :n"),
                                    {"n": name})).scalar_one()
    assert count == 0


async def test_an_unknown_organisation_is_not_found(crm: Crm) -> None:
    for call in (
        crm.read.GetOrganization(rd.GetOrganizationRequest(organization_id=str(uuid.uuid4())), metadata=crm.metadata),
        crm.write.UpsertOrganization(
            wr.UpsertOrganizationRequest(organization_id=str(uuid.uuid4()), name="x"), metadata=crm.metadata
        ),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call
        assert caught.value.code() == grpc.StatusCode.NOT_FOUND


async def test_a_malformed_organisation_id_is_an_invalid_argument(crm: Crm) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.read.GetOrganization(rd.GetOrganizationRequest(organization_id="org-1"), metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "organization_id must be a UUID" in caught.value.details()


async def test_switching_the_operador_off_keeps_other_settings_and_says_what_it_means(crm: Crm) -> None:
    org = await crm.org()
    response = await crm.write.UpdateOrganizationSettings(
        wr.UpdateOrganizationSettingsRequest(
            organization_id=org,
            settings=r.OrganizationSettings(roles=r.RoleSettings(conversador_enabled=True, operador_enabled=False),
                                            followup=r.FollowUpSettings(callback_enabled=False)),
            update_mask=field_mask_pb2.FieldMask(paths=["roles.operador_enabled", "followup.callback_enabled"]),
            expected_settings_version=1,
        ),
        metadata=crm.metadata,
    )
    settings = response.organization.settings
    assert not settings.roles.operador_enabled
    assert settings.roles.conversador_enabled
    assert not settings.followup.callback_enabled
    assert "handoff" in settings.reply_catalog  # untouched
    assert response.organization.settings_version == 2
    assert any("continua registrando o básico sozinho" in line for line in response.consequences_pt)
    assert any("retornos prometidos" in line for line in response.consequences_pt)


async def test_a_stale_settings_version_is_aborted_so_no_change_is_lost(crm: Crm) -> None:
    org = await crm.org()
    request = wr.UpdateOrganizationSettingsRequest(
        organization_id=org,
        settings=r.OrganizationSettings(internal_vocabulary_additions=["webhook_sources"]),
        update_mask=field_mask_pb2.FieldMask(paths=["internal_vocabulary_additions"]),
        expected_settings_version=1,
    )
    await crm.write.UpdateOrganizationSettings(request, metadata=crm.metadata)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.UpdateOrganizationSettings(request, metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.ABORTED


@pytest.mark.parametrize(
    ("settings", "paths", "problem"),
    [
        (r.OrganizationSettings(seguranca=r.SegurancaSettings(gates_enabled={"stop": False})),
         ["seguranca.gates_enabled"], "stop"),
        (r.OrganizationSettings(stages=[r.StageDefinition(key="a"), r.StageDefinition(key="a")]), ["stages"],
         "twice"),
        (r.OrganizationSettings(pacing=r.PacingSettings(quiet_hours_start="25:00", quiet_hours_end="08:00")),
         ["pacing"], "quiet_hours_start"),
        (r.OrganizationSettings(), ["no_such_field"], "no_such_field"),
    ],
)
async def test_invalid_settings_are_refused_and_the_version_does_not_move(
    crm: Crm, settings: r.OrganizationSettings, paths: list[str], problem: str
) -> None:
    org = await crm.org()
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.UpdateOrganizationSettings(
            wr.UpdateOrganizationSettingsRequest(organization_id=org, settings=settings,
                                                 update_mask=field_mask_pb2.FieldMask(paths=paths)),
            metadata=crm.metadata,
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert problem in caught.value.details()
    read = await crm.read.GetOrganization(rd.GetOrganizationRequest(organization_id=org), metadata=crm.metadata)
    assert read.organization.settings_version == 1


async def test_list_organizations_pages_through_every_tenant(crm: Crm) -> None:
    mine = {await crm.org(f"Página {i}") for i in range(3)}
    seen: set[str] = set()
    token = ""
    while True:
        page = await crm.read.ListOrganizations(
            rd.ListOrganizationsRequest(page_size=2, page_token=token), metadata=crm.metadata
        )
        assert len(page.organizations) <= 2
        seen.update(o.organization_id for o in page.organizations)
        token = page.next_page_token
        if not token:
            break
    assert mine <= seen


async def _settings(crm: Crm, org: str) -> r.OrganizationSettings:
    return (await crm.read.GetOrganization(rd.GetOrganizationRequest(organization_id=org),
                                           metadata=crm.metadata)).organization.settings


async def test_reads_never_answer_with_settings_the_organisation_no_longer_has(
    crm: Crm, owner_engine: AsyncEngine
) -> None:
    # crm keeps each organisation's parsed settings between reads; every change must show at once,
    # whoever made it, and two organisations never see each other's.
    org, other = await crm.org(), await crm.org()
    assert (await _settings(crm, org)).followup.callback_enabled
    assert (await _settings(crm, other)).followup.callback_enabled
    await crm.write.UpdateOrganizationSettings(
        wr.UpdateOrganizationSettingsRequest(
            organization_id=org, settings=r.OrganizationSettings(followup=r.FollowUpSettings(callback_enabled=False)),
            update_mask=field_mask_pb2.FieldMask(paths=["followup.callback_enabled"]),
        ),
        metadata=crm.metadata,
    )
    assert not (await _settings(crm, org)).followup.callback_enabled
    assert (await _settings(crm, other)).followup.callback_enabled
    # A change written behind crm's back (the version untouched) is read too.
    async with owner_engine.begin() as conn:
        await conn.execute(
            sa.text("UPDATE crm.organizations SET settings = jsonb_set(settings, '{business}', "
                    "'{\"displayName\": \"Clínica Nova\"}') WHERE organization_id = :org"),
            {"org": org},
        )
    changed = await _settings(crm, org)
    assert changed.business.display_name == "Clínica Nova"
    assert not changed.followup.callback_enabled
    assert (await _settings(crm, other)).business.display_name == ""


async def test_a_new_stage_is_usable_right_after_the_settings_change(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    update = wr.UpdateLeadStateRequest(organization_id=org, contact_id=contact, stage_key="avaliacao")
    refused = await crm.write.UpdateLeadState(update, metadata=crm.metadata)
    assert refused.HasField("refusal")  # not a stage of the organisation yet (and its settings are now parsed)
    stages = list((await _settings(crm, org)).stages)
    stages.append(r.StageDefinition(key="avaliacao", label="Em avaliação", position=len(stages) + 1))
    await crm.write.UpdateOrganizationSettings(
        wr.UpdateOrganizationSettingsRequest(
            organization_id=org, settings=r.OrganizationSettings(stages=stages),
            update_mask=field_mask_pb2.FieldMask(paths=["stages"]),
        ),
        metadata=crm.metadata,
    )
    moved = await crm.write.UpdateLeadState(update, metadata=crm.metadata)
    assert not moved.HasField("refusal")
    assert moved.lead_state.stage_label == "Em avaliação"
