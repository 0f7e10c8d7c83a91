"""`messaging_window`: the 24-hour customer-service window of channels that have one."""

from __future__ import annotations

from datetime import timedelta

from services.seguranca.facts import Channel
from services.seguranca.gates import messaging_window
from services.seguranca.verdict import Status
from tests.seguranca.helpers import NOW, gate, with_contact

CLOUD = Channel(name="whatsapp_cloud", has_service_window=True, max_text_chars=4096)


def test_inside_the_window_a_message_goes() -> None:
    contact = with_contact(last_inbound_at=NOW - timedelta(hours=23, minutes=59))
    assert gate(messaging_window.check, "Oi", channel=CLOUD, contact=contact).status is Status.PASSED


def test_outside_the_window_nothing_free_form_goes_and_no_rewrite_helps() -> None:
    for contact in (with_contact(last_inbound_at=NOW - timedelta(hours=25)), with_contact()):
        result = gate(messaging_window.check, "Oi", channel=CLOUD, contact=contact)
        assert result.status is Status.VETOED
        assert result.veto is not None and not result.veto.revisable and result.veto.central_item_pt


def test_a_channel_without_a_window_is_not_applicable() -> None:
    result = gate(messaging_window.check, "Oi", channel=Channel(name="whatsapp_evolution"), contact=with_contact())
    assert result.status is Status.NOT_APPLICABLE
    assert result.code == "messaging_window:channel_without_window"
