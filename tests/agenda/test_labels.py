"""pt-BR labels and local-time resolution across DST changes (pure functions, no database)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.agenda.labels import instant_label, interval_labels, iso
from services.agenda.localtime import (
    Ambiguous,
    Fold,
    InvalidTimeZone,
    Nonexistent,
    Resolved,
    boundary,
    resolve,
    zone,
)

SP, NY, LISBON = ZoneInfo("America/Sao_Paulo"), ZoneInfo("America/New_York"), ZoneInfo("Europe/Lisbon")


def test_the_reference_label() -> None:
    labels = interval_labels(datetime(2024, 11, 5, 17, 30, tzinfo=UTC), datetime(2024, 11, 5, 18, 0, tzinfo=UTC), SP)
    assert labels.start_label == "terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)"
    assert labels.end_label == "terça-feira, 5 de novembro de 2024, 15:00 (horário de Brasília)"
    assert labels.date_label == "terça-feira, 5 de novembro de 2024"
    assert labels.time_range_label == "14:30–15:00"
    assert labels.zone_label == "horário de Brasília"
    assert labels.start_iso == "2024-11-05T14:30:00-03:00"
    assert labels.end_iso == "2024-11-05T15:00:00-03:00"
    assert labels.time_zone == "America/Sao_Paulo"


@pytest.mark.parametrize(
    ("instant", "tz", "label", "offset"),
    [
        # São Paulo, summer time 2017/18 and after it ended on 2018-02-18.
        (
            "2018-01-10T15:00Z",
            SP,
            "quarta-feira, 10 de janeiro de 2018, 13:00 (horário de verão de Brasília)",
            "-02:00",
        ),
        ("2018-03-10T15:00Z", SP, "sábado, 10 de março de 2018, 12:00 (horário de Brasília)", "-03:00"),
        # The first instant after the 2018-11-04 jump: the clocks show 01:00, not 00:00.
        ("2018-11-04T03:00Z", SP, "domingo, 4 de novembro de 2018, 01:00 (horário de verão de Brasília)", "-02:00"),
        ("2018-11-04T02:59Z", SP, "sábado, 3 de novembro de 2018, 23:59 (horário de Brasília)", "-03:00"),
        ("2018-07-04T16:00Z", NY, "quarta-feira, 4 de julho de 2018, 12:00 (horário de verão do Leste)", "-04:00"),
        ("2018-12-04T17:00Z", NY, "terça-feira, 4 de dezembro de 2018, 12:00 (horário do Leste)", "-05:00"),
        (
            "2018-08-01T11:00Z",
            LISBON,
            "quarta-feira, 1 de agosto de 2018, 12:00 (horário de verão da Europa Ocidental)",
            "+01:00",
        ),
        ("2018-12-01T12:00Z", LISBON, "sábado, 1 de dezembro de 2018, 12:00 (horário da Europa Ocidental)", "+00:00"),
    ],
)
def test_labels_follow_the_offset_of_each_instant(instant: str, tz: ZoneInfo, label: str, offset: str) -> None:
    moment = datetime.fromisoformat(instant)
    assert instant_label(moment, tz) == label
    assert iso(moment, tz).endswith(offset)
    assert datetime.fromisoformat(iso(moment, tz)) == moment


@pytest.mark.parametrize(
    ("local", "tz", "jump"),
    [
        (datetime(2018, 11, 4, 0, 0), "America/Sao_Paulo", timedelta(hours=1)),
        (datetime(2018, 11, 4, 0, 30), "America/Sao_Paulo", timedelta(hours=1)),
        (datetime(2018, 3, 11, 2, 30), "America/New_York", timedelta(hours=1)),
        (datetime(2018, 3, 25, 1, 15), "Europe/Lisbon", timedelta(hours=1)),
    ],
)
def test_a_local_time_inside_a_gap_does_not_exist(local: datetime, tz: str, jump: timedelta) -> None:
    for fold in Fold:
        outcome = resolve(local, tz, fold)
        assert outcome == Nonexistent(local, tz, jump)


@pytest.mark.parametrize(
    ("local", "tz", "earlier", "later", "earlier_label", "later_label"),
    [
        (
            datetime(2018, 2, 17, 23, 30),
            "America/Sao_Paulo",
            "2018-02-18T01:30Z",
            "2018-02-18T02:30Z",
            "sábado, 17 de fevereiro de 2018, 23:30 (horário de verão de Brasília)",
            "sábado, 17 de fevereiro de 2018, 23:30 (horário padrão de Brasília)",
        ),
        (
            datetime(2018, 11, 4, 1, 30),
            "America/New_York",
            "2018-11-04T05:30Z",
            "2018-11-04T06:30Z",
            "domingo, 4 de novembro de 2018, 01:30 (horário de verão do Leste)",
            "domingo, 4 de novembro de 2018, 01:30 (horário padrão do Leste)",
        ),
        (
            datetime(2018, 10, 28, 1, 30),
            "Europe/Lisbon",
            "2018-10-28T00:30Z",
            "2018-10-28T01:30Z",
            "domingo, 28 de outubro de 2018, 01:30 (horário de verão da Europa Ocidental)",
            "domingo, 28 de outubro de 2018, 01:30 (horário padrão da Europa Ocidental)",
        ),
    ],
)
def test_a_repeated_local_time_needs_a_fold_and_each_fold_has_its_own_label(
    local: datetime, tz: str, earlier: str, later: str, earlier_label: str, later_label: str
) -> None:
    first, second = datetime.fromisoformat(earlier), datetime.fromisoformat(later)
    assert resolve(local, tz) == Ambiguous(local, tz, first, second)
    assert resolve(local, tz, Fold.EARLIER) == Resolved(first)
    assert resolve(local, tz, Fold.LATER) == Resolved(second)
    # The two labels differ, so a person can tell them apart.
    assert instant_label(first, zone(tz)) == earlier_label
    assert instant_label(second, zone(tz)) == later_label


def test_an_ordinary_local_time_resolves_whatever_the_fold() -> None:
    for fold in Fold:
        assert resolve(datetime(2024, 11, 5, 14, 30), "America/Sao_Paulo", fold) == Resolved(
            datetime(2024, 11, 5, 17, 30, tzinfo=UTC)
        )


@pytest.mark.parametrize(
    "name", ["", "utc", "Brasil/Sao_Paulo", "GMT+3", "../etc/passwd", "localtime", "America/Sao_Paulo "]
)
def test_only_iana_zones_are_accepted(name: str) -> None:
    with pytest.raises(InvalidTimeZone):
        zone(name)


def test_business_hours_boundaries_on_days_the_clocks_change() -> None:
    # São Paulo 2018-11-04: midnight does not exist; the day opens when the clocks jump (01:00 -02:00).
    assert boundary(date(2018, 11, 4), 0, SP, closing=False) == datetime(2018, 11, 4, 3, 0, tzinfo=UTC)
    # São Paulo 2018-02-17: 23:30 repeats; opening takes the first, closing the second occurrence.
    assert boundary(date(2018, 2, 17), 23 * 60 + 30, SP, closing=False) == datetime(2018, 2, 18, 1, 30, tzinfo=UTC)
    assert boundary(date(2018, 2, 17), 23 * 60 + 30, SP, closing=True) == datetime(2018, 2, 18, 2, 30, tzinfo=UTC)
    # "24:00" is the next midnight.
    assert boundary(date(2018, 2, 17), 24 * 60, SP, closing=True) == datetime(2018, 2, 18, 3, 0, tzinfo=UTC)


def test_a_zone_without_a_cldr_name_falls_back_to_its_offset() -> None:
    label = instant_label(datetime(2024, 11, 5, 17, 30, tzinfo=UTC), ZoneInfo("America/Argentina/Buenos_Aires"))
    assert label == "terça-feira, 5 de novembro de 2024, 14:30 (GMT-03:00)"


@settings(max_examples=300, deadline=None)
@given(
    moment=st.datetimes(min_value=datetime(2017, 1, 1), max_value=datetime(2020, 1, 1)),
    zone_name=st.sampled_from(["America/Sao_Paulo", "America/New_York", "Europe/Lisbon", "UTC"]),
)
def test_every_instant_is_found_again_from_its_local_time_and_fold(moment: datetime, zone_name: str) -> None:
    instant = moment.replace(tzinfo=UTC)
    tz = ZoneInfo(zone_name)
    local = instant.astimezone(tz)
    fold = Fold.LATER if local.fold else Fold.EARLIER
    assert resolve(local.replace(tzinfo=None), zone_name, fold) == Resolved(instant)
    # The ISO label names the same instant, whichever side of a DST change it is on.
    assert datetime.fromisoformat(iso(instant, tz)) == instant
