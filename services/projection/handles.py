"""Slot handles: short, opaque names of a free slot, valid for one contact for a limited time.

The Conversador must be able to say which slot the customer chose ("fica com o K7Q2-M9XD")
without seeing a resource id, a service id or an instant it could misquote. A handle is
eight Crockford base-32 characters (40 bits) written `XXXX-XXXX`, and it is stateless:

    mac    = HMAC(key, "mac", org, contact, valid_until, resource_id, service_id, start)[:19 bits]
    pad    = HMAC(key, "pad", org, contact, valid_until, mac)[:21 bits]
    offset = start's minute − valid_until's minute + 2^20          (21 bits, about ±2 years)
    handle = base32(((offset XOR pad) << 19) | mac)

`key` is derived from the mesh secret (`handle_key`), so no database, no store and no
replica affinity are needed, and every service holding the mesh secret (the Operador) can
resolve a handle. `valid_until` is the issue time plus `TTL`, rounded up to a `GRID` step, so
resolution only has to try the few grid points that can still be valid.

What it guarantees: the handle carries no id and reads as noise (the pad hides the offset);
another contact or organisation recomputes a different MAC and resolves nothing; after
`valid_until` no grid point matches and resolution fails. What it does not: a handle is not a
booking or a reservation; the slot may be taken meanwhile and the Book call says so.

Resolution (the Operador, later), in two pure steps:
1. `decode(key, handle, organization_id=…, contact_id=…, now=…)` gives the possible start
   minutes (one per still-valid grid point; usually one is plausible);
2. the caller reads agenda availability around those minutes (every resource, the service if
   known) and `resolve(key, handle, …, candidates=slots)` returns the one slot whose MAC
   matches, or None (unknown, expired, another contact's, or no longer free).
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

TTL = timedelta(minutes=30)
GRID_SECONDS = 600
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_ALIASES = str.maketrans({"O": "0", "I": "1", "L": "1"})
_MAC_BITS = 19
_OFFSET_BITS = 21
_BIAS = 1 << (_OFFSET_BITS - 1)


@dataclass(frozen=True)
class SlotRef:
    """What a handle names: a start on a resource, for a service (empty when none)."""

    resource_id: str
    service_id: str
    start: datetime


@dataclass(frozen=True)
class Decoded:
    """One reading of a handle: the start minute it names if it was issued for `valid_until`."""

    start_minute: datetime
    valid_until: datetime


def handle_key(mesh_secret: bytes) -> bytes:
    """The key of slot handles, derived from the mesh secret (never the secret itself)."""
    return hmac.new(mesh_secret, b"balcao/projection/slot-handle/v1", hashlib.sha256).digest()


def valid_until_for(now: datetime) -> datetime:
    """Until when handles issued at `now` are valid: now + TTL, rounded up to the grid."""
    moment = (now + TTL).timestamp()
    return datetime.fromtimestamp(math.ceil(moment / GRID_SECONDS) * GRID_SECONDS, tz=UTC)


def _bits(key: bytes, *parts: str, bits: int) -> int:
    digest = hmac.new(key, "\x1f".join(parts).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") >> (32 - bits)


def _minute(moment: datetime) -> int:
    return int(moment.timestamp()) // 60


def _mac(key: bytes, org: str, contact: str, valid_until: datetime, slot: SlotRef) -> int:
    return _bits(
        key,
        "mac",
        org,
        contact,
        str(int(valid_until.timestamp())),
        slot.resource_id,
        slot.service_id,
        f"{slot.start.timestamp():.6f}",
        bits=_MAC_BITS,
    )


def _pad(key: bytes, org: str, contact: str, valid_until: datetime, mac: int) -> int:
    return _bits(key, "pad", org, contact, str(int(valid_until.timestamp())), str(mac), bits=_OFFSET_BITS)


def issue(key: bytes, *, organization_id: str, contact_id: str, slot: SlotRef, valid_until: datetime) -> str:
    """The handle of `slot` for this contact until `valid_until`."""
    offset = _minute(slot.start) - _minute(valid_until) + _BIAS
    if not 0 <= offset < (1 << _OFFSET_BITS):
        raise ValueError("slot too far from now for a handle")
    mac = _mac(key, organization_id, contact_id, valid_until, slot)
    value = ((offset ^ _pad(key, organization_id, contact_id, valid_until, mac)) << _MAC_BITS) | mac
    chars = "".join(_ALPHABET[(value >> shift) & 31] for shift in range(35, -1, -5))
    return f"{chars[:4]}-{chars[4:]}"


def normalise(handle: str) -> str | None:
    """The canonical `XXXX-XXXX` form of a handle as a person or model may write it, or None."""
    text = "".join(c for c in handle.upper().translate(_ALIASES) if c not in "- ")
    if len(text) != 8 or any(c not in _ALPHABET for c in text):
        return None
    return f"{text[:4]}-{text[4:]}"


def _value(handle: str) -> int:
    value = 0
    for c in handle.replace("-", ""):
        value = (value << 5) | _ALPHABET.index(c)
    return value


def _windows(now: datetime) -> list[datetime]:
    """The grid points a handle issued up to now and not yet expired can carry."""
    last = valid_until_for(now)
    points = []
    point = last
    while point > now:
        points.append(point)
        point -= timedelta(seconds=GRID_SECONDS)
    return points


def decode(key: bytes, handle: str, *, organization_id: str, contact_id: str, now: datetime) -> list[Decoded]:
    """Every start minute the handle may name, one per still-valid grid point (pure)."""
    canonical = normalise(handle)
    if canonical is None:
        return []
    value = _value(canonical)
    mac = value & ((1 << _MAC_BITS) - 1)
    hidden = value >> _MAC_BITS
    readings = []
    for valid_until in _windows(now):
        offset = hidden ^ _pad(key, organization_id, contact_id, valid_until, mac)
        start = datetime.fromtimestamp((_minute(valid_until) + offset - _BIAS) * 60, tz=UTC)
        readings.append(Decoded(start_minute=start, valid_until=valid_until))
    return readings


def resolve(
    key: bytes,
    handle: str,
    *,
    organization_id: str,
    contact_id: str,
    now: datetime,
    candidates: Iterable[SlotRef],
) -> SlotRef | None:
    """The candidate slot the handle names for this contact, if it is still valid (pure)."""
    canonical = normalise(handle)
    if canonical is None:
        return None
    readings = decode(key, canonical, organization_id=organization_id, contact_id=contact_id, now=now)
    pool = list(candidates)
    for reading in readings:
        minute = _minute(reading.start_minute)
        for slot in pool:
            if _minute(slot.start) != minute:
                continue
            expected = issue(
                key, organization_id=organization_id, contact_id=contact_id, slot=slot, valid_until=reading.valid_until
            )
            if hmac.compare_digest(expected, canonical):
                return slot
    return None
