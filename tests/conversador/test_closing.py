"""The closing (seed 000): no tools, the whole tape as text, the agenda known or unknown, one correction."""

from __future__ import annotations

import json
from typing import Any

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models.base import TextPart, ToolCall, ToolResult
from balcao.models.scripted import ScriptedProvider, text
from services.conversador import closing
from services.conversador.service import Conversador, Options
from tests.conversador.fakes import BOOKED, CONTACT, ORG, RecordingExecutor, appointments, customer

GOOD = {
    "rolling_summary": "Maria quer remarcar a consulta de 7/11 para sexta de manhã; prefere a Dra. Ana.",
    "commitments": ["pedir a remarcação para sexta, 8 de novembro, 10:00"],
    "objections": [],
    "next_action": "confirmar a remarcação quando a equipe registrar",
}


def tool_step(attempt: int, index: int, name: str, arguments: str, result: str) -> cv.TapeStep:
    return cv.TapeStep(
        attempt=attempt,
        index=index,
        messages=[
            cv.TapeMessage(
                role=cv.TAPE_ROLE_ASSISTANT,
                parts=[
                    cv.TapePart(
                        tool_call=cv.ToolCall(call_id=f"c{attempt}{index}", tool_name=name, arguments_json=arguments)
                    )
                ],
            ),
            cv.TapeMessage(
                role=cv.TAPE_ROLE_TOOL,
                parts=[
                    cv.TapePart(tool_result=cv.ToolResult(call_id=f"c{attempt}{index}", tool_name=name, content=result))
                ],
            ),
        ],
    )


def answer_step(attempt: int, index: int, words: str, *, asked: str = "") -> cv.TapeStep:
    messages = []
    if asked:
        messages.append(cv.TapeMessage(role=cv.TAPE_ROLE_USER, parts=[cv.TapePart(text=asked)]))
    messages.append(cv.TapeMessage(role=cv.TAPE_ROLE_ASSISTANT, parts=[cv.TapePart(text=words)]))
    return cv.TapeStep(attempt=attempt, index=index, messages=messages)


TAPE = cv.Tape(
    steps=[
        tool_step(1, 0, "list_my_appointments", "{}", '{"compromissos": [{"quando": "quinta, 10:00"}]}'),
        tool_step(
            1, 1, "check_availability", '{"data_inicial": "2024-11-08"}', '{"horarios": [{"quando": "sexta, 10:00"}]}'
        ),
        answer_step(1, 2, '{"mensagem": "Remarquei!"}'),
        tool_step(2, 0, "get_lead_note", "{}", '{"anotacoes": [{"texto": "prefere a Dra. Ana"}]}'),
        answer_step(
            2,
            1,
            '{"mensagem": "Posso pedir a remarcação para sexta às 10h?"}',
            asked="Orientação: não diga que remarcou",
        ),
    ]
)

DECLARACAO = dc.DeclaracaoDoTurno(
    intencoes=[dc.Intencao(o_que="quer remarcar", evidencia="quero remarcar", categoria=dc.CATEGORIA_QUER_REMARCAR)],
    promessas=[dc.Promessa(o_que="pedir a remarcação para sexta, 8 de novembro, 10:00")],
)


def close_request(**overrides: Any) -> cv.CloseRequest:
    request = cv.CloseRequest(
        organization_id=ORG,
        contact_id=CONTACT,
        new_messages=[customer("quero remarcar para sexta de manhã")],
        tape=TAPE,
        sent=cv.SentReply(text="Posso pedir a remarcação para sexta às 10h?", delivered=True),
        declaracao=DECLARACAO,
        previous_checkpoint=cv.CheckpointContent(
            rolling_summary="Maria tem consulta de avaliação em 7/11.", next_action="lembrar da consulta"
        ),
    )
    for key, value in overrides.items():
        if key == "agenda":
            request.agenda.CopyFrom(value)
        elif key == "agenda_unknown":
            request.agenda_unknown.reason = value
        else:
            getattr(request, key).CopyFrom(value)  # every other override is a message field
    return request


def service(model: ScriptedProvider, **options: Any) -> Conversador:
    return Conversador(model, lambda scope: RecordingExecutor(), Options(**options))


async def test_the_closing_gets_every_steps_tool_parts_as_text_and_no_tools() -> None:
    model = ScriptedProvider([text(json.dumps(GOOD, ensure_ascii=False))])
    response = await service(model)._close(close_request(agenda=appointments(BOOKED)))

    assert response.WhichOneof("result") == "checkpoint"
    [call] = model.requests
    assert call.tools == () and call.task == "conversador.closing"
    assert all(isinstance(p, TextPart) for m in call.messages for p in m.parts)
    assert not any(isinstance(p, ToolCall | ToolResult) for m in call.messages for p in m.parts)
    prompt = call.messages[0].text
    for piece in (
        "Consulta list_my_appointments: {}",
        'Resultado de list_my_appointments: {"compromissos": [{"quando": "quinta, 10:00"}]}',
        'Consulta check_availability: {"data_inicial": "2024-11-08"}',
        "Resultado de check_availability",
        "Consulta get_lead_note",  # a revision's step: the whole tape, not only the last attempt
        "Pedido ao atendente: Orientação: não diga que remarcou",
        "«Posso pedir a remarcação para sexta às 10h?»",
        "Maria tem consulta de avaliação em 7/11.",
        "quinta-feira, 7 de novembro de 2024, 10:00 (horário de Brasília)",
        '"categoria": "quer_remarcar"',
    ):
        assert piece in prompt
    assert prompt.index("Passo 1 da escrita") < prompt.index("Passo 1 da revisão 1")
    # The checkpoint: the model's four fields plus the turn's declaração, untouched.
    checkpoint = response.checkpoint
    assert checkpoint.rolling_summary == GOOD["rolling_summary"]
    assert list(checkpoint.commitments) == GOOD["commitments"]
    assert checkpoint.declaracao == DECLARACAO
    assert [u.purpose for u in response.usage] == [cv.MODEL_CALL_PURPOSE_CLOSING]
    assert response.corrected is False


async def test_each_tool_result_is_capped() -> None:
    long_result = "x" * 650 + "FIM-VISIVEL" + "y" * 2000
    tape = cv.Tape(steps=[tool_step(1, 0, "search_knowledge", '{"pergunta": "preparo"}', long_result)])
    model = ScriptedProvider([text(json.dumps(GOOD)), text(json.dumps(GOOD))])
    await service(model)._close(close_request(tape=tape))
    default = model.requests[0].messages[0].text
    # 200 tokens ≈ 700 characters kept: 650 + 11 + 39, then the cut is said.
    assert "FIM-VISIVEL" + "y" * 39 + "… [cortado: mais 1961 caracteres]" in default
    assert "y" * 40 not in default

    await service(model, result_cap_tokens=10)._close(close_request(tape=tape))
    tight = model.requests[1].messages[0].text
    assert "x" * 35 in tight and "x" * 36 not in tight and "FIM-VISIVEL" not in tight


async def test_an_unknown_agenda_is_said_to_be_unknown_and_never_empty() -> None:
    claims_empty = dict(GOOD, rolling_summary="Maria não tem nenhum compromisso marcado.")
    model = ScriptedProvider([text(json.dumps(claims_empty, ensure_ascii=False)), text(json.dumps(GOOD))])
    response = await service(model)._close(close_request(agenda_unknown="projection indisponível"))

    prompt = model.requests[0].messages[0].text
    assert "DESCONHECIDA" in prompt and "não escreva que o cliente não tem compromissos" in prompt
    assert "projection indisponível" not in prompt  # the reason is for the record, not the model
    assert "nenhum compromisso ativo e futuro" not in prompt
    assert response.corrected is True
    assert "agenda está DESCONHECIDA" in model.requests[1].messages[-1].text


async def test_an_empty_known_agenda_is_no_appointments_and_no_reread_says_so() -> None:
    model = ScriptedProvider([text(json.dumps(GOOD)), text(json.dumps(GOOD))])
    await service(model)._close(close_request(agenda=appointments()))
    empty = model.requests[0].messages[0].text
    assert "nenhum compromisso ativo e futuro" in empty and "DESCONHECIDA" not in empty

    await service(model)._close(close_request())
    assert "Não foi relida" in model.requests[1].messages[0].text


async def test_an_invalid_closing_gets_one_correction_naming_the_wrong_and_right_fields() -> None:
    wrong = {"summary": GOOD["rolling_summary"], "commitments": "nada", "objections": [], "next_step": "x"}
    model = ScriptedProvider([text(json.dumps(wrong)), text(json.dumps(GOOD))])
    response = await service(model)._close(close_request())

    assert response.WhichOneof("result") == "checkpoint" and response.corrected is True
    correction = model.requests[1]
    said = correction.messages[-1].text
    assert "`summary` está errado: o nome certo é `rolling_summary`" in said
    assert "`next_step` está errado: o nome certo é `next_action`" in said
    assert "`commitments` deve ser uma lista de textos" in said
    assert correction.tools == ()
    assert [m.role for m in correction.messages] == ["user", "assistant", "user"]
    assert [u.purpose for u in response.usage] == [
        cv.MODEL_CALL_PURPOSE_CLOSING,
        cv.MODEL_CALL_PURPOSE_CLOSING_CORRECTION,
    ]


async def test_a_second_invalid_closing_fails_clearly() -> None:
    model = ScriptedProvider([text("Resumo: tudo certo."), text(json.dumps({"resumo": "x"}))])
    response = await service(model)._close(close_request())
    assert response.WhichOneof("result") == "failure"
    assert response.failure.reason == closing.CORRECTION_FAILED
    assert "`resumo` está errado: o nome certo é `rolling_summary`" in response.failure.validation_error
    assert "falta o campo `next_action`" in response.failure.validation_error
    assert model.remaining == 0 and len(response.usage) == 2


async def test_a_send_that_failed_is_not_told_as_said() -> None:
    model = ScriptedProvider([text(json.dumps(GOOD))])
    await service(model)._close(close_request(sent=cv.SentReply(text="Remarquei!", delivered=False)))
    prompt = model.requests[0].messages[0].text
    assert "Nenhuma mensagem chegou ao cliente" in prompt and "Remarquei!»" not in prompt
