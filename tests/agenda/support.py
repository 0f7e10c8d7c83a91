"""Helpers of the agenda tests: a signed client and builders of requests."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.agenda.v1 import agenda_read_pb2 as read
from balcao.agenda.v1 import agenda_read_pb2_grpc, agenda_write_pb2_grpc
from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2 as write

SAO_PAULO = "America/Sao_Paulo"
CLINIC = pb.Place(kind=pb.PLACE_KIND_IN_PERSON, name="Clínica Centro, sala 3", address="Rua A, 1")


def ts(moment: datetime) -> Timestamp:
    value = Timestamp()
    value.FromDatetime(moment)
    return value


def every_day(opens: str = "00:00", closes: str = "24:00") -> pb.BusinessHours:
    return pb.BusinessHours(
        weekly=[pb.WeeklyInterval(weekday=day, opens=opens, closes=closes) for day in range(1, 8)]  # type: ignore[arg-type]
    )


def weekdays(*intervals: tuple[int, str, str]) -> pb.BusinessHours:
    return pb.BusinessHours(
        weekly=[pb.WeeklyInterval(weekday=d, opens=o, closes=c) for d, o, c in intervals]  # type: ignore[arg-type]
    )


def local_start(text: str, zone: str = "", fold: int = pb.LOCAL_TIME_FOLD_UNSPECIFIED) -> pb.TimePoint:
    return pb.TimePoint(local=pb.LocalDateTime(local_date_time=text, time_zone=zone, fold=fold))  # type: ignore[arg-type]


def instant_start(moment: datetime) -> pb.TimePoint:
    return pb.TimePoint(instant=ts(moment))


@dataclass
class AgendaClient:
    read: agenda_read_pb2_grpc.AgendaReadServiceStub
    write: agenda_write_pb2_grpc.AgendaWriteServiceStub
    metadata: tuple[tuple[str, str], ...]

    async def resource(
        self,
        org: uuid.UUID,
        *,
        name: str = "Dra. Ana Souza",
        time_zone: str = SAO_PAULO,
        capacity: int = 1,
        slot_minutes: int = 30,
        hours: pb.BusinessHours | None = None,
        **fields: Any,
    ) -> pb.Resource:
        reply = await self.write.UpsertResource(
            write.UpsertResourceRequest(
                organization_id=str(org),
                resource=pb.Resource(
                    name=name,
                    kind=pb.RESOURCE_KIND_PERSON if capacity == 1 else pb.RESOURCE_KIND_GROUP_CLASS,
                    time_zone=time_zone,
                    business_hours=hours if hours is not None else every_day(),
                    slot_minutes=slot_minutes,
                    capacity=capacity,
                    place=fields.pop("place", CLINIC),
                    active=fields.pop("active", True),
                    **fields,
                ),
            ),
            metadata=self.metadata,
        )
        return reply.resource

    async def book(
        self,
        org: uuid.UUID,
        resource_id: str,
        start: pb.TimePoint,
        *,
        contact_id: uuid.UUID | str | None = None,
        **fields: Any,
    ) -> write.BookResponse:
        return await self.write.Book(
            write.BookRequest(
                organization_id=str(org),
                contact_id=str(contact_id or uuid.uuid4()),
                resource_id=resource_id,
                start=start,
                booked_by=fields.pop("booked_by", "operador"),
                **fields,
            ),
            metadata=self.metadata,
        )

    async def contact_appointments(
        self, org: uuid.UUID, contact_id: uuid.UUID | str, as_of: datetime | None = None, limit: int = 0
    ) -> read.ListContactAppointmentsResponse:
        return await self.read.ListContactAppointments(
            read.ListContactAppointmentsRequest(
                organization_id=str(org),
                contact_id=str(contact_id),
                limit=limit,
                as_of=ts(as_of) if as_of else None,
            ),
            metadata=self.metadata,
        )

    async def evidence(
        self, org: uuid.UUID, contact_id: uuid.UUID | str, as_of: datetime | None = None
    ) -> read.ListConfirmedFutureBookingsResponse:
        return await self.read.ListConfirmedFutureBookings(
            read.ListConfirmedFutureBookingsRequest(
                organization_id=str(org), contact_id=str(contact_id), as_of=ts(as_of) if as_of else None
            ),
            metadata=self.metadata,
        )


async def count_rows(engine: Any, table: str, org: uuid.UUID) -> int:
    """Rows of one organisation in an agenda table, read as the superuser (no row-level security)."""
    async with engine.connect() as conn:
        result = await conn.execute(
            sa.text(f"SELECT count(*) FROM agenda.{table} WHERE organization_id = :org"), {"org": org}
        )
        return int(result.scalar_one())


def codes(refusal: pb.Refusal) -> str:
    return pb.RefusalCode.Name(refusal.code)


def starts(slots: Sequence[pb.Slot]) -> list[str]:
    return [s.labels.start_iso for s in slots]
