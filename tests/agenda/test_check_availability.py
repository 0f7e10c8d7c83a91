"""CheckAvailability through gRPC: hours, bookings, capacity, zones, DST days and refusals."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import grpc
import pytest

from balcao.agenda.v1 import agenda_read_pb2 as read
from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2 as write
from tests.agenda.support import AgendaClient, codes, every_day, instant_start, starts, ts

NOW = datetime(2024, 11, 1, tzinfo=UTC)


def _dates(first: str, last: str, zone: str = "") -> pb.LocalDateRange:
    return pb.LocalDateRange(first_date=first, last_date=last, time_zone=zone)


async def _check(agenda: AgendaClient, org: uuid.UUID, **fields) -> read.CheckAvailabilityResponse:
    return await agenda.read.CheckAvailability(
        read.CheckAvailabilityRequest(organization_id=str(org), **fields), metadata=agenda.metadata
    )


async def test_free_slots_respect_hours_bookings_and_label_in_the_resources_zone(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(NOW)
    resource = await agenda.resource(org, hours=every_day("09:00", "11:00"), slot_minutes=30)
    await agenda.book(org, resource.resource_id, instant_start(datetime(2024, 11, 5, 12, 30, tzinfo=UTC)))  # 09:30

    reply = await _check(
        agenda, org, resource_ids=[resource.resource_id], local_dates=_dates("2024-11-05", "2024-11-05")
    )

    assert starts(reply.slots) == [
        "2024-11-05T09:00:00-03:00",
        "2024-11-05T10:00:00-03:00",
        "2024-11-05T10:30:00-03:00",
    ]
    first = reply.slots[0]
    assert first.labels.start_label == "terça-feira, 5 de novembro de 2024, 09:00 (horário de Brasília)"
    assert first.labels.time_range_label == "09:00–09:30"
    assert (first.resource_name, first.remaining_capacity) == ("Dra. Ana Souza", 1)
    assert not reply.truncated and not reply.HasField("refusal")


async def test_a_group_class_shows_the_places_left_until_full(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(NOW)
    resource = await agenda.resource(org, capacity=3, hours=every_day("18:00", "19:00"), slot_minutes=60)
    seven_pm = datetime(2024, 11, 5, 21, tzinfo=UTC)
    remaining = []
    for _ in range(3):
        reply = await _check(
            agenda, org, resource_ids=[resource.resource_id], local_dates=_dates("2024-11-05", "2024-11-05")
        )
        remaining.append([s.remaining_capacity for s in reply.slots])
        await agenda.book(org, resource.resource_id, instant_start(seven_pm))
    full = await _check(
        agenda, org, resource_ids=[resource.resource_id], local_dates=_dates("2024-11-05", "2024-11-05")
    )
    assert remaining == [[3], [2], [1]]
    assert list(full.slots) == []


async def test_the_day_sao_paulo_jumped_has_no_midnight_slot(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(datetime(2018, 10, 1, tzinfo=UTC))
    resource = await agenda.resource(org, hours=every_day("00:00", "02:00"), slot_minutes=30)
    reply = await _check(
        agenda, org, resource_ids=[resource.resource_id], local_dates=_dates("2018-11-04", "2018-11-04")
    )
    assert starts(reply.slots) == ["2018-11-04T01:00:00-02:00", "2018-11-04T01:30:00-02:00"]
    assert reply.slots[0].labels.start_label == "domingo, 4 de novembro de 2018, 01:00 (horário de verão de Brasília)"


async def test_the_day_new_york_fell_back_offers_the_repeated_hour_twice(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(datetime(2018, 10, 1, tzinfo=UTC))
    resource = await agenda.resource(
        org, time_zone="America/New_York", hours=every_day("01:00", "02:00"), slot_minutes=30
    )
    reply = await _check(
        agenda, org, resource_ids=[resource.resource_id], local_dates=_dates("2018-11-04", "2018-11-04")
    )
    assert starts(reply.slots) == [
        "2018-11-04T01:00:00-04:00",
        "2018-11-04T01:30:00-04:00",
        "2018-11-04T01:00:00-05:00",
        "2018-11-04T01:30:00-05:00",
    ]
    assert [s.labels.zone_label for s in reply.slots] == ["horário de verão do Leste"] * 2 + [
        "horário padrão do Leste"
    ] * 2


async def test_labels_in_another_zone_and_a_time_of_day_filter_in_that_zone(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(NOW)
    resource = await agenda.resource(org, hours=every_day("08:00", "12:00"), slot_minutes=60)
    reply = await _check(
        agenda,
        org,
        resource_ids=[resource.resource_id],
        local_dates=_dates("2024-11-05", "2024-11-05"),
        label_time_zone="Europe/Lisbon",
        time_of_day=pb.TimeOfDayInterval(opens="12:00", closes="14:00"),
    )
    assert starts(reply.slots) == ["2024-11-05T12:00:00+00:00", "2024-11-05T13:00:00+00:00"]
    assert (
        reply.slots[0].labels.start_label == "terça-feira, 5 de novembro de 2024, 12:00 (horário da Europa Ocidental)"
    )


async def test_past_slots_are_not_offered_and_max_slots_truncates(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    resource = await agenda.resource(org, hours=every_day("09:00", "12:00"), slot_minutes=60)
    window = pb.TimeRange(
        start_time=ts(datetime(2024, 11, 5, tzinfo=UTC)), end_time=ts(datetime(2024, 11, 7, tzinfo=UTC))
    )
    reply = await _check(
        agenda,
        org,
        resource_ids=[resource.resource_id],
        instants=window,
        as_of=ts(datetime(2024, 11, 5, 13, 30, tzinfo=UTC)),
    )
    # 10:30 in São Paulo: only 11:00 is left on the 5th, then the 6th's three.
    assert starts(reply.slots)[:2] == ["2024-11-05T11:00:00-03:00", "2024-11-06T09:00:00-03:00"]
    assert len(reply.slots) == 4
    short = await _check(
        agenda,
        org,
        resource_ids=[resource.resource_id],
        instants=window,
        as_of=ts(datetime(2024, 11, 5, 13, 30, tzinfo=UTC)),
        max_slots=2,
    )
    assert (len(short.slots), short.truncated) == (2, True)


async def test_a_service_searches_only_the_resources_that_perform_it(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(NOW)
    service = (
        await agenda.write.UpsertService(
            write.UpsertServiceRequest(
                organization_id=str(org),
                service=pb.BookableService(name="Avaliação", duration_minutes=60, active=True),
            ),
            metadata=agenda.metadata,
        )
    ).service
    await agenda.resource(org, name="Dra. Ana", hours=every_day("09:00", "10:00"), service_ids=[service.service_id])
    await agenda.resource(org, name="Dr. Beto", hours=every_day("09:00", "10:00"))
    other = (
        await agenda.write.UpsertService(
            write.UpsertServiceRequest(organization_id=str(org), service=pb.BookableService(name="Outro", active=True)),
            metadata=agenda.metadata,
        )
    ).service
    await agenda.resource(org, name="Dra. Carla", hours=every_day("09:00", "10:00"), service_ids=[other.service_id])

    reply = await _check(agenda, org, service_id=service.service_id, local_dates=_dates("2024-11-05", "2024-11-05"))
    # Dr. Beto performs any service; Dra. Carla only the other one.
    assert [(s.resource_name, s.labels.time_range_label) for s in reply.slots] == [
        ("Dr. Beto", "09:00–10:00"),
        ("Dra. Ana", "09:00–10:00"),
    ]


async def test_availability_refusals_and_errors(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(NOW)
    resource = await agenda.resource(org)
    too_long = await _check(
        agenda, org, resource_ids=[resource.resource_id], local_dates=_dates("2024-11-01", "2024-12-31")
    )
    assert codes(too_long.refusal) == "REFUSAL_CODE_RANGE_TOO_LONG" and not too_long.slots
    unknown = await _check(agenda, org, service_id=str(uuid.uuid4()), local_dates=_dates("2024-11-05", "2024-11-05"))
    assert codes(unknown.refusal) == "REFUSAL_CODE_UNKNOWN_SERVICE"
    for fields, message in (
        ({}, "a range is required"),
        ({"local_dates": _dates("2024-11-06", "2024-11-05")}, "last_date must not be before first_date"),
        ({"local_dates": _dates("5/11/2024", "2024-11-05")}, "is not an ISO-8601 date"),
        ({"local_dates": _dates("2024-11-05", "2024-11-05", "Brasília")}, "is not an IANA time zone"),
        ({"local_dates": _dates("2024-11-05", "2024-11-05"), "label_time_zone": "BRT"}, "is not an IANA time zone"),
        ({"local_dates": _dates("2024-11-05", "2024-11-05"), "max_slots": -1}, "max_slots must not be negative"),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await _check(agenda, org, **fields)
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert message in (error.value.details() or "")


async def test_a_slot_from_availability_books_exactly_its_instant(agenda: AgendaClient, org: uuid.UUID, at) -> None:
    at(NOW)
    resource = await agenda.resource(org, hours=every_day("09:00", "10:00"), slot_minutes=30)
    reply = await _check(
        agenda, org, resource_ids=[resource.resource_id], local_dates=_dates("2024-11-05", "2024-11-05")
    )
    slot = reply.slots[1]
    booked = await agenda.book(org, resource.resource_id, pb.TimePoint(instant=slot.start_time))
    assert booked.appointment.start_time == slot.start_time
    assert booked.appointment.labels.start_label == slot.labels.start_label
    after = await _check(
        agenda, org, resource_ids=[resource.resource_id], local_dates=_dates("2024-11-05", "2024-11-05")
    )
    assert starts(after.slots) == [reply.slots[0].labels.start_iso]
