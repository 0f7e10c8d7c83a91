"""`repetition`: token Jaccard ≥ 0.8 against the last 20 messages of the sending number."""

from __future__ import annotations

from services.seguranca.facts import History, OutboundKind, SentMessage
from services.seguranca.gates import repetition
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate

SENT = "Olá! Temos horários na terça e na quinta à tarde. Qual fica melhor para você?"


def _history(*texts: str) -> History:
    return History(from_sender=tuple(SentMessage(t) for t in texts))


def test_the_same_message_again_is_vetoed() -> None:
    result = gate(repetition.check, SENT, history=_history("Bom dia!", SENT))
    assert result.status is Status.VETOED


def test_a_near_copy_is_vetoed_and_a_different_answer_passes() -> None:
    near = "Olá! Temos horários na terça e na quinta à tarde. Qual fica melhor pra você?"
    assert repetition.jaccard(repetition.tokens(near), repetition.tokens(SENT)) >= 0.8
    assert gate(repetition.check, near, history=_history(SENT)).status is Status.VETOED
    other = "Na quinta temos às 14h ou às 16h30. Posso reservar um deles para você?"
    assert gate(repetition.check, other, history=_history(SENT)).status is Status.PASSED


def test_only_the_last_twenty_count() -> None:
    older = [f"Mensagem {i} sobre um assunto diferente de todos" for i in range(20)]
    assert gate(repetition.check, SENT, history=_history(*older, SENT)).status is Status.PASSED
    assert gate(repetition.check, SENT, history=_history(*older[:19], SENT)).status is Status.VETOED


def test_catalog_texts_are_meant_to_repeat() -> None:
    for kind in (OutboundKind.FIXED_REPLY, OutboundKind.HOLDING_REPLY, OutboundKind.HANDOFF):
        assert gate(repetition.check, SENT, kind=kind, history=_history(SENT)).status is Status.NOT_APPLICABLE
