"""Wall-clock time in IANA zones: validating zones and turning local times into instants.

A local date-time is what a person says ("domingo às 00:30"); an instant is what the database
stores. Between the two sit DST changes: a local time may not exist (the clocks jumped over
it) or may happen twice (the clocks went back). Bookings never guess: `resolve` reports both
cases and only a caller's explicit fold picks one of two repeated instants. Business hours,
which are the owner's configuration rather than a customer's request, use `boundary`, which
maps a time inside a gap to the moment the clocks jumped.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import Enum
from zoneinfo import ZoneInfo, available_timezones

# Files in the zone folder that are not zones a person would mean.
_NOT_ZONES = frozenset({"localtime", "posixrules", "Factory"})


class InvalidTimeZone(ValueError):
    """The name is not an IANA time zone."""


@functools.cache
def _known_zones() -> frozenset[str]:
    return frozenset(available_timezones()) - _NOT_ZONES


def zone(name: str) -> ZoneInfo:
    """The IANA zone called `name`, or `InvalidTimeZone` naming the problem."""
    if not name or name not in _known_zones():
        raise InvalidTimeZone(f"{name!r} is not an IANA time zone (for example 'America/Sao_Paulo')")
    return ZoneInfo(name)


def is_zone(name: str) -> bool:
    return bool(name) and name in _known_zones()


class Fold(Enum):
    """Which instant a repeated local time means."""

    UNSPECIFIED = 0
    EARLIER = 1
    LATER = 2


@dataclass(frozen=True)
class Resolved:
    """The local time exists once (or the fold chose one of its two instants)."""

    instant: datetime


@dataclass(frozen=True)
class Nonexistent:
    """The local time falls in a DST gap: the clocks jumped over it."""

    local: datetime
    zone_name: str
    # How far the clocks jumped forward.
    jump: timedelta


@dataclass(frozen=True)
class Ambiguous:
    """The local time happens twice (a DST overlap) and no fold was chosen."""

    local: datetime
    zone_name: str
    earlier: datetime
    later: datetime


Resolution = Resolved | Nonexistent | Ambiguous


def resolve(local: datetime, zone_name: str, fold: Fold = Fold.UNSPECIFIED) -> Resolution:
    """Turn a naive local date-time in `zone_name` into an instant, never shifting it silently."""
    if local.tzinfo is not None:
        raise ValueError("resolve expects a naive local date-time")
    tz = zone(zone_name)
    first = local.replace(tzinfo=tz, fold=0)
    second = local.replace(tzinfo=tz, fold=1)
    # A local time in a gap does not survive the round trip through UTC.
    if first.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != local:
        jump = (second.utcoffset() or timedelta()) - (first.utcoffset() or timedelta())
        return Nonexistent(local, zone_name, abs(jump))
    if first.utcoffset() != second.utcoffset():
        earlier, later = sorted((first.astimezone(UTC), second.astimezone(UTC)))
        if fold is Fold.EARLIER:
            return Resolved(earlier)
        if fold is Fold.LATER:
            return Resolved(later)
        return Ambiguous(local, zone_name, earlier, later)
    return Resolved(first.astimezone(UTC))


def is_repeated(instant: datetime, tz: ZoneInfo) -> bool:
    """Whether the local time this instant shows in `tz` also names another instant."""
    local = instant.astimezone(tz).replace(tzinfo=None)
    return local.replace(tzinfo=tz, fold=0).utcoffset() != local.replace(tzinfo=tz, fold=1).utcoffset()


def boundary(day: date, minute_of_day: int, tz: ZoneInfo, *, closing: bool) -> datetime:
    """The instant of an opening or closing time ("08:00", "24:00") of business hours.

    A time inside a DST gap maps to the moment the clocks jumped; a repeated time opens at its
    first occurrence and closes at its second, so the owner's hours are never shortened.
    """
    local = datetime.combine(day, time()) + timedelta(minutes=minute_of_day)
    first = local.replace(tzinfo=tz, fold=0)
    second = local.replace(tzinfo=tz, fold=1)
    if first.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != local:
        return _transition(tz, second.astimezone(UTC), first.astimezone(UTC))
    instants = sorted((first.astimezone(UTC), second.astimezone(UTC)))
    return instants[1] if closing else instants[0]


def _transition(tz: ZoneInfo, low: datetime, high: datetime) -> datetime:
    """The instant in (low, high] at which the offset of `tz` changes (to the second)."""
    before = low.astimezone(tz).utcoffset()
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        middle = middle.replace(microsecond=0)
        if middle <= low:
            break
        if middle.astimezone(tz).utcoffset() == before:
            low = middle
        else:
            high = middle
    return high


def local_days(start: datetime, end: datetime, tz: ZoneInfo) -> list[date]:
    """Every local date in `tz` that the interval [start, end) touches."""
    first = start.astimezone(tz).date()
    last = (end - timedelta(microseconds=1)).astimezone(tz).date()
    days = []
    day = first
    while day <= last:
        days.append(day)
        day += timedelta(days=1)
    return days


def parse_clock(text: str, *, allow_end_of_day: bool = False) -> int:
    """Minutes since midnight of "HH:MM"; "24:00" only where an interval may close at midnight."""
    parts = text.split(":")
    if len(parts) != 2 or not all(p.isdigit() and len(p) == 2 for p in parts):
        raise ValueError(f"{text!r} is not a time of day as HH:MM")
    hours, minutes = int(parts[0]), int(parts[1])
    if allow_end_of_day and hours == 24 and minutes == 0:
        return 24 * 60
    if hours > 23 or minutes > 59:
        raise ValueError(f"{text!r} is not a time of day as HH:MM")
    return hours * 60 + minutes


def format_clock(minute_of_day: int) -> str:
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"
