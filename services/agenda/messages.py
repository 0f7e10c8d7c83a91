"""Proto ↔ domain for the agenda: argument parsing (raising `InvalidArgument`) and results.

Every appointment, slot and interval leaves here with its pt-BR labels rendered in its zone
and its absolute instants, so the labels and the instants always travel together.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import uuid
from datetime import UTC, date, datetime

from google.protobuf.timestamp_pb2 import Timestamp

from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2
from services.agenda import labels as labels_mod
from services.agenda.localtime import Fold, format_clock, is_zone, parse_clock, zone
from services.agenda.model import (
    Appointment,
    BookableService,
    BusinessHours,
    DateOverride,
    Interval,
    InvalidArgument,
    OpenInterval,
    Place,
    Refusal,
    Resource,
    Slot,
    WeeklyInterval,
)
from services.agenda.scheduling import InstantRange, LocalDates, LocalStart, Start

# -- arguments -----------------------------------------------------------------------------------


def required_uuid(value: str, field: str) -> uuid.UUID:
    if not value:
        raise InvalidArgument(f"{field} is required")
    return _uuid(value, field)


def optional_uuid(value: str, field: str) -> uuid.UUID | None:
    return _uuid(value, field) if value else None


def _uuid(value: str, field: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise InvalidArgument(f"{field} must be a UUID, got {value!r}") from None


def optional_zone(name: str, field: str) -> str:
    """'' stays '' (the default zone applies); anything else must be an IANA zone."""
    if name and not is_zone(name):
        raise InvalidArgument(f"{field}: {name!r} is not an IANA time zone (for example 'America/Sao_Paulo')")
    return name


def required_zone(name: str, field: str) -> str:
    if not name:
        raise InvalidArgument(f"{field} is required (an IANA time zone such as 'America/Sao_Paulo')")
    return optional_zone(name, field)


def instant(ts: Timestamp) -> datetime:
    return ts.ToDatetime(tzinfo=UTC)


def timestamp(moment: datetime) -> Timestamp:
    ts = Timestamp()
    ts.FromDatetime(moment.astimezone(UTC))
    return ts


def optional_instant(message: object, field: str) -> datetime | None:
    return instant(getattr(message, field)) if message.HasField(field) else None  # type: ignore[attr-defined]


def non_negative(value: int, field: str) -> int:
    if value < 0:
        raise InvalidArgument(f"{field} must not be negative, got {value}")
    return value


_FOLDS = {
    pb.LOCAL_TIME_FOLD_UNSPECIFIED: Fold.UNSPECIFIED,
    pb.LOCAL_TIME_FOLD_EARLIER: Fold.EARLIER,
    pb.LOCAL_TIME_FOLD_LATER: Fold.LATER,
}


def start_point(point: pb.TimePoint, field: str) -> Start:
    """A TimePoint as an instant or a local start; malformed local date-times are invalid."""
    which = point.WhichOneof("point")
    if which == "instant":
        return instant(point.instant)
    if which != "local":
        raise InvalidArgument(f"{field} is required: an instant or a local date-time with its zone")
    text = point.local.local_date_time
    try:
        local = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidArgument(
            f"{field}.local.local_date_time: {text!r} is not an ISO-8601 local date-time (2018-11-04T00:30:00)"
        ) from None
    if local.tzinfo is not None or "T" not in text:
        raise InvalidArgument(
            f"{field}.local.local_date_time: {text!r} must be a date and time without offset; put the zone in time_zone"
        )
    if point.local.fold not in _FOLDS:
        raise InvalidArgument(f"{field}.local.fold: unknown value {point.local.fold}")
    return LocalStart(local, optional_zone(point.local.time_zone, f"{field}.local.time_zone"), _FOLDS[point.local.fold])


def time_range(message: pb.TimeRange, field: str) -> InstantRange:
    if not message.HasField("start_time") or not message.HasField("end_time"):
        raise InvalidArgument(f"{field} needs start_time and end_time")
    start, end = instant(message.start_time), instant(message.end_time)
    if end <= start:
        raise InvalidArgument(f"{field}: end_time must be after start_time")
    return InstantRange(start, end)


def local_dates(message: pb.LocalDateRange, field: str) -> LocalDates:
    first = _date(message.first_date, f"{field}.first_date")
    last = _date(message.last_date, f"{field}.last_date")
    if last < first:
        raise InvalidArgument(f"{field}: last_date must not be before first_date")
    return LocalDates(first, last, optional_zone(message.time_zone, f"{field}.time_zone"))


def _date(text: str, field: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidArgument(f"{field}: {text!r} is not an ISO-8601 date (2024-11-05)") from None


def time_of_day(message: pb.TimeOfDayInterval, field: str) -> OpenInterval:
    try:
        opens = parse_clock(message.opens)
        closes = parse_clock(message.closes, allow_end_of_day=True)
    except ValueError as exc:
        raise InvalidArgument(f"{field}: {exc}") from None
    if closes <= opens:
        raise InvalidArgument(f"{field}: closes ({message.closes}) must be after opens ({message.opens})")
    return OpenInterval(opens, closes)


def _word(enum: object, prefix: str, number: int, field: str, *, allow_unspecified: bool = True) -> str:
    try:
        name = enum.Name(number)  # type: ignore[attr-defined]
    except ValueError:
        raise InvalidArgument(f"{field}: unknown value {number}") from None
    word = name.removeprefix(prefix).lower()
    if word == "unspecified" and not allow_unspecified:
        raise InvalidArgument(f"{field} is required")
    return word


def _number(enum: object, prefix: str, word: str) -> int:
    return int(enum.Value(prefix + word.upper()))  # type: ignore[attr-defined]


def place_arg(message: pb.Place, field: str) -> Place:
    kind = _word(pb.PlaceKind, "PLACE_KIND_", message.kind, f"{field}.kind")
    return Place(kind, message.name.strip(), message.address.strip(), message.instructions.strip())


def business_hours(message: pb.BusinessHours, field: str) -> BusinessHours:
    weekly = []
    for index, interval in enumerate(message.weekly):
        where = f"{field}.weekly[{index}]"
        _word(pb.Weekday, "WEEKDAY_", interval.weekday, f"{where}.weekday", allow_unspecified=False)
        weekday = interval.weekday
        hours = time_of_day(pb.TimeOfDayInterval(opens=interval.opens, closes=interval.closes), where)
        weekly.append(WeeklyInterval(int(weekday), hours.opens, hours.closes))
    overrides = []
    seen: set[date] = set()
    for index, override in enumerate(message.overrides):
        where = f"{field}.overrides[{index}]"
        day = _date(override.date, f"{where}.date")
        if day in seen:
            raise InvalidArgument(f"{where}.date: {day} appears twice")
        seen.add(day)
        intervals = tuple(time_of_day(i, f"{where}.intervals[{n}]") for n, i in enumerate(override.intervals))
        if override.closed and intervals:
            raise InvalidArgument(f"{where}: a closed date has no intervals")
        overrides.append(DateOverride(day, override.closed, intervals))
    _no_overlaps([(w.weekday, OpenInterval(w.opens, w.closes)) for w in weekly], f"{field}.weekly")
    for override in overrides:
        _no_overlaps([(0, i) for i in override.intervals], f"{field}.overrides[{override.day}]")
    return BusinessHours(tuple(weekly), tuple(overrides))


def _no_overlaps(intervals: list[tuple[int, OpenInterval]], field: str) -> None:
    ordered = sorted(intervals, key=lambda item: (item[0], item[1].opens))
    for (day_a, a), (day_b, b) in itertools.pairwise(ordered):
        if day_a == day_b and b.opens < a.closes:
            raise InvalidArgument(f"{field}: intervals overlap on the same day")


def resource_arg(organization_id: uuid.UUID, message: pb.Resource) -> Resource:
    field = "resource"
    if not message.name.strip():
        raise InvalidArgument(f"{field}.name is required")
    time_zone = required_zone(message.time_zone, f"{field}.time_zone")
    if message.slot_minutes < 1:
        raise InvalidArgument(f"{field}.slot_minutes must be at least 1, got {message.slot_minutes}")
    if message.capacity < 1:
        raise InvalidArgument(f"{field}.capacity must be at least 1, got {message.capacity}")
    video_call = _word(pb.VideoCallPolicy, "VIDEO_CALL_POLICY_", message.video_call, f"{field}.video_call")
    return Resource(
        organization_id=organization_id,
        resource_id=optional_uuid(message.resource_id, f"{field}.resource_id"),
        name=message.name.strip(),
        kind=_word(pb.ResourceKind, "RESOURCE_KIND_", message.kind, f"{field}.kind"),
        time_zone=time_zone,
        business_hours=business_hours(message.business_hours, f"{field}.business_hours"),
        slot_minutes=message.slot_minutes,
        capacity=message.capacity,
        place=place_arg(message.place, f"{field}.place"),
        video_call="never" if video_call == "unspecified" else video_call,
        min_notice_minutes=non_negative(message.min_notice_minutes, f"{field}.min_notice_minutes"),
        booking_horizon_days=non_negative(message.booking_horizon_days, f"{field}.booking_horizon_days"),
        service_ids=tuple(
            dict.fromkeys(
                required_uuid(value, f"{field}.service_ids[{n}]") for n, value in enumerate(message.service_ids)
            )
        ),
        active=message.active,
    )


def service_arg(organization_id: uuid.UUID, message: pb.BookableService) -> BookableService:
    field = "service"
    if not message.name.strip():
        raise InvalidArgument(f"{field}.name is required")
    place = place_arg(message.place, f"{field}.place")
    video_call = _word(pb.VideoCallPolicy, "VIDEO_CALL_POLICY_", message.video_call, f"{field}.video_call")
    return BookableService(
        organization_id=organization_id,
        service_id=optional_uuid(message.service_id, f"{field}.service_id"),
        name=message.name.strip(),
        description=message.description.strip(),
        duration_minutes=non_negative(message.duration_minutes, f"{field}.duration_minutes"),
        place=None if place.is_empty() else place,
        video_call=None if video_call == "unspecified" else video_call,
        active=message.active,
    )


def appointment_status(number: int, field: str) -> str:
    return _word(pb.AppointmentStatus, "APPOINTMENT_STATUS_", number, field, allow_unspecified=False)


def video_call_status(number: int, field: str) -> str:
    return _word(pb.VideoCallStatus, "VIDEO_CALL_STATUS_", number, field, allow_unspecified=False)


def page_token(text: str) -> tuple[datetime, uuid.UUID] | None:
    if not text:
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(text.encode()))
        return datetime.fromisoformat(data["s"]), uuid.UUID(data["i"])
    except (ValueError, KeyError, TypeError, binascii.Error):
        raise InvalidArgument("page_token is not a token this service issued") from None


def next_page_token(after: tuple[datetime, uuid.UUID]) -> str:
    data = json.dumps({"s": after[0].isoformat(), "i": str(after[1])})
    return base64.urlsafe_b64encode(data.encode()).decode()


# -- results -------------------------------------------------------------------------------------


def labels(start: datetime, end: datetime, zone_name: str) -> pb.LocalTimeLabels:
    rendered = labels_mod.interval_labels(start, end, zone(zone_name))
    return pb.LocalTimeLabels(
        time_zone=rendered.time_zone,
        start_label=rendered.start_label,
        end_label=rendered.end_label,
        date_label=rendered.date_label,
        time_range_label=rendered.time_range_label,
        zone_label=rendered.zone_label,
        start_iso=rendered.start_iso,
        end_iso=rendered.end_iso,
    )


def place(value: Place | None) -> pb.Place | None:
    if value is None:
        return None
    return pb.Place(
        kind=_number(pb.PlaceKind, "PLACE_KIND_", value.kind),
        name=value.name,
        address=value.address,
        instructions=value.instructions,
    )


def appointment(value: Appointment) -> pb.Appointment:
    return pb.Appointment(
        appointment_id=str(value.appointment_id),
        organization_id=str(value.organization_id),
        contact_id=str(value.contact_id),
        resource_id=str(value.resource_id),
        resource_name=value.resource_name,
        service_id=str(value.service_id) if value.service_id else "",
        service_name=value.service_name,
        start_time=timestamp(value.start_time),
        end_time=timestamp(value.end_time),
        time_zone=value.time_zone,
        labels=labels(value.start_time, value.end_time, value.time_zone),
        status=_number(pb.AppointmentStatus, "APPOINTMENT_STATUS_", value.status),
        place=place(value.place),
        video_call_status=_number(pb.VideoCallStatus, "VIDEO_CALL_STATUS_", value.video_call_status),
        video_call_url=value.video_call_url,
        notes=value.notes,
        cancellation_reason=value.cancellation_reason,
        source_turn_id=value.source_turn_id,
        booked_by=value.booked_by,
        created_at=timestamp(value.created_at),
        updated_at=timestamp(value.updated_at),
    )


def interval(value: Interval) -> agenda_write_pb2.ExecutedInterval:
    return agenda_write_pb2.ExecutedInterval(
        start_time=timestamp(value.start),
        end_time=timestamp(value.end),
        labels=labels(value.start, value.end, value.time_zone),
    )


def slot(value: Slot) -> pb.Slot:
    return pb.Slot(
        resource_id=str(value.resource_id),
        resource_name=value.resource_name,
        service_id=str(value.service_id) if value.service_id else "",
        start_time=timestamp(value.start),
        end_time=timestamp(value.end),
        labels=labels(value.start, value.end, value.label_zone),
        remaining_capacity=value.remaining_capacity,
    )


def refusal(value: Refusal) -> pb.Refusal:
    return pb.Refusal(
        code=pb.RefusalCode.Value(f"REFUSAL_CODE_{value.code.value}"),
        message_pt=value.message_pt,
        alternatives=[slot(s) for s in value.alternatives],
    )


def resource(value: Resource) -> pb.Resource:
    hours = value.business_hours
    return pb.Resource(
        resource_id=str(value.resource_id),
        organization_id=str(value.organization_id),
        name=value.name,
        kind=_number(pb.ResourceKind, "RESOURCE_KIND_", value.kind),
        time_zone=value.time_zone,
        business_hours=pb.BusinessHours(
            weekly=[
                pb.WeeklyInterval(weekday=w.weekday, opens=format_clock(w.opens), closes=format_clock(w.closes))  # type: ignore[arg-type]
                for w in hours.weekly
            ],
            overrides=[
                pb.DateOverride(
                    date=o.day.isoformat(),
                    closed=o.closed,
                    intervals=[
                        pb.TimeOfDayInterval(opens=format_clock(i.opens), closes=format_clock(i.closes))
                        for i in o.intervals
                    ],
                )
                for o in hours.overrides
            ],
        ),
        slot_minutes=value.slot_minutes,
        capacity=value.capacity,
        place=place(value.place),
        video_call=_number(pb.VideoCallPolicy, "VIDEO_CALL_POLICY_", value.video_call),
        min_notice_minutes=value.min_notice_minutes,
        booking_horizon_days=value.booking_horizon_days,
        service_ids=[str(s) for s in value.service_ids],
        active=value.active,
        created_at=timestamp(value.created_at) if value.created_at else None,
        updated_at=timestamp(value.updated_at) if value.updated_at else None,
    )


def service(value: BookableService) -> pb.BookableService:
    return pb.BookableService(
        service_id=str(value.service_id),
        organization_id=str(value.organization_id),
        name=value.name,
        description=value.description,
        duration_minutes=value.duration_minutes,
        place=place(value.place),
        video_call=_number(pb.VideoCallPolicy, "VIDEO_CALL_POLICY_", value.video_call or "unspecified"),
        active=value.active,
    )
