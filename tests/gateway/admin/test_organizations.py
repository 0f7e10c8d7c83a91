"""Organisations through the admin surface: what is created is read back, an update changes only
the masked fields, and bad input stores nothing."""

from __future__ import annotations

import uuid

import grpc
from google.protobuf.field_mask_pb2 import FieldMask

from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.gateway.admin.conftest import refused


def _new(name: str) -> gw.Organization:
    return gw.Organization(
        name=name,
        time_zone="America/Recife",
        business=gw.BusinessProfile(
            opening_hours="seg a sex, 8h às 18h",
            addresses=["Rua das Flores, 123 - Recife"],
            public_contacts=[gw.PublicContact(kind="phone", value="+558130000000")],
            commercial_facts=[gw.CommercialFact(kind="price", subject="Consulta", text="à vista", amount_cents=28000)],
        ),
        conversation=gw.ConversationRules(
            reply_catalog={"horario": "Atendemos de segunda a sexta, das 8h às 18h."},
            menu=[gw.MenuOption(number=1, label="Horários", reply_key="horario")],
            handoff_phrases=["quero a recepção"],
        ),
        sending=gw.SendingPolicy(quiet_hours_start="22:00", quiet_hours_end="07:00"),
    )


async def _names(admin: support.Client) -> list[str]:
    names, token = [], ""
    while True:
        page = await admin.stub.ListOrganizations(
            gw.ListOrganizationsRequest(page_size=200, page_token=token), metadata=admin.md
        )
        names += [o.name for o in page.organizations]
        token = page.next_page_token
        if not token:
            return names


async def test_an_organisation_created_is_read_back_and_listed(admin: support.Client) -> None:
    name = support.org_name("Clínica Admin")
    created = (
        await admin.stub.CreateOrganization(gw.CreateOrganizationRequest(organization=_new(name)), metadata=admin.md)
    ).organization

    assert created.organization_id and created.HasField("created_at")
    got = (
        await admin.stub.GetOrganization(
            gw.GetOrganizationRequest(organization_id=created.organization_id), metadata=admin.md
        )
    ).organization
    assert got.name == name and got.time_zone == "America/Recife"
    assert got.business.opening_hours == "seg a sex, 8h às 18h"
    assert list(got.business.addresses) == ["Rua das Flores, 123 - Recife"]
    assert [(c.kind, c.value) for c in got.business.public_contacts] == [("phone", "+558130000000")]
    assert [(f.kind, f.subject, f.amount_cents) for f in got.business.commercial_facts] == [
        ("price", "Consulta", 28000)
    ]
    assert got.conversation.reply_catalog["horario"].startswith("Atendemos")
    assert [(m.number, m.label, m.reply_key) for m in got.conversation.menu] == [(1, "Horários", "horario")]
    assert list(got.conversation.handoff_phrases) == ["quero a recepção"]
    assert (got.sending.quiet_hours_start, got.sending.quiet_hours_end) == ("22:00", "07:00")
    assert name in await _names(admin)


async def test_an_update_changes_only_the_masked_fields(admin: support.Client) -> None:
    name = support.org_name("Clínica Máscara")
    org = (
        await admin.stub.CreateOrganization(gw.CreateOrganizationRequest(organization=_new(name)), metadata=admin.md)
    ).organization
    change = gw.Organization(
        name="não deve mudar",
        business=gw.BusinessProfile(opening_hours="todos os dias, 7h às 22h", addresses=["outro endereço"]),
        conversation=gw.ConversationRules(debounce_seconds=9),
    )
    updated = await admin.stub.UpdateOrganization(
        gw.UpdateOrganizationRequest(
            organization_id=org.organization_id,
            organization=change,
            update_mask=FieldMask(paths=["business.opening_hours", "conversation.debounce_seconds"]),
        ),
        metadata=admin.md,
    )

    assert not updated.refusal_pt
    got = (
        await admin.stub.GetOrganization(
            gw.GetOrganizationRequest(organization_id=org.organization_id), metadata=admin.md
        )
    ).organization
    assert got.business.opening_hours == "todos os dias, 7h às 22h"
    assert got.conversation.debounce_seconds == 9
    assert got.name == name  # not in the mask
    assert list(got.business.addresses) == ["Rua das Flores, 123 - Recife"]  # same section, not in the mask
    assert got.conversation.menu == org.conversation.menu and got.sending == org.sending

    renamed = await admin.stub.UpdateOrganization(
        gw.UpdateOrganizationRequest(
            organization_id=org.organization_id,
            organization=gw.Organization(name="Clínica Renomeada"),
            update_mask=FieldMask(paths=["name"]),
        ),
        metadata=admin.md,
    )
    assert renamed.organization.name == "Clínica Renomeada"
    assert renamed.organization.business.opening_hours == "todos os dias, 7h às 22h"


async def test_a_create_can_say_off_from_the_start_with_its_given_mask(admin: support.Client) -> None:
    def create(name: str, mask: list[str] | None) -> gw.CreateOrganizationRequest:
        request = gw.CreateOrganizationRequest(organization=_new(name))  # followup_callback_enabled: false
        if mask is not None:
            request.given_mask.CopyFrom(FieldMask(paths=mask))
        return request

    off = (
        await admin.stub.CreateOrganization(
            create(support.org_name("Clínica Sem Retorno"), ["followup_callback_enabled", "business"]),
            metadata=admin.md,
        )
    ).organization
    unsaid = (
        await admin.stub.CreateOrganization(create(support.org_name("Clínica Padrão"), None), metadata=admin.md)
    ).organization

    assert not off.followup_callback_enabled and unsaid.followup_callback_enabled  # crm's default: on
    assert off.business.opening_hours == "seg a sex, 8h às 18h"  # the masked section was taken
    # A section the mask does not name is not taken (crm's default catalog, not the one given).
    assert "horario" not in off.conversation.reply_catalog and "horario" in unsaid.conversation.reply_catalog
    before = await _names(admin)
    wrong = create(support.org_name("Clínica Máscara Errada"), ["followup"])
    error = await refused(admin.stub.CreateOrganization(wrong, metadata=admin.md))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "given_mask" in (error.details() or "")
    assert await _names(admin) == before


async def test_bad_input_is_a_clear_error_and_stores_nothing(admin: support.Client) -> None:
    name = support.org_name("Clínica Inválida")
    bad_zone = _new(name)
    bad_zone.time_zone = "America/Atlantida"
    error = await refused(
        admin.stub.CreateOrganization(gw.CreateOrganizationRequest(organization=bad_zone), metadata=admin.md)
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "time_zone" in (error.details() or "")
    bad_menu = _new(name)
    bad_menu.conversation.menu.append(gw.MenuOption(number=2, label=""))
    error = await refused(
        admin.stub.CreateOrganization(gw.CreateOrganizationRequest(organization=bad_menu), metadata=admin.md)
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "menu" in (error.details() or "")
    error = await refused(
        admin.stub.CreateOrganization(
            gw.CreateOrganizationRequest(organization=gw.Organization(name="  ")), metadata=admin.md
        )
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "name" in (error.details() or "")
    half_quiet = _new(name)
    half_quiet.sending.quiet_hours_end = ""
    error = await refused(
        admin.stub.CreateOrganization(gw.CreateOrganizationRequest(organization=half_quiet), metadata=admin.md)
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "quiet_hours" in (error.details() or "")
    assert name not in await _names(admin)

    org = (
        await admin.stub.CreateOrganization(gw.CreateOrganizationRequest(organization=_new(name)), metadata=admin.md)
    ).organization
    before = (
        await admin.stub.GetOrganization(
            gw.GetOrganizationRequest(organization_id=org.organization_id), metadata=admin.md
        )
    ).organization
    for paths in (["business.opening_hourz"], ["organization_id"], []):
        error = await refused(
            admin.stub.UpdateOrganization(
                gw.UpdateOrganizationRequest(
                    organization_id=org.organization_id,
                    organization=gw.Organization(business=gw.BusinessProfile(opening_hours="24h")),
                    update_mask=FieldMask(paths=paths),
                ),
                metadata=admin.md,
            )
        )
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "update_mask" in (error.details() or "")
    error = await refused(
        admin.stub.UpdateOrganization(
            gw.UpdateOrganizationRequest(
                organization_id=org.organization_id,
                organization=gw.Organization(name=""),
                update_mask=FieldMask(paths=["name"]),
            ),
            metadata=admin.md,
        )
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    after = (
        await admin.stub.GetOrganization(
            gw.GetOrganizationRequest(organization_id=org.organization_id), metadata=admin.md
        )
    ).organization
    assert after == before

    error = await refused(
        admin.stub.GetOrganization(gw.GetOrganizationRequest(organization_id="não-é-uuid"), metadata=admin.md)
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "organization_id" in (error.details() or "")
    unknown = str(uuid.uuid4())
    error = await refused(
        admin.stub.GetOrganization(gw.GetOrganizationRequest(organization_id=unknown), metadata=admin.md)
    )
    assert error.code() == grpc.StatusCode.NOT_FOUND
    # The owner's words, not the mesh's inside: which service answered, by which RPC, stays in the logs.
    assert unknown in (error.details() or "") and "crm." not in (error.details() or "")
    assert "GetOrganization" not in (error.details() or "")


async def test_a_menu_pointing_to_an_unknown_unit_is_refused_as_data(admin: support.Client) -> None:
    org = (
        await admin.stub.CreateOrganization(
            gw.CreateOrganizationRequest(organization=_new(support.org_name("Clínica Menu"))), metadata=admin.md
        )
    ).organization
    response = await admin.stub.UpdateOrganization(
        gw.UpdateOrganizationRequest(
            organization_id=org.organization_id,
            organization=gw.Organization(
                conversation=gw.ConversationRules(
                    menu=[gw.MenuOption(number=1, label="Agenda", unit_id=str(uuid.uuid4()))]
                )
            ),
            update_mask=FieldMask(paths=["conversation.menu"]),
        ),
        metadata=admin.md,
    )
    assert "unidade" in response.refusal_pt
    assert [m.reply_key for m in response.organization.conversation.menu] == ["horario"]


async def test_only_the_admin_may_call_the_admin_surface(mesh, admin: support.Client) -> None:  # type: ignore[no-untyped-def]
    error = await refused(
        admin.stub.ListOrganizations(gw.ListOrganizationsRequest(), metadata=support.metadata(mesh, "conversador"))
    )
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
