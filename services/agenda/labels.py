"""pt-BR labels of instants in a zone, rendered with Babel (CLDR), so no caller formats dates.

"terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)": the date and weekday from
CLDR's full date pattern, the wall-clock time, and the zone's CLDR name (its common words in
lower case).

The zone name says what a person needs to place the time on the clock:
- standard time uses the generic name ("horário de Brasília", "horário do Leste");
- daylight saving time says so ("horário de verão de Brasília");
- a local time that repeats (the hour the clocks go back) uses the specific names on both
  sides ("horário de verão do Leste" / "horário padrão do Leste"), so the two labels differ;
- a zone CLDR has no name for falls back to the offset ("GMT-03:00").
The ISO-8601 forms carry the same instants with the zone's offset at that moment.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from babel.dates import format_date, get_timezone_gmt, get_timezone_name

from services.agenda.localtime import is_repeated

LOCALE = "pt_BR"


@dataclass(frozen=True)
class LocalTimeLabels:
    """The human forms of an interval in one zone."""

    time_zone: str
    start_label: str
    end_label: str
    date_label: str
    time_range_label: str
    zone_label: str
    start_iso: str
    end_iso: str


def zone_name(local: datetime) -> str:
    """The pt-BR name of the zone at this aware local moment, in lower case."""
    assert isinstance(local.tzinfo, ZoneInfo)
    tz = local.tzinfo
    daylight = bool(local.dst())
    if daylight:
        variants = ["daylight"]
    elif is_repeated(local, tz):
        variants = ["standard"]
    else:
        variants = ["generic", "standard"]
    offset_name = get_timezone_gmt(local, width="long", locale=LOCALE)
    for variant in variants:
        name = get_timezone_name(local, width="long", zone_variant=variant, locale=LOCALE)
        if name and name != offset_name and not name.startswith("GMT"):
            return _common_words_lowered(name)
    return offset_name


def date_label(local: datetime) -> str:
    """ "terça-feira, 5 de novembro de 2024"."""
    return format_date(local.date(), format="full", locale=LOCALE)


def clock_label(local: datetime) -> str:
    return local.strftime("%H:%M")


@functools.lru_cache(maxsize=8192)
def instant_label(instant: datetime, tz: ZoneInfo) -> str:
    """ "terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)"."""
    local = instant.astimezone(tz)
    return f"{date_label(local)}, {clock_label(local)} ({zone_name(local)})"


def iso(instant: datetime, tz: ZoneInfo) -> str:
    """The instant as ISO-8601 with the zone's offset at that moment."""
    local = instant.astimezone(tz)
    return local.isoformat(timespec="seconds" if not local.microsecond else "microseconds")


# Busy hours render the same few slots again and again (every refusal of one slot offers the same
# alternatives); the labels of an instant in a zone never change, so they are kept.
@functools.lru_cache(maxsize=8192)
def interval_labels(start: datetime, end: datetime, tz: ZoneInfo) -> LocalTimeLabels:
    local_start = start.astimezone(tz)
    local_end = end.astimezone(tz)
    return LocalTimeLabels(
        time_zone=tz.key,
        start_label=instant_label(start, tz),
        end_label=instant_label(end, tz),
        date_label=date_label(local_start),
        time_range_label=f"{clock_label(local_start)}–{clock_label(local_end)}",
        zone_label=zone_name(local_start),
        start_iso=iso(start, tz),
        end_iso=iso(end, tz),
    )


def local_moment_label(local: datetime) -> str:
    """A naive local date-time as a person would say it, without a zone ("domingo, 4 de … , 00:30")."""
    return f"{date_label(local)}, {clock_label(local)}"


def duration_label(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    if minutes % 60 == 0:
        hours = minutes // 60
        return "1 hora" if hours == 1 else f"{hours} horas"
    return f"{minutes} minutos"


# CLDR's pt names are title-cased ("Horário de Verão de Brasília"); in a pt-BR sentence only
# the place keeps its capital ("horário de verão de Brasília").
_COMMON_WORDS = frozenset({"Horário", "Padrão", "Verão", "Universal", "Coordenado"})


def _common_words_lowered(name: str) -> str:
    return " ".join(word.lower() if word in _COMMON_WORDS else word for word in name.split(" "))
