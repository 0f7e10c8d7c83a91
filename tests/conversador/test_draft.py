"""Draft and Revise with the scripted double: the loop, its bound, the repair, the tape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models.base import ToolCall, ToolResult
from balcao.models.scripted import ScriptedProvider, text, tool_calls
from services.conversador import prompts
from services.conversador.draft import REPAIR_FAILED, Limits
from services.conversador.service import Conversador, Options
from services.conversador.tools import READ_TOOLS
from tests.conversador.fakes import (
    BOOKED,
    CONTACT,
    ORG,
    UNIT,
    FakeProjection,
    RecordingExecutor,
    customer,
    projection_executor,
    turn_context,
)


def final(message: str, **declaracao: Any) -> str:
    body = {"intencoes": [], "promessas": [], "nada_a_declarar": True}
    body.update(declaracao)
    return json.dumps({"mensagem": message, "declaracao": body}, ensure_ascii=False)


REMARCAR = {
    "intencoes": [{"o_que": "quer remarcar", "evidencia": "preciso remarcar a consulta", "categoria": "quer_remarcar"}],
    "nada_a_declarar": False,
}


def request(*texts: str) -> cv.DraftRequest:
    return cv.DraftRequest(
        organization_id=ORG,
        contact_id=CONTACT,
        unit_id=UNIT,
        turn_id="",
        context=turn_context(booked=(BOOKED,)),
        new_messages=[customer(t) for t in texts],
    )


def conversador(model: ScriptedProvider, executor: Any, **limits: int) -> Conversador:
    return Conversador(model, lambda scope: executor, Options(limits=Limits(**limits)))


def parts(step: cv.TapeStep) -> list[str]:
    return [p.WhichOneof("content") for m in step.messages for p in m.parts]


async def test_a_turn_that_reads_the_agenda() -> None:
    projection = FakeProjection()
    executor = RecordingExecutor(inner=projection_executor(projection))
    model = ScriptedProvider(
        [
            tool_calls(("list_my_appointments", {})),
            text(final("Sua consulta é quinta, 7 de novembro, às 10:00. Quer remarcar para quando?", **REMARCAR)),
        ]
    )
    response = await conversador(model, executor)._draft(request("Oi, preciso remarcar a consulta"))

    assert response.WhichOneof("result") == "reply"
    assert response.reply.used_agenda_tool is True
    assert response.reply.declaracao.intencoes[0].evidencia == "preciso remarcar a consulta"
    assert executor.calls == [("list_my_appointments", {})]
    assert [name for name, _ in projection.calls] == ["ListMyAppointments"]
    assert projection.calls[0][1].contact_id == CONTACT  # from the turn, not from the model
    # Both calls offered exactly the read tools; the second one carried the projected result.
    assert all(r.tools == READ_TOOLS for r in model.requests)
    result = model.requests[1].messages[-1].parts[0]
    assert isinstance(result, ToolResult) and "quinta-feira, 7 de novembro de 2024, 10:00" in result.content
    # The tape: step 0 = the call and its result; step 1 = the answer.
    assert [parts(s) for s in response.tape.steps] == [["tool_call", "tool_result"], ["text"]]
    assert [(s.attempt, s.index) for s in response.tape.steps] == [(1, 0), (1, 1)]
    assert [u.purpose for u in response.usage] == [cv.MODEL_CALL_PURPOSE_DRAFT] * 2
    assert all(u.provider == "scripted" and u.input_tokens == 10 for u in response.usage)


async def test_a_turn_with_no_tool() -> None:
    executor = RecordingExecutor()
    model = ScriptedProvider([text(final("Olá! Como posso ajudar?"))])
    response = await conversador(model, executor)._draft(request("Oi"))

    assert response.reply.message == "Olá! Como posso ajudar?"
    assert response.reply.declaracao.nada_a_declarar is True
    assert response.reply.used_agenda_tool is False
    assert response.reply.declaracao_repaired is False
    assert executor.calls == []
    assert len(response.tape.steps) == 1 and len(response.usage) == 1


async def test_an_invalid_declaracao_is_repaired_once() -> None:
    invalid = final("Vou verificar.", intencoes=REMARCAR["intencoes"], nada_a_declarar=True)
    model = ScriptedProvider([text(invalid), text(final("Vou verificar os horários.", **REMARCAR))])
    response = await conversador(model, RecordingExecutor())._draft(request("preciso remarcar a consulta"))

    assert response.WhichOneof("result") == "reply"
    assert response.reply.message == "Vou verificar os horários."
    assert response.reply.declaracao_repaired is True
    assert [u.purpose for u in response.usage] == [
        cv.MODEL_CALL_PURPOSE_DRAFT,
        cv.MODEL_CALL_PURPOSE_DECLARACAO_REPAIR,
    ]
    repair = model.requests[1]
    assert "nada_a_declarar deve ser false" in repair.messages[-1].text
    assert repair.tool_choice == "none" and repair.tools == READ_TOOLS
    # The repair request is in the tape as a loop input, before the answer it produced.
    roles = [m.role for m in response.tape.steps[1].messages]
    assert roles == [cv.TAPE_ROLE_USER, cv.TAPE_ROLE_ASSISTANT]


async def test_an_invalid_declaracao_after_the_repair_fails_clearly() -> None:
    made_up = final(
        "Remarquei para sexta!",
        intencoes=[{"o_que": "quer remarcar", "evidencia": "quero sexta às 9h", "categoria": "quer_remarcar"}],
        nada_a_declarar=False,
    )
    model = ScriptedProvider([text(made_up), text(made_up)])
    response = await conversador(model, RecordingExecutor())._draft(request("preciso remarcar a consulta"))

    assert response.WhichOneof("result") == "failure"
    assert response.failure.reason == REPAIR_FAILED
    assert "evidencia" in response.failure.validation_error
    assert "trecho copiado da conversa" in response.failure.validation_error
    assert len(response.usage) == 2 and len(response.tape.steps) == 2  # still recorded
    assert model.remaining == 0  # exactly one repair, no third call


async def test_the_loop_is_bounded_in_rounds() -> None:
    executor = RecordingExecutor(inner=projection_executor())
    model = ScriptedProvider(
        [
            tool_calls(("get_lead_context", {})),
            tool_calls(("get_lead_note", {})),
            text(final("Olá! Em que posso ajudar?")),
        ]
    )
    response = await conversador(model, executor, max_tool_steps=2)._draft(request("Oi"))

    assert response.WhichOneof("result") == "reply"
    assert [r.tool_choice for r in model.requests] == ["auto", "auto", "none"]
    assert model.requests[2].messages[-1].text == prompts.FINAL_STEP_MESSAGE


async def test_a_model_that_keeps_asking_for_tools_after_the_bound_fails() -> None:
    model = ScriptedProvider([tool_calls(("get_lead_context", {})), tool_calls(("get_lead_context", {}))])
    executor = RecordingExecutor(inner=projection_executor())
    response = await conversador(model, executor, max_tool_steps=1)._draft(request("Oi"))
    assert response.WhichOneof("result") == "failure"
    assert "limite de 1 rodadas" in response.failure.reason
    assert len(executor.calls) == 1


async def test_revise_continues_the_tape_with_the_guidance_and_never_the_gate_name() -> None:
    projection = FakeProjection()
    executor = projection_executor(projection)
    model = ScriptedProvider(
        [
            tool_calls(("check_availability", {"servico": "Limpeza", "data_inicial": "2024-11-06"})),
            text(final("Marquei sua limpeza para quarta às 9h!", **REMARCAR)),
            text(final("Tenho quarta às 9h livre. Quer que eu peça a marcação?", **REMARCAR)),
        ]
    )
    service = conversador(model, executor)
    draft_request = request("preciso remarcar a consulta")
    draft = await service._draft(draft_request)
    assert draft.reply.used_agenda_tool is True

    revise = cv.ReviseRequest(
        organization_id=ORG,
        contact_id=CONTACT,
        unit_id=UNIT,
        context=draft_request.context,
        new_messages=draft_request.new_messages,
        previous_draft=draft.reply,
        previous_tape=draft.tape,
        vetoes=[cv.VetoGuidance(gate="unbacked_claim", guidance="Não diga que marcou: ofereça pedir a marcação.")],
        revision=1,
    )
    revised = await service._revise(revise)

    assert revised.reply.message.startswith("Tenho quarta às 9h livre")
    asked = model.requests[2]
    sent_back = [p for m in asked.messages for p in m.parts if isinstance(p, ToolCall | ToolResult)]
    assert len(sent_back) == 2  # the draft's call and result, replayed, not run again
    assert len(projection.calls) == 1
    assert "ofereça pedir a marcação" in asked.messages[-1].text
    assert "unbacked_claim" not in asked.messages[-1].text
    assert "Marquei sua limpeza" in asked.messages[-1].text
    assert [(s.attempt, s.index) for s in revised.tape.steps] == [(1, 0), (1, 1), (2, 0)]
    assert revised.tape.steps[2].messages[0].role == cv.TAPE_ROLE_USER
    assert [u.purpose for u in revised.usage] == [cv.MODEL_CALL_PURPOSE_REVISION]
    assert revised.reply.used_agenda_tool is True  # the turn's tape used an agenda tool


async def test_a_tool_call_with_bad_arguments_reaches_the_model_as_an_error_not_projection() -> None:
    projection = FakeProjection()
    model = ScriptedProvider(
        [
            tool_calls(("check_availability", {"data_inicial": "sexta"}), ("get_lead_context", {"contact_id": "x"})),
            text(final("Para qual dia você quer?")),
        ]
    )
    response = await conversador(model, projection_executor(projection))._draft(request("tem horário?"))
    results = [p.tool_result for p in response.tape.steps[0].messages[1].parts]
    assert [r.is_error for r in results] == [True, True]
    assert "AAAA-MM-DD" in results[0].content
    assert projection.calls == []


@pytest.mark.parametrize("revision", [0, 3])
async def test_revise_refuses_a_revision_number_out_of_range(revision: int) -> None:
    from services.conversador.service import BadRequest

    service = conversador(ScriptedProvider([]), RecordingExecutor())
    base = request("oi")
    revise = cv.ReviseRequest(
        organization_id=ORG,
        contact_id=CONTACT,
        context=base.context,
        new_messages=base.new_messages,
        previous_draft=cv.DraftedReply(message="x"),
        vetoes=[cv.VetoGuidance(guidance="y")],
        revision=revision,
    )
    with pytest.raises(BadRequest, match="revision"):
        await service._revise(revise)
