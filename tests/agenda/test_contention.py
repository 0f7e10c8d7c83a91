"""Double booking is impossible: concurrent Book calls for one slot, and writes that skip the service.

The concurrent calls go through gRPC to the agenda's servicers, each in its own transaction, so
the only thing standing between them is the database (the capacity trigger and the exclusion
constraint). The last tests write straight into the table, as a buggy writer would.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.agenda.v1 import agenda_resources_pb2 as pb
from tests.agenda.support import AgendaClient, count_rows, instant_start

SLOT = datetime(2024, 11, 5, 17, 30, tzinfo=UTC)  # terça-feira, 14:30 in São Paulo
CALLS = 50


async def _book_concurrently(agenda: AgendaClient, org: uuid.UUID, resource_id: str) -> list:
    replies = await asyncio.gather(
        *(
            agenda.book(org, resource_id, instant_start(SLOT), idempotency_key=f"race-{n}", confirm=True)
            for n in range(CALLS)
        )
    )
    return list(replies)


@pytest.mark.parametrize("capacity", [1, 3])
async def test_concurrent_bookings_of_one_slot_fill_exactly_its_capacity(
    agenda: AgendaClient, org: uuid.UUID, at, superuser: AsyncEngine, capacity: int
) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    resource = await agenda.resource(org, capacity=capacity, name="Turma de pilates")

    replies = await _book_concurrently(agenda, org, resource.resource_id)

    booked = [r for r in replies if r.HasField("appointment")]
    refused = [r for r in replies if r.HasField("refusal")]
    assert len(booked) == capacity
    assert len(refused) == CALLS - capacity
    assert {pb.RefusalCode.Name(r.refusal.code) for r in refused} == {"REFUSAL_CODE_SLOT_TAKEN"}
    assert len({r.appointment.contact_id for r in booked}) == capacity
    assert await count_rows(superuser, "calendar_appointments", org) == capacity
    # Every call got an answer it can replay: a refusal is remembered as well as a booking.
    assert await count_rows(superuser, "idempotency_keys", org) == CALLS


async def test_a_cancelled_booking_frees_its_place_for_the_next_caller(
    agenda: AgendaClient, org: uuid.UUID, at
) -> None:
    at(datetime(2024, 11, 1, tzinfo=UTC))
    resource = await agenda.resource(org)
    first = await agenda.book(org, resource.resource_id, instant_start(SLOT))
    taken = await agenda.book(org, resource.resource_id, instant_start(SLOT))
    assert pb.RefusalCode.Name(taken.refusal.code) == "REFUSAL_CODE_SLOT_TAKEN"

    from balcao.agenda.v1 import agenda_write_pb2 as write

    await agenda.write.Cancel(
        write.CancelRequest(organization_id=str(org), appointment_id=first.appointment.appointment_id),
        metadata=agenda.metadata,
    )
    again = await agenda.book(org, resource.resource_id, instant_start(SLOT))
    assert again.HasField("appointment")


async def _insert_directly(superuser: AsyncEngine, org: uuid.UUID, resource_id: str, start: str, end: str) -> None:
    async with superuser.begin() as conn:
        await conn.execute(
            sa.text(
                "INSERT INTO agenda.calendar_appointments (organization_id, contact_id, resource_id, start_time, "
                "end_time, time_zone, status) VALUES (:org, :contact, :resource, :start, :end, 'UTC', 'confirmed')"
            ),
            {
                "org": org,
                "contact": uuid.uuid4(),
                "resource": uuid.UUID(resource_id),
                "start": datetime.fromisoformat(start),
                "end": datetime.fromisoformat(end),
            },
        )


@pytest.mark.parametrize("capacity", [1, 2])
async def test_the_database_refuses_overlaps_beyond_capacity_from_any_writer(
    agenda: AgendaClient, org: uuid.UUID, superuser: AsyncEngine, capacity: int
) -> None:
    resource = await agenda.resource(org, capacity=capacity)
    for _ in range(capacity):
        await _insert_directly(superuser, org, resource.resource_id, "2030-01-07T10:00Z", "2030-01-07T11:00Z")

    # Overlapping the full interval by a minute is enough to be refused.
    with pytest.raises(DBAPIError) as refused:
        await _insert_directly(superuser, org, resource.resource_id, "2030-01-07T10:59Z", "2030-01-07T12:00Z")
    assert refused.value.orig.sqlstate == "23P01"  # type: ignore[union-attr]

    # Touching intervals do not overlap (ranges are end-exclusive).
    await _insert_directly(superuser, org, resource.resource_id, "2030-01-07T11:00Z", "2030-01-07T12:00Z")
    assert await count_rows(superuser, "calendar_appointments", org) == capacity + 1


async def test_the_exclusion_constraint_alone_forbids_overlaps_on_a_capacity_one_resource(
    agenda: AgendaClient, org: uuid.UUID, superuser: AsyncEngine
) -> None:
    resource = await agenda.resource(org)
    await _insert_directly(superuser, org, resource.resource_id, "2030-01-07T10:00Z", "2030-01-07T11:00Z")
    async with superuser.begin() as conn:
        # Without the trigger, the constraint still stands.
        await conn.execute(
            sa.text("ALTER TABLE agenda.calendar_appointments DISABLE TRIGGER calendar_appointments_capacity")
        )
        with pytest.raises(DBAPIError) as refused:
            async with conn.begin_nested():
                await conn.execute(
                    sa.text(
                        "INSERT INTO agenda.calendar_appointments (organization_id, contact_id, resource_id, "
                        "start_time, end_time, time_zone, status) VALUES (:org, :contact, :resource, "
                        "'2030-01-07T10:30Z', '2030-01-07T11:30Z', 'UTC', 'pending')"
                    ),
                    {"org": org, "contact": uuid.uuid4(), "resource": uuid.UUID(resource.resource_id)},
                )
        await conn.rollback()
    assert "ex_calendar_appointments_no_overlap" in str(refused.value)
