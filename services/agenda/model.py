"""The agenda's domain: resources, services, appointments, slots, refusals and errors.

Plain data, no gRPC and no SQL. Enumerations are stored and passed as the lower-case words
the database keeps ("pending", "in_person"); `service.py` maps them to the proto enums.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum


class AgendaError(Exception):
    """Base of the errors `service.py` maps to gRPC status codes."""


class InvalidArgument(AgendaError):
    """The request is malformed (missing id, end before start, a zone that is not IANA)."""


class NotFound(AgendaError):
    """A Get or an Upsert named an id this organisation does not have."""


class FailedPrecondition(AgendaError):
    """The change is well formed but the agenda's current state forbids it."""


class RefusalCode(StrEnum):
    """Business refusals; the names match the proto's `REFUSAL_CODE_*` suffixes."""

    SLOT_TAKEN = "SLOT_TAKEN"
    OUTSIDE_BUSINESS_HOURS = "OUTSIDE_BUSINESS_HOURS"
    IN_THE_PAST = "IN_THE_PAST"
    UNKNOWN_RESOURCE = "UNKNOWN_RESOURCE"
    NONEXISTENT_LOCAL_TIME = "NONEXISTENT_LOCAL_TIME"
    AMBIGUOUS_LOCAL_TIME = "AMBIGUOUS_LOCAL_TIME"
    UNKNOWN_SERVICE = "UNKNOWN_SERVICE"
    RESOURCE_INACTIVE = "RESOURCE_INACTIVE"
    TOO_SHORT_NOTICE = "TOO_SHORT_NOTICE"
    BEYOND_BOOKING_HORIZON = "BEYOND_BOOKING_HORIZON"
    MISALIGNED_START = "MISALIGNED_START"
    UNKNOWN_APPOINTMENT = "UNKNOWN_APPOINTMENT"
    ALREADY_CANCELLED = "ALREADY_CANCELLED"
    CONTACT_ALREADY_BOOKED = "CONTACT_ALREADY_BOOKED"
    RANGE_TOO_LONG = "RANGE_TOO_LONG"


PENDING, CONFIRMED, CANCELLED = "pending", "confirmed", "cancelled"
VIDEO_NONE, VIDEO_PENDING, VIDEO_READY, VIDEO_FAILED = "none", "pending", "ready", "failed"
POLICY_NEVER, POLICY_OPTIONAL, POLICY_ALWAYS = "never", "optional", "always"


@dataclass(frozen=True)
class Place:
    kind: str = "unspecified"
    name: str = ""
    address: str = ""
    instructions: str = ""

    def is_empty(self) -> bool:
        return self.kind == "unspecified" and not (self.name or self.address or self.instructions)

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "name": self.name, "address": self.address, "instructions": self.instructions}

    @classmethod
    def from_json(cls, data: dict[str, str] | None) -> Place:
        return cls(**data) if data else cls()


@dataclass(frozen=True)
class OpenInterval:
    """Local opening hours of one day, in minutes since midnight (`closes` may be 1440)."""

    opens: int
    closes: int


@dataclass(frozen=True)
class WeeklyInterval:
    weekday: int  # ISO: 1 = Monday … 7 = Sunday
    opens: int
    closes: int


@dataclass(frozen=True)
class DateOverride:
    day: date
    closed: bool
    intervals: tuple[OpenInterval, ...] = ()


@dataclass(frozen=True)
class BusinessHours:
    weekly: tuple[WeeklyInterval, ...] = ()
    overrides: tuple[DateOverride, ...] = ()

    def intervals_on(self, day: date) -> list[OpenInterval]:
        """The local intervals open on `day`: its override if one exists, else its weekday's."""
        for override in self.overrides:
            if override.day == day:
                return [] if override.closed else sorted(override.intervals, key=lambda i: i.opens)
        weekday = day.isoweekday()
        return sorted(
            (OpenInterval(w.opens, w.closes) for w in self.weekly if w.weekday == weekday), key=lambda i: i.opens
        )

    def to_json(self) -> dict[str, list[dict[str, object]]]:
        return {
            "weekly": [{"weekday": w.weekday, "opens": w.opens, "closes": w.closes} for w in self.weekly],
            "overrides": [
                {
                    "date": o.day.isoformat(),
                    "closed": o.closed,
                    "intervals": [{"opens": i.opens, "closes": i.closes} for i in o.intervals],
                }
                for o in self.overrides
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, list[dict[str, object]]]) -> BusinessHours:
        weekly = tuple(
            WeeklyInterval(int(w["weekday"]), int(w["opens"]), int(w["closes"]))  # type: ignore[call-overload]
            for w in data.get("weekly", [])
        )
        overrides = tuple(
            DateOverride(
                date.fromisoformat(str(o["date"])),
                bool(o["closed"]),
                tuple(OpenInterval(int(i["opens"]), int(i["closes"])) for i in o["intervals"]),  # type: ignore[attr-defined]
            )
            for o in data.get("overrides", [])
        )
        return cls(weekly, overrides)


@dataclass(frozen=True)
class Resource:
    organization_id: uuid.UUID
    resource_id: uuid.UUID | None
    name: str
    kind: str
    time_zone: str
    business_hours: BusinessHours
    slot_minutes: int
    capacity: int
    place: Place
    video_call: str
    min_notice_minutes: int = 0
    booking_horizon_days: int = 0
    service_ids: tuple[uuid.UUID, ...] = ()
    active: bool = True
    created_at: datetime | None = None
    updated_at: datetime | None = None

    def performs(self, service_id: uuid.UUID) -> bool:
        return not self.service_ids or service_id in self.service_ids


@dataclass(frozen=True)
class BookableService:
    organization_id: uuid.UUID
    service_id: uuid.UUID | None
    name: str
    description: str = ""
    duration_minutes: int = 0
    place: Place | None = None
    video_call: str | None = None
    active: bool = True


@dataclass(frozen=True)
class Appointment:
    organization_id: uuid.UUID
    appointment_id: uuid.UUID
    contact_id: uuid.UUID
    resource_id: uuid.UUID
    resource_name: str
    service_id: uuid.UUID | None
    service_name: str
    start_time: datetime
    end_time: datetime
    time_zone: str
    status: str
    place: Place
    video_call_status: str
    video_call_url: str
    notes: str
    cancellation_reason: str
    source_turn_id: str
    booked_by: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Slot:
    """A free interval on a resource; `label_zone` is the zone its labels are rendered in."""

    resource_id: uuid.UUID
    resource_name: str
    service_id: uuid.UUID | None
    start: datetime
    end: datetime
    label_zone: str
    remaining_capacity: int


@dataclass(frozen=True)
class Refusal:
    code: RefusalCode
    message_pt: str
    alternatives: tuple[Slot, ...] = ()


@dataclass(frozen=True)
class Interval:
    """An interval an appointment occupied, with the zone its labels are rendered in."""

    start: datetime
    end: datetime
    time_zone: str


@dataclass(frozen=True)
class Moved:
    """A successful reschedule: the appointment now and the interval it had before."""

    appointment: Appointment
    previous: Interval


@dataclass(frozen=True)
class Page:
    appointments: list[Appointment] = field(default_factory=list)
    next_after: tuple[datetime, uuid.UUID] | None = None
