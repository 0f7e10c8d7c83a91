"""Book through gRPC: what is stored and returned, every business refusal, and DST local times."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import grpc
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.agenda.v1 import agenda_read_pb2 as read
from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2 as write
from tests.agenda.support import (
    AgendaClient,
    codes,
    count_rows,
    instant_start,
    local_start,
    ts,
    weekdays,
)

EARLIER, LATER = pb.LOCAL_TIME_FOLD_EARLIER, pb.LOCAL_TIME_FOLD_LATER


async def test_a_booking_returns_its_labels_and_the_instants_executed(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    resource = await agenda.resource(org, video_call=pb.VIDEO_CALL_POLICY_ALWAYS)
    contact = uuid.uuid4()

    reply = await agenda.book(
        org,
        resource.resource_id,
        local_start("2024-11-05T14:30:00", "America/Sao_Paulo"),
        contact_id=contact,
        confirm=True,
        notes="primeira consulta",
        source_turn_id="turn-1",
    )

    appointment = reply.appointment
    assert not reply.replayed
    assert appointment.start_time.ToDatetime(UTC) == datetime(2024, 11, 5, 17, 30, tzinfo=UTC)
    assert appointment.end_time.ToDatetime(UTC) == datetime(2024, 11, 5, 18, 0, tzinfo=UTC)
    assert appointment.time_zone == "America/Sao_Paulo"
    assert appointment.labels.start_label == "terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)"
    assert appointment.labels.start_iso == "2024-11-05T14:30:00-03:00"
    assert appointment.labels.time_range_label == "14:30–15:00"
    assert appointment.status == pb.APPOINTMENT_STATUS_CONFIRMED
    assert appointment.place.name == "Clínica Centro, sala 3"
    assert appointment.video_call_status == pb.VIDEO_CALL_STATUS_PENDING
    assert appointment.contact_id == str(contact)
    assert appointment.resource_name == "Dra. Ana Souza"
    assert (appointment.notes, appointment.source_turn_id, appointment.booked_by) == (
        "primeira consulta",
        "turn-1",
        "operador",
    )

    stored = await agenda.read.GetAppointment(
        read.GetAppointmentRequest(organization_id=str(org), appointment_id=appointment.appointment_id),
        metadata=agenda.metadata,
    )
    assert stored.appointment == appointment


async def test_without_confirm_a_booking_is_pending_and_a_video_call_only_when_asked(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    resource = await agenda.resource(org, video_call=pb.VIDEO_CALL_POLICY_OPTIONAL)
    plain = await agenda.book(org, resource.resource_id, instant_start(datetime(2024, 11, 5, 12, tzinfo=UTC)))
    video = await agenda.book(
        org, resource.resource_id, instant_start(datetime(2024, 11, 5, 13, tzinfo=UTC)), video_call=True
    )
    assert plain.appointment.status == pb.APPOINTMENT_STATUS_PENDING
    assert plain.appointment.video_call_status == pb.VIDEO_CALL_STATUS_NONE
    assert video.appointment.video_call_status == pb.VIDEO_CALL_STATUS_PENDING


async def test_a_service_sets_the_duration_and_the_place(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    service = (
        await agenda.write.UpsertService(
            write.UpsertServiceRequest(
                organization_id=str(org),
                service=pb.BookableService(
                    name="Consulta dermatológica",
                    duration_minutes=60,
                    active=True,
                    place=pb.Place(kind=pb.PLACE_KIND_ONLINE, name="Google Meet"),
                ),
            ),
            metadata=agenda.metadata,
        )
    ).service
    resource = await agenda.resource(org, service_ids=[service.service_id])
    reply = await agenda.book(
        org, resource.resource_id, local_start("2024-11-05T09:00", "America/Sao_Paulo"), service_id=service.service_id
    )
    assert reply.appointment.service_name == "Consulta dermatológica"
    assert reply.appointment.labels.time_range_label == "09:00–10:00"
    assert reply.appointment.place.kind == pb.PLACE_KIND_ONLINE


# -- refusals ----------------------------------------------------------------------------------


async def test_business_refusals_come_back_as_data_and_write_nothing(
    agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine
) -> None:
    at(datetime(2024, 11, 4, 12, tzinfo=UTC))  # segunda-feira, 09:00 in São Paulo
    resource = await agenda.resource(
        org,
        hours=weekdays((2, "09:00", "12:00"), (3, "09:00", "12:00")),
        min_notice_minutes=120,
        booking_horizon_days=30,
    )
    inactive = await agenda.resource(org, name="Dr. Inativo", active=False)
    other_service = (
        await agenda.write.UpsertService(
            write.UpsertServiceRequest(
                organization_id=str(org), service=pb.BookableService(name="Outra coisa", active=True)
            ),
            metadata=agenda.metadata,
        )
    ).service
    picky = await agenda.resource(org, name="Dra. Exigente", service_ids=[other_service.service_id])
    plain_service = (
        await agenda.write.UpsertService(
            write.UpsertServiceRequest(
                organization_id=str(org), service=pb.BookableService(name="Consulta", active=True)
            ),
            metadata=agenda.metadata,
        )
    ).service
    sp = "America/Sao_Paulo"
    cases = {
        "REFUSAL_CODE_IN_THE_PAST": (resource.resource_id, local_start("2024-11-01T10:00", sp), {}),
        "REFUSAL_CODE_TOO_SHORT_NOTICE": (resource.resource_id, local_start("2024-11-04T10:00", sp), {}),
        "REFUSAL_CODE_BEYOND_BOOKING_HORIZON": (resource.resource_id, local_start("2025-01-07T10:00", sp), {}),
        "REFUSAL_CODE_OUTSIDE_BUSINESS_HOURS": (resource.resource_id, local_start("2024-11-05T13:00", sp), {}),
        "REFUSAL_CODE_MISALIGNED_START": (resource.resource_id, local_start("2024-11-05T10:10", sp), {}),
        "REFUSAL_CODE_UNKNOWN_RESOURCE": (str(uuid.uuid4()), local_start("2024-11-05T10:00", sp), {}),
        "REFUSAL_CODE_RESOURCE_INACTIVE": (inactive.resource_id, local_start("2024-11-05T10:00", sp), {}),
        "REFUSAL_CODE_UNKNOWN_SERVICE": (
            picky.resource_id,
            local_start("2024-11-05T10:00", sp),
            {"service_id": plain_service.service_id},
        ),
    }
    for expected, (resource_id, start, extra) in cases.items():
        reply = await agenda.book(org, resource_id, start, **extra)
        assert reply.WhichOneof("result") == "refusal", expected
        assert codes(reply.refusal) == expected
        assert reply.refusal.message_pt
    assert await count_rows(superuser, "calendar_appointments", org) == 0

    outside = await agenda.book(org, resource.resource_id, local_start("2024-11-05T13:00", sp))
    assert outside.refusal.message_pt == (
        "Terça-feira, 5 de novembro de 2024, 13:00 (horário de Brasília) fica fora do horário de atendimento "
        "de Dra. Ana Souza."
    )
    # The free slots nearest the time asked for are offered, inside the hours and on the grid.
    assert [s.labels.start_label for s in outside.refusal.alternatives] == [
        "terça-feira, 5 de novembro de 2024, 10:30 (horário de Brasília)",
        "terça-feira, 5 de novembro de 2024, 11:00 (horário de Brasília)",
        "terça-feira, 5 de novembro de 2024, 11:30 (horário de Brasília)",
    ]


async def test_a_contact_cannot_hold_two_overlapping_appointments(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    ana = await agenda.resource(org)
    bia = await agenda.resource(org, name="Dra. Bia")
    contact = uuid.uuid4()
    start = local_start("2024-11-05T10:00", "America/Sao_Paulo")
    assert (await agenda.book(org, ana.resource_id, start, contact_id=contact)).HasField("appointment")
    again = await agenda.book(org, bia.resource_id, start, contact_id=contact)
    assert codes(again.refusal) == "REFUSAL_CODE_CONTACT_ALREADY_BOOKED"


# -- DST ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "local"),
    [
        ("America/Sao_Paulo", "2018-11-04T00:30:00"),
        ("America/Sao_Paulo", "2018-11-04T00:00"),
        ("America/New_York", "2018-03-11T02:30"),
        ("Europe/Lisbon", "2018-03-25T01:00"),
    ],
)
async def test_a_local_time_skipped_by_dst_is_refused_never_shifted(
    agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine, zone: str, local: str
) -> None:
    resource = await agenda.resource(org, time_zone=zone)
    for now in (datetime(2018, 1, 1, tzinfo=UTC), datetime(2019, 1, 1, tzinfo=UTC)):
        at(now)  # even once the date is past, the refusal names the real problem
        for fold in (pb.LOCAL_TIME_FOLD_UNSPECIFIED, EARLIER, LATER):
            reply = await agenda.book(org, resource.resource_id, local_start(local, zone, fold))
            assert codes(reply.refusal) == "REFUSAL_CODE_NONEXISTENT_LOCAL_TIME"
            assert "não existe" in reply.refusal.message_pt
            assert zone in reply.refusal.message_pt
        # The zone may also come from the resource.
        reply = await agenda.book(org, resource.resource_id, local_start(local))
        assert codes(reply.refusal) == "REFUSAL_CODE_NONEXISTENT_LOCAL_TIME"
    assert await count_rows(superuser, "calendar_appointments", org) == 0


@pytest.mark.parametrize(
    ("zone", "local", "earlier", "later", "summer", "standard"),
    [
        (
            "America/Sao_Paulo",
            "2018-02-17T23:30",
            "2018-02-17T23:30:00-02:00",
            "2018-02-17T23:30:00-03:00",
            "sábado, 17 de fevereiro de 2018, 23:30 (horário de verão de Brasília)",
            "sábado, 17 de fevereiro de 2018, 23:30 (horário padrão de Brasília)",
        ),
        (
            "America/New_York",
            "2018-11-04T01:30",
            "2018-11-04T01:30:00-04:00",
            "2018-11-04T01:30:00-05:00",
            "domingo, 4 de novembro de 2018, 01:30 (horário de verão do Leste)",
            "domingo, 4 de novembro de 2018, 01:30 (horário padrão do Leste)",
        ),
        (
            "Europe/Lisbon",
            "2018-10-28T01:30",
            "2018-10-28T01:30:00+01:00",
            "2018-10-28T01:30:00+00:00",
            "domingo, 28 de outubro de 2018, 01:30 (horário de verão da Europa Ocidental)",
            "domingo, 28 de outubro de 2018, 01:30 (horário padrão da Europa Ocidental)",
        ),
    ],
)
async def test_a_repeated_local_time_is_refused_until_a_fold_picks_one_instant(
    agenda: AgendaClient,
    org: uuid.UUID,
    at,
    zone: str,
    local: str,
    earlier: str,
    later: str,
    summer: str,
    standard: str,
) -> None:
    at(datetime(2018, 1, 1, tzinfo=UTC))
    resource = await agenda.resource(org, time_zone=zone)

    ambiguous = await agenda.book(org, resource.resource_id, local_start(local, zone))
    assert codes(ambiguous.refusal) == "REFUSAL_CODE_AMBIGUOUS_LOCAL_TIME"
    # Both instants are offered, earlier first, with labels that tell them apart.
    assert [s.labels.start_iso for s in ambiguous.refusal.alternatives] == [earlier, later]
    assert [s.labels.start_label for s in ambiguous.refusal.alternatives] == [summer, standard]

    first = await agenda.book(org, resource.resource_id, local_start(local, zone, EARLIER))
    second = await agenda.book(org, resource.resource_id, local_start(local, zone, LATER))
    assert first.appointment.labels.start_iso == earlier
    assert first.appointment.labels.start_label == summer
    assert second.appointment.labels.start_iso == later
    assert second.appointment.labels.start_label == standard
    gap = second.appointment.start_time.ToDatetime(UTC) - first.appointment.start_time.ToDatetime(UTC)
    assert gap == timedelta(hours=1)

    # An instant taken from an alternative books exactly that instant.
    third = await agenda.book(
        org, resource.resource_id, instant_start(ambiguous.refusal.alternatives[1].start_time.ToDatetime(UTC))
    )
    assert codes(third.refusal) == "REFUSAL_CODE_SLOT_TAKEN"


async def test_a_booking_across_the_sao_paulo_jump_lasts_its_real_length(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(datetime(2018, 10, 1, tzinfo=UTC))
    resource = await agenda.resource(org)
    reply = await agenda.book(
        org, resource.resource_id, local_start("2018-11-03T23:30", "America/Sao_Paulo"), duration_minutes=60
    )
    labels = reply.appointment.labels
    assert labels.start_label == "sábado, 3 de novembro de 2018, 23:30 (horário de Brasília)"
    assert labels.end_label == "domingo, 4 de novembro de 2018, 01:30 (horário de verão de Brasília)"
    assert (labels.start_iso, labels.end_iso) == ("2018-11-03T23:30:00-03:00", "2018-11-04T01:30:00-02:00")
    assert labels.time_range_label == "23:30–01:30"
    executed = reply.appointment.end_time.ToDatetime(UTC) - reply.appointment.start_time.ToDatetime(UTC)
    assert executed == timedelta(hours=1)


async def test_labels_are_rendered_in_the_bookings_zone_not_the_resources(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(datetime(2018, 10, 1, tzinfo=UTC))
    resource = await agenda.resource(org, time_zone="America/Sao_Paulo")
    reply = await agenda.book(
        org, resource.resource_id, local_start("2018-12-04T14:00", "America/Sao_Paulo"), time_zone="Europe/Lisbon"
    )
    assert reply.appointment.time_zone == "Europe/Lisbon"
    assert (
        reply.appointment.labels.start_label
        == "terça-feira, 4 de dezembro de 2018, 16:00 (horário da Europa Ocidental)"
    )
    assert reply.appointment.labels.start_iso == "2018-12-04T16:00:00+00:00"


# -- invalid arguments -------------------------------------------------------------------------

RESOURCE = "00000000-0000-4000-8000-000000000001"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"organization_id": ""}, "organization_id is required"),
        ({"organization_id": "acme"}, "organization_id must be a UUID"),
        ({"contact_id": ""}, "contact_id is required"),
        ({"resource_id": ""}, "resource_id is required"),
        ({"start": pb.TimePoint()}, "start is required"),
        ({"start": local_start("amanhã às 10h", "America/Sao_Paulo")}, "not an ISO-8601 local date-time"),
        ({"start": local_start("2024-11-05T10:00-03:00", "America/Sao_Paulo")}, "without offset"),
        ({"start": local_start("2024-11-05", "America/Sao_Paulo")}, "without offset"),
        ({"start": local_start("2024-11-05T10:00", "Brasil/Sao Paulo")}, "is not an IANA time zone"),
        ({"time_zone": "GMT-3"}, "time_zone: 'GMT-3' is not an IANA time zone"),
        ({"duration_minutes": -30}, "duration_minutes must not be negative"),
        ({"duration_minutes": 24 * 60 + 1}, "duration_minutes must be at most"),
    ],
)
async def test_invalid_arguments_are_grpc_errors_and_write_nothing(
    agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine, change: dict, message: str
) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    resource = await agenda.resource(org)
    request = write.BookRequest(
        organization_id=str(org),
        idempotency_key="k-1",
        contact_id=str(uuid.uuid4()),
        resource_id=resource.resource_id,
        start=local_start("2024-11-05T10:00", "America/Sao_Paulo"),
    )
    for field, value in change.items():
        if isinstance(value, pb.TimePoint):
            request.start.CopyFrom(value)
        else:
            setattr(request, field, value)
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.write.Book(request, metadata=agenda.metadata)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in (error.value.details() or "")
    assert await count_rows(superuser, "calendar_appointments", org) == 0
    assert await count_rows(superuser, "idempotency_keys", org) == 0


async def test_an_end_before_the_start_is_an_invalid_argument(agenda: AgendaClient, org: uuid.UUID) -> None:
    request = read.CheckAvailabilityRequest(
        organization_id=str(org),
        instants=pb.TimeRange(
            start_time=ts(datetime(2024, 11, 6, tzinfo=UTC)), end_time=ts(datetime(2024, 11, 5, tzinfo=UTC))
        ),
    )
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.read.CheckAvailability(request, metadata=agenda.metadata)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "end_time must be after start_time" in (error.value.details() or "")


async def test_the_conversador_cannot_book(mesh, agenda_server: str, org: uuid.UUID) -> None:  # type: ignore[no-untyped-def]
    from balcao.agenda.v1 import agenda_write_pb2_grpc

    async with grpc.aio.insecure_channel(agenda_server) as channel:
        stub = agenda_write_pb2_grpc.AgendaWriteServiceStub(channel)
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await stub.Book(
                write.BookRequest(organization_id=str(org)),
                metadata=(("authorization", f"Bearer {mesh.token('conversador')}"),),
            )
    assert error.value.code() == grpc.StatusCode.PERMISSION_DENIED
