"""What the offline model does as the Operador: the agenda promises, by rules; nothing else.

The offline default is not a language model; it cannot judge the whole catalog. Taught this task,
it keeps the promises a service business makes most (the ones the offline Conversador declares):
"pedir a marcação … para <dia> às <hora>", "pedir a remarcação de … de <antes> para <depois>",
"pedir o cancelamento de …". For each open promise of that kind it reads the day and time from
the promise (the Conversador copied them from the agenda's free slots) or, when the promise does
not say them, from the customer's words in the intention ("amanhã às 10h", "quinta 10h", against
the day the turn closed), and calls one agenda tool naming that promise:

- booking: the professional the customer named, else the one the sent reply named, else the unit's
  first professional who performs the service named, then the next ones while agenda says the
  time is taken; the service named, if any; confirmed.
- rescheduling / cancelling: the customer's appointment the promise names (by its day and time),
  or their only one.

A promise it cannot read (no day or time, several appointments and none named) gets no call: the
basic registration then fails it with the reason and an inbox item. A slot taken is agenda's
refusal, which the Operador records as the promise failed with the free times offered instead.
Everything else (stage, follow-ups, the timeline) is the basic registration's. Deterministic: the
same request gives the same calls; no clock is read when the turn's time is in the context.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from balcao.models.base import ModelRequest, TextPart, ToolCall
from balcao.models.offline import OfflineProvider
from balcao.models.offline_intents import date_range, fold, wanted_time
from services.operador.acting import TASK

NO_MODEL = "Sem modelo configurado: só o registro básico foi feito."
# Marks a booking planned only for when the first professional's time is taken (never sent to the tool).
ALTERNATIVE = "_se_ocupado"

_MONTHS = ("janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
           "novembro", "dezembro")
_WRITTEN_DATE = re.compile(r"\b(\d{1,2})(?:º|o)? de (" + "|".join(_MONTHS) + r")(?: de (\d{4}))?\b")
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")
# Words of a professional's name that do not tell one professional from another.
_TITLES = frozenset({"dr", "dra", "doutor", "doutora", "prof", "profa"})
_SERVICE_NOISE = frozenset({"consulta", "sessao", "servico", "atendimento"})


def context_of(request: ModelRequest) -> dict[str, Any]:
    """The JSON context `acting.context_text` wrote (after the unit's instructions, if any)."""
    text = request.messages[0].text.strip()
    try:
        value = json.loads(text.rsplit("\n", 1)[-1])
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _zone(context: dict[str, Any]) -> ZoneInfo:
    try:
        return ZoneInfo(str(context.get("fuso_horario") or "America/Sao_Paulo"))
    except (KeyError, ValueError):
        return ZoneInfo("America/Sao_Paulo")


def turn_day(context: dict[str, Any]) -> date:
    """The local day the turn closed: "amanhã" means the day after it, whenever the Operador runs."""
    zone = _zone(context)
    stamp = str(context.get("turno_em") or "")
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        moment = datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone).date()


def day_in(text: str, today: date) -> date | None:
    """The day a text names: "5 de novembro de 2024", "12/06", "amanhã", "quinta"; None when it names none."""
    folded = fold(text)
    year: int | None
    if match := _WRITTEN_DATE.search(folded):
        day, month, year = int(match.group(1)), _MONTHS.index(match.group(2)) + 1, (
            int(match.group(3)) if match.group(3) else None)
    elif match := _NUMERIC_DATE.search(folded):
        day, month = int(match.group(1)), int(match.group(2))
        y = match.group(3)
        year = (int(y) + 2000 if len(y) == 2 else int(y)) if y else None
    else:
        start, end = date_range(text, today)
        if start and start == end and _names_a_day(folded):
            return date.fromisoformat(start)
        return None
    try:
        found = date(year or today.year, month, day)
    except ValueError:
        return None
    if year is None and found < today:
        found = found.replace(year=found.year + 1)
    return found


def _names_a_day(folded: str) -> bool:
    # date_range answers "the next seven days" when no day is said: only a day actually said counts.
    return bool(re.search(r"\b(hoje|amanha|depois de amanha|dia \d{1,2}|segunda|terca|quarta|quinta|sexta|sabado|"
                          r"domingo)\b", folded))


def when_in(text: str, today: date) -> tuple[date, str] | None:
    """The day and the HH:MM a text names, or None when it lacks either."""
    text = re.sub(r"\(c[oó]digo[^)]*\)", " ", text, flags=re.IGNORECASE)
    hhmm = wanted_time(re.sub(r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b", " ", text))
    day = day_in(text, today)
    return (day, hhmm) if day is not None and hhmm is not None else None


def kind_of(promise: str) -> str:
    folded = fold(promise)
    if re.search(r"\bremarc|\breagend", folded):
        return "reschedule"
    if re.search(r"\b(cancel|desmarc)", folded):
        return "cancel"
    if re.search(r"\b(marca|agend|reserv)", folded):
        return "book"
    return ""


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", fold(text)) if len(w) > 2}


def _named_service(text: str, services: list[dict[str, Any]]) -> dict[str, Any] | None:
    said, folded = _words(text), fold(text)
    for service in services:
        name = str(service.get("nome", ""))
        distinctive = {w for w in _words(name) if len(w) >= 5} - _SERVICE_NOISE
        if fold(name) in folded or (distinctive and distinctive <= said):
            return service
    return None


def _named_professional(text: str, professionals: list[dict[str, Any]]) -> dict[str, Any] | None:
    said = _words(text)
    for professional in professionals:
        if said & (_words(str(professional.get("nome", ""))) - _TITLES):
            return professional
    return None


def _appointment_at(appointments: list[dict[str, Any]], when: tuple[date, str] | None) -> dict[str, Any] | None:
    if when is None:
        return appointments[0] if len(appointments) == 1 else None
    wanted = f"{when[0].isoformat()}T{when[1]}"
    found = [a for a in appointments if str(a.get("inicio_local", "")).startswith(wanted)]
    if len(found) == 1:
        return found[0]
    return appointments[0] if len(appointments) == 1 else None


def _local(day: date, hhmm: str, zone: str) -> dict[str, Any]:
    return {"local": {"local_date_time": f"{day.isoformat()}T{hhmm}:00", "time_zone": zone}}


def plan(context: dict[str, Any]) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """The agenda calls that keep the open promises, and what could not be read (in pt-BR)."""
    declaracao = context.get("declaracao") or {}
    evidence = " ".join(str(i.get("evidencia", "")) for i in declaracao.get("intencoes", []) if isinstance(i, dict))
    agenda = context.get("agenda") or {}
    professionals = list(agenda.get("profissionais") or [])
    services = list(agenda.get("servicos") or [])
    appointments = list(context.get("compromissos") or [])
    zone = str(context.get("fuso_horario") or "America/Sao_Paulo")
    today = turn_day(context)
    calls: list[tuple[str, dict[str, Any]]] = []
    unread: list[str] = []
    for promise in context.get("promessas") or []:
        if promise.get("situacao") != "OBLIGATION_STATUS_OPEN":
            continue
        what, number = str(promise.get("o_que", "")), promise.get("numero")
        kind = kind_of(what)
        if not kind:
            continue
        # "… de <antes> para <depois>": the new time is after the last "para"; the customer's words otherwise.
        before, _, after = what.rpartition(" para ")
        target = (when_in(after, today) if before else None) or when_in(evidence, today)
        if kind == "book":
            target = target or when_in(what, today)
            if target is None:
                unread.append(f"promessa {number}: não encontrei o dia e o horário pedidos")
                continue
            text = f"{what} {evidence}"
            service = _named_service(text, services)
            # The professional the customer named, or the one the reply told them ("…, com Dr. Bruno Lima").
            professional = _named_professional(text, professionals) or _named_professional(
                str(context.get("resposta_enviada") or ""), professionals)
            others: list[dict[str, Any]] = []
            if professional is None:
                # Nobody named: the first who performs the service; the next ones if agenda says it is taken.
                wanted = service.get("servico_id") if service else None
                fit = [p for p in professionals if wanted is None or wanted in p.get("servicos", [])] or professionals
                professional, others = (fit[0], fit[1:]) if fit else (None, [])
            if professional is None:
                unread.append(f"promessa {number}: a unidade não tem profissionais na agenda")
                continue
            arguments: dict[str, Any] = {
                "resource_id": professional["recurso_id"], "start": _local(target[0], target[1], zone),
                "time_zone": zone, "confirm": True, "notes": f"Pedido do cliente: {evidence or what}"[:500],
                "promessa": number,
            }
            if service is not None:
                arguments["service_id"] = service["servico_id"]
            calls.append(("book_appointment", arguments))
            calls += [("book_appointment", {**arguments, "resource_id": p["recurso_id"], ALTERNATIVE: True})
                      for p in others]
            continue
        old_text = before if kind == "reschedule" and before else what
        appointment = _appointment_at(appointments, when_in(old_text, today))
        if appointment is None:
            why = "o cliente não tem compromisso" if not appointments else "não ficou claro qual compromisso"
            unread.append(f"promessa {number}: {why}")
            continue
        if kind == "cancel":
            calls.append(("cancel_appointment", {"compromisso": appointment["numero"], "promessa": number,
                                                 "reason": f"Pedido do cliente: {evidence or what}"[:500]}))
            continue
        if target is None:
            unread.append(f"promessa {number}: não encontrei o novo dia e horário")
            continue
        moved: dict[str, Any] = {"compromisso": appointment["numero"], "new_start": _local(target[0], target[1], zone),
                                 "time_zone": zone, "confirm": True, "promessa": number,
                                 "reason": f"Pedido do cliente: {evidence or what}"[:500]}
        named = _named_professional(after or what, professionals)
        if named is not None and named.get("recurso_id") != appointment.get("recurso_id"):
            moved["resource_id"] = named["recurso_id"]
        calls.append(("reschedule_appointment", moved))
    return calls, unread


def _next_tries(request: ModelRequest, planned: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """After the results: for each booking agenda refused, the same time with the next professional not tried."""
    made = [c for m in request.messages for c in m.tool_calls]
    results = {r.call_id: r.content for m in request.messages for r in m.tool_results}
    tries: list[tuple[str, dict[str, Any]]] = []
    for call in made:
        if call.name != "book_appointment" or not results.get(call.call_id, "").startswith("recusado"):
            continue
        promise = call.arguments.get("promessa")
        if any(c.name == "book_appointment" and c.arguments.get("promessa") == promise
               and not results.get(c.call_id, "").startswith("recusado") for c in made):
            continue  # a later try for this promise is done (or still running)
        tried = {c.arguments.get("resource_id") for c in made if c.arguments.get("promessa") == promise}
        following = next((args for name, args in planned if name == "book_appointment" and args.get(ALTERNATIVE)
                          and args.get("promessa") == promise and args["resource_id"] not in tried), None)
        if following is not None and all(a.get("promessa") != promise for _, a in tries):
            tries.append(("book_appointment", {k: v for k, v in following.items() if k != ALTERNATIVE}))
    return tries


def act(request: ModelRequest) -> list[TextPart | ToolCall]:
    offered = {t.name for t in request.tools}
    planned, unread = plan(context_of(request))
    if any(m.role == "tool" for m in request.messages):
        tries = _next_tries(request, planned)
        rounds = sum(1 for m in request.messages if m.tool_calls)
        if tries and "book_appointment" in offered:
            return [ToolCall(f"offline_op_{rounds + 1}_{i + 1}", name, args) for i, (name, args) in enumerate(tries)]
        # The results are in: the Operador records them; nothing more to call.
        done = [r.content for m in request.messages for r in m.tool_results]
        return [TextPart("Agenda: " + "; ".join(done))]
    calls = [(name, args) for name, args in planned if not args.get(ALTERNATIVE)]
    usable = [(name, args) for name, args in calls if name in offered]
    unread += [f"\"{name}\" não está habilitada para este agente" for name, args in calls if name not in offered]
    if not usable:
        return [TextPart("; ".join(unread) + "." if unread else NO_MODEL)]
    parts: list[TextPart | ToolCall] = [ToolCall(f"offline_op_{i + 1}", name, args)
                                        for i, (name, args) in enumerate(usable)]
    if unread:
        parts.insert(0, TextPart("; ".join(unread) + "."))
    return parts


def teach(provider: OfflineProvider) -> None:
    provider.register(TASK, act)
