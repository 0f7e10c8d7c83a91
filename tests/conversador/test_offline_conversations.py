"""Conversations with the offline default: replies hold only facts the context and tools gave.

Every turn runs the real Draft path (prompts, loop, validation) with the offline model and
the production tool executor over projection-shaped data. "Only facts from the tools" is
checked the way a customer would be misled: every token with a digit in the reply (a date, a
time, a price, an address number) must appear in what the context or a tool returned.
"""

from __future__ import annotations

from dataclasses import dataclass

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models import conversador_format as fmt
from balcao.models.offline import OfflineProvider
from balcao.projection.v1 import projection_pb2 as pj
from services.conversador.declaracao import quotes
from services.conversador.service import Conversador
from services.conversador.summary_cap import digit_tokens
from services.conversador.tools import ProjectionToolExecutor
from services.seguranca.gates.case_promise import promises_a_person
from tests.conversador import fakes
from tests.conversador.fakes import (
    BOOKED,
    CONTACT,
    ORG,
    UNIT,
    FakeProjection,
    InProcessStub,
    agent,
    customer,
    projection_executor,
    turn_context,
)


@dataclass
class Turn:
    response: cv.DraftResponse
    projection: FakeProjection
    sources: str

    @property
    def message(self) -> str:
        return self.response.reply.message

    @property
    def declaracao(self) -> dc.DeclaracaoDoTurno:
        return self.response.reply.declaracao

    @property
    def reads(self) -> list[str]:
        return [name for name, _ in self.projection.calls]


async def talk(
    text: str, *, history: tuple[cv.ConversationMessage, ...] = (), projection: FakeProjection | None = None
) -> Turn:
    projection = projection or FakeProjection()
    context = turn_context(booked=tuple(projection.booked), known=projection.agenda_known)
    service = Conversador(OfflineProvider(), lambda scope: projection_executor(projection))
    request = cv.DraftRequest(
        organization_id=ORG,
        contact_id=CONTACT,
        unit_id=UNIT,
        context=context,
        new_messages=[customer(text)],
        history=list(history),
    )
    response = await service._draft(request)
    assert response.WhichOneof("result") == "reply", response.failure
    results = [
        p.tool_result.content
        for step in response.tape.steps
        for m in step.messages
        for p in m.parts
        if p.WhichOneof("content") == "tool_result"
    ]
    sources = "\n".join([fmt.dumps(fmt.turn_context(context)), *results])
    turn = Turn(response, projection, sources)
    assert_only_given_facts(turn)
    assert_valid_declaracao(turn, "\n".join([*(m.text for m in history), text]))
    return turn


def assert_only_given_facts(turn: Turn) -> None:
    invented = digit_tokens(turn.message) - digit_tokens(turn.sources)
    assert not invented, f"facts no tool gave: {invented} in {turn.message!r}"
    for slot_handle in ("H7K2", "M4N8", "P3Q9", "Z8M1", "K5T2"):
        assert slot_handle not in turn.message  # an internal handle is never shown to the customer


def assert_valid_declaracao(turn: Turn, conversation: str) -> None:
    declaracao = turn.declaracao
    assert declaracao.nada_a_declarar == (not declaracao.intencoes and not declaracao.promessas)
    for intencao in declaracao.intencoes:
        assert quotes(intencao.evidencia, conversation)


async def test_booking_offers_only_free_times_then_promises_the_chosen_one() -> None:
    first = await talk("Oi! Quero marcar uma limpeza amanhã de manhã")
    assert first.reads == ["CheckAvailability"]
    asked = first.projection.calls[0][1]
    assert (asked.service, asked.from_date, asked.part_of_day) == ("Limpeza", "2024-11-06", pj.PART_OF_DAY_MORNING)
    assert "quarta-feira, 6 de novembro, 09:00" in first.message
    assert "16:00" not in first.message  # afternoon slot, not asked for
    assert [i.categoria for i in first.declaracao.intencoes] == [dc.CATEGORIA_QUER_AGENDAR]
    assert not first.declaracao.promessas

    second = await talk(
        "Pode ser às 9h",
        history=(customer("Oi! Quero marcar uma limpeza amanhã de manhã"), agent(first.message)),
    )
    assert "Vou pedir a marcação de limpeza para quarta-feira, 6 de novembro, 09:00" in second.message
    [promessa] = second.declaracao.promessas
    assert "quarta-feira, 6 de novembro, 09:00" in promessa.o_que and "H7K2" in promessa.o_que
    assert not promessa.HasField("prazo")


async def test_a_time_that_is_not_free_is_not_promised() -> None:
    turn = await talk("Quero marcar uma consulta de avaliação na quarta às 11h")
    assert "O horário que você pediu não está livre" in turn.message
    assert "09:00" in turn.message and not turn.declaracao.promessas


async def test_rescheduling_reads_the_agenda_then_the_free_times() -> None:
    turn = await talk("Preciso remarcar minha consulta para sexta")
    assert turn.reads == ["ListMyAppointments", "CheckAvailability"]
    assert "quinta-feira, 7 de novembro de 2024, 10:00" in turn.message  # the booking, from the agenda
    assert "sexta-feira, 8 de novembro, 10:00" in turn.message  # the only free time on Friday
    assert turn.projection.calls[1][1].service == "Consulta de avaliação"
    assert [i.categoria for i in turn.declaracao.intencoes] == [dc.CATEGORIA_QUER_REMARCAR]
    assert turn.response.reply.used_agenda_tool

    chosen = await talk(
        "sexta às 10h está ótimo",
        history=(customer("Preciso remarcar minha consulta para sexta"), agent(turn.message)),
    )
    [promessa] = chosen.declaracao.promessas
    assert promessa.o_que.startswith("pedir a remarcação de consulta de avaliação")
    assert "sexta-feira, 8 de novembro, 10:00" in promessa.o_que


async def test_rescheduling_with_an_unreadable_agenda_says_so_and_promises_a_person() -> None:
    turn = await talk("Quero remarcar minha consulta", projection=FakeProjection(agenda_known=False))
    assert "Não consegui consultar a sua agenda agora" in turn.message
    assert "nenhum compromisso" not in turn.message.lower()
    assert turn.declaracao.promessas


async def test_price_comes_from_what_the_business_authorised_or_its_references() -> None:
    cleaning = await talk("Quanto custa a limpeza?")
    assert "Limpeza: R$ 150,00" in cleaning.message and "280" not in cleaning.message
    assert cleaning.reads == []  # the authorised prices were already in the context
    assert [i.categoria for i in cleaning.declaracao.intencoes] == [dc.CATEGORIA_PERGUNTA_PRECO]

    whitening = await talk("Quanto custa o clareamento?")
    assert "Clareamento: R$ 900,00 em 2 sessões." in whitening.message
    assert "ReadSkillReference" in whitening.reads

    unknown = await talk("Quanto custa uma coroa de porcelana?")
    assert "Não tenho esse valor" in unknown.message
    [promessa] = unknown.declaracao.promessas
    assert promessa.o_que == "alguém da equipe vai responder ao cliente sobre o valor"


async def test_a_promised_person_is_declared_the_way_seguranca_reads_a_promise() -> None:
    """Each reply that promises someone from the team declares a promessa Segurança's case_promise
    gate reads as that promise, so the reply is not vetoed for a contact nobody would make."""
    turns = [
        await talk("Quanto custa uma coroa de porcelana?"),
        await talk("Quero remarcar minha consulta", projection=FakeProjection(agenda_known=False)),
        await talk("Quero falar com uma pessoa"),
    ]
    promising = [t for t in turns if promises_a_person(t.message)]
    assert len(promising) >= 2
    for turn in promising:
        assert any(promises_a_person(p.o_que) for p in turn.declaracao.promessas), turn.message


async def test_a_short_follow_up_carries_the_previous_question_on() -> None:
    asked = await talk("Vocês atendem no sábado?")
    follow_up = await talk("e domingo?", history=(customer("Vocês atendem no sábado?"), agent(asked.message)))
    assert follow_up.message.strip()
    [intencao] = follow_up.declaracao.intencoes
    assert intencao.categoria == asked.declaracao.intencoes[0].categoria and intencao.evidencia == "e domingo?"


async def test_the_agenda_is_read_with_the_configuration_version_of_the_turn() -> None:
    """Under "Testar" with the draft, availability is asked for the draft's unit (its professionals)."""
    projection = FakeProjection()
    service = Conversador(
        OfflineProvider(), lambda scope: ProjectionToolExecutor(InProcessStub(projection), scope, timeout=5)
    )
    draft_version = "5f0c1b7e-2d43-4c8a-9b1e-7a6d5c4b3a21"
    response = await service._draft(
        cv.DraftRequest(
            organization_id=ORG,
            contact_id=CONTACT,
            unit_id=UNIT,
            context=turn_context(booked=(), known=True),
            new_messages=[customer("Tem horário amanhã de manhã?")],
            agent_version_id=draft_version,
        )
    )
    assert response.WhichOneof("result") == "reply"
    asked = [request for name, request in projection.calls if name == "CheckAvailability"]
    assert asked and all(r.agent_version_id == draft_version and r.unit_id == UNIT for r in asked)


async def test_a_message_too_short_to_understand_is_asked_about_not_left_empty() -> None:
    turn = await talk("hmm")
    assert turn.message == "Pode me contar um pouco mais do que você precisa?"
    assert turn.declaracao.nada_a_declarar and turn.reads == []


async def test_opting_out_is_confirmed_and_declared() -> None:
    turn = await talk("Por favor, não quero mais receber mensagens de vocês")
    assert "Não vamos mais enviar mensagens" in turn.message
    assert turn.reads == []
    [intencao] = turn.declaracao.intencoes
    assert intencao.categoria == dc.CATEGORIA_OPT_OUT
    assert intencao.evidencia == "Por favor, não quero mais receber mensagens de vocês"
    assert [p.o_que for p in turn.declaracao.promessas] == ["não enviar mais mensagens a este cliente"]


async def test_cancelling_asks_for_confirmation_then_promises() -> None:
    asked = await talk("Quero cancelar minha consulta")
    assert "Confirma que quer cancelar?" in asked.message and not asked.declaracao.promessas
    confirmed = await talk(
        "Sim, pode cancelar", history=(customer("Quero cancelar minha consulta"), agent(asked.message))
    )
    [promessa] = confirmed.declaracao.promessas
    assert promessa.o_que.startswith("pedir o cancelamento de consulta de avaliação")


async def test_hours_address_and_a_person() -> None:
    hours = await talk("Vocês atendem no sábado?")
    assert "sábado, 8h às 12h" in hours.message
    where = await talk("Onde fica a clínica?")
    assert "Rua das Flores, 120" in where.message
    person = await talk(
        "Quero falar com um atendente",
        projection=FakeProjection(
            open_cases=[pj.HumanCaseView(subject="dúvida sobre reembolso", status="com a equipe")]
        ),
    )
    assert "dúvida sobre reembolso" in person.message
    assert [i.categoria for i in person.declaracao.intencoes] == [dc.CATEGORIA_PEDE_HUMANO]


async def test_a_greeting_declares_nothing_and_says_what_it_is() -> None:
    turn = await talk("Oi, boa noite")
    assert turn.message == "Olá, Maria! Aqui é a assistente virtual da Clínica Sorriso. Como posso ajudar?"
    assert turn.declaracao.nada_a_declarar and turn.reads == []


async def test_a_second_greeting_does_not_repeat_the_introduction() -> None:
    first = await talk("oi")
    history = (customer("oi"), agent(first.message))
    how_are_you = await talk("bom dia, tudo bem?", history=history)
    assert how_are_you.message == "Tudo ótimo por aqui, Maria! Em que posso ajudar?"
    again = await talk("oi", history=history)
    assert again.message == "Oi, Maria! Em que posso ajudar?"
    assert again.declaracao.nada_a_declarar


async def test_a_question_it_cannot_answer_is_not_answered() -> None:
    turn = await talk("Vocês fazem implante com anestesia geral?")
    assert turn.reads == ["SearchKnowledge"]
    assert "Não tenho essa informação" in turn.message
    assert not any(ch.isdigit() for ch in turn.message)


async def test_the_offline_closing_keeps_requests_and_marks_an_unknown_agenda() -> None:
    turn = await talk("Preciso remarcar minha consulta para sexta")
    service = Conversador(OfflineProvider(), lambda scope: projection_executor())
    request = cv.CloseRequest(
        organization_id=ORG,
        contact_id=CONTACT,
        new_messages=[customer("Preciso remarcar minha consulta para sexta")],
        tape=turn.response.tape,
        sent=cv.SentReply(text=turn.message, delivered=True),
        declaracao=turn.declaracao,
        previous_checkpoint=cv.CheckpointContent(
            rolling_summary="Agenda atual: consulta em 7/11.\nPrefere horários pela manhã.", next_action="x"
        ),
    )
    request.agenda_unknown.reason = "timeout"
    closed = await service._close(request)
    summary = closed.checkpoint.rolling_summary
    assert "Agenda atual: desconhecida" in summary and "consulta em 7/11" not in summary
    assert "Prefere horários pela manhã." in summary
    assert "quer remarcar" in summary
    assert closed.checkpoint.next_action == "remarcar para o horário que o cliente escolher entre os oferecidos"

    request.agenda.CopyFrom(pj.AppointmentsView(appointments_known=pj.AGENDA_KNOWLEDGE_KNOWN, appointments=[BOOKED]))
    known = await service._close(request)
    assert (
        "Agenda atual: Consulta de avaliação em quinta-feira, 7 de novembro de 2024" in known.checkpoint.rolling_summary
    )


async def test_the_professional_the_customer_named_is_the_one_promised() -> None:
    offered = "quarta-feira, 6 de novembro, 09:00 (Dra. Ana Lima) e 09:00 (Dr. Paulo Reis)"
    projection = FakeProjection()
    projection_slots = [
        fakes.FREE_SLOTS[0],
        fakes._slot("quarta-feira, 6 de novembro, 09:00", "2024-11-06T09:00:00-03:00", "Dr. Paulo Reis", "W2X4"),
    ]
    original = fakes.FREE_SLOTS[:]
    fakes.FREE_SLOTS[:] = projection_slots
    try:
        turn = await talk(
            "Pode ser às 9h com o Dr. Paulo",
            history=(customer("Quero marcar uma limpeza amanhã de manhã"), agent(offered)),
            projection=projection,
        )
    finally:
        fakes.FREE_SLOTS[:] = original
    [promessa] = turn.declaracao.promessas
    assert "W2X4" in promessa.o_que
    assert "Paulo Reis" in turn.message and "Ana Lima" not in turn.message


class _TodayAtTheSameTime(FakeProjection):
    """Also free today at 15:30: the time of the Thursday slot, on another day."""

    async def CheckAvailability(
        self, request: pj.CheckAvailabilityRequest, context: object
    ) -> pj.CheckAvailabilityResponse:
        response = await super().CheckAvailability(request, context)
        if request.from_date <= "2024-11-05" <= (request.to_date or request.from_date):
            today = fakes._slot(
                "terça-feira, 5 de novembro, 15:30", "2024-11-05T15:30:00-03:00", "Dra. Ana Lima", "T1D4"
            )
            response.slots.insert(0, today)
        return response


async def test_a_time_chosen_from_the_offered_slots_keeps_the_offered_day() -> None:
    first = await talk("tem horário na quinta à tarde?", projection=_TodayAtTheSameTime())
    assert "quinta-feira, 7 de novembro, 15:30" in first.message

    chosen = await talk(
        "pode ser às 15h30",
        history=(customer("tem horário na quinta à tarde?"), agent(first.message)),
        projection=_TodayAtTheSameTime(),
    )
    asked = chosen.projection.calls[-1][1]
    assert (asked.from_date, asked.to_date) == ("2024-11-07", "2024-11-07")
    [promessa] = chosen.declaracao.promessas
    assert "quinta-feira, 7 de novembro, 15:30" in promessa.o_que and "P3Q9" in promessa.o_que
    assert "terça-feira" not in chosen.message


class _OnlyTheFirstSlots(FakeProjection):
    """Answers like projection when more slots exist than it returns."""

    async def CheckAvailability(
        self, request: pj.CheckAvailabilityRequest, context: object
    ) -> pj.CheckAvailabilityResponse:
        response = await super().CheckAvailability(request, context)
        response.notice = "há mais horários livres nesse período além destes; é possível consultar um período menor"
        return response


async def test_a_time_past_the_first_slots_shown_is_not_called_taken() -> None:
    turn = await talk("quero marcar uma limpeza na quarta às 11h", projection=_OnlyTheFirstSlots())
    assert turn.projection.calls[-1][1].part_of_day == pj.PART_OF_DAY_MORNING  # the part of the day of 11h
    assert "não está livre" not in turn.message
    assert "Não consigo confirmar daqui o horário que você pediu" in turn.message
    assert "09:00" in turn.message and not turn.declaracao.promessas


async def test_gibberish_is_asked_again_in_other_words_not_looked_up() -> None:
    turn = await talk("asdkjh qwe zzzz")
    assert "não consegui entender" in turn.message and "de outro jeito" in turn.message
    assert "Não tenho essa informação" not in turn.message
    assert turn.reads == []  # nothing to look up
    assert turn.declaracao.nada_a_declarar
    # A real question in few words is still looked up, and a word of chat shorthand is not gibberish.
    assert (await talk("Vocês fazem implante?")).reads == ["SearchKnowledge"]
    assert "não consegui entender" not in (await talk("vc tem horário amanhã?")).message


async def _proactive(reason: str, projection: FakeProjection) -> str:
    context = turn_context(booked=tuple(projection.booked), known=projection.agenda_known)
    service = Conversador(OfflineProvider(), lambda scope: projection_executor(projection))
    request = cv.DraftRequest(
        organization_id=ORG, contact_id=CONTACT, unit_id=UNIT, context=context,
        proactive=cv.ProactiveReason(kind=cv.PROACTIVE_KIND_OBLIGATION_FAILED, reason=reason),
    )
    response = await service._draft(request)
    assert response.WhichOneof("result") == "reply", response.failure
    return response.reply.message


async def test_a_promise_that_could_not_be_kept_is_told_as_such_with_the_times_to_choose() -> None:
    free = "quinta-feira, 12 de junho de 2025, 10:30, sexta-feira, 13 de junho de 2025, 09:00"
    message = await _proactive(
        f"Promessa não cumprida: pedir a remarcação para quinta às 10h — O horário escolhido já está ocupado."
        f" Horários livres: {free}.",
        FakeProjection(),
    )
    assert "não foi possível" in message and "pedir a remarcação para quinta às 10h" in message
    assert f"Horários livres: {free}" in message and message.endswith("Quer que eu veja um desses horários para você?")
    assert "lembrar" not in message  # not a reminder that reads like good news


async def test_a_kept_promise_is_told_with_the_agenda_as_it_is_now() -> None:
    message = await _proactive("Promessa cumprida: pedir a marcação da limpeza — compromisso marcado", FakeProjection())
    assert message.startswith("Pronto, Maria! O seu pedido foi atendido.")
    assert BOOKED.local_label in message  # the booking itself, from the agenda the turn read


async def test_asking_for_ones_appointments_lists_them_from_the_agenda() -> None:
    turn = await talk("quais são as minhas consultas?")
    assert turn.reads == ["ListMyAppointments"]
    assert turn.message.startswith("Este é o seu compromisso conosco:") and BOOKED.local_label in turn.message
    assert [i.categoria for i in turn.declaracao.intencoes] == [dc.CATEGORIA_PEDE_INFORMACAO]
    assert not turn.declaracao.promessas

    nothing = await talk("tenho alguma consulta marcada?", projection=FakeProjection(booked=[]))
    assert nothing.message.startswith("Não encontrei nenhum compromisso ativo e futuro no seu nome.")
