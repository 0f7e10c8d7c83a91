"""The owner's calendar view: ListAppointments filters and pages, GetAppointment by contact."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import grpc
import pytest

from balcao.agenda.v1 import agenda_read_pb2 as read
from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2 as write
from tests.agenda.support import AgendaClient, instant_start, ts

MONDAY_NOON = datetime(2024, 11, 4, 15, tzinfo=UTC)


async def test_list_appointments_filters_and_pages_in_start_order(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    ana = await agenda.resource(org, name="Dra. Ana")
    bia = await agenda.resource(org, name="Dra. Bia")
    contact = uuid.uuid4()
    starts = [MONDAY_NOON + timedelta(hours=h) for h in range(5)]
    ids = []
    for n, start in enumerate(starts):
        reply = await agenda.book(org, ana.resource_id, instant_start(start), contact_id=contact, confirm=n % 2 == 0)
        ids.append(reply.appointment.appointment_id)
    other = await agenda.book(org, bia.resource_id, instant_start(starts[0]))

    pages, token = [], ""
    while True:
        page = await agenda.read.ListAppointments(
            read.ListAppointmentsRequest(
                organization_id=str(org), resource_id=ana.resource_id, page_size=2, page_token=token
            ),
            metadata=agenda.metadata,
        )
        pages.append([a.appointment_id for a in page.appointments])
        token = page.next_page_token
        if not token:
            break
    assert pages == [ids[0:2], ids[2:4], ids[4:5]]

    confirmed = await agenda.read.ListAppointments(
        read.ListAppointmentsRequest(organization_id=str(org), statuses=[pb.APPOINTMENT_STATUS_CONFIRMED]),
        metadata=agenda.metadata,
    )
    assert [a.appointment_id for a in confirmed.appointments] == [ids[0], ids[2], ids[4]]

    window = pb.TimeRange(
        start_time=ts(starts[1] + timedelta(minutes=10)), end_time=ts(starts[2] + timedelta(minutes=1))
    )
    overlapping = await agenda.read.ListAppointments(
        read.ListAppointmentsRequest(organization_id=str(org), overlapping=window), metadata=agenda.metadata
    )
    assert [a.appointment_id for a in overlapping.appointments] == [ids[1], ids[2]]

    by_contact = await agenda.read.ListAppointments(
        read.ListAppointmentsRequest(organization_id=str(org), contact_id=other.appointment.contact_id),
        metadata=agenda.metadata,
    )
    assert [a.appointment_id for a in by_contact.appointments] == [other.appointment.appointment_id]

    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.read.ListAppointments(
            read.ListAppointmentsRequest(organization_id=str(org), page_token="bm90IG91cnM="), metadata=agenda.metadata
        )
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_get_appointment_for_another_contact_is_not_found(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    resource = await agenda.resource(org)
    booked = await agenda.book(org, resource.resource_id, instant_start(MONDAY_NOON))
    request = read.GetAppointmentRequest(
        organization_id=str(org), appointment_id=booked.appointment.appointment_id, contact_id=str(uuid.uuid4())
    )
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.read.GetAppointment(request, metadata=agenda.metadata)
    assert error.value.code() == grpc.StatusCode.NOT_FOUND
    request.contact_id = booked.appointment.contact_id
    found = await agenda.read.GetAppointment(request, metadata=agenda.metadata)
    assert found.appointment.appointment_id == booked.appointment.appointment_id
    # Cancelling with the wrong contact is refused the same way: another contact's booking is never revealed.
    refused = await agenda.write.Cancel(
        write.CancelRequest(
            organization_id=str(org), appointment_id=booked.appointment.appointment_id, contact_id=str(uuid.uuid4())
        ),
        metadata=agenda.metadata,
    )
    assert pb.RefusalCode.Name(refused.refusal.code) == "REFUSAL_CODE_UNKNOWN_APPOINTMENT"
