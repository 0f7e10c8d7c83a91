"""Arrivals: when a running turn may skip asking the database whether the customer wrote meanwhile."""

from __future__ import annotations

import uuid

from services.gateway.records import Arrivals


def test_a_message_after_the_mark_is_seen_and_one_before_is_not() -> None:
    arrivals, contact, other = Arrivals(), uuid.uuid4(), uuid.uuid4()
    arrivals.listening(True)
    arrivals.arrived(contact)
    mark = arrivals.mark()
    assert arrivals.since(contact, mark) is False
    arrivals.arrived(other)
    assert arrivals.since(contact, mark) is False
    arrivals.arrived(contact)
    assert arrivals.since(contact, mark) is True


def test_without_a_listener_since_the_mark_the_answer_is_unknown() -> None:
    arrivals, contact = Arrivals(), uuid.uuid4()
    mark = arrivals.mark()
    assert arrivals.since(contact, mark) is None  # never listened: another replica's message could be missed
    arrivals.listening(True)
    assert arrivals.since(contact, mark) is None  # listening began after the mark
    later = arrivals.mark()
    assert arrivals.since(contact, later) is False
    arrivals.listening(False)
    assert arrivals.since(contact, later) is None  # the listener went down: ask the database
