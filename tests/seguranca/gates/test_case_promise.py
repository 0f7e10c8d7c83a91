"""`case_promise`: promising a person while no human case is open or being opened."""

from __future__ import annotations

import pytest

from services.seguranca.facts import Declaracao, OutboundKind
from services.seguranca.gates import case_promise
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate, with_contact

PROMISES = [
    "Vou passar para um atendente, só um instante.",
    "Vou te transferir para a nossa equipe.",
    "A equipe vai te ligar ainda hoje.",
    "Um atendente já vai falar com você.",
    "Em breve alguém vai te responder.",
    "Nossa equipe irá entrar em contato amanhã.",
    "Você será atendido por um especialista em instantes.",
    "Vou pedir para alguém da equipe te ligar.",
]
ORDINARY = [
    "A Dra. Ana vai te atender na terça às 10h.",
    "Nossa equipe pode te ajudar com isso na consulta.",
    "A equipe não vai ligar, pode ficar tranquila.",
    "Vou verificar com a equipe e te retorno por aqui.",
    "Quer falar com um atendente?",
    "Temos uma equipe de cinco dentistas.",
]


@pytest.mark.parametrize("draft", PROMISES)
def test_a_promised_person_without_a_case_is_vetoed(draft: str) -> None:
    assert gate(case_promise.check, draft).status is Status.VETOED


@pytest.mark.parametrize("draft", ORDINARY)
def test_ordinary_sentences_about_people_pass(draft: str) -> None:
    assert gate(case_promise.check, draft).status is Status.PASSED


def test_an_open_case_or_one_being_opened_backs_the_promise() -> None:
    draft = PROMISES[0]
    assert gate(case_promise.check, draft, contact=with_contact(human_case_open=True)).status is Status.PASSED
    assert gate(case_promise.check, draft, declaracao=Declaracao(pede_humano=True)).status is Status.PASSED
    declared = Declaracao(promessas=("a equipe vai ligar para o cliente amanhã",))
    assert gate(case_promise.check, "A equipe vai te ligar amanhã.", declaracao=declared).status is Status.PASSED
    unrelated = Declaracao(promessas=("enviar o endereço",))
    assert gate(case_promise.check, draft, declaracao=unrelated).status is Status.VETOED


def test_the_hand_off_message_is_sent_while_the_case_opens() -> None:
    result = gate(case_promise.check, PROMISES[0], kind=OutboundKind.HANDOFF)
    assert result.status is Status.NOT_APPLICABLE
