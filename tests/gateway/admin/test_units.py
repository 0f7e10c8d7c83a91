"""Units in the draft, publishing, capabilities, and "Testar" on the draft or with the Operador.

The mesh's own gateway answers (offline model): it chooses a unit by the subjects the messages
mention, so the unit that answered a turn (its execution record) shows which configuration ran.
"""

from __future__ import annotations

import grpc
from google.protobuf.field_mask_pb2 import FieldMask

from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.gateway.admin.conftest import refused
from tests.support.mesh import RunningMesh

BILLING = "preciso da segunda via do boleto do pagamento"


async def _unit_of(mesh: RunningMesh, org: support.Org, turn: gw.TurnResult) -> str:
    return (await support.execution(mesh, org, turn.turn_id)).unit_id


async def test_a_draft_unit_is_not_used_by_production_until_published(mesh: RunningMesh, admin: support.Client) -> None:
    org = await support.create_org(mesh)
    reception = org.unit_ids[0]
    created = await admin.stub.CreateUnit(
        gw.CreateUnitRequest(
            organization_id=org.organization_id,
            unit=gw.Unit(name="Financeiro", subjects="boleto, pagamento, segunda via, nota fiscal", voice="objetiva"),
        ),
        metadata=admin.md,
    )
    billing = created.unit.unit_id
    assert created.unit.version == gw.CONFIG_VERSION_DRAFT and billing != reception

    published = await admin.stub.ListUnits(gw.ListUnitsRequest(organization_id=org.organization_id), metadata=admin.md)
    draft = await admin.stub.ListUnits(
        gw.ListUnitsRequest(organization_id=org.organization_id, version=gw.CONFIG_VERSION_DRAFT), metadata=admin.md
    )
    assert [u.unit_id for u in published.units] == [reception]
    assert [u.name for u in draft.units] == ["Recepção", "Financeiro"]

    # Production still runs the published configuration; "Testar" runs the draft by default.
    before = await admin.say(org, support.new_phone(), BILLING)
    assert await _unit_of(mesh, org, before) == reception
    tested = await admin.stub.RunTestTurn(
        gw.RunTestTurnRequest(organization_id=org.organization_id, messages=[BILLING]), metadata=admin.md
    )
    assert tested.config == gw.CONFIG_VERSION_DRAFT
    assert await _unit_of(mesh, org, tested.turn) == billing
    as_published = await admin.stub.RunTestTurn(
        gw.RunTestTurnRequest(
            organization_id=org.organization_id, messages=[BILLING], config=gw.CONFIG_VERSION_PUBLISHED
        ),
        metadata=admin.md,
    )
    assert await _unit_of(mesh, org, as_published.turn) == reception

    first = await admin.stub.PublishConfiguration(
        gw.PublishConfigurationRequest(organization_id=org.organization_id), metadata=admin.md
    )
    assert first.published_version >= 2 and first.HasField("published_at")
    after = await admin.say(org, support.new_phone(), BILLING)
    assert await _unit_of(mesh, org, after) == billing
    published = await admin.stub.ListUnits(gw.ListUnitsRequest(organization_id=org.organization_id), metadata=admin.md)
    assert {u.name for u in published.units} == {"Recepção", "Financeiro"}
    # Nothing new to publish: the live version stays.
    again = await admin.stub.PublishConfiguration(
        gw.PublishConfigurationRequest(organization_id=org.organization_id), metadata=admin.md
    )
    assert again.published_version == first.published_version


async def test_update_unit_changes_only_the_masked_fields_in_the_draft(
    admin: support.Client, mesh: RunningMesh
) -> None:
    org = await support.create_org(mesh)
    unit = org.unit_ids[0]
    updated = await admin.stub.UpdateUnit(
        gw.UpdateUnitRequest(
            organization_id=org.organization_id,
            unit_id=unit,
            unit=gw.Unit(name="não muda", voice="formal, trata por senhor", instructions="não muda"),
            update_mask=FieldMask(paths=["voice"]),
        ),
        metadata=admin.md,
    )
    assert updated.unit.voice == "formal, trata por senhor"
    assert updated.unit.name == "Recepção" and updated.unit.instructions == "Atenda com cordialidade."
    published = await admin.stub.ListUnits(gw.ListUnitsRequest(organization_id=org.organization_id), metadata=admin.md)
    assert published.units[0].voice == "acolhedora"  # production unchanged until published


async def test_bad_unit_input_is_a_clear_error_and_stores_nothing(admin: support.Client, mesh: RunningMesh) -> None:
    org = await support.create_org(mesh)
    cases = [
        admin.stub.CreateUnit(
            gw.CreateUnitRequest(organization_id=org.organization_id, unit=gw.Unit(name="  ")), metadata=admin.md
        ),
        admin.stub.UpdateUnit(
            gw.UpdateUnitRequest(
                organization_id=org.organization_id,
                unit_id=org.unit_ids[0],
                unit=gw.Unit(voice="x"),
                update_mask=FieldMask(paths=["tone"]),
            ),
            metadata=admin.md,
        ),
        admin.stub.UpdateUnit(
            gw.UpdateUnitRequest(
                organization_id=org.organization_id, unit_id="abc", update_mask=FieldMask(paths=["voice"])
            ),
            metadata=admin.md,
        ),
    ]
    for call in cases:
        assert (await refused(call)).code() == grpc.StatusCode.INVALID_ARGUMENT
    missing = await refused(
        admin.stub.UpdateUnit(
            gw.UpdateUnitRequest(
                organization_id=org.organization_id,
                unit_id="00000000-0000-4000-8000-000000000000",
                unit=gw.Unit(voice="x"),
                update_mask=FieldMask(paths=["voice"]),
            ),
            metadata=admin.md,
        )
    )
    assert missing.code() == grpc.StatusCode.NOT_FOUND
    draft = await admin.stub.ListUnits(
        gw.ListUnitsRequest(organization_id=org.organization_id, version=gw.CONFIG_VERSION_DRAFT), metadata=admin.md
    )
    assert [(u.name, u.voice) for u in draft.units] == [("Recepção", "acolhedora")]


async def test_capabilities_are_selected_in_the_draft_and_a_wrong_selection_is_refused_as_data(
    admin: support.Client, mesh: RunningMesh
) -> None:
    org = await support.create_org(mesh)
    unit = org.unit_ids[0]
    screen = (
        await admin.stub.ListUnitCapabilities(
            gw.ListUnitCapabilitiesRequest(organization_id=org.organization_id, unit_id=unit), metadata=admin.md
        )
    ).capabilities
    assert screen.max_enabled == 25 and screen.enabled_count == 0 and screen.capabilities
    critical = next(c.name for c in screen.capabilities if c.risk == gw.CAPABILITY_RISK_CRITICAL)

    chosen = await admin.stub.SetUnitCapabilities(
        gw.SetUnitCapabilitiesRequest(
            organization_id=org.organization_id, unit_id=unit, packages=["agenda"], critical_capabilities=[critical]
        ),
        metadata=admin.md,
    )
    assert not chosen.refusal_pt
    enabled = {c.name for c in chosen.capabilities.capabilities if c.enabled}
    agenda = {c.name for c in screen.capabilities if c.package == "agenda" and c.risk != gw.CAPABILITY_RISK_CRITICAL}
    assert enabled == agenda | {critical} and chosen.capabilities.selected_packages == ["agenda"]
    listed = await admin.stub.ListUnitCapabilities(
        gw.ListUnitCapabilitiesRequest(organization_id=org.organization_id, unit_id=unit), metadata=admin.md
    )
    assert listed.capabilities == chosen.capabilities

    # A safe capability is enabled through its package, never one by one; an unknown package is
    # refused too. Both are data, and nothing changes.
    safe = next(c.name for c in screen.capabilities if c.risk == gw.CAPABILITY_RISK_SAFE)
    for request in (
        gw.SetUnitCapabilitiesRequest(organization_id=org.organization_id, unit_id=unit, critical_capabilities=[safe]),
        gw.SetUnitCapabilitiesRequest(organization_id=org.organization_id, unit_id=unit, packages=["voar"]),
    ):
        refused_change = await admin.stub.SetUnitCapabilities(request, metadata=admin.md)
        assert refused_change.refusal_pt and refused_change.capabilities == chosen.capabilities
    listed = await admin.stub.ListUnitCapabilities(
        gw.ListUnitCapabilitiesRequest(organization_id=org.organization_id, unit_id=unit), metadata=admin.md
    )
    assert listed.capabilities == chosen.capabilities


async def test_testar_with_the_operador_reports_its_outcome_and_without_it_never_reaches_it(
    mesh: RunningMesh, admin: support.Client
) -> None:
    org = await support.create_org(mesh)
    plain = await admin.stub.RunTestTurn(
        gw.RunTestTurnRequest(
            organization_id=org.organization_id, messages=["vocês abrem sábado?"], new_conversation=True
        ),
        metadata=admin.md,
    )
    assert not plain.HasField("operador")
    assert (await support.execution(mesh, org, plain.turn.turn_id)).checkpoint_seq == 0

    with_operador = await admin.stub.RunTestTurn(
        gw.RunTestTurnRequest(
            organization_id=org.organization_id,
            messages=["vocês abrem sábado?"],
            run_operador=True,
            new_conversation=True,
        ),
        metadata=admin.md,
    )
    assert with_operador.turn.status == gw.TURN_STATUS_DONE
    assert with_operador.operador.outcome in {"acted", "nothing_to_do", "could_not_act"}
    record = await admin.stub.GetExecution(
        gw.GetExecutionRequest(organization_id=org.organization_id, turn_id=with_operador.turn.turn_id),
        metadata=admin.md,
    )
    assert record.execution.operador.outcome == with_operador.operador.outcome
    assert record.execution.closing.checkpoint_seq > 0
