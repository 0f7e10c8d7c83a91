"""IANA time zones: the only kind an organisation may have."""

from __future__ import annotations

import functools
import zoneinfo

from services.crm.errors import InvalidArgument

DEFAULT_TIME_ZONE = "America/Sao_Paulo"


@functools.cache
def _known() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(name: str, field: str = "time_zone") -> str:
    """Return `name` when it is an IANA zone known to this machine; raise otherwise."""
    if name not in _known():
        raise InvalidArgument(
            f"{field} {name!r} is not an IANA time zone (use a name like 'America/Sao_Paulo')"
        )
    zoneinfo.ZoneInfo(name)
    return name
