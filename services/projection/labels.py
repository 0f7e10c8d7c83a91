"""pt-BR labels of instants that crm hands over as bare timestamps.

Agenda renders its own labels (the booking's zone, DST-correct) and projection passes them
whole; crm's timestamps (a checkpoint written, a case opened, a follow-up due) come as
instants, and projection writes them in the organisation's zone in the same form:
"terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)". The month and weekday
tables are our own so a label costs microseconds; babel is asked once per zone for its name.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import get_timezone_name
from google.protobuf.timestamp_pb2 import Timestamp

DEFAULT_ZONE = "America/Sao_Paulo"

WEEKDAYS = ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo")
MONTHS = (
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)


@functools.lru_cache(maxsize=256)
def zone(name: str) -> ZoneInfo:
    """The IANA zone `name`, or the default zone when it is empty or unknown."""
    try:
        return ZoneInfo(name) if name else ZoneInfo(DEFAULT_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_ZONE)


@functools.lru_cache(maxsize=256)
def zone_label(name: str) -> str:
    """The zone as a person says it ("horário de Brasília")."""
    key = zone(name).key
    label = get_timezone_name(key, locale="pt_BR")
    return label[:1].lower() + label[1:] if label else key


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def instant(ts: Timestamp) -> datetime | None:
    """The timestamp as an aware UTC datetime (to the microsecond), or None when it is unset."""
    seconds, nanos = ts.seconds, ts.nanos
    if seconds == 0 and nanos == 0:
        return None
    return _EPOCH + timedelta(seconds=seconds, microseconds=nanos // 1000)


def date_label(moment: datetime) -> str:
    return f"{WEEKDAYS[moment.weekday()]}, {moment.day} de {MONTHS[moment.month - 1]} de {moment.year}"


def full_label(moment: datetime | None, zone_name: str) -> str:
    """'terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)'; '' for no moment."""
    if moment is None:
        return ""
    local = moment.astimezone(zone(zone_name))
    return f"{date_label(local)}, {local.hour:02d}:{local.minute:02d} ({zone_label(zone_name)})"


def timestamp_label(ts: Timestamp, zone_name: str) -> str:
    return full_label(instant(ts), zone_name)


def iso(moment: datetime, zone_name: str) -> str:
    """The instant as ISO-8601 with the zone's offset, to the second."""
    return moment.astimezone(zone(zone_name)).isoformat(timespec="seconds")


def duration_label(minutes: int) -> str:
    """'50 minutos', '1 hora', '1 hora e 30 minutos'."""
    if minutes <= 0:
        return ""
    hours, rest = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hora" if hours == 1 else f"{hours} horas")
    if rest:
        parts.append(f"{rest} minuto" if rest == 1 else f"{rest} minutos")
    return " e ".join(parts)
