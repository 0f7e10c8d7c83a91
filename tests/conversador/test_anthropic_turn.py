"""A whole turn (draft with a tool loop, then the closing) with the real SDK against the local Messages API."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models.anthropic import AnthropicProvider
from balcao.projection.v1 import projection_pb2 as pj
from services.conversador.service import Conversador
from tests.conversador.fakes import (
    BOOKED,
    CONTACT,
    ORG,
    UNIT,
    FakeProjection,
    customer,
    projection_executor,
    turn_context,
)
from tests.support.messages_api import MessagesAPI, messages_api, reply_text, reply_tools

FINAL = json.dumps(
    {
        "mensagem": "Sua consulta de avaliação é na quinta, 7 de novembro, às 10:00. Quer remarcar?",
        "declaracao": {
            "intencoes": [
                {
                    "o_que": "quer confirmar a consulta",
                    "evidencia": "minha consulta é quando?",
                    "categoria": "pede_informacao",
                }
            ],
            "promessas": [],
            "nada_a_declarar": False,
        },
    },
    ensure_ascii=False,
)
CHECKPOINT = json.dumps(
    {
        "rolling_summary": "Maria confirmou a consulta de avaliação de 7/11 às 10:00.",
        "commitments": [],
        "objections": [],
        "next_action": "remarcar se Maria pedir",
    },
    ensure_ascii=False,
)


def cv_reread() -> pj.ListMyAppointmentsRequest:
    return pj.ListMyAppointmentsRequest(organization_id=ORG, contact_id=CONTACT)


@pytest.fixture
def api() -> Iterator[MessagesAPI]:
    with messages_api() as server:
        yield server


async def test_a_tool_loop_then_a_closing_the_api_accepts(api: MessagesAPI) -> None:
    api.fail_next(429)  # the first call is rate limited once and retried by the SDK
    api.then(reply_tools(("list_my_appointments", {}), preface="Vou olhar a agenda."), reply_text(FINAL))
    api.then(reply_text(CHECKPOINT))
    model = AnthropicProvider(
        api_key="sk-test", model="claude-test", cheap_model="claude-cheap", base_url=api.base_url, max_retries=2
    )
    projection = FakeProjection()
    service = Conversador(model, lambda scope: projection_executor(projection))
    draft_request = cv.DraftRequest(
        organization_id=ORG,
        contact_id=CONTACT,
        unit_id=UNIT,
        context=turn_context(booked=(BOOKED,)),
        new_messages=[customer("Oi! minha consulta é quando?")],
    )
    draft = await service._draft(draft_request)
    assert draft.WhichOneof("result") == "reply", draft.failure
    assert draft.reply.used_agenda_tool

    close = cv.CloseRequest(
        organization_id=ORG,
        contact_id=CONTACT,
        new_messages=draft_request.new_messages,
        tape=draft.tape,
        sent=cv.SentReply(text=draft.reply.message, delivered=True),
        declaracao=draft.reply.declaracao,
        agenda=(await projection.ListMyAppointments(cv_reread(), None)).appointments,
    )
    closed = await service._close(close)
    await model.aclose()

    assert [r.status for r in api.requests] == [429, 200, 200, 200]
    first, second, closing = (r.body for r in api.accepted)
    # The loop: tools offered on both draft calls, the projected result given back as a tool_result.
    assert first["tools"] and second["tools"]
    [result] = second["messages"][-1]["content"]
    assert result["type"] == "tool_result" and "quinta-feira, 7 de novembro de 2024, 10:00" in result["content"]
    # The closing: no tools, no tool blocks, and still the tool parts, as text.
    assert "tools" not in closing and "tool_choice" not in closing
    blocks = [b["type"] for m in closing["messages"] for b in m["content"]]
    assert set(blocks) == {"text"}
    prompt = closing["messages"][0]["content"][0]["text"]
    assert "Consulta list_my_appointments: {}" in prompt and "Resultado de list_my_appointments:" in prompt
    assert closed.checkpoint.rolling_summary.startswith("Maria confirmou")
    # Usage recorded per call, cache included: the second draft call read what the first wrote.
    assert [u.purpose for u in draft.usage] == [cv.MODEL_CALL_PURPOSE_DRAFT] * 2
    assert all(u.provider == "anthropic" and u.model == "claude-test" for u in draft.usage)
    assert (
        draft.usage[0].cache_write_tokens > 0 and draft.usage[1].cache_read_tokens == draft.usage[0].cache_write_tokens
    )
    assert closed.usage[0].purpose == cv.MODEL_CALL_PURPOSE_CLOSING and closed.usage[0].input_tokens > 0
