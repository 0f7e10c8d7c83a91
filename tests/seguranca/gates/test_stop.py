"""`stop`: blocked, opted out, a person on the conversation — nothing goes, no rewrite helps."""

from __future__ import annotations

import pytest

from services.seguranca.facts import OutboundKind
from services.seguranca.gates import stop
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate, with_contact


@pytest.mark.parametrize(
    ("facts", "code"),
    [
        ({"blocked": True}, "stop:blocked"),
        ({"opted_out": True}, "stop:opted_out"),
        ({"human_owned": True}, "stop:human_owned"),
    ],
)
def test_nothing_goes_and_no_rewrite_can_fix_it(facts: dict[str, bool], code: str) -> None:
    for kind in OutboundKind:
        if kind is OutboundKind.OPT_OUT_CONFIRMATION and "opted_out" in facts:
            continue
        result = gate(stop.check, "Oi, tudo bem?", kind=kind, contact=with_contact(**facts))
        assert result.status is Status.VETOED, kind
        assert result.veto is not None and result.veto.code == code and not result.veto.revisable


def test_an_ordinary_contact_passes() -> None:
    assert gate(stop.check, "Oi, tudo bem?").status is Status.PASSED


def test_the_single_opt_out_confirmation_goes_once() -> None:
    kind = OutboundKind.OPT_OUT_CONFIRMATION
    first = gate(
        stop.check, "Pronto, você não receberá mais mensagens.", kind=kind, contact=with_contact(opted_out=True)
    )
    assert first.status is Status.PASSED
    again = gate(
        stop.check,
        "Pronto, você não receberá mais mensagens.",
        kind=kind,
        contact=with_contact(opted_out=True, opt_out_confirmation_sent=True),
    )
    assert again.status is Status.VETOED


def test_a_blocked_contact_gets_not_even_the_opt_out_confirmation() -> None:
    result = gate(
        stop.check, "Ok.", kind=OutboundKind.OPT_OUT_CONFIRMATION, contact=with_contact(opted_out=True, blocked=True)
    )
    assert result.status is Status.VETOED
