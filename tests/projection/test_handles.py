"""Slot handles: short, opaque, for one contact, for a limited time, resolvable by a pure function."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from services.projection.handles import (
    TTL,
    SlotRef,
    decode,
    handle_key,
    issue,
    normalise,
    resolve,
    valid_until_for,
)
from tests.projection import samples

KEY = handle_key(b"a-mesh-secret-for-tests")
NOW = datetime(2024, 11, 5, 17, 3, 12, tzinfo=UTC)
SLOT = SlotRef(samples.RESOURCE, samples.SERVICE, datetime(2024, 11, 7, 13, 0, tzinfo=UTC))
NEIGHBOUR = SlotRef(samples.new_id(), samples.SERVICE, SLOT.start)
LATER = SlotRef(samples.RESOURCE, samples.SERVICE, SLOT.start + timedelta(minutes=50))


def _issue(slot: SlotRef = SLOT, contact: str = samples.CONTACT, now: datetime = NOW) -> str:
    return issue(KEY, organization_id=samples.ORG, contact_id=contact, slot=slot, valid_until=valid_until_for(now))


def _resolve(handle: str, *, contact: str = samples.CONTACT, now: datetime = NOW, org: str = samples.ORG):  # type: ignore[no-untyped-def]
    return resolve(KEY, handle, organization_id=org, contact_id=contact, now=now, candidates=[NEIGHBOUR, LATER, SLOT])


def test_a_handle_is_short_and_carries_no_id_or_time() -> None:
    handle = _issue()
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", handle)
    for part in (samples.RESOURCE, samples.SERVICE, samples.ORG, samples.CONTACT):
        assert part[:4].upper() not in handle.replace("-", "")
    assert "1300" not in handle and "2024" not in handle


def test_slots_of_one_answer_get_different_handles() -> None:
    assert len({_issue(SLOT), _issue(NEIGHBOUR), _issue(LATER)}) == 3


def test_the_handle_resolves_to_its_slot_for_the_same_contact() -> None:
    handle = _issue()
    assert _resolve(handle) == SLOT
    assert _resolve(handle, now=NOW + TTL - timedelta(seconds=1)) == SLOT
    # Written by a person or a model: lower case, no hyphen, O for 0.
    assert _resolve(handle.lower().replace("-", "").replace("0", "o")) == SLOT


def test_the_handle_means_nothing_for_another_contact_or_organisation() -> None:
    handle = _issue()
    assert _resolve(handle, contact=samples.new_id()) is None
    assert _resolve(handle, org=samples.new_id()) is None


def test_the_handle_expires() -> None:
    handle = _issue()
    assert _resolve(handle, now=valid_until_for(NOW)) is None
    assert _resolve(handle, now=NOW + timedelta(hours=3)) is None


def test_a_handle_that_is_not_one_resolves_nothing() -> None:
    assert normalise("ABC") is None
    assert _resolve("not a handle") is None
    assert _resolve("ZZZZ-ZZZZ") is None


def test_decode_names_the_start_minute_to_look_up() -> None:
    readings = decode(KEY, _issue(), organization_id=samples.ORG, contact_id=samples.CONTACT, now=NOW)
    assert SLOT.start in [r.start_minute for r in readings]
    assert all(r.valid_until > NOW for r in readings)
