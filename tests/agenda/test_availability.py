"""Business hours, the slot grid and remaining capacity (pure functions, no database)."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

from services.agenda.availability import Placement, SlotQuery, busiest, free_slots, grid, placement
from services.agenda.labels import iso
from services.agenda.localtime import zone
from services.agenda.model import BusinessHours, DateOverride, OpenInterval, Place, Resource, WeeklyInterval

ORG = uuid.uuid4()


def _resource(tz: str, *, opens: int = 0, closes: int = 24 * 60, slot: int = 60, capacity: int = 1, **kw) -> Resource:
    hours = BusinessHours(tuple(WeeklyInterval(day, opens, closes) for day in range(1, 8)), kw.pop("overrides", ()))
    return Resource(ORG, uuid.uuid4(), "Sala 1", "room", tz, hours, slot, capacity, Place(), "never", **kw)


def _local_starts(resource: Resource, start: datetime, end: datetime) -> list[str]:
    tz = zone(resource.time_zone)
    return [iso(s, tz) for s, _ in grid(resource, timedelta(minutes=resource.slot_minutes), start, end)]


def test_the_day_new_york_falls_back_has_the_repeated_hour_twice() -> None:
    resource = _resource("America/New_York", opens=0, closes=4 * 60)
    starts = _local_starts(resource, datetime(2018, 11, 4, 0, tzinfo=UTC), datetime(2018, 11, 5, tzinfo=UTC))
    assert starts == [
        "2018-11-04T00:00:00-04:00",
        "2018-11-04T01:00:00-04:00",
        "2018-11-04T01:00:00-05:00",
        "2018-11-04T02:00:00-05:00",
        "2018-11-04T03:00:00-05:00",
    ]


def test_the_day_sao_paulo_jumps_forward_has_no_midnight() -> None:
    resource = _resource("America/Sao_Paulo", opens=0, closes=3 * 60)
    starts = _local_starts(resource, datetime(2018, 11, 4, 0, tzinfo=UTC), datetime(2018, 11, 5, tzinfo=UTC))
    assert starts == ["2018-11-04T01:00:00-02:00", "2018-11-04T02:00:00-02:00"]


def test_placement_inside_outside_and_off_the_grid() -> None:
    resource = _resource("America/Sao_Paulo", opens=9 * 60, closes=12 * 60, slot=30)
    nine = datetime(2024, 11, 5, 12, 0, tzinfo=UTC)  # 09:00 -03:00
    assert placement(resource, nine, nine + timedelta(minutes=30)) is Placement.FITS
    assert placement(resource, nine + timedelta(minutes=150), nine + timedelta(minutes=180)) is Placement.FITS
    assert placement(resource, nine + timedelta(minutes=160), nine + timedelta(minutes=190)) is Placement.OUTSIDE
    assert placement(resource, nine - timedelta(minutes=30), nine) is Placement.OUTSIDE
    assert placement(resource, nine + timedelta(minutes=10), nine + timedelta(minutes=40)) is Placement.MISALIGNED


def test_a_closed_date_override_replaces_the_weekday() -> None:
    resource = _resource(
        "America/Sao_Paulo", opens=9 * 60, closes=12 * 60, overrides=(DateOverride(date(2024, 12, 25), True),)
    )
    christmas = datetime(2024, 12, 25, 12, 0, tzinfo=UTC)
    assert placement(resource, christmas, christmas + timedelta(minutes=60)) is Placement.OUTSIDE
    assert (
        placement(resource, christmas + timedelta(days=1), christmas + timedelta(days=1, minutes=60)) is Placement.FITS
    )
    opened = _resource(
        "America/Sao_Paulo",
        opens=9 * 60,
        closes=12 * 60,
        overrides=(DateOverride(date(2024, 12, 25), False, (OpenInterval(14 * 60, 15 * 60),)),),
    )
    assert placement(opened, christmas, christmas + timedelta(minutes=60)) is Placement.OUTSIDE
    assert placement(opened, christmas + timedelta(hours=5), christmas + timedelta(hours=6)) is Placement.FITS


def test_busiest_counts_the_most_crowded_moment_not_every_overlap() -> None:
    t = datetime(2030, 1, 1, 10, tzinfo=UTC)
    h = timedelta(hours=1)
    busy = [(t, t + h / 2), (t + h / 2, t + h)]
    assert busiest(busy, t, t + h) == 1
    assert busiest([*busy, (t, t + h)], t, t + h) == 2
    assert busiest(busy, t + h, t + 2 * h) == 0


def test_free_slots_leave_out_the_past_notice_full_and_keep_remaining_capacity() -> None:
    resource = _resource("UTC", opens=9 * 60, closes=12 * 60, capacity=2, min_notice_minutes=60)
    day = datetime(2030, 1, 7, tzinfo=UTC)
    now = day + timedelta(hours=8, minutes=30)  # 08:30: the 09:00 slot is within the notice
    busy = [(day + timedelta(hours=10), day + timedelta(hours=11))] * 2 + [
        (day + timedelta(hours=11), day + timedelta(hours=12))
    ]
    query = SlotQuery(resource, None, timedelta(hours=1), day, day + timedelta(days=1), "America/Sao_Paulo")
    slots = free_slots(query, busy, now)
    assert [(iso(s.start, zone("America/Sao_Paulo")), s.remaining_capacity) for s in slots] == [
        ("2030-01-07T08:00:00-03:00", 1),
    ]
