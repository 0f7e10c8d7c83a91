"""The declaração's rules, as pydantic enforces them (DESIGN.md §4)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from balcao.common.v1 import declaracao_pb2 as dc
from services.conversador.declaracao import InvalidOutput, parse_draft, quotes, to_dict, to_proto

CONVERSATION = "Oi, boa tarde!\nPreciso remarcar minha consulta de quinta... pode ser na sexta de manhã?"
NOW = "2024-11-05T14:30:00-03:00"


def answer(**declaracao: Any) -> str:
    body = {"intencoes": [], "promessas": [], "nada_a_declarar": True}
    body.update(declaracao)
    return json.dumps({"mensagem": "Claro, vou verificar.", "declaracao": body}, ensure_ascii=False)


def remarcar(**overrides: Any) -> dict[str, Any]:
    item = {"o_que": "quer remarcar", "evidencia": "Preciso remarcar minha consulta", "categoria": "quer_remarcar"}
    item.update(overrides)
    return item


def test_a_valid_answer_becomes_the_contract_message() -> None:
    output = parse_draft(
        answer(
            intencoes=[remarcar()],
            promessas=[{"o_que": "verificar horários de sexta", "prazo": "2024-11-06T12:00:00-03:00"}],
            nada_a_declarar=False,
        ),
        CONVERSATION,
    )
    proto = to_proto(output.declaracao, NOW)
    assert proto.intencoes[0].categoria == dc.CATEGORIA_QUER_REMARCAR
    assert proto.promessas[0].prazo.ToDatetime(tzinfo=UTC) == datetime(2024, 11, 6, 15, 0, tzinfo=UTC)
    assert not proto.nada_a_declarar
    assert to_dict(proto, NOW)["promessas"][0]["prazo"] == "2024-11-06T12:00:00-03:00"


def test_nothing_to_declare_is_a_field_that_must_match_the_lists() -> None:
    assert parse_draft(answer(), CONVERSATION).declaracao.nada_a_declarar is True
    with pytest.raises(InvalidOutput, match="nada_a_declarar deve ser false"):
        parse_draft(answer(intencoes=[remarcar()], nada_a_declarar=True), CONVERSATION)
    with pytest.raises(InvalidOutput, match="nada_a_declarar deve ser true"):
        parse_draft(answer(nada_a_declarar=False), CONVERSATION)
    with pytest.raises(InvalidOutput, match="nada_a_declarar: campo obrigatório"):
        parse_draft(json.dumps({"mensagem": "x", "declaracao": {"intencoes": [], "promessas": []}}), CONVERSATION)
    with pytest.raises(InvalidOutput, match="true ou false"):
        parse_draft(answer(nada_a_declarar="sim"), CONVERSATION)


def test_the_evidence_must_quote_the_conversation() -> None:
    with pytest.raises(InvalidOutput, match="trecho copiado da conversa"):
        parse_draft(
            answer(intencoes=[remarcar(evidencia="quer mudar para sábado")], nada_a_declarar=False), CONVERSATION
        )
    # Case, punctuation and an ellipsis between two real fragments are fine.
    for quote in ("preciso remarcar minha consulta de quinta", "Preciso remarcar … na sexta de manhã"):
        assert quotes(quote, CONVERSATION)
    assert not quotes("...", CONVERSATION)


def test_categoria_is_a_closed_enum_or_null() -> None:
    ok = parse_draft(
        answer(intencoes=[remarcar(categoria="CATEGORIA_QUER_REMARCAR")], nada_a_declarar=False), CONVERSATION
    )
    assert ok.declaracao.intencoes[0].categoria == "quer_remarcar"
    none = parse_draft(answer(intencoes=[remarcar(categoria=None)], nada_a_declarar=False), CONVERSATION)
    assert to_proto(none.declaracao, NOW).intencoes[0].categoria == dc.CATEGORIA_UNSPECIFIED
    with pytest.raises(InvalidOutput, match="categoria desconhecida"):
        parse_draft(answer(intencoes=[remarcar(categoria="quer_sair")], nada_a_declarar=False), CONVERSATION)


def test_prazo_is_iso_8601_or_null() -> None:
    with pytest.raises(InvalidOutput, match="ISO-8601"):
        parse_draft(
            answer(promessas=[{"o_que": "retornar", "prazo": "sexta de manhã"}], nada_a_declarar=False), CONVERSATION
        )
    bare_day = parse_draft(
        answer(promessas=[{"o_que": "retornar", "prazo": "2024-11-08"}], nada_a_declarar=False), CONVERSATION
    )
    deadline = to_proto(bare_day.declaracao, NOW).promessas[0].prazo.ToDatetime(tzinfo=UTC)
    assert deadline == datetime(2024, 11, 9, 2, 59, 59, tzinfo=UTC)  # end of the day, in the organisation's zone
    no_deadline = parse_draft(
        answer(promessas=[{"o_que": "retornar", "prazo": None}], nada_a_declarar=False), CONVERSATION
    )
    assert not to_proto(no_deadline.declaracao, NOW).promessas[0].HasField("prazo")


def test_an_answer_that_is_not_the_object_explains_why() -> None:
    with pytest.raises(InvalidOutput, match="não contém um objeto JSON"):
        parse_draft("Claro! Vou verificar para você.", CONVERSATION)
    with pytest.raises(InvalidOutput, match="mensagem: campo obrigatório"):
        parse_draft(
            json.dumps({"declaracao": {"intencoes": [], "promessas": [], "nada_a_declarar": True}}), CONVERSATION
        )
    with pytest.raises(InvalidOutput, match="campo não previsto"):
        parse_draft(answer(intencoes=[remarcar(id="123")], nada_a_declarar=False), CONVERSATION)


def test_a_fenced_answer_with_text_around_it_is_read() -> None:
    text = "Segue:\n```json\n" + answer() + "\n```"
    assert parse_draft(text, CONVERSATION).mensagem == "Claro, vou verificar."
