"""Business hours, the slot grid and free slots: pure functions over a resource's configuration.

Business hours are local to the resource's zone; they become absolute intervals day by day
(`localtime.boundary` handles the days the clocks change). Slots start at an interval's opening
and follow every `slot_minutes` of real time, so a day the clocks go back has one slot more and
a day they jump forward one less, each labelled with its own offset.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from uuid import UUID

from services.agenda.localtime import boundary, local_days, zone
from services.agenda.model import OpenInterval, Resource, Slot


class Placement(Enum):
    """Where an interval falls against the resource's hours."""

    FITS = "fits"
    OUTSIDE = "outside"
    MISALIGNED = "misaligned"


@dataclass(frozen=True)
class Window:
    """One day's opening interval as instants, and the end of the opening it belongs to.

    Slots start inside `opens`..`closes` on a grid anchored at `opens`; a slot may run on past
    `closes` up to `open_until` when the next interval starts right away (open across midnight).
    """

    opens: datetime
    closes: datetime
    open_until: datetime


def open_windows(resource: Resource, start: datetime, end: datetime) -> list[Window]:
    """The resource's opening intervals that touch [start, end), earliest first."""
    tz = zone(resource.time_zone)
    days: list[tuple[datetime, datetime]] = []
    for day in local_days(start - timedelta(days=1), end + timedelta(days=1), tz):
        for interval in resource.business_hours.intervals_on(day):
            opens = boundary(day, interval.opens, tz, closing=False)
            closes = boundary(day, interval.closes, tz, closing=True)
            if opens < closes:
                days.append((opens, closes))
    days.sort()
    # Walk backwards so each interval knows how far the opening it starts runs on.
    windows: list[Window] = []
    until: datetime | None = None
    previous_opens: datetime | None = None
    for opens, closes in reversed(days):
        if until is None or previous_opens is None or closes < previous_opens:
            until = closes
        else:
            until = max(until, closes)
        previous_opens = opens
        windows.append(Window(opens, closes, until))
    windows.reverse()
    return [w for w in windows if w.opens < end and w.open_until > start]


def placement(resource: Resource, start: datetime, end: datetime) -> Placement:
    """Whether [start, end) lies inside the resource's hours and starts on its slot grid."""
    step = timedelta(minutes=resource.slot_minutes)
    for window in open_windows(resource, start, end):
        if window.opens <= start < window.closes and end <= window.open_until:
            return Placement.FITS if (start - window.opens) % step == timedelta(0) else Placement.MISALIGNED
    return Placement.OUTSIDE


def grid(
    resource: Resource, duration: timedelta, start: datetime, end: datetime
) -> Iterator[tuple[datetime, datetime]]:
    """Every slot of `duration` on the resource's grid lying inside [start, end), earliest first."""
    step = timedelta(minutes=resource.slot_minutes)
    slots: list[tuple[datetime, datetime]] = []
    for window in open_windows(resource, start, end):
        moment = window.opens
        if moment < start:
            # Jump to the first grid point at or after `start`.
            moment += -((window.opens - start) // step) * step
        while moment < window.closes and moment + duration <= min(window.open_until, end):
            slots.append((moment, moment + duration))
            moment += step
    return iter(sorted(set(slots)))


def busiest(busy: Sequence[tuple[datetime, datetime]], start: datetime, end: datetime) -> int:
    """The most intervals of `busy` overlapping one moment of [start, end)."""
    overlapping = [(s, e) for s, e in busy if s < end and e > start]
    moments = sorted({max(s, start) for s, _ in overlapping})
    return max((sum(1 for s, e in overlapping if s <= m < e) for m in moments), default=0)


@dataclass(frozen=True)
class SlotQuery:
    """What free slots to look for on one resource."""

    resource: Resource
    service_id: UUID | None
    duration: timedelta
    start: datetime
    end: datetime
    label_zone: str
    time_of_day: OpenInterval | None = None


def free_slots(query: SlotQuery, busy: Sequence[tuple[datetime, datetime]], now: datetime) -> list[Slot]:
    """The free slots of one resource, earliest first: not past, within notice and horizon, not full."""
    resource = query.resource
    earliest = now + timedelta(minutes=resource.min_notice_minutes)
    latest = now + timedelta(days=resource.booking_horizon_days) if resource.booking_horizon_days else None
    label_tz = zone(query.label_zone)
    busy = sorted(busy)
    starts = [s for s, _ in busy]
    slots = []
    for start, end in grid(resource, query.duration, max(query.start, earliest), query.end):
        if latest is not None and start > latest:
            break
        if query.time_of_day is not None:
            local = start.astimezone(label_tz)
            minute = local.hour * 60 + local.minute
            if not query.time_of_day.opens <= minute < query.time_of_day.closes:
                continue
        # Only intervals starting before the slot ends can overlap it.
        candidates = busy[: bisect.bisect_left(starts, end)]
        remaining = resource.capacity - busiest(candidates, start, end)
        if remaining > 0:
            assert resource.resource_id is not None
            slots.append(
                Slot(resource.resource_id, resource.name, query.service_id, start, end, query.label_zone, remaining)
            )
    return slots


def nearest(slots: Sequence[Slot], around: datetime, count: int) -> list[Slot]:
    """The `count` slots closest in time to `around`, earliest first."""
    closest = sorted(slots, key=lambda s: (abs(s.start - around), s.start))[:count]
    return sorted(closest, key=lambda s: (s.start, s.resource_name))
