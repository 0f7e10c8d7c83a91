"""Contacts on the real crm: one person however their phone is written, JIDs, flags."""

from __future__ import annotations

import asyncio
import uuid

import grpc
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from tests.crm.conftest import Crm, random_phone, row_counts


async def test_the_ninth_digit_does_not_make_a_second_contact(crm: Crm) -> None:
    org = await crm.org()
    first = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, phone="+55 11 8765-4321", name="Ana",
                                channel=r.CHANNEL_WHATSAPP),
        metadata=crm.metadata,
    )
    second = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, phone="+55 11 98765-4321",
                                whatsapp_jid="551187654321@s.whatsapp.net", email="ana@example.com"),
        metadata=crm.metadata,
    )
    assert first.created and not second.created
    assert second.contact.contact_id == first.contact.contact_id
    contact = second.contact
    assert contact.phone_e164 == "+5511987654321"
    assert contact.name == "Ana"  # an empty name leaves the current one
    assert contact.email == "ana@example.com"
    assert list(contact.whatsapp_jids) == ["551187654321@s.whatsapp.net"]  # kept exactly as received
    assert contact.channel == r.CHANNEL_WHATSAPP
    found = await crm.read.FindContactByPhone(
        rd.FindContactByPhoneRequest(organization_id=org, phone="(11) 8765-4321"), metadata=crm.metadata
    )
    assert found.found and found.contact.contact_id == contact.contact_id
    assert found.phone_e164 == "+5511987654321"


async def test_a_contact_known_by_a_lid_is_found_by_it_again(crm: Crm) -> None:
    org = await crm.org()
    first = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, whatsapp_jid="98765432101234@lid"), metadata=crm.metadata
    )
    again = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, whatsapp_jid="98765432101234@lid", name="Bruno"),
        metadata=crm.metadata,
    )
    assert first.created and not again.created
    assert again.contact.contact_id == first.contact.contact_id
    assert again.contact.phone_e164 == ""
    assert again.contact.name == "Bruno"


async def test_a_phone_jid_alone_gives_the_contact_its_phone(crm: Crm) -> None:
    org = await crm.org()
    created = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, whatsapp_jid="5521998765432@s.whatsapp.net"),
        metadata=crm.metadata,
    )
    assert created.contact.phone_e164 == "+5521998765432"


async def test_find_by_phone_misses_without_an_error(crm: Crm) -> None:
    org = await crm.org()
    missed = await crm.read.FindContactByPhone(
        rd.FindContactByPhoneRequest(organization_id=org, phone=random_phone()), metadata=crm.metadata
    )
    assert not missed.found
    assert missed.phone_e164.startswith("+5511")


@pytest.mark.parametrize(
    ("request_fields", "problem"),
    [
        ({"phone": "12-34"}, "phone"),
        ({"phone": "+55 11 1234"}, "phone"),
        ({}, "needs a phone"),
        ({"whatsapp_jid": "not-a-jid"}, "JID"),
        ({"phone": "+5511987650000", "cpf": "123.456.789-00"}, "CPF"),
        ({"phone": "+5511987650000", "email": "ana at example"}, "e-mail"),
    ],
)
async def test_malformed_contacts_are_refused_and_nothing_is_written(
    crm: Crm, owner_engine: AsyncEngine, request_fields: dict[str, str], problem: str
) -> None:
    org = await crm.org()
    before = await row_counts(owner_engine, org)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.UpsertContact(wr.UpsertContactRequest(organization_id=org, **request_fields),
                                      metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert problem in caught.value.details()
    assert await row_counts(owner_engine, org) == before


async def test_a_contact_in_an_unknown_organisation_is_not_found(crm: Crm) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.UpsertContact(
            wr.UpsertContactRequest(organization_id=str(uuid.uuid4()), phone=random_phone()), metadata=crm.metadata
        )
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


async def test_an_unknown_contact_is_not_found(crm: Crm) -> None:
    org = await crm.org()
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.read.GetContact(rd.GetContactRequest(organization_id=org, contact_id=str(uuid.uuid4())),
                                  metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    assert "not found" in caught.value.details()


async def test_opt_out_block_and_human_control_are_flags_with_a_timeline(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    opted = await crm.write.SetContactOptOut(
        wr.SetContactOptOutRequest(organization_id=org, contact_id=contact, opted_out=True, reason="PARE"),
        metadata=crm.metadata,
    )
    assert opted.contact.opted_out and opted.contact.HasField("opted_out_at")
    blocked = await crm.write.SetContactBlocked(
        wr.SetContactBlockedRequest(organization_id=org, contact_id=contact, blocked=True), metadata=crm.metadata
    )
    assert blocked.contact.blocked
    taken = await crm.write.SetHumanControl(
        wr.SetHumanControlRequest(organization_id=org, contact_id=contact, human_in_control=True,
                                  reason="pediu atendente", actor=r.Actor(kind=r.ACTOR_KIND_PERSON, name="Carla")),
        metadata=crm.metadata,
    )
    assert taken.contact.human_in_control
    timeline = await crm.read.ListActivities(rd.ListActivitiesRequest(organization_id=org, contact_id=contact),
                                             metadata=crm.metadata)
    kinds = [a.kind for a in timeline.activities]
    assert kinds == [r.ACTIVITY_KIND_HUMAN_CONTROL_CHANGED, r.ACTIVITY_KIND_OTHER, r.ACTIVITY_KIND_OPT_OUT_CHANGED]
    assert timeline.activities[0].actor.name == "Carla"


async def test_anonymising_erases_the_person_and_keeps_the_record(crm: Crm) -> None:
    org = await crm.org()
    phone = random_phone()
    contact = await crm.contact(org, phone, name="Ana", email="ana@example.com", cpf="529.982.247-25")
    await crm.write.SaveLeadNote(
        wr.SaveLeadNoteRequest(organization_id=org, contact_id=contact, key="preferencias", body="prefere manhãs"),
        metadata=crm.metadata,
    )
    erased = await crm.write.AnonymizeContact(
        wr.AnonymizeContactRequest(organization_id=org, contact_id=contact, reason="pedido do titular"),
        metadata=crm.metadata,
    )
    assert erased.contact.anonymized
    person = erased.contact
    assert (person.phone_e164, person.name, person.email, person.cpf) == ("", "", "", "")
    assert list(person.whatsapp_jids) == []
    notes = await crm.read.ListLeadNotes(rd.ListLeadNotesRequest(organization_id=org, contact_id=contact),
                                         metadata=crm.metadata)
    assert list(notes.notes) == []
    found = await crm.read.FindContactByPhone(rd.FindContactByPhoneRequest(organization_id=org, phone=phone),
                                              metadata=crm.metadata)
    assert not found.found


async def test_list_contacts_finds_by_name_or_phone_digits(crm: Crm) -> None:
    org = await crm.org()
    await crm.contact(org, "+5511987001122", name="Mariana Souza")
    await crm.contact(org, "+5511987003344", name="Pedro Lima")
    by_name = await crm.read.ListContacts(rd.ListContactsRequest(organization_id=org, query="mariana"),
                                          metadata=crm.metadata)
    assert [c.name for c in by_name.contacts] == ["Mariana Souza"]
    by_phone = await crm.read.ListContacts(rd.ListContactsRequest(organization_id=org, query="8700-3344"),
                                           metadata=crm.metadata)
    assert [c.name for c in by_phone.contacts] == ["Pedro Lima"]


async def test_concurrent_upserts_of_one_phone_make_one_contact(crm: Crm) -> None:
    org = await crm.org()
    spellings = ["+55 11 8765-1234", "+55 11 98765-1234", "(11) 98765-1234", "5511987651234"] * 3
    results = await asyncio.gather(*(
        crm.write.UpsertContact(wr.UpsertContactRequest(organization_id=org, phone=phone), metadata=crm.metadata)
        for phone in spellings
    ))
    assert len({result.contact.contact_id for result in results}) == 1
    assert sum(result.created for result in results) == 1


async def test_fill_empty_only_never_overwrites_a_recorded_name_or_legal_basis(crm: Crm) -> None:
    org = await crm.org()
    phone = random_phone()
    new = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, phone=phone, name="Carla (push)",
                                legal_basis=r.LEGAL_BASIS_CONTACT_INITIATED, fill_empty_only=True),
        metadata=crm.metadata,
    )
    assert new.created  # a new contact takes what the message told
    assert new.contact.name == "Carla (push)" and new.contact.legal_basis == r.LEGAL_BASIS_CONTACT_INITIATED
    await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, phone=phone, name="Carla Souza",
                                legal_basis=r.LEGAL_BASIS_CONSENT),
        metadata=crm.metadata,
    )
    again = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, phone=phone, name="Carlinha",
                                legal_basis=r.LEGAL_BASIS_CONTACT_INITIATED, fill_empty_only=True,
                                email="carla@example.com"),
        metadata=crm.metadata,
    )
    assert again.contact.name == "Carla Souza"  # the business's name stays
    assert again.contact.legal_basis == r.LEGAL_BASIS_CONSENT
    assert again.contact.email == "carla@example.com"  # other fields behave as always
    nameless = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, whatsapp_jid=f"{uuid.uuid4().int % 10**14}@lid"),
        metadata=crm.metadata,
    )
    filled = await crm.write.UpsertContact(
        wr.UpsertContactRequest(organization_id=org, whatsapp_jid=nameless.contact.whatsapp_jids[0], name="Davi",
                                legal_basis=r.LEGAL_BASIS_CONTACT_INITIATED, fill_empty_only=True),
        metadata=crm.metadata,
    )
    assert filled.contact.contact_id == nameless.contact.contact_id
    assert filled.contact.name == "Davi" and filled.contact.legal_basis == r.LEGAL_BASIS_CONTACT_INITIATED
