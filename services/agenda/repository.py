"""SQL of the agenda schema, and nothing else (no gRPC, no business rules).

Every unit of work is one transaction that starts by setting `balcao.organization_id`
transaction-locally, so row-level security (forced on every table) admits only that
organisation's rows; every statement also filters on `organization_id` itself.
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql.asyncpg import dialect as asyncpg_dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.kit import db
from balcao.kit.server import Database
from services.agenda.model import (
    Appointment,
    BookableService,
    BusinessHours,
    FailedPrecondition,
    Place,
    Resource,
)

EXCLUSION_VIOLATION = "23P01"

_APPOINTMENT_COLUMNS = """
    a.organization_id, a.appointment_id, a.contact_id, a.resource_id, r.name AS resource_name,
    a.service_id, coalesce(s.name, '') AS service_name, a.start_time, a.end_time, a.time_zone,
    a.status, a.place, a.video_call_status, a.video_call_url, a.notes, a.cancellation_reason,
    a.source_turn_id, a.booked_by, a.created_at, a.updated_at
"""
_APPOINTMENT_JOINS = """
    JOIN agenda.resources r ON r.organization_id = a.organization_id AND r.resource_id = a.resource_id
    LEFT JOIN agenda.services s ON s.organization_id = a.organization_id AND s.service_id = a.service_id
"""


@functools.lru_cache(maxsize=256)
def _text(sql: str) -> sa.TextClause:
    """Statements are a fixed set; parse each one's bind parameters once."""
    return sa.text(sql)


_ASYNCPG_DIALECT = asyncpg_dialect()


@functools.lru_cache(maxsize=64)
def _positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """A statement as SQLAlchemy would send it to asyncpg (`$n` placeholders), and its parameter names in order."""
    compiled = _text(sql).compile(dialect=_ASYNCPG_DIALECT)
    return compiled.string, tuple(compiled.positiontup or ())


class IdempotencyKeyReused(Exception):
    """The key was first used by another RPC."""

    def __init__(self, method: str) -> None:
        super().__init__(method)
        self.method = method


class AgendaRepository:
    """Opens tenant-scoped transactions on the service's engine."""

    def __init__(self, database: Database) -> None:
        self._database = database

    @asynccontextmanager
    async def transaction(self, organization_id: uuid.UUID) -> AsyncIterator[AgendaTransaction]:
        async with db.tenant(self._database.engine, organization_id) as conn:
            yield AgendaTransaction(conn, organization_id)


def _is_exclusion_violation(error: DBAPIError) -> bool:
    return getattr(error.orig, "sqlstate", None) == EXCLUSION_VIOLATION


class AgendaTransaction:
    """One organisation's statements inside one transaction."""

    def __init__(self, conn: AsyncConnection, organization_id: uuid.UUID) -> None:
        self._conn = conn
        self.organization_id = organization_id

    async def _rows(self, sql: str, **params: Any) -> Sequence[sa.RowMapping]:
        result = await self._conn.execute(_text(sql), {"org": self.organization_id, **params})
        return result.mappings().all()

    async def _fetch(self, sql: str, **params: Any) -> list[Any]:
        """`_rows` for the hot reads of every turn: the statement runs on the asyncpg connection under this
        transaction (same session, same RLS setting), without SQLAlchemy's per-statement work (~0.25 ms of
        CPU, more than these reads). Rows are asyncpg Records, read by column name like row mappings. Read
        statements only: errors surface as asyncpg's own exceptions, not SQLAlchemy's DBAPIError."""
        query, names = _positional(sql)
        values = {"org": self.organization_id, **params}
        raw = await db.driver_in_transaction(self._conn)
        return await raw.fetch(query, *(values[name] for name in names))

    async def _row(self, sql: str, **params: Any) -> sa.RowMapping | None:
        result = await self._conn.execute(_text(sql), {"org": self.organization_id, **params})
        return result.mappings().first()

    # -- idempotency ---------------------------------------------------------------------------

    async def claim_idempotency_key(self, key: str, method: str) -> bytes | None:
        """Hold `key` for this transaction; return the stored response when it was used before.

        The insert waits on a concurrent holder of the same key, then finds its committed row.
        """
        claimed = await self._row(
            "INSERT INTO agenda.idempotency_keys (organization_id, idempotency_key, method) "
            "VALUES (:org, :key, :method) ON CONFLICT DO NOTHING RETURNING idempotency_key",
            key=key,
            method=method,
        )
        if claimed is not None:
            return None
        row = await self._row(
            "SELECT method, response FROM agenda.idempotency_keys "
            "WHERE organization_id = :org AND idempotency_key = :key",
            key=key,
        )
        if row is None or row["response"] is None:
            # Only possible if the holder's transaction ended oddly; the caller may simply retry.
            raise FailedPrecondition("the first call with this idempotency_key has not finished; retry")
        if row["method"] != method:
            raise IdempotencyKeyReused(row["method"])
        return bytes(row["response"])

    async def store_idempotent_response(self, key: str, response: bytes) -> None:
        await self._conn.execute(
            _text(
                "UPDATE agenda.idempotency_keys SET response = :response "
                "WHERE organization_id = :org AND idempotency_key = :key"
            ),
            {"org": self.organization_id, "key": key, "response": response},
        )

    # -- resources -----------------------------------------------------------------------------

    async def get_resource(self, resource_id: uuid.UUID) -> Resource | None:
        row = await self._row(
            "SELECT * FROM agenda.resources WHERE organization_id = :org AND resource_id = :id", id=resource_id
        )
        return _resource(row) if row else None

    async def lock_resource(self, resource_id: uuid.UUID) -> Resource | None:
        """The resource, locked against bookings and changes until commit."""
        row = await self._row(
            "SELECT * FROM agenda.resources WHERE organization_id = :org AND resource_id = :id FOR NO KEY UPDATE",
            id=resource_id,
        )
        return _resource(row) if row else None

    async def get_resources(self, resource_ids: Sequence[uuid.UUID]) -> list[Resource]:
        rows = await self._rows(
            "SELECT * FROM agenda.resources WHERE organization_id = :org AND resource_id = ANY(:ids) ORDER BY name",
            ids=list(resource_ids),
        )
        return [_resource(row) for row in rows]

    async def list_resources(self, include_inactive: bool) -> list[Resource]:
        rows = await self._rows(
            "SELECT * FROM agenda.resources WHERE organization_id = :org AND (active OR :all) "
            "ORDER BY name, resource_id",
            all=include_inactive,
        )
        return [_resource(row) for row in rows]

    async def insert_resource(self, resource: Resource) -> Resource:
        row = await self._row(
            f"INSERT INTO agenda.resources ({_RESOURCE_FIELDS}) VALUES ({_RESOURCE_VALUES}) RETURNING *",
            **_resource_params(resource),
        )
        assert row is not None
        return _resource(row)

    async def update_resource(self, resource_id: uuid.UUID, resource: Resource) -> Resource:
        assignments = ", ".join(f"{name} = {value}" for name, value in _resource_assignments())
        row = await self._row(
            f"UPDATE agenda.resources SET {assignments}, updated_at = now() "
            "WHERE organization_id = :org AND resource_id = :id RETURNING *",
            id=resource_id,
            **_resource_params(resource),
        )
        assert row is not None
        return _resource(row)

    async def busiest_future_overlap(self, resource_id: uuid.UUID, now: datetime) -> int:
        """The most non-cancelled appointments of the resource at one future moment."""
        row = await self._row(
            """
            WITH upcoming AS (
                SELECT start_time, end_time FROM agenda.calendar_appointments
                 WHERE organization_id = :org AND resource_id = :id AND status <> 'cancelled'
                   AND end_time > :now
            )
            SELECT coalesce(max((SELECT count(*) FROM upcoming b
                                  WHERE b.start_time <= p.moment AND b.end_time > p.moment)), 0) AS busiest
              FROM (SELECT greatest(start_time, :now) AS moment FROM upcoming) p
            """,
            id=resource_id,
            now=now,
        )
        return int(row["busiest"]) if row else 0

    async def mark_exclusive(self, resource_id: uuid.UUID, exclusive: bool, now: datetime) -> bool:
        """Align the exclusion constraint's flag of upcoming appointments with a new capacity.

        False when the database refuses because upcoming appointments overlap.
        """
        try:
            async with self._conn.begin_nested():
                await self._conn.execute(
                    _text(
                        "UPDATE agenda.calendar_appointments SET exclusive = :exclusive "
                        "WHERE organization_id = :org AND resource_id = :id AND status <> 'cancelled' "
                        "AND end_time > :now AND exclusive <> :exclusive"
                    ),
                    {"org": self.organization_id, "id": resource_id, "exclusive": exclusive, "now": now},
                )
        except DBAPIError as error:
            if _is_exclusion_violation(error):
                return False
            raise
        return True

    # -- services ------------------------------------------------------------------------------

    async def get_service(self, service_id: uuid.UUID) -> BookableService | None:
        row = await self._row(
            "SELECT * FROM agenda.services WHERE organization_id = :org AND service_id = :id", id=service_id
        )
        return _service(row) if row else None

    async def existing_service_ids(self, service_ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
        rows = await self._rows(
            "SELECT service_id FROM agenda.services WHERE organization_id = :org AND service_id = ANY(:ids)",
            ids=list(service_ids),
        )
        return {row["service_id"] for row in rows}

    async def list_services(self, include_inactive: bool) -> list[BookableService]:
        rows = await self._rows(
            "SELECT * FROM agenda.services WHERE organization_id = :org AND (active OR :all) ORDER BY name, service_id",
            all=include_inactive,
        )
        return [_service(row) for row in rows]

    async def insert_service(self, service: BookableService) -> BookableService:
        row = await self._row(
            "INSERT INTO agenda.services (organization_id, name, description, duration_minutes, place, "
            "video_call, active) VALUES (:org, :name, :description, :duration, CAST(:place AS jsonb), "
            ":video_call, :active) RETURNING *",
            **_service_params(service),
        )
        assert row is not None
        return _service(row)

    async def update_service(self, service_id: uuid.UUID, service: BookableService) -> BookableService:
        row = await self._row(
            "UPDATE agenda.services SET name = :name, description = :description, duration_minutes = :duration, "
            "place = CAST(:place AS jsonb), video_call = :video_call, active = :active, updated_at = now() "
            "WHERE organization_id = :org AND service_id = :id RETURNING *",
            id=service_id,
            **_service_params(service),
        )
        assert row is not None
        return _service(row)

    # -- appointments: writes ------------------------------------------------------------------

    async def contact_has_overlap(
        self, contact_id: uuid.UUID, start: datetime, end: datetime, except_id: uuid.UUID | None = None
    ) -> bool:
        row = await self._row(
            "SELECT 1 FROM agenda.calendar_appointments WHERE organization_id = :org AND contact_id = :contact "
            "AND status <> 'cancelled' AND start_time < :end AND end_time > :start "
            "AND appointment_id IS DISTINCT FROM CAST(:except_id AS uuid) LIMIT 1",
            contact=contact_id,
            start=start,
            end=end,
            except_id=except_id,
        )
        return row is not None

    async def insert_appointment(self, values: dict[str, Any]) -> Appointment | None:
        """Insert a booking and its history line; None when the database finds the slot full."""
        row = await self._row(
            f"""
            WITH a AS (
                SELECT * FROM agenda.book_if_room(
                    :org, :contact_id, :resource_id, :service_id, :start_time, :end_time, :time_zone, :status,
                    CAST(:place AS jsonb), :video_call_status, :notes, :source_turn_id, :booked_by, :idempotency_key))
            SELECT {_APPOINTMENT_COLUMNS} FROM a {_APPOINTMENT_JOINS}
            """,
            **{**values, "place": json.dumps(values["place"].to_json())},
        )
        return _appointment(row) if row else None

    async def move_appointment(
        self,
        appointment_id: uuid.UUID,
        *,
        resource_id: uuid.UUID,
        start: datetime,
        end: datetime,
        time_zone: str,
        status: str,
        place: Place,
        actor: str,
        reason: str,
        source_turn_id: str,
    ) -> Appointment | None:
        """Move a booking and record it; None when the database finds the new interval full."""
        row = await self._row(
            f"""
            WITH a AS (
                SELECT * FROM agenda.move_if_room(
                    :org, :id, :resource_id, :start, :end, :time_zone, :status, CAST(:place AS jsonb), :actor,
                    :reason, :source_turn_id))
            SELECT {_APPOINTMENT_COLUMNS} FROM a {_APPOINTMENT_JOINS}
            """,
            id=appointment_id,
            resource_id=resource_id,
            start=start,
            end=end,
            time_zone=time_zone,
            status=status,
            place=json.dumps(place.to_json()),
            actor=actor,
            reason=reason,
            source_turn_id=source_turn_id,
        )
        return _appointment(row) if row else None

    async def update_appointment(self, appointment_id: uuid.UUID, **changes: Any) -> Appointment:
        """Set plain columns (status, cancellation_reason, video_call_status, video_call_url)."""
        allowed = {"status", "cancellation_reason", "video_call_status", "video_call_url"}
        if not changes or set(changes) - allowed:
            raise ValueError(f"cannot update {sorted(set(changes) - allowed)}")
        assignments = ", ".join(f"{name} = :{name}" for name in changes)
        row = await self._row(
            f"""
            WITH a AS (
                UPDATE agenda.calendar_appointments SET {assignments}, updated_at = now()
                 WHERE organization_id = :org AND appointment_id = :id
                RETURNING *)
            SELECT {_APPOINTMENT_COLUMNS} FROM a {_APPOINTMENT_JOINS}
            """,
            id=appointment_id,
            **changes,
        )
        assert row is not None
        return _appointment(row)

    async def record_change(
        self,
        appointment_id: uuid.UUID,
        change: str,
        *,
        actor: str = "",
        reason: str = "",
        source_turn_id: str = "",
    ) -> None:
        await self._conn.execute(
            _text(
                "INSERT INTO agenda.appointment_history (organization_id, appointment_id, change, actor, reason, "
                "source_turn_id) VALUES (:org, :id, :change, :actor, :reason, :turn)"
            ),
            {
                "org": self.organization_id,
                "id": appointment_id,
                "change": change,
                "actor": actor,
                "reason": reason,
                "turn": source_turn_id,
            },
        )

    # -- appointments: reads -------------------------------------------------------------------

    async def get_appointment(
        self, appointment_id: uuid.UUID, contact_id: uuid.UUID | None = None, *, for_update: bool = False
    ) -> Appointment | None:
        row = await self._row(
            f"SELECT {_APPOINTMENT_COLUMNS} FROM agenda.calendar_appointments a {_APPOINTMENT_JOINS} "
            "WHERE a.organization_id = :org AND a.appointment_id = :id "
            "AND (CAST(:contact AS uuid) IS NULL OR a.contact_id = CAST(:contact AS uuid))"
            + (" FOR UPDATE OF a" if for_update else ""),
            id=appointment_id,
            contact=contact_id,
        )
        return _appointment(row) if row else None

    async def contact_active_appointments(
        self, contact_id: uuid.UUID, as_of: datetime, limit: int
    ) -> tuple[list[Appointment], int]:
        """Seed 000's cut: not cancelled, ending after `as_of`, earliest first; and how many matched."""
        rows = await self._fetch(
            f"SELECT {_APPOINTMENT_COLUMNS}, count(*) OVER () AS total "
            f"FROM agenda.calendar_appointments a {_APPOINTMENT_JOINS} "
            "WHERE a.organization_id = :org AND a.contact_id = :contact AND a.status <> 'cancelled' "
            "AND a.end_time > :as_of ORDER BY a.start_time, a.appointment_id LIMIT :limit",
            contact=contact_id,
            as_of=as_of,
            limit=limit,
        )
        total = int(rows[0]["total"]) if rows else 0
        return [_appointment(row) for row in rows], total

    async def contact_confirmed_future(self, contact_id: uuid.UUID, as_of: datetime) -> list[Appointment]:
        rows = await self._fetch(
            f"SELECT {_APPOINTMENT_COLUMNS} FROM agenda.calendar_appointments a {_APPOINTMENT_JOINS} "
            "WHERE a.organization_id = :org AND a.contact_id = :contact AND a.status = 'confirmed' "
            "AND a.end_time > :as_of ORDER BY a.start_time, a.appointment_id",
            contact=contact_id,
            as_of=as_of,
        )
        return [_appointment(row) for row in rows]

    async def list_appointments(
        self,
        *,
        resource_id: uuid.UUID | None,
        contact_id: uuid.UUID | None,
        statuses: Sequence[str],
        overlapping: tuple[datetime, datetime] | None,
        after: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[Appointment]:
        """Appointments by filters, earliest start first, from just after the `after` key."""
        rows = await self._rows(
            f"SELECT {_APPOINTMENT_COLUMNS} FROM agenda.calendar_appointments a {_APPOINTMENT_JOINS} "
            "WHERE a.organization_id = :org "
            "AND (CAST(:resource AS uuid) IS NULL OR a.resource_id = CAST(:resource AS uuid)) "
            "AND (CAST(:contact AS uuid) IS NULL OR a.contact_id = CAST(:contact AS uuid)) "
            "AND (cardinality(CAST(:statuses AS text[])) = 0 OR a.status = ANY(CAST(:statuses AS text[]))) "
            "AND (CAST(:range_start AS timestamptz) IS NULL OR "
            "     (a.end_time > CAST(:range_start AS timestamptz) AND a.start_time < CAST(:range_end AS timestamptz))) "
            "AND (CAST(:after_start AS timestamptz) IS NULL OR "
            "     (a.start_time, a.appointment_id) > (CAST(:after_start AS timestamptz), CAST(:after_id AS uuid))) "
            "ORDER BY a.start_time, a.appointment_id LIMIT :limit",
            resource=resource_id,
            contact=contact_id,
            statuses=list(statuses),
            range_start=overlapping[0] if overlapping else None,
            range_end=overlapping[1] if overlapping else None,
            after_start=after[0] if after else None,
            after_id=after[1] if after else None,
            limit=limit,
        )
        return [_appointment(row) for row in rows]

    async def busy_intervals(
        self, resource_ids: Sequence[uuid.UUID], start: datetime, end: datetime
    ) -> dict[uuid.UUID, list[tuple[datetime, datetime]]]:
        """Non-cancelled appointment intervals of the resources overlapping [start, end)."""
        rows = await self._rows(
            "SELECT resource_id, start_time, end_time FROM agenda.calendar_appointments "
            "WHERE organization_id = :org AND resource_id = ANY(:ids) AND status <> 'cancelled' "
            "AND tstzrange(start_time, end_time, '[)') && tstzrange(:start, :end, '[)') ORDER BY start_time",
            ids=list(resource_ids),
            start=start,
            end=end,
        )
        busy: dict[uuid.UUID, list[tuple[datetime, datetime]]] = {rid: [] for rid in resource_ids}
        for row in rows:
            busy[row["resource_id"]].append((row["start_time"], row["end_time"]))
        return busy


# -- row mapping -------------------------------------------------------------------------------

_RESOURCE_COLUMNS = (
    ("name", ":name"),
    ("kind", ":kind"),
    ("time_zone", ":time_zone"),
    ("business_hours", "CAST(:business_hours AS jsonb)"),
    ("slot_minutes", ":slot_minutes"),
    ("capacity", ":capacity"),
    ("place", "CAST(:place AS jsonb)"),
    ("video_call", ":video_call"),
    ("min_notice_minutes", ":min_notice_minutes"),
    ("booking_horizon_days", ":booking_horizon_days"),
    ("service_ids", "CAST(:service_ids AS uuid[])"),
    ("active", ":active"),
)
_RESOURCE_FIELDS = "organization_id, " + ", ".join(name for name, _ in _RESOURCE_COLUMNS)
_RESOURCE_VALUES = ":org, " + ", ".join(value for _, value in _RESOURCE_COLUMNS)


def _resource_assignments() -> tuple[tuple[str, str], ...]:
    return _RESOURCE_COLUMNS


def _resource_params(resource: Resource) -> dict[str, Any]:
    return {
        "name": resource.name,
        "kind": resource.kind,
        "time_zone": resource.time_zone,
        "business_hours": json.dumps(resource.business_hours.to_json()),
        "slot_minutes": resource.slot_minutes,
        "capacity": resource.capacity,
        "place": json.dumps(resource.place.to_json()),
        "video_call": resource.video_call,
        "min_notice_minutes": resource.min_notice_minutes,
        "booking_horizon_days": resource.booking_horizon_days,
        "service_ids": list(resource.service_ids),
        "active": resource.active,
    }


def _service_params(service: BookableService) -> dict[str, Any]:
    return {
        "name": service.name,
        "description": service.description,
        "duration": service.duration_minutes,
        "place": json.dumps(service.place.to_json()) if service.place else None,
        "video_call": service.video_call,
        "active": service.active,
    }


def _resource(row: sa.RowMapping) -> Resource:
    return Resource(
        organization_id=row["organization_id"],
        resource_id=row["resource_id"],
        name=row["name"],
        kind=row["kind"],
        time_zone=row["time_zone"],
        business_hours=BusinessHours.from_json(row["business_hours"]),
        slot_minutes=row["slot_minutes"],
        capacity=row["capacity"],
        place=Place.from_json(row["place"]),
        video_call=row["video_call"],
        min_notice_minutes=row["min_notice_minutes"],
        booking_horizon_days=row["booking_horizon_days"],
        service_ids=tuple(row["service_ids"]),
        active=row["active"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _service(row: sa.RowMapping) -> BookableService:
    return BookableService(
        organization_id=row["organization_id"],
        service_id=row["service_id"],
        name=row["name"],
        description=row["description"],
        duration_minutes=row["duration_minutes"],
        place=Place.from_json(row["place"]) if row["place"] else None,
        video_call=row["video_call"],
        active=row["active"],
    )


def _appointment(row: Any) -> Appointment:  # a row mapping or an asyncpg Record
    return Appointment(
        organization_id=row["organization_id"],
        appointment_id=row["appointment_id"],
        contact_id=row["contact_id"],
        resource_id=row["resource_id"],
        resource_name=row["resource_name"],
        service_id=row["service_id"],
        service_name=row["service_name"],
        start_time=row["start_time"],
        end_time=row["end_time"],
        time_zone=row["time_zone"],
        status=row["status"],
        place=Place.from_json(row["place"]),
        video_call_status=row["video_call_status"],
        video_call_url=row["video_call_url"],
        notes=row["notes"],
        cancellation_reason=row["cancellation_reason"],
        source_turn_id=row["source_turn_id"],
        booked_by=row["booked_by"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
