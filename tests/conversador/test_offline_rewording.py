"""The offline model asked to say it another way: Segurança's `repetition` gate sends back a reply that
nearly repeats one the business's number sent recently (to any customer), and each revision must carry
the same facts in words different enough to pass (token Jaccard well below the gate's 0.8), twice.

Every turn runs the real Draft and Revise paths with the offline model over projection-shaped data;
the texts are compared with the gate's own tokens and threshold.
"""

from __future__ import annotations

import pytest

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models.offline import OfflineProvider
from services.conversador.service import Conversador
from services.conversador.summary_cap import digit_tokens
from services.seguranca.gates import repetition
from services.seguranca.gates.case_promise import promises_a_person
from tests.conversador.fakes import (
    BOOKED,
    CONTACT,
    ORG,
    UNIT,
    FakeProjection,
    agent,
    customer,
    projection_executor,
    turn_context,
)

# "Well below" the gate's 0.8: a revision that only swapped a word or two would not be enough.
FAR_ENOUGH = 0.65


async def _attempts(
    text: str, *, history: tuple[cv.ConversationMessage, ...] = (), guidance: str = repetition.GUIDANCE
) -> list[cv.DraftedReply]:
    """The draft and its two revisions, each sent back with `guidance`."""
    projection = FakeProjection()
    service = Conversador(OfflineProvider(), lambda scope: projection_executor(projection))
    turn = {
        "organization_id": ORG,
        "contact_id": CONTACT,
        "unit_id": UNIT,
        "context": turn_context(booked=tuple(projection.booked)),
        "new_messages": [customer(text)],
        "history": list(history),
    }
    draft = await service._draft(cv.DraftRequest(**turn))
    assert draft.WhichOneof("result") == "reply", draft.failure
    replies, tape = [draft.reply], draft.tape
    for revision in (1, 2):
        revised = await service._revise(
            cv.ReviseRequest(
                **turn,
                previous_draft=replies[-1],
                previous_tape=tape,
                vetoes=[cv.VetoGuidance(gate="repetition", guidance=guidance)],
                revision=revision,
            )
        )
        assert revised.WhichOneof("result") == "reply", revised.failure
        replies.append(revised.reply)
        tape = revised.tape
    return replies


def _similarity(a: str, b: str) -> float:
    return repetition.jaccard(repetition.tokens(a), repetition.tokens(b))


@pytest.mark.parametrize(
    ("said", "history"),
    [
        ("Qual o horário de atendimento?", ()),
        ("Onde fica a clínica?", ()),
        ("Quanto custa a limpeza?", ()),
        ("Quais os valores?", ()),
        ("Tem horário livre amanhã?", ()),
        ("Quero marcar uma consulta de avaliação", ()),
        ("Vocês aceitam convênio?", ()),
        ("Oi", ()),
        ("Oi, tudo bem?", (customer("oi"), agent("Olá! Aqui é a assistente virtual da Clínica Sorriso."))),
        ("Bom dia! Qual o endereço e até que horas vocês abrem?", ()),
        ("Preciso remarcar minha consulta", ()),
        ("Quero cancelar minha consulta", ()),
        ("Tem estacionamento?", ()),
        ("Vocês fazem clareamento a laser?", ()),
        ("asdkjh qwe zzzz", ()),
        ("hmm", ()),
        ("Achei caro", ()),
    ],
)
async def test_each_revision_says_the_same_facts_in_other_words(
    said: str, history: tuple[cv.ConversationMessage, ...]
) -> None:
    draft, first, second = await _attempts(said, history=history)
    texts = [draft.message, first.message, second.message]
    assert len(set(texts)) == 3, texts
    for i, text in enumerate(texts):
        for other in texts[:i]:
            assert _similarity(text, other) < FAR_ENOUGH, (other, text)
        # The same facts (every time, date, price, number), nothing added, nothing left out.
        assert digit_tokens(text) == digit_tokens(draft.message), text
        # No new promise of a person or a price: the other gates still judge the revision.
        assert promises_a_person(text) == promises_a_person(draft.message), text
    for reply in (first, second):
        assert [(i.categoria, i.evidencia) for i in reply.declaracao.intencoes] == [
            (i.categoria, i.evidencia) for i in draft.declaracao.intencoes
        ]
        assert len(reply.declaracao.promessas) == len(draft.declaracao.promessas)


async def test_the_revisions_keep_every_fact_line() -> None:
    draft, first, second = await _attempts("Tem horário livre amanhã?")
    slots = [line for line in draft.message.splitlines() if line.startswith("- ")]
    assert slots  # the free times as projection gave them
    for reply in (first, second):
        assert [line for line in reply.message.splitlines() if line.startswith("- ")] == slots
    hours = "segunda a sexta, 8h às 18h; sábado, 8h às 12h"
    for reply in await _attempts("Qual o horário de atendimento?"):
        assert hours in reply.message


async def test_other_guidance_is_not_answered_by_rewording() -> None:
    # A veto about what the message claims cannot be fixed by rules: a person checks it, as before.
    guidance = "A mensagem afirma algo que não foi confirmado. Não diga que está agendado."
    _draft, first, _second = await _attempts("Qual o horário de atendimento?", guidance=guidance)
    assert "alguém da equipe conferir" in first.message
    assert first.declaracao.promessas


async def test_a_booked_customer_still_sees_the_same_appointment() -> None:
    replies = await _attempts("Preciso remarcar minha consulta")
    for reply in replies:
        assert "quinta-feira, 7 de novembro de 2024, 10:00" in reply.message and BOOKED.professional in reply.message
