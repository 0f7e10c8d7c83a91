"""`lgpd`: anonymised contacts and first prospecting touches without a legal basis."""

from __future__ import annotations

from services.seguranca.facts import OutboundKind
from services.seguranca.gates import lgpd
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate, with_contact


def test_an_anonymised_contact_gets_nothing_and_someone_is_told() -> None:
    result = gate(lgpd.check, "Olá!", contact=with_contact(anonymised=True))
    assert result.status is Status.VETOED
    assert result.veto is not None
    assert not result.veto.revisable
    assert result.veto.central_item_pt.strip()


def test_a_first_prospecting_touch_needs_a_recorded_legal_basis() -> None:
    stranger = with_contact(first_contact=True)
    for kind in (OutboundKind.PROACTIVE, OutboundKind.FOLLOWUP):
        result = gate(lgpd.check, "Olá! Conhece a Clínica Sorriso?", kind=kind, contact=stranger)
        assert result.status is Status.VETOED
        assert result.veto is not None and result.veto.code == "lgpd:no_legal_basis"
        assert result.veto.central_item_pt.strip()
    allowed = with_contact(first_contact=True, legal_basis_recorded=True)
    assert gate(lgpd.check, "Olá!", kind=OutboundKind.PROACTIVE, contact=allowed).status is Status.PASSED


def test_a_reply_is_never_prospecting() -> None:
    result = gate(
        lgpd.check, "Olá! Como posso ajudar?", kind=OutboundKind.REPLY, contact=with_contact(first_contact=True)
    )
    assert result.status is Status.PASSED
