"""The agenda's business refusals, each with the pt-BR sentence a person or a log reads."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from services.agenda.labels import duration_label, instant_label, local_moment_label
from services.agenda.localtime import Ambiguous, Nonexistent, zone
from services.agenda.model import Appointment, Refusal, RefusalCode, Slot


def _at(instant: datetime, zone_name: str) -> str:
    return instant_label(instant, zone(zone_name))


def slot_taken(start: datetime, zone_name: str, resource_name: str, alternatives: Sequence[Slot]) -> Refusal:
    return Refusal(
        RefusalCode.SLOT_TAKEN,
        f"O horário de {_at(start, zone_name)} com {resource_name} já está ocupado.",
        tuple(alternatives),
    )


def outside_business_hours(
    start: datetime, zone_name: str, resource_name: str, alternatives: Sequence[Slot]
) -> Refusal:
    return Refusal(
        RefusalCode.OUTSIDE_BUSINESS_HOURS,
        f"{_capital(_at(start, zone_name))} fica fora do horário de atendimento de {resource_name}.",
        tuple(alternatives),
    )


def misaligned(start: datetime, zone_name: str, resource_name: str, alternatives: Sequence[Slot]) -> Refusal:
    return Refusal(
        RefusalCode.MISALIGNED_START,
        f"{_capital(_at(start, zone_name))} não é um início de horário de {resource_name}; "
        "escolha um dos horários oferecidos.",
        tuple(alternatives),
    )


def in_the_past(start: datetime, zone_name: str) -> Refusal:
    return Refusal(RefusalCode.IN_THE_PAST, f"{_capital(_at(start, zone_name))} já passou.")


def already_happened(appointment: Appointment) -> Refusal:
    return Refusal(
        RefusalCode.IN_THE_PAST,
        f"O compromisso de {_at(appointment.start_time, appointment.time_zone)} já começou ou já aconteceu.",
    )


def too_short_notice(start: datetime, zone_name: str, minutes: int) -> Refusal:
    return Refusal(
        RefusalCode.TOO_SHORT_NOTICE,
        f"{_capital(_at(start, zone_name))} está perto demais: é preciso marcar com pelo menos "
        f"{minutes} minutos de antecedência.",
    )


def beyond_horizon(start: datetime, zone_name: str, days: int) -> Refusal:
    return Refusal(
        RefusalCode.BEYOND_BOOKING_HORIZON,
        f"{_capital(_at(start, zone_name))} está além do prazo de agendamento ({days} dias a partir de hoje).",
    )


def unknown_resource() -> Refusal:
    return Refusal(RefusalCode.UNKNOWN_RESOURCE, "Esse profissional ou recurso não existe nesta agenda.")


def unknown_service(resource_name: str | None = None) -> Refusal:
    if resource_name:
        return Refusal(RefusalCode.UNKNOWN_SERVICE, f"{resource_name} não atende esse serviço.")
    return Refusal(RefusalCode.UNKNOWN_SERVICE, "Esse serviço não existe nesta agenda.")


def inactive(name: str) -> Refusal:
    return Refusal(RefusalCode.RESOURCE_INACTIVE, f"{name} não está disponível para agendamento no momento.")


def nonexistent(problem: Nonexistent) -> Refusal:
    return Refusal(
        RefusalCode.NONEXISTENT_LOCAL_TIME,
        f"O horário {local_moment_label(problem.local)} não existe no fuso {problem.zone_name}: nessa data os "
        f"relógios foram adiantados em {duration_label(problem.jump)} (horário de verão). Escolha outro horário.",
    )


def ambiguous(problem: Ambiguous, alternatives: Sequence[Slot]) -> Refusal:
    tz = zone(problem.zone_name)
    return Refusal(
        RefusalCode.AMBIGUOUS_LOCAL_TIME,
        f"O horário {local_moment_label(problem.local)} acontece duas vezes no fuso {problem.zone_name}, porque "
        f"nessa data os relógios foram atrasados: {instant_label(problem.earlier, tz)} ou "
        f"{instant_label(problem.later, tz)}. Diga qual dos dois.",
        tuple(alternatives),
    )


def unknown_appointment() -> Refusal:
    return Refusal(RefusalCode.UNKNOWN_APPOINTMENT, "Esse compromisso não foi encontrado.")


def already_cancelled(appointment: Appointment) -> Refusal:
    return Refusal(
        RefusalCode.ALREADY_CANCELLED,
        f"O compromisso de {_at(appointment.start_time, appointment.time_zone)} já está cancelado.",
    )


def contact_already_booked(start: datetime, zone_name: str) -> Refusal:
    return Refusal(
        RefusalCode.CONTACT_ALREADY_BOOKED,
        f"Já existe um compromisso deste contato que coincide com {_at(start, zone_name)}.",
    )


def range_too_long(max_days: int) -> Refusal:
    return Refusal(
        RefusalCode.RANGE_TOO_LONG, f"O período consultado é longo demais: consulte no máximo {max_days} dias."
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
