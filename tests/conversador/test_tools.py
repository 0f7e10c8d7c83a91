"""The read tools: definitions without system vocabulary, arguments checked, projection rendered."""

from __future__ import annotations

import json
import re

import grpc
import pytest

from balcao.projection.v1 import projection_pb2 as pj
from services.conversador.tools import (
    READ_TOOLS,
    ProjectionToolExecutor,
    ProjectionUnavailable,
    render_availability,
    render_knowledge,
)
from tests.conversador.fakes import CONTACT, ORG, SCOPE, UNIT, FailingStub, FakeProjection, projection_executor

UUID_SHAPE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SYSTEM_WORDS = re.compile(
    r"\b(crm|api|uuid|id|tabela|banco de dados|database|table|projection|proje[cç][aã]o|grpc|"
    r"sistema|webhook|operador|json)\b",
    re.I,
)


def test_exactly_the_six_read_tools_with_business_descriptions() -> None:
    assert [t.name for t in READ_TOOLS] == [
        "get_lead_context",
        "search_knowledge",
        "get_lead_note",
        "read_skill_reference",
        "list_my_appointments",
        "check_availability",
    ]
    for tool in READ_TOOLS:
        described = json.dumps([tool.description, tool.input_schema], ensure_ascii=False)
        assert not SYSTEM_WORDS.search(described), tool.name
        assert tool.input_schema["additionalProperties"] is False


async def test_each_read_goes_to_projection_scoped_to_the_turn() -> None:
    projection = FakeProjection()
    executor = projection_executor(projection)
    for name, arguments in [
        ("get_lead_context", {}),
        ("search_knowledge", {"pergunta": "estacionamento"}),
        ("get_lead_note", {"assunto": "horários"}),
        ("read_skill_reference", {"titulo": "Tabela de tratamentos"}),
        ("list_my_appointments", {}),
        ("check_availability", {"servico": "Limpeza", "data_inicial": "2024-11-06", "periodo": "tarde"}),
    ]:
        outcome = await executor.execute(name, arguments)
        assert not outcome.is_error, (name, outcome.content)
        assert not UUID_SHAPE.search(outcome.content)
        json.loads(outcome.content)
    sent = dict(projection.calls)
    assert all(r.organization_id == ORG and r.contact_id == CONTACT for _, r in projection.calls)
    assert sent["SearchKnowledge"].unit_id == UNIT and sent["SearchKnowledge"].query == "estacionamento"
    availability = sent["CheckAvailability"]
    assert (availability.service, availability.from_date, availability.part_of_day) == (
        "Limpeza",
        "2024-11-06",
        pj.PART_OF_DAY_AFTERNOON,
    )


async def test_the_model_cannot_choose_whose_data_is_read() -> None:
    projection = FakeProjection()
    outcome = await projection_executor(projection).execute("list_my_appointments", {"contact_id": "outro"})
    assert outcome.is_error and "não foi possível consultar com esses dados" in outcome.content
    assert projection.calls == []


@pytest.mark.parametrize(
    ("name", "arguments", "said"),
    [
        ("check_availability", {"data_inicial": "amanhã"}, "AAAA-MM-DD"),
        ("check_availability", {"periodo": "madrugada"}, "manha, tarde ou noite"),
        ("search_knowledge", {}, "pergunta"),
        ("book_appointment", {}, "essa consulta não existe"),
    ],
)
async def test_bad_arguments_come_back_to_the_model_as_an_error(name: str, arguments: dict, said: str) -> None:
    projection = FakeProjection()
    outcome = await projection_executor(projection).execute(name, arguments)
    assert outcome.is_error and said in outcome.content
    assert projection.calls == []


async def test_a_consequence_is_an_error_sentence_and_an_unknown_agenda_says_unknown() -> None:
    refused = await projection_executor().execute("check_availability", {"servico": "Tatuagem"})
    assert refused.is_error and refused.content == "esse serviço não está na agenda da clínica"
    unknown = await projection_executor(FakeProjection(agenda_known=False)).execute("list_my_appointments", {})
    data = json.loads(unknown.content)
    assert data["agenda_consultada"] is False and "compromissos" not in data
    empty = await projection_executor(FakeProjection(booked=[])).execute("list_my_appointments", {})
    assert json.loads(empty.content) == {
        "agenda_consultada": True,
        "compromissos": [],
        "aviso": "nenhum compromisso ativo e futuro",
    }


def test_nothing_found_never_reads_as_no() -> None:
    assert (
        json.loads(render_knowledge(pj.SearchKnowledgeResponse()).content)["aviso"] == "não há nada escrito sobre isso"
    )
    assert json.loads(render_availability(pj.CheckAvailabilityResponse()).content)["aviso"].startswith(
        "não há horários"
    )


async def test_projection_down_is_unavailable_and_a_refused_question_is_an_error() -> None:
    down = ProjectionToolExecutor(FailingStub(grpc.StatusCode.UNAVAILABLE), SCOPE, timeout=1)  # type: ignore[arg-type]
    with pytest.raises(ProjectionUnavailable):
        await down.execute("get_lead_context", {})
    refused = ProjectionToolExecutor(FailingStub(grpc.StatusCode.INVALID_ARGUMENT), SCOPE, timeout=1)  # type: ignore[arg-type]
    outcome = await refused.execute("get_lead_context", {})
    assert outcome.is_error and "INVALID_ARGUMENT" not in outcome.content
