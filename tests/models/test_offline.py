"""The offline model's rules: intents, days and times in pt-BR, and what it refuses to do."""

from __future__ import annotations

from datetime import date

import pytest

from balcao.models.base import Message, ModelRejected, ModelRequest
from balcao.models.offline import OfflineProvider
from balcao.models.offline_intents import date_range, detect_intents, part_of_day, wanted_time

TUESDAY = date(2024, 11, 5)


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        ("Oi, bom dia!", ["greeting"]),
        ("Quero marcar uma limpeza", ["book"]),
        ("Vocês têm horário livre amanhã?", ["availability"]),
        ("Preciso remarcar minha consulta", ["reschedule"]),
        ("Dá pra trocar o horário da consulta?", ["reschedule"]),
        ("Quero cancelar a consulta de quinta", ["cancel"]),
        ("Quanto custa a limpeza?", ["price"]),
        ("Achei caro demais", ["price_objection"]),
        ("Vocês atendem no sábado?", ["hours"]),
        ("Qual o horário de funcionamento?", ["hours"]),
        ("Vocês abrem que horas?", ["hours"]),
        ("E fecha até que horas no sábado?", ["hours"]),
        ("Onde fica a clínica?", ["address"]),
        ("Quais são as minhas consultas?", ["my_appointments"]),
        ("Tenho alguma consulta marcada?", ["my_appointments"]),
        ("Quando é a minha consulta?", ["my_appointments"]),
        ("Quero remarcar a minha consulta", ["reschedule"]),
        ("Quero falar com uma pessoa", ["human"]),
        ("Para de me mandar mensagem, quero cancelar tudo", ["opt_out"]),
        ("Não quero mais receber mensagens", ["opt_out"]),
        ("Boa tarde! Quanto custa e tem horário amanhã?", ["greeting", "availability", "price"]),
    ],
)
def test_intents_are_recognised_in_ordinary_pt_br(text: str, intents: list[str]) -> None:
    assert sorted(detect_intents(text)) == sorted(intents)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("amanhã", ("2024-11-06", "2024-11-06")),
        ("depois de amanhã", ("2024-11-07", "2024-11-07")),
        ("hoje à tarde", ("2024-11-05", "2024-11-05")),
        ("na sexta", ("2024-11-08", "2024-11-08")),
        ("segunda-feira", ("2024-11-11", "2024-11-11")),
        ("dia 12", ("2024-11-12", "2024-11-12")),
        ("dia 2", ("2024-12-02", "2024-12-02")),
        ("15/11", ("2024-11-15", "2024-11-15")),
        ("semana que vem", ("2024-11-11", "2024-11-17")),
        ("qualquer dia", ("2024-11-05", "2024-11-11")),
    ],
)
def test_days_are_read_relative_to_now(text: str, expected: tuple[str, str]) -> None:
    assert date_range(text, TUESDAY) == expected


def test_times_and_parts_of_the_day() -> None:
    assert wanted_time("pode ser às 10h") == "10:00"
    assert wanted_time("14:30 está ótimo") == "14:30"
    assert wanted_time("às 9") == "09:00"
    assert wanted_time("às 3 da tarde") == "15:00"
    assert wanted_time("quero marcar") is None
    assert part_of_day("amanhã de manhã") == "manha"
    assert part_of_day("Boa tarde, tem horário amanhã?") == ""  # a greeting is not a preference
    assert part_of_day("à noite") == "noite"


async def test_a_task_it_does_not_know_is_refused_not_improvised() -> None:
    with pytest.raises(ModelRejected, match="no behaviour for task"):
        await OfflineProvider().complete(ModelRequest("s", (Message.user("oi"),), task="seguranca.review"))


async def test_it_bills_nothing_and_names_itself() -> None:
    from balcao.models.conversador_format import TASK_CONDENSE

    response = await OfflineProvider().complete(
        ModelRequest(
            "s", (Message.user("Resumo a condensar:\nUma frase. Outra frase com 10 reais."),), task=TASK_CONDENSE
        )
    )
    assert response.provider == "offline" and response.model == "balcao-offline-1"
    assert response.usage.input_tokens == response.usage.output_tokens == 0


def test_a_slot_list_says_the_zone_once_and_groups_a_time_free_with_several_professionals() -> None:
    from balcao.models.offline_replies import slot_lines

    def slot(hhmm: str, who: str, zone: str = "horário de Brasília", lasting: str = "30 minutos") -> dict[str, str]:
        label = f"quarta-feira, 6 de novembro de 2024, {hhmm} ({zone})"
        return {"quando": label, "profissional": who, "duracao": lasting}

    lines, shared = slot_lines(
        [slot("08:30", "Dra. Ana"), slot("08:30", "Dr. Bruno"), slot("09:00", "Dra. Ana"), slot("09:00", "Dr. Bruno")]
    )
    assert lines == [
        "- quarta-feira, 6 de novembro de 2024, 08:30 — Dra. Ana ou Dr. Bruno",
        "- quarta-feira, 6 de novembro de 2024, 09:00 — Dra. Ana ou Dr. Bruno",
    ]
    assert shared == ["30 minutos", "horário de Brasília"]
    # What differs from line to line stays on its line: nothing is dropped.
    lines, shared = slot_lines(
        [slot("08:30", "Dra. Ana"), slot("10:00", "Dr. Bruno", zone="horário de Manaus", lasting="1 hora")]
    )
    assert lines == [
        "- quarta-feira, 6 de novembro de 2024, 08:30 (horário de Brasília) — Dra. Ana (30 minutos)",
        "- quarta-feira, 6 de novembro de 2024, 10:00 (horário de Manaus) — Dr. Bruno (1 hora)",
    ]
    assert shared == []
