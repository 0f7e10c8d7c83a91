"""The agenda process of the running mesh, on the real clock, as its callers use it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import grpc

from balcao.agenda.v1 import agenda_read_pb2 as read
from balcao.agenda.v1 import agenda_read_pb2_grpc, agenda_write_pb2_grpc
from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2 as write
from tests.agenda.support import every_day, local_start
from tests.support.mesh import RunningMesh


def _signed(mesh: RunningMesh, caller: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {mesh.token(caller)}"),)


async def test_operador_books_projection_and_seguranca_read_it_back(mesh: RunningMesh) -> None:
    org, contact = str(uuid.uuid4()), str(uuid.uuid4())
    day = (datetime.now(ZoneInfo("America/Sao_Paulo")) + timedelta(days=3)).date()
    async with grpc.aio.insecure_channel(mesh.addr("agenda")) as channel:
        writer = agenda_write_pb2_grpc.AgendaWriteServiceStub(channel)
        reader = agenda_read_pb2_grpc.AgendaReadServiceStub(channel)
        resource = (
            await writer.UpsertResource(
                write.UpsertResourceRequest(
                    organization_id=org,
                    resource=pb.Resource(
                        name="Dra. Ana Souza",
                        time_zone="America/Sao_Paulo",
                        business_hours=every_day("08:00", "18:00"),
                        slot_minutes=30,
                        capacity=1,
                        active=True,
                    ),
                ),
                metadata=_signed(mesh, "gateway"),
            )
        ).resource
        booked = await writer.Book(
            write.BookRequest(
                organization_id=org,
                idempotency_key="evt-1:book",
                contact_id=contact,
                resource_id=resource.resource_id,
                start=local_start(f"{day.isoformat()}T10:00", "America/Sao_Paulo"),
            ),
            metadata=_signed(mesh, "operador"),
        )
        ten = datetime.combine(day, time(10), tzinfo=ZoneInfo("America/Sao_Paulo"))
        assert booked.appointment.start_time.ToDatetime(UTC) == ten
        assert booked.appointment.labels.start_iso == ten.isoformat()

        listed = await reader.ListContactAppointments(
            read.ListContactAppointmentsRequest(organization_id=org, contact_id=contact),
            metadata=_signed(mesh, "projection"),
        )
        assert [a.appointment_id for a in listed.appointments] == [booked.appointment.appointment_id]
        assert abs(listed.as_of.ToDatetime(UTC) - datetime.now(UTC)) < timedelta(minutes=5)

        evidence = read.ListConfirmedFutureBookingsRequest(organization_id=org, contact_id=contact)
        assert not (await reader.ListConfirmedFutureBookings(evidence, metadata=_signed(mesh, "seguranca"))).bookings
        await writer.Confirm(
            write.ConfirmRequest(organization_id=org, appointment_id=booked.appointment.appointment_id),
            metadata=_signed(mesh, "operador"),
        )
        confirmed = await reader.ListConfirmedFutureBookings(evidence, metadata=_signed(mesh, "seguranca"))
        assert [b.appointment_id for b in confirmed.bookings] == [booked.appointment.appointment_id]
