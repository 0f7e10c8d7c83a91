"""The agenda's rules: booking, moving, cancelling, confirming, configuring, and free slots.

Each operation runs inside one tenant transaction handed in by the caller and returns either
the result or a `Refusal` (a business "no", which writes nothing). The order of the checks is
part of the contract: a local time that does not exist or repeats is reported first, so the
refusal names the real problem even for a past date. The database has the last word on room:
its trigger and exclusion constraint refuse a full slot, which comes back here as SLOT_TAKEN.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from services.agenda import availability, refusals
from services.agenda.availability import Placement, SlotQuery
from services.agenda.localtime import Ambiguous, Fold, Nonexistent, boundary, resolve, zone
from services.agenda.model import (
    CANCELLED,
    CONFIRMED,
    PENDING,
    POLICY_ALWAYS,
    POLICY_OPTIONAL,
    VIDEO_NONE,
    VIDEO_PENDING,
    Appointment,
    BookableService,
    FailedPrecondition,
    Interval,
    InvalidArgument,
    Moved,
    NotFound,
    OpenInterval,
    Refusal,
    Resource,
    Slot,
)
from services.agenda.repository import AgendaTransaction

# How many nearby free slots a refusal offers, and how far it looks for them.
ALTERNATIVES = 3
NEARBY_FIRST = timedelta(hours=6)
ALTERNATIVES_WINDOW = timedelta(days=7)
# The longest range one availability query may cover.
MAX_RANGE_DAYS = 31


@dataclass(frozen=True)
class LocalStart:
    """A wall-clock start in a zone ('' = the resource's zone) with the fold for repeated times."""

    local: datetime
    time_zone: str
    fold: Fold = Fold.UNSPECIFIED


Start = datetime | LocalStart


@dataclass(frozen=True)
class BookCommand:
    contact_id: uuid.UUID
    resource_id: uuid.UUID
    start: Start
    service_id: uuid.UUID | None = None
    duration_minutes: int = 0
    time_zone: str = ""
    confirm: bool = False
    video_call: bool = False
    notes: str = ""
    source_turn_id: str = ""
    booked_by: str = ""
    idempotency_key: str | None = None


@dataclass(frozen=True)
class RescheduleCommand:
    appointment_id: uuid.UUID
    new_start: Start
    contact_id: uuid.UUID | None = None
    duration_minutes: int = 0
    resource_id: uuid.UUID | None = None
    time_zone: str = ""
    confirm: bool = False
    reason: str = ""
    rescheduled_by: str = ""
    source_turn_id: str = ""


@dataclass(frozen=True)
class InstantRange:
    start: datetime
    end: datetime


@dataclass(frozen=True)
class LocalDates:
    first: date
    last: date
    time_zone: str  # '' = each resource's zone


@dataclass(frozen=True)
class AvailabilityQuery:
    resource_ids: tuple[uuid.UUID, ...]
    service_id: uuid.UUID | None
    range: InstantRange | LocalDates
    label_time_zone: str = ""
    max_slots: int = 20
    time_of_day: OpenInterval | None = None


# -- time ----------------------------------------------------------------------------------------


def _resolve_start(start: Start, resource_zone: str | None) -> datetime | Nonexistent | Ambiguous | None:
    """The instant a start names, or why it names none; None while the zone is not known yet."""
    if isinstance(start, datetime):
        return start
    zone_name = start.time_zone or resource_zone
    if not zone_name:
        return None
    outcome = resolve(start.local, zone_name, start.fold)
    return outcome if isinstance(outcome, Nonexistent | Ambiguous) else outcome.instant


async def _time_refusal(
    tx: AgendaTransaction,
    problem: Nonexistent | Ambiguous,
    resource: Resource | None,
    duration: timedelta | None,
    service_id: uuid.UUID | None,
) -> Refusal:
    """The refusal of a local time that does not exist or repeats; a repeat offers both instants."""
    if isinstance(problem, Nonexistent):
        return refusals.nonexistent(problem)
    if resource is None or resource.resource_id is None:
        return refusals.ambiguous(problem, [])
    length = duration or timedelta(minutes=resource.slot_minutes)
    busy = (await tx.busy_intervals([resource.resource_id], problem.earlier, problem.later + length))[
        resource.resource_id
    ]
    both = [
        Slot(
            resource.resource_id,
            resource.name,
            service_id,
            instant,
            instant + length,
            problem.zone_name,
            max(0, resource.capacity - availability.busiest(busy, instant, instant + length)),
        )
        for instant in (problem.earlier, problem.later)
    ]
    return refusals.ambiguous(problem, both)


async def _nearby(
    tx: AgendaTransaction,
    resource: Resource,
    service_id: uuid.UUID | None,
    duration: timedelta,
    around: datetime,
    label_zone: str,
    now: datetime,
) -> list[Slot]:
    """Free slots on the resource closest to `around`, to offer with a refusal.

    The hours around the time asked for usually hold enough; only when they do not is the
    search widened to the week from that day.
    """
    assert resource.resource_id is not None
    tz = zone(resource.time_zone)
    day_start = boundary(around.astimezone(tz).date(), 0, tz, closing=False)
    found: list[Slot] = []
    for start, end in (
        (max(around - NEARBY_FIRST, now), around + NEARBY_FIRST),
        (max(day_start, now), max(day_start, now) + ALTERNATIVES_WINDOW),
    ):
        if end <= start:
            continue
        busy = await tx.busy_intervals([resource.resource_id], start, end)
        query = SlotQuery(resource, service_id, duration, start, end, label_zone)
        found = availability.nearest(
            availability.free_slots(query, busy[resource.resource_id], now), around, ALTERNATIVES
        )
        if len(found) >= ALTERNATIVES:
            break
    return found


async def _check_interval(
    tx: AgendaTransaction,
    resource: Resource,
    service_id: uuid.UUID | None,
    start: datetime,
    end: datetime,
    zone_name: str,
    now: datetime,
    contact_id: uuid.UUID,
    except_id: uuid.UUID | None = None,
) -> Refusal | None:
    """Every check of a new interval short of room, in the contract's order."""
    if start < now:
        return refusals.in_the_past(start, zone_name)
    if start < now + timedelta(minutes=resource.min_notice_minutes):
        return refusals.too_short_notice(start, zone_name, resource.min_notice_minutes)
    if resource.booking_horizon_days and start > now + timedelta(days=resource.booking_horizon_days):
        return refusals.beyond_horizon(start, zone_name, resource.booking_horizon_days)
    fit = availability.placement(resource, start, end)
    if fit is not Placement.FITS:
        offer = await _nearby(tx, resource, service_id, end - start, start, zone_name, now)
        if fit is Placement.OUTSIDE:
            return refusals.outside_business_hours(start, zone_name, resource.name, offer)
        return refusals.misaligned(start, zone_name, resource.name, offer)
    if await tx.contact_has_overlap(contact_id, start, end, except_id):
        return refusals.contact_already_booked(start, zone_name)
    return None


def _duration(requested: int, service: BookableService | None, resource: Resource) -> timedelta:
    if requested:
        return timedelta(minutes=requested)
    if service is not None and service.duration_minutes:
        return timedelta(minutes=service.duration_minutes)
    return timedelta(minutes=resource.slot_minutes)


async def _service_for(
    tx: AgendaTransaction, service_id: uuid.UUID | None, resource: Resource
) -> BookableService | Refusal | None:
    if service_id is None:
        return None
    service = await tx.get_service(service_id)
    if service is None:
        return refusals.unknown_service()
    if not resource.performs(service_id):
        return refusals.unknown_service(resource.name)
    if not service.active:
        return refusals.inactive(service.name)
    return service


# -- writes --------------------------------------------------------------------------------------


async def book(tx: AgendaTransaction, command: BookCommand, now: datetime) -> Appointment | Refusal:
    # A zone given with the local time lets a gap or a repeat be named before anything else.
    start = _resolve_start(command.start, None)
    resource = await tx.get_resource(command.resource_id)
    requested = timedelta(minutes=command.duration_minutes) if command.duration_minutes else None
    if isinstance(start, Nonexistent | Ambiguous):
        return await _time_refusal(tx, start, resource, requested, command.service_id)
    if resource is None:
        return refusals.unknown_resource()
    if start is None:
        start = _resolve_start(command.start, resource.time_zone)
        if isinstance(start, Nonexistent | Ambiguous):
            return await _time_refusal(tx, start, resource, requested, command.service_id)
    assert isinstance(start, datetime)
    if not resource.active:
        return refusals.inactive(resource.name)
    service = await _service_for(tx, command.service_id, resource)
    if isinstance(service, Refusal):
        return service
    end = start + _duration(command.duration_minutes, service, resource)
    local_zone = command.start.time_zone if isinstance(command.start, LocalStart) else ""
    booking_zone = command.time_zone or local_zone or resource.time_zone
    refusal = await _check_interval(tx, resource, command.service_id, start, end, booking_zone, now, command.contact_id)
    if refusal is not None:
        return refusal
    policy = (service.video_call if service and service.video_call else None) or resource.video_call
    wants_video = policy == POLICY_ALWAYS or (policy == POLICY_OPTIONAL and command.video_call)
    appointment = await tx.insert_appointment(
        {
            "contact_id": command.contact_id,
            "resource_id": command.resource_id,
            "service_id": command.service_id,
            "start_time": start,
            "end_time": end,
            "time_zone": booking_zone,
            "status": CONFIRMED if command.confirm else PENDING,
            "place": service.place if service and service.place else resource.place,
            "video_call_status": VIDEO_PENDING if wants_video else VIDEO_NONE,
            "notes": command.notes,
            "source_turn_id": command.source_turn_id,
            "booked_by": command.booked_by,
            "idempotency_key": command.idempotency_key,
        }
    )
    if appointment is None:
        offer = await _nearby(tx, resource, command.service_id, end - start, start, booking_zone, now)
        return refusals.slot_taken(start, booking_zone, resource.name, offer)
    return appointment


async def reschedule(tx: AgendaTransaction, command: RescheduleCommand, now: datetime) -> Moved | Refusal:
    current = await tx.get_appointment(command.appointment_id, command.contact_id)
    for _attempt in range(3):
        if current is None:
            return refusals.unknown_appointment()
        target_id = command.resource_id or current.resource_id
        # Resource first, then the appointment: the order every writer locks in.
        resource = await tx.lock_resource(target_id)
        if resource is None:
            return refusals.unknown_resource()
        locked = await tx.get_appointment(command.appointment_id, command.contact_id, for_update=True)
        if locked is not None and locked.resource_id != current.resource_id and command.resource_id is None:
            current = locked  # moved meanwhile to another resource: lock that one instead
            continue
        current = locked
        break
    else:
        raise FailedPrecondition("the appointment keeps moving between resources; try again")
    if current is None:
        return refusals.unknown_appointment()
    if current.status == CANCELLED:
        return refusals.already_cancelled(current)
    if current.start_time <= now:
        return refusals.already_happened(current)
    length = current.end_time - current.start_time
    if command.duration_minutes:
        length = timedelta(minutes=command.duration_minutes)
    start = _resolve_start(command.new_start, resource.time_zone)
    if isinstance(start, Nonexistent | Ambiguous):
        return await _time_refusal(tx, start, resource, length, current.service_id)
    assert isinstance(start, datetime)
    if not resource.active:
        return refusals.inactive(resource.name)
    service = await _service_for(tx, current.service_id, resource)
    if isinstance(service, Refusal):
        return service
    end = start + length
    local_zone = command.new_start.time_zone if isinstance(command.new_start, LocalStart) else ""
    booking_zone = command.time_zone or local_zone or current.time_zone
    refusal = await _check_interval(
        tx, resource, current.service_id, start, end, booking_zone, now, current.contact_id, current.appointment_id
    )
    if refusal is not None:
        return refusal
    moved = await tx.move_appointment(
        current.appointment_id,
        resource_id=target_id,
        start=start,
        end=end,
        time_zone=booking_zone,
        status=CONFIRMED if command.confirm else current.status,
        place=service.place if service and service.place else resource.place,
        actor=command.rescheduled_by,
        reason=command.reason,
        source_turn_id=command.source_turn_id,
    )
    if moved is None:
        offer = await _nearby(tx, resource, current.service_id, length, start, booking_zone, now)
        return refusals.slot_taken(start, booking_zone, resource.name, offer)
    return Moved(moved, Interval(current.start_time, current.end_time, current.time_zone))


async def cancel(
    tx: AgendaTransaction,
    appointment_id: uuid.UUID,
    contact_id: uuid.UUID | None,
    now: datetime,
    *,
    reason: str = "",
    actor: str = "",
    source_turn_id: str = "",
) -> Appointment | Refusal:
    current = await tx.get_appointment(appointment_id, contact_id, for_update=True)
    if current is None:
        return refusals.unknown_appointment()
    if current.status == CANCELLED:
        return refusals.already_cancelled(current)
    if current.start_time <= now:
        return refusals.already_happened(current)
    cancelled = await tx.update_appointment(appointment_id, status=CANCELLED, cancellation_reason=reason)
    await tx.record_change(appointment_id, "cancelled", actor=actor, reason=reason, source_turn_id=source_turn_id)
    return cancelled


async def confirm(
    tx: AgendaTransaction,
    appointment_id: uuid.UUID,
    contact_id: uuid.UUID | None,
    now: datetime,
    *,
    actor: str = "",
    source_turn_id: str = "",
) -> Appointment | Refusal:
    current = await tx.get_appointment(appointment_id, contact_id, for_update=True)
    if current is None:
        return refusals.unknown_appointment()
    if current.status == CANCELLED:
        return refusals.already_cancelled(current)
    if current.start_time <= now:
        return refusals.already_happened(current)
    if current.status == CONFIRMED:
        return current
    confirmed = await tx.update_appointment(appointment_id, status=CONFIRMED)
    await tx.record_change(appointment_id, "confirmed", actor=actor, source_turn_id=source_turn_id)
    return confirmed


async def set_video_call(
    tx: AgendaTransaction, appointment_id: uuid.UUID, status: str, url: str
) -> Appointment | Refusal:
    current = await tx.get_appointment(appointment_id, for_update=True)
    if current is None:
        return refusals.unknown_appointment()
    if current.status == CANCELLED:
        return refusals.already_cancelled(current)
    updated = await tx.update_appointment(appointment_id, video_call_status=status, video_call_url=url)
    await tx.record_change(appointment_id, "video_call", reason=status)
    return updated


async def upsert_resource(tx: AgendaTransaction, resource: Resource, now: datetime) -> tuple[Resource, bool]:
    if resource.service_ids:
        unknown = set(resource.service_ids) - await tx.existing_service_ids(resource.service_ids)
        if unknown:
            raise InvalidArgument(f"resource.service_ids: no such service {', '.join(sorted(map(str, unknown)))}")
    if resource.resource_id is None:
        return await tx.insert_resource(resource), True
    existing = await tx.lock_resource(resource.resource_id)
    if existing is None:
        raise NotFound(f"resource {resource.resource_id} does not exist in this organisation")
    stored = await tx.update_resource(resource.resource_id, resource)
    if stored.capacity < existing.capacity:
        busiest = await tx.busiest_future_overlap(resource.resource_id, now)
        if busiest > stored.capacity:
            raise FailedPrecondition(
                f"resource.capacity: {busiest} upcoming appointments overlap at one moment; "
                f"cancel or move some before lowering the capacity to {stored.capacity}"
            )
    if (stored.capacity == 1) != (existing.capacity == 1):
        if not await tx.mark_exclusive(resource.resource_id, stored.capacity == 1, now):
            raise FailedPrecondition("resource.capacity: upcoming appointments of this resource overlap")
    return stored, False


async def upsert_service(tx: AgendaTransaction, service: BookableService) -> tuple[BookableService, bool]:
    if service.service_id is None:
        return await tx.insert_service(service), True
    if await tx.get_service(service.service_id) is None:
        raise NotFound(f"service {service.service_id} does not exist in this organisation")
    return await tx.update_service(service.service_id, service), False


# -- reads ---------------------------------------------------------------------------------------


async def check_availability(
    tx: AgendaTransaction, query: AvailabilityQuery, now: datetime
) -> tuple[list[Slot], bool] | Refusal:
    if isinstance(query.range, LocalDates):
        if (query.range.last - query.range.first).days + 1 > MAX_RANGE_DAYS:
            return refusals.range_too_long(MAX_RANGE_DAYS)
    elif query.range.end - query.range.start > timedelta(days=MAX_RANGE_DAYS):
        return refusals.range_too_long(MAX_RANGE_DAYS)

    if query.resource_ids:
        resources = await tx.get_resources(query.resource_ids)
        if len(resources) < len(set(query.resource_ids)):
            return refusals.unknown_resource()
        for resource in resources:
            if not resource.active:
                return refusals.inactive(resource.name)
    else:
        resources = await tx.list_resources(include_inactive=False)

    service: BookableService | None = None
    if query.service_id is not None:
        service = await tx.get_service(query.service_id)
        if service is None:
            return refusals.unknown_service()
        if not service.active:
            return refusals.inactive(service.name)
        if query.resource_ids:
            for resource in resources:
                if not resource.performs(query.service_id):
                    return refusals.unknown_service(resource.name)
        resources = [r for r in resources if r.performs(query.service_id)]

    searches = []
    for resource in resources:
        start, end = _window(query.range, resource)
        searches.append(
            SlotQuery(
                resource,
                query.service_id,
                _duration(0, service, resource),
                start,
                end,
                query.label_time_zone or resource.time_zone,
                query.time_of_day,
            )
        )
    if not searches:
        return [], False
    busy = await tx.busy_intervals(
        [s.resource.resource_id for s in searches if s.resource.resource_id is not None],
        min(s.start for s in searches),
        max(s.end for s in searches),
    )
    slots = []
    for search in searches:
        assert search.resource.resource_id is not None
        slots.extend(availability.free_slots(search, busy[search.resource.resource_id], now))
    slots.sort(key=lambda s: (s.start, s.resource_name, str(s.resource_id)))
    return slots[: query.max_slots], len(slots) > query.max_slots


def _window(requested: InstantRange | LocalDates, resource: Resource) -> tuple[datetime, datetime]:
    if isinstance(requested, InstantRange):
        return requested.start, requested.end
    tz = zone(requested.time_zone or resource.time_zone)
    return (
        boundary(requested.first, 0, tz, closing=False),
        boundary(requested.last + timedelta(days=1), 0, tz, closing=False),
    )
