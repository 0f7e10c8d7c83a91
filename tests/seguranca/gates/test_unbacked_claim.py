"""`unbacked_claim`: "está confirmado" needs a confirmed booking at that date and time; pending proves nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.seguranca.facts import ConfirmedBooking, ToolResult
from services.seguranca.gates import unbacked_claim
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate, with_evidence

# Thursday 2026-03-05, 15:00 in São Paulo.
NOW = datetime(2026, 3, 5, 18, 0, tzinfo=UTC)
# Tuesday 2026-03-10, 10:00 in São Paulo (UTC-3, no DST).
TUESDAY_10H = ConfirmedBooking(datetime(2026, 3, 10, 13, 0, tzinfo=UTC), "America/Sao_Paulo", service="Avaliação")
CONFIRMED = with_evidence(bookings=(TUESDAY_10H,))


def _code(draft: str, now: datetime = NOW, **fields: object) -> str:
    result = gate(unbacked_claim.check, draft, now=now, **fields)
    return result.code if result.status is Status.VETOED else "passed"


CLAIMS = [
    "Sua consulta está confirmada para terça às 10h.",
    "Prontinho! Agendado para terça, 10/03, às 10:00.",
    "Ficou marcado para o dia 10 às 10h.",
    "Já remarquei para terça às 10h.",
    "Sua avaliação foi agendada para 10 de março às 10h.",
    "Agendado!",
    "Confirmei sua consulta de terça.",
    "Sua vaga está garantida para terça às 10h.",
]


@pytest.mark.parametrize("draft", CLAIMS)
def test_a_claim_without_a_confirmed_booking_is_vetoed(draft: str) -> None:
    assert _code(draft) == "unbacked_claim:no_confirmed_booking"


@pytest.mark.parametrize("draft", CLAIMS)
def test_the_same_claim_matching_a_confirmed_booking_passes(draft: str) -> None:
    assert _code(draft, evidence=CONFIRMED) == "passed"


def test_a_confirmation_matching_a_pending_booking_is_vetoed() -> None:
    # The turn saw the pending booking (a tool listed it), but pending bookings never reach the
    # confirmed evidence: pending proves nothing.
    seen = ToolResult("list_my_appointments", "terça, 10/03 às 10:00 — Avaliação — aguardando confirmação")
    assert _code("Sua consulta está confirmada para terça às 10h.", evidence=with_evidence(tool_results=(seen,))) == (
        "unbacked_claim:no_confirmed_booking"
    )


@pytest.mark.parametrize(
    "draft",
    [
        "Sua consulta está confirmada para terça às 11h.",
        "Sua consulta está confirmada para quarta às 10h.",
        "Ficou marcado para 11/03 às 10h.",
        "Sua consulta está confirmada para amanhã às 10h.",
        "Prontinho, está confirmado. Te esperamos na sexta às 10h.",
    ],
)
def test_a_claim_naming_another_date_or_time_is_vetoed(draft: str) -> None:
    assert _code(draft, evidence=CONFIRMED) == "unbacked_claim:booking_mismatch"


def test_relative_days_are_read_in_the_bookings_zone() -> None:
    monday_night = datetime(2026, 3, 9, 23, 0, tzinfo=UTC)  # 20:00 Monday in São Paulo
    assert _code("Está confirmado para amanhã às 10h.", now=monday_night, evidence=CONFIRMED) == "passed"
    assert _code("Está confirmado para hoje às 10h.", now=monday_night, evidence=CONFIRMED) == (
        "unbacked_claim:booking_mismatch"
    )


def test_the_hour_is_compared_in_the_bookings_local_time_across_a_dst_change() -> None:
    # Lisbon moves from UTC+0 to UTC+1 on 2026-03-29. The booking is on the 31st at 10:00 local
    # (09:00 UTC); today (the 25th) Lisbon is still on UTC+0, so using today's offset would say 09:00.
    lisbon = ConfirmedBooking(datetime(2026, 3, 31, 9, 0, tzinfo=UTC), "Europe/Lisbon")
    now = datetime(2026, 3, 25, 12, 0, tzinfo=UTC)
    evidence = with_evidence(bookings=(lisbon,))
    assert _code("A sua consulta está confirmada para 31/03 às 10h.", now=now, evidence=evidence) == "passed"
    assert _code("A sua consulta está confirmada para 31/03 às 9h.", now=now, evidence=evidence) == (
        "unbacked_claim:booking_mismatch"
    )


def test_each_booking_is_read_in_its_own_zone() -> None:
    manaus = ConfirmedBooking(datetime(2026, 3, 10, 14, 0, tzinfo=UTC), "America/Manaus")  # 10:00 in Manaus
    evidence = with_evidence(bookings=(manaus,))
    assert _code("Confirmado para terça às 10h.", evidence=evidence) == "passed"
    assert _code("Confirmado para terça às 11h.", evidence=evidence) == "unbacked_claim:booking_mismatch"


@pytest.mark.parametrize(
    "draft",
    [
        "Quer que fique agendado para terça às 10h?",
        "Posso deixar marcado para terça às 10h?",
        "Ainda não está confirmado; assim que a clínica confirmar eu te aviso.",
        "Assim que estiver confirmado, te mando uma mensagem.",
        "Pode ficar tranquila, vou verificar com a equipe.",
        "Temos horários livres na terça às 10h.",
        "O agendamento é feito pelo WhatsApp mesmo.",
        "Pode ser agendado para terça, se preferir.",
    ],
)
def test_questions_offers_and_negations_are_not_claims(draft: str) -> None:
    assert _code(draft) == "passed"


def test_a_record_claim_needs_a_read_result_reporting_it() -> None:
    assert _code("Já cancelei a sua consulta.") == "unbacked_claim:no_record"
    assert _code("Registrei seu pedido de retorno.") == "unbacked_claim:no_record"
    cancelled = with_evidence(tool_results=(ToolResult("list_my_appointments", "Consulta de 10/03: cancelada"),))
    assert _code("Já cancelei a sua consulta.", evidence=cancelled) == "passed"


def test_the_stall_when_the_agenda_could_be_read_now() -> None:
    stall = "Vou verificar a agenda e já te retorno."
    assert _code(stall, evidence=with_evidence(agenda_readable=True)) == "unbacked_claim:agenda_stall"
    assert _code(stall, evidence=with_evidence(agenda_readable=True, agenda_consulted=True)) == "passed"
    assert _code(stall, evidence=with_evidence(agenda_readable=False)) == "passed"
