"""The prompts: pt-BR, the business's voice per unit, no operating vocabulary, no identifiers."""

from __future__ import annotations

import re

from balcao.projection.v1 import projection_pb2 as pj
from services.conversador import prompts
from services.conversador.closing import CLOSING_SYSTEM
from tests.conversador.fakes import BOOKED, CONTACT, ORG, business, customer, turn_context

# What seed 002 measured leaking: names of tools, tables, systems, internal processes.
FORBIDDEN = re.compile(
    r"\b(ferramentas?|tools?|tabelas?|tables?|banco de dados|database|crm|api|webhook|uuid|ids?|sistema|system|"
    r"proje[cç][aã]o|projection|operador|seguran[cç]a|gates?|veto|grpc|get_lead_context|search_knowledge|"
    r"get_lead_note|read_skill_reference|list_my_appointments|check_availability)\b",
    re.I,
)


def test_the_system_prompt_speaks_only_of_the_business() -> None:
    context = turn_context()
    system = prompts.system_prompt(context.unit, context.business)
    assert not FORBIDDEN.search(system), FORBIDDEN.search(system)
    assert "Recepção de Clínica Sorriso" in system
    assert "simpática e objetiva" in system
    assert "Ofereça sempre a consulta de avaliação" in system


def test_each_unit_speaks_in_its_own_voice() -> None:
    a = turn_context(unit_name="Recepção", voice="formal, tratando o cliente por senhor ou senhora")
    b = turn_context(unit_name="Pós-venda", voice="descontraída, com emojis")
    first, second = (prompts.system_prompt(c.unit, c.business) for c in (a, b))
    assert "formal, tratando o cliente por senhor" in first and "descontraída" not in first
    assert "Pós-venda de Clínica Sorriso" in second
    assert prompts.DEFAULT_VOICE in prompts.system_prompt(pj.UnitView(), business())


def test_the_turn_message_carries_the_context_but_no_identifier() -> None:
    message = prompts.turn_message(turn_context(booked=(BOOKED,)), [], [customer("Oi, tenho consulta?")], None)
    assert ORG not in message and CONTACT not in message
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", message)
    assert "quinta-feira, 7 de novembro de 2024, 10:00" in message
    assert "Cliente: Oi, tenho consulta?" in message
    assert "(esta é a primeira conversa)" in message


def test_the_closing_prompt_asks_for_the_step_after_the_answer_and_respects_unknown() -> None:
    assert "DESCONHECIDA" in CLOSING_SYSTEM
    assert "não agenda livre" in CLOSING_SYSTEM
    assert "passo DEPOIS da resposta" in CLOSING_SYSTEM
    assert not FORBIDDEN.search(CLOSING_SYSTEM.replace("rolling_summary", ""))
