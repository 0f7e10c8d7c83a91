"""Seed 000: the contact's appointments (cap of five, truncation) and the reviewer's evidence."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2 as write
from tests.agenda.support import AgendaClient, instant_start

MONDAY = datetime(2024, 11, 4, 12, tzinfo=UTC)  # 09:00 in São Paulo


async def _book_days(
    agenda: AgendaClient, org: uuid.UUID, resource_id: str, contact: uuid.UUID, days: int, **kw
) -> list:
    replies = []
    for day in range(days):
        reply = await agenda.book(
            org, resource_id, instant_start(MONDAY + timedelta(days=day, hours=2)), contact_id=contact, **kw
        )
        assert reply.HasField("appointment"), reply
        replies.append(reply.appointment)
    return replies


async def test_at_most_five_with_the_truncation_flag_and_the_total(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(MONDAY)
    resource = await agenda.resource(org)
    contact = uuid.uuid4()
    booked = await _book_days(agenda, org, resource.resource_id, contact, 7)

    reply = await agenda.contact_appointments(org, contact, as_of=MONDAY)

    assert [a.appointment_id for a in reply.appointments] == [a.appointment_id for a in booked[:5]]
    assert reply.truncated is True
    assert reply.total_count == 7
    assert reply.as_of.ToDatetime(UTC) == MONDAY
    # A larger limit is clamped to seed 000's five; a smaller one is honoured.
    assert len((await agenda.contact_appointments(org, contact, as_of=MONDAY, limit=50)).appointments) == 5
    two = await agenda.contact_appointments(org, contact, as_of=MONDAY, limit=2)
    assert (len(two.appointments), two.truncated, two.total_count) == (2, True, 7)


async def test_exactly_five_is_not_truncated(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(MONDAY)
    resource = await agenda.resource(org)
    contact = uuid.uuid4()
    await _book_days(agenda, org, resource.resource_id, contact, 5)
    reply = await agenda.contact_appointments(org, contact, as_of=MONDAY)
    assert (len(reply.appointments), reply.truncated, reply.total_count) == (5, False, 5)


async def test_each_appointment_carries_local_time_iso_place_and_meet_status(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(MONDAY)
    resource = await agenda.resource(org, video_call=pb.VIDEO_CALL_POLICY_ALWAYS)
    contact = uuid.uuid4()
    await agenda.book(
        org, resource.resource_id, instant_start(datetime(2024, 11, 5, 17, 30, tzinfo=UTC)), contact_id=contact
    )

    (appointment,) = (await agenda.contact_appointments(org, contact, as_of=MONDAY)).appointments

    assert appointment.labels.start_label == "terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)"
    assert appointment.labels.start_iso == "2024-11-05T14:30:00-03:00"
    assert appointment.time_zone == "America/Sao_Paulo"
    assert appointment.place.name == "Clínica Centro, sala 3"
    assert appointment.place.address == "Rua A, 1"
    assert appointment.video_call_status == pb.VIDEO_CALL_STATUS_PENDING


async def test_cancelled_and_ended_appointments_are_left_out(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(MONDAY)
    resource = await agenda.resource(org)
    contact = uuid.uuid4()
    monday, tuesday, wednesday = await _book_days(agenda, org, resource.resource_id, contact, 3)
    await agenda.write.Cancel(
        write.CancelRequest(organization_id=str(org), appointment_id=tuesday.appointment_id, reason="imprevisto"),
        metadata=agenda.metadata,
    )

    # Monday's appointment runs 11:00–11:30 UTC: still listed while it lasts, gone once it ended.
    during = await agenda.contact_appointments(org, contact, as_of=MONDAY + timedelta(hours=2, minutes=15))
    after = await agenda.contact_appointments(org, contact, as_of=MONDAY + timedelta(hours=2, minutes=30))

    assert [a.appointment_id for a in during.appointments] == [monday.appointment_id, wednesday.appointment_id]
    assert [a.appointment_id for a in after.appointments] == [wednesday.appointment_id]
    assert (after.truncated, after.total_count) == (False, 1)


async def test_another_contacts_appointments_never_appear(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(MONDAY)
    resource = await agenda.resource(org)
    mine, theirs = uuid.uuid4(), uuid.uuid4()
    await _book_days(agenda, org, resource.resource_id, theirs, 2, confirm=True)
    assert not (await agenda.contact_appointments(org, mine, as_of=MONDAY)).appointments
    assert not (await agenda.evidence(org, mine, as_of=MONDAY)).bookings


async def test_the_evidence_is_only_confirmed_future_bookings(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(MONDAY)
    resource = await agenda.resource(org)
    contact = uuid.uuid4()
    confirmed = await _book_days(agenda, org, resource.resource_id, contact, 1, confirm=True)
    pending = await agenda.book(
        org, resource.resource_id, instant_start(MONDAY + timedelta(days=1)), contact_id=contact
    )
    assert pending.appointment.status == pb.APPOINTMENT_STATUS_PENDING

    evidence = await agenda.evidence(org, contact, as_of=MONDAY)
    assert [b.appointment_id for b in evidence.bookings] == [confirmed[0].appointment_id]
    assert (
        evidence.bookings[0].labels.start_label == "segunda-feira, 4 de novembro de 2024, 11:00 (horário de Brasília)"
    )

    # Both count as the contact's appointments; only the confirmed one proves anything.
    listed = await agenda.contact_appointments(org, contact, as_of=MONDAY)
    assert len(listed.appointments) == 2

    # Confirming the pending one makes it evidence; once both ended, nothing is evidence.
    await agenda.write.Confirm(
        write.ConfirmRequest(organization_id=str(org), appointment_id=pending.appointment.appointment_id),
        metadata=agenda.metadata,
    )
    assert len((await agenda.evidence(org, contact, as_of=MONDAY)).bookings) == 2
    assert not (await agenda.evidence(org, contact, as_of=MONDAY + timedelta(days=2))).bookings


async def test_without_as_of_the_servers_clock_decides_what_is_future(
    agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine
) -> None:
    at(MONDAY)
    resource = await agenda.resource(org)
    contact = uuid.uuid4()
    await _book_days(agenda, org, resource.resource_id, contact, 2, confirm=True)
    at(MONDAY + timedelta(days=1))
    reply = await agenda.contact_appointments(org, contact)
    assert reply.as_of.ToDatetime(UTC) == MONDAY + timedelta(days=1)
    assert len(reply.appointments) == 1
    assert len((await agenda.evidence(org, contact)).bookings) == 1
