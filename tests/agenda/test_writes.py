"""Reschedule, Cancel, Confirm, SetVideoCallStatus, the upserts, and idempotency replays."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import grpc
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.agenda.v1 import agenda_read_pb2 as read
from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2 as write
from tests.agenda.support import AgendaClient, codes, count_rows, instant_start, local_start

NOW = datetime(2024, 11, 1, tzinfo=UTC)
TUESDAY_1430 = datetime(2024, 11, 5, 17, 30, tzinfo=UTC)
SP = "America/Sao_Paulo"


async def _booked(agenda: AgendaClient, org: uuid.UUID, **kw) -> tuple[pb.Resource, pb.Appointment]:
    resource = await agenda.resource(org)
    reply = await agenda.book(org, resource.resource_id, instant_start(TUESDAY_1430), **kw)
    return resource, reply.appointment


# -- Reschedule --------------------------------------------------------------------------------


async def test_reschedule_returns_the_new_and_the_previous_interval_with_labels(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(NOW)
    contact = uuid.uuid4()
    resource, booked = await _booked(agenda, org, contact_id=contact)

    reply = await agenda.write.Reschedule(
        write.RescheduleRequest(
            organization_id=str(org),
            appointment_id=booked.appointment_id,
            contact_id=str(contact),
            new_start=local_start("2024-11-07T10:00", SP),
            duration_minutes=60,
            confirm=True,
            reason="cliente pediu",
        ),
        metadata=agenda.metadata,
    )

    moved = reply.appointment
    assert moved.appointment_id == booked.appointment_id
    assert moved.labels.start_label == "quinta-feira, 7 de novembro de 2024, 10:00 (horário de Brasília)"
    assert moved.labels.time_range_label == "10:00–11:00"
    assert moved.start_time.ToDatetime(UTC) == datetime(2024, 11, 7, 13, tzinfo=UTC)
    assert moved.status == pb.APPOINTMENT_STATUS_CONFIRMED
    assert reply.previous.labels.start_label == "terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)"
    assert reply.previous.start_time == booked.start_time
    # The old slot is free again.
    again = await agenda.book(org, resource.resource_id, instant_start(TUESDAY_1430))
    assert again.HasField("appointment")


async def test_reschedule_refusals_leave_the_old_time_standing(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(NOW)
    resource, booked = await _booked(agenda, org)
    other = await agenda.book(org, resource.resource_id, instant_start(TUESDAY_1430 + timedelta(hours=1)))

    def move(start: pb.TimePoint, **kw) -> write.RescheduleRequest:
        return write.RescheduleRequest(
            organization_id=str(org), appointment_id=booked.appointment_id, new_start=start, **kw
        )

    cases = [
        (move(instant_start(other.appointment.start_time.ToDatetime(UTC))), "REFUSAL_CODE_SLOT_TAKEN"),
        (move(local_start("2018-11-04T00:30", SP)), "REFUSAL_CODE_NONEXISTENT_LOCAL_TIME"),
        (move(local_start("2024-10-01T10:00", SP)), "REFUSAL_CODE_IN_THE_PAST"),
        (move(local_start("2024-11-07T10:00", SP), resource_id=str(uuid.uuid4())), "REFUSAL_CODE_UNKNOWN_RESOURCE"),
        (move(local_start("2024-11-07T10:00", SP), contact_id=str(uuid.uuid4())), "REFUSAL_CODE_UNKNOWN_APPOINTMENT"),
    ]
    for request, expected in cases:
        reply = await agenda.write.Reschedule(request, metadata=agenda.metadata)
        assert codes(reply.refusal) == expected
        assert not reply.HasField("previous")

    unchanged = await agenda.read.GetAppointment(
        read.GetAppointmentRequest(organization_id=str(org), appointment_id=booked.appointment_id),
        metadata=agenda.metadata,
    )
    assert unchanged.appointment.start_time == booked.start_time


async def test_reschedule_within_its_own_slot_is_not_a_conflict(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(NOW)
    _, booked = await _booked(agenda, org)
    reply = await agenda.write.Reschedule(
        write.RescheduleRequest(
            organization_id=str(org),
            appointment_id=booked.appointment_id,
            new_start=instant_start(TUESDAY_1430),
            duration_minutes=60,
        ),
        metadata=agenda.metadata,
    )
    assert reply.appointment.labels.time_range_label == "14:30–15:30"


# -- Cancel, Confirm, video call ---------------------------------------------------------------


async def test_cancel_and_confirm_lifecycle(agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine) -> None:
    at(NOW)
    _, booked = await _booked(agenda, org)
    request = {"organization_id": str(org), "appointment_id": booked.appointment_id}

    confirmed = await agenda.write.Confirm(write.ConfirmRequest(**request), metadata=agenda.metadata)
    assert confirmed.appointment.status == pb.APPOINTMENT_STATUS_CONFIRMED
    twice = await agenda.write.Confirm(write.ConfirmRequest(**request), metadata=agenda.metadata)
    assert twice.appointment.status == pb.APPOINTMENT_STATUS_CONFIRMED

    cancelled = await agenda.write.Cancel(
        write.CancelRequest(**request, reason="viagem", cancelled_by="operador"), metadata=agenda.metadata
    )
    assert cancelled.appointment.status == pb.APPOINTMENT_STATUS_CANCELLED
    assert cancelled.appointment.cancellation_reason == "viagem"
    assert cancelled.appointment.labels.start_label.startswith("terça-feira, 5 de novembro de 2024, 14:30")

    again = await agenda.write.Cancel(write.CancelRequest(**request), metadata=agenda.metadata)
    assert codes(again.refusal) == "REFUSAL_CODE_ALREADY_CANCELLED"
    late = await agenda.write.Confirm(write.ConfirmRequest(**request), metadata=agenda.metadata)
    assert codes(late.refusal) == "REFUSAL_CODE_ALREADY_CANCELLED"

    async with superuser.connect() as conn:
        history = (
            await conn.execute(
                sa.text(
                    "SELECT change, actor, reason FROM agenda.appointment_history "
                    "WHERE organization_id = :org ORDER BY change_id"
                ),
                {"org": org},
            )
        ).all()
    assert [tuple(h) for h in history] == [
        ("booked", "operador", ""),
        ("confirmed", "", ""),
        ("cancelled", "operador", "viagem"),
    ]


async def test_an_appointment_that_already_happened_cannot_be_cancelled_or_confirmed(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(NOW)
    _, booked = await _booked(agenda, org)
    at(TUESDAY_1430 + timedelta(hours=1))
    request = {"organization_id": str(org), "appointment_id": booked.appointment_id}
    cancel = await agenda.write.Cancel(write.CancelRequest(**request), metadata=agenda.metadata)
    confirm = await agenda.write.Confirm(write.ConfirmRequest(**request), metadata=agenda.metadata)
    assert codes(cancel.refusal) == codes(confirm.refusal) == "REFUSAL_CODE_IN_THE_PAST"


async def test_video_call_status_and_link(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(NOW)
    _, booked = await _booked(agenda, org)
    ready = await agenda.write.SetVideoCallStatus(
        write.SetVideoCallStatusRequest(
            organization_id=str(org),
            appointment_id=booked.appointment_id,
            status=pb.VIDEO_CALL_STATUS_READY,
            url="https://meet.google.com/abc-defg-hij",
        ),
        metadata=agenda.metadata,
    )
    assert ready.appointment.video_call_status == pb.VIDEO_CALL_STATUS_READY
    assert ready.appointment.video_call_url == "https://meet.google.com/abc-defg-hij"
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.write.SetVideoCallStatus(
            write.SetVideoCallStatusRequest(
                organization_id=str(org), appointment_id=booked.appointment_id, status=pb.VIDEO_CALL_STATUS_READY
            ),
            metadata=agenda.metadata,
        )
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "url is required" in (error.value.details() or "")


# -- Upserts -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"time_zone": "Horário de Brasília"}, "resource.time_zone: 'Horário de Brasília' is not an IANA time zone"),
        ({"time_zone": ""}, "resource.time_zone is required"),
        ({"capacity": 0}, "resource.capacity must be at least 1"),
        ({"slot_minutes": 0}, "resource.slot_minutes must be at least 1"),
        ({"name": " "}, "resource.name is required"),
        ({"hours": ("18:00", "09:00")}, "closes (09:00) must be after opens (18:00)"),
        ({"hours": ("9h", "18h")}, "is not a time of day as HH:MM"),
        ({"service_ids": ["not-a-uuid"]}, "resource.service_ids[0] must be a UUID"),
        ({"service_ids": ["00000000-0000-4000-8000-000000000009"]}, "no such service"),
    ],
)
async def test_an_invalid_resource_is_refused_naming_the_field(
    agenda: AgendaClient, org: uuid.UUID, superuser: AsyncEngine, change: dict, message: str
) -> None:
    resource = pb.Resource(name="Dra. Ana", time_zone=SP, slot_minutes=30, capacity=1, active=True)
    for field, value in change.items():
        if field == "hours":
            resource.business_hours.weekly.add(weekday=pb.WEEKDAY_MONDAY, opens=value[0], closes=value[1])
        elif field == "service_ids":
            resource.service_ids.extend(value)
        else:
            setattr(resource, field, value)
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.write.UpsertResource(
            write.UpsertResourceRequest(organization_id=str(org), resource=resource), metadata=agenda.metadata
        )
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in (error.value.details() or "")
    assert await count_rows(superuser, "resources", org) == 0


async def test_upsert_replaces_a_resource_and_reads_return_it(agenda: AgendaClient, org: uuid.UUID) -> None:
    created = await agenda.resource(org, name="Sala 1")
    replaced = created.__deepcopy__()
    replaced.name = "Sala Azul"
    replaced.min_notice_minutes = 60
    reply = await agenda.write.UpsertResource(
        write.UpsertResourceRequest(organization_id=str(org), resource=replaced), metadata=agenda.metadata
    )
    assert not reply.created
    assert reply.resource.resource_id == created.resource_id
    got = await agenda.read.GetResource(
        read.GetResourceRequest(organization_id=str(org), resource_id=created.resource_id), metadata=agenda.metadata
    )
    assert got.resource.name == "Sala Azul"
    assert got.resource.min_notice_minutes == 60
    assert list(got.resource.business_hours.weekly) == list(created.business_hours.weekly)
    inactive = await agenda.resource(org, name="Antiga", active=False)
    listed = await agenda.read.ListResources(
        read.ListResourcesRequest(organization_id=str(org)), metadata=agenda.metadata
    )
    assert [r.name for r in listed.resources] == ["Sala Azul"]
    everything = await agenda.read.ListResources(
        read.ListResourcesRequest(organization_id=str(org), include_inactive=True), metadata=agenda.metadata
    )
    assert [r.resource_id for r in everything.resources] == [inactive.resource_id, created.resource_id]


async def test_capacity_cannot_drop_below_the_bookings_already_sharing_a_moment(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(NOW)
    resource = await agenda.resource(org, capacity=3)
    for _ in range(2):
        await agenda.book(org, resource.resource_id, instant_start(TUESDAY_1430))
    lowered = resource.__deepcopy__()
    lowered.capacity = 1
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.write.UpsertResource(
            write.UpsertResourceRequest(organization_id=str(org), resource=lowered), metadata=agenda.metadata
        )
    assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    lowered.capacity = 2
    reply = await agenda.write.UpsertResource(
        write.UpsertResourceRequest(organization_id=str(org), resource=lowered), metadata=agenda.metadata
    )
    assert reply.resource.capacity == 2
    full = await agenda.book(org, resource.resource_id, instant_start(TUESDAY_1430))
    assert codes(full.refusal) == "REFUSAL_CODE_SLOT_TAKEN"


async def test_a_resource_lowered_to_capacity_one_is_guarded_by_the_exclusion_constraint(
    agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine
) -> None:
    at(NOW)
    resource = await agenda.resource(org, capacity=2)
    await agenda.book(org, resource.resource_id, instant_start(TUESDAY_1430))
    lowered = resource.__deepcopy__()
    lowered.capacity = 1
    await agenda.write.UpsertResource(
        write.UpsertResourceRequest(organization_id=str(org), resource=lowered), metadata=agenda.metadata
    )
    async with superuser.connect() as conn:
        flags = (
            (
                await conn.execute(
                    sa.text("SELECT exclusive FROM agenda.calendar_appointments WHERE organization_id = :org"),
                    {"org": org},
                )
            )
            .scalars()
            .all()
        )
    assert flags == [True]


async def test_services_are_created_listed_and_replaced(agenda: AgendaClient, org: uuid.UUID) -> None:
    created = await agenda.write.UpsertService(
        write.UpsertServiceRequest(
            organization_id=str(org),
            service=pb.BookableService(name="Limpeza de pele", duration_minutes=45, active=True),
        ),
        metadata=agenda.metadata,
    )
    assert created.created
    service = created.service.__deepcopy__()
    service.active = False
    replaced = await agenda.write.UpsertService(
        write.UpsertServiceRequest(organization_id=str(org), service=service), metadata=agenda.metadata
    )
    assert not replaced.created and not replaced.service.active
    active = await agenda.read.ListServices(
        read.ListServicesRequest(organization_id=str(org)), metadata=agenda.metadata
    )
    assert list(active.services) == []
    every = await agenda.read.ListServices(
        read.ListServicesRequest(organization_id=str(org), include_inactive=True), metadata=agenda.metadata
    )
    assert [s.name for s in every.services] == ["Limpeza de pele"]


# -- idempotency -------------------------------------------------------------------------------


async def test_the_same_key_twice_returns_the_first_result_and_writes_nothing_new(
    agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine
) -> None:
    at(NOW)
    resource = await agenda.resource(org)
    contact = uuid.uuid4()
    first = await agenda.book(
        org, resource.resource_id, instant_start(TUESDAY_1430), contact_id=contact, idempotency_key="evt-1:book"
    )
    # A retry, even one racing another retry, gets the stored answer.
    replays = await asyncio.gather(
        *(
            agenda.book(
                org, resource.resource_id, instant_start(TUESDAY_1430), contact_id=contact, idempotency_key="evt-1:book"
            )
            for _ in range(3)
        )
    )
    for replay in replays:
        assert replay.replayed is True
        assert replay.appointment == first.appointment
    assert first.replayed is False
    assert await count_rows(superuser, "calendar_appointments", org) == 1
    assert await count_rows(superuser, "appointment_history", org) == 1


async def test_a_refusal_is_replayed_as_a_refusal(
    agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine
) -> None:
    at(NOW)
    resource, booked = await _booked(agenda, org)
    refused = await agenda.book(org, resource.resource_id, instant_start(TUESDAY_1430), idempotency_key="evt-2:book")
    assert codes(refused.refusal) == "REFUSAL_CODE_SLOT_TAKEN"
    await agenda.write.Cancel(
        write.CancelRequest(organization_id=str(org), appointment_id=booked.appointment_id), metadata=agenda.metadata
    )
    # The slot is free now, but the key already has its answer.
    replay = await agenda.book(org, resource.resource_id, instant_start(TUESDAY_1430), idempotency_key="evt-2:book")
    assert replay.replayed and replay.refusal == refused.refusal
    assert await count_rows(superuser, "calendar_appointments", org) == 1


async def test_cancel_replays_and_a_key_reused_by_another_rpc_is_invalid(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(NOW)
    _, booked = await _booked(agenda, org)
    cancel = write.CancelRequest(
        organization_id=str(org), appointment_id=booked.appointment_id, idempotency_key="evt-3"
    )
    first = await agenda.write.Cancel(cancel, metadata=agenda.metadata)
    second = await agenda.write.Cancel(cancel, metadata=agenda.metadata)
    assert first.appointment.status == pb.APPOINTMENT_STATUS_CANCELLED
    assert second.replayed and second.appointment == first.appointment  # not ALREADY_CANCELLED
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.write.Confirm(
            write.ConfirmRequest(
                organization_id=str(org), appointment_id=booked.appointment_id, idempotency_key="evt-3"
            ),
            metadata=agenda.metadata,
        )
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "already used by Cancel" in (error.value.details() or "")
