"""What the offline model reads in a Conversador request: the turn, the tool results so far.

`Turn.read` turns the prompt (laid out by `conversador_format`) and the loop's messages back into
the context, the conversation and the results of the reads already made; the helpers answer
questions about them (which appointment to move, which prices the business authorised).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from balcao.models import conversador_format as fmt
from balcao.models.base import ModelRequest, ToolCall, ToolResult
from balcao.models.offline_intents import (
    date_range,
    evidence_for,
    fold,
    known_services,
    names_a_day,
    offered_days,
    part_of_day,
    service_in,
    today_of,
    wanted_time,
    without_greetings,
    words,
)


@dataclass
class Turn:
    context: dict[str, Any]
    history: list[fmt.WrittenMessage]
    customer_text: str
    proactive: str
    guidance: str
    calls: list[ToolCall] = field(default_factory=list)
    results: dict[str, ToolResult] = field(default_factory=dict)
    rounds: int = 0
    # How many times Segurança sent the message back (0 for the first draft, then 1 or 2).
    revision: int = 0

    @classmethod
    def read(cls, request: ModelRequest) -> Turn:
        first = request.messages[0].text
        parts = fmt.sections(first)
        context = fmt.read_json(parts.get(fmt.CONTEXT, "")) or {}
        new = [m for m in fmt.read_messages(parts.get(fmt.NEW_MESSAGES, "")) if m.author == "customer"]
        turn = cls(
            context=context,
            history=fmt.read_messages(parts.get(fmt.HISTORY, "")),
            customer_text="\n".join(m.text for m in new),
            proactive=parts.get(fmt.PROACTIVE, ""),
            guidance="",
        )
        for message in request.messages[1:]:
            if message.role == "assistant":
                turn.calls.extend(message.tool_calls)
                if message.tool_calls:
                    turn.rounds += 1
            elif message.role == "tool":
                for result in message.tool_results:
                    turn.results[result.call_id] = result
            elif message.text.startswith(fmt.REVISION):
                turn.guidance = message.text
                turn.revision += 1
        return turn

    @property
    def wording(self) -> int:
        """Which wording to write: 0 for the draft; the revision's number when the only thing Segurança
        asked is to say it another way (the message repeats one the business's number sent recently)."""
        return self.revision if self.guidance and asks_other_words(self.guidance) else 0

    def result(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult | None:
        for call in reversed(self.calls):
            if call.name == name and (arguments is None or dict(call.arguments) == arguments):
                return self.results.get(call.call_id)
        return None

    def called(self, name: str, arguments: dict[str, Any]) -> bool:
        return any(c.name == name and dict(c.arguments) == arguments for c in self.calls)

    @property
    def first_name(self) -> str:
        name = str(self.context.get("cliente", {}).get("cliente", {}).get("nome", "")).strip()
        return name.split()[0] if name else ""

    @property
    def business_name(self) -> str:
        return str(self.context.get("negocio", {}).get("nome", ""))


# Segurança's guidance when a message is nearly the same as one the number just sent.
_OTHER_WORDS = re.compile(r"praticamente igual|repetid|de outro jeito|com outras palavras")


def asks_other_words(revision_message: str) -> bool:
    """Whether every point of a revision request asks only for different words (nothing to fix)."""
    # The points come first, up to a blank line; the vetoed message quoted after it may hold "- " lines too.
    head = revision_message.split("\n\n", 1)[0]
    points = [line[2:] for line in head.splitlines() if line.startswith("- ")]
    return bool(points) and all(_OTHER_WORDS.search(fold(point)) for point in points)


def data_of(result: ToolResult | None) -> dict[str, Any] | None:
    if result is None or result.is_error:
        return None
    try:
        value = json.loads(result.content)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def days_asked(turn: Turn) -> tuple[str, str]:
    """The days the customer means: the ones said, or, for "pode ser às 9h", the days just offered."""
    today = today_of(turn.context)
    if wanted_time(turn.customer_text) and not names_a_day(turn.customer_text, today):
        offered = offered_days(last_agent_text(turn), today)
        if offered[0]:
            return offered
    return date_range(turn.customer_text, today)


def _period_of(hhmm: str | None) -> str:
    if hhmm is None:
        return ""
    hour = int(hhmm[:2])
    return "manha" if hour < 12 else "tarde" if hour < 18 else "noite"


def availability_args(turn: Turn, service: str) -> dict[str, Any]:
    start, end = days_asked(turn)
    args: dict[str, Any] = {}
    if service:
        args["servico"] = service
    if start:
        args["data_inicial"], args["data_final"] = start, end
    # A time said ("às 15h") narrows the search to its part of the day, so its slots are among those shown.
    period = part_of_day(turn.customer_text) or _period_of(wanted_time(turn.customer_text))
    if period:
        args["periodo"] = period
    return args


def appointment_to_move(turn: Turn) -> dict[str, Any] | None:
    data = data_of(turn.result("list_my_appointments", {}))
    if not data or not data.get("agenda_consultada") or not data.get("compromissos"):
        return None
    appointments = data["compromissos"]
    service = service_in(turn.customer_text, [a.get("servico", "") for a in appointments])
    for appointment in appointments:
        if service and appointment.get("servico") == service:
            return appointment
    return appointments[0]


def booking_service(turn: Turn) -> str:
    """The service the customer named now, or the one the times just offered were for."""
    services = known_services(turn.context)
    return service_in(turn.customer_text, services) or service_in(last_agent_text(turn), services)


def last_agent_text(turn: Turn) -> str:
    return next((m.text for m in reversed(turn.history) if m.author == "agent"), "")


_PRICE_WORDS = frozenset(
    "quanto quanta custa custam preco precos valor valores fica cobra cobram orcamento sai esta qual quais seria "
    "seriam tem voces voce mais ai hoje".split()
)


def price_subject(turn: Turn) -> set[str]:
    """What the price question is about, beyond the words that make it a price question."""
    return words(without_greetings(evidence_for("price", turn.customer_text))) - _PRICE_WORDS


def authorised_prices(turn: Turn) -> list[str]:
    facts = [str(f) for f in turn.context.get("negocio", {}).get("valores_autorizados", [])]
    priced = [f for f in facts if ":" in f]
    service = service_in(turn.customer_text, [f.split(":", 1)[0] for f in priced])
    if service:
        return [f for f in priced if f.split(":", 1)[0] == service]
    if price_subject(turn):
        return []  # asked about something the authorised list does not name: look it up instead
    return priced[:5]


def price_references(turn: Turn) -> list[str]:
    references = turn.context.get("referencias_disponiveis", [])
    pricing = re.compile(r"\b(valor|valores|preco|precos|tabela)\b")
    return [
        str(r["titulo"])
        for r in references
        if r.get("titulo") and pricing.search(fold(f"{r['titulo']} {r.get('quando_usar', '')}"))
    ]


def matching_facts(turn: Turn) -> list[str]:
    """The business's own facts that share a meaningful word with the question."""
    said = words(without_greetings(turn.customer_text))
    facts = [str(f) for f in turn.context.get("negocio", {}).get("outras_informacoes", [])]
    return [f for f in facts if said & words(f)]
