"""What the offline model does for the Conversador's draft, by rules.

Drafting works in rounds, like a model in a tool loop: it reads the turn prompt (the context
and the conversation, laid out by `conversador_format`), recognises the customer's intents by
keywords, asks for the read tools those intents need and that were not called yet, and once
the results are in it writes the reply and the declaração from them (offline_replies). Every
fact in a reply (a time, a price, an address, an appointment) is copied from the context or a
tool result; what it does not have, it says it does not have.
"""

from __future__ import annotations

import re
from typing import Any

from balcao.models import conversador_format as fmt
from balcao.models.base import ModelRequest, TextPart, ToolCall
from balcao.models.offline_intents import (
    detect_intents,
    evidence_for,
    fold,
    looks_garbled,
    matches,
    wanted_time,
    without_greetings,
    words,
)
from balcao.models.offline_replies import compose
from balcao.models.offline_turn import (
    Turn,
    appointment_to_move,
    authorised_prices,
    availability_args,
    booking_service,
    last_agent_text,
    matching_facts,
    price_references,
)

# The offline model stops asking for tools after this many rounds and answers with what it has.
MAX_ROUNDS = 3


def planned_calls(turn: Turn, intents: list[str]) -> list[tuple[str, dict[str, Any]]]:
    calls: list[tuple[str, dict[str, Any]]] = []
    business = turn.context.get("negocio", {})
    for intent in intents:
        if intent in ("book", "availability"):
            calls.append(("check_availability", availability_args(turn, booking_service(turn))))
        elif intent in ("reschedule", "cancel", "my_appointments"):
            calls.append(("list_my_appointments", {}))
            if intent == "reschedule" and turn.result("list_my_appointments", {}) is not None:
                appointment = appointment_to_move(turn)
                if appointment is not None:
                    calls.append(("check_availability", availability_args(turn, appointment.get("servico", ""))))
        elif intent == "price" and not authorised_prices(turn):
            calls.append(("search_knowledge", {"pergunta": evidence_for("price", turn.customer_text)}))
            calls.extend(("read_skill_reference", {"titulo": title}) for title in price_references(turn))
        elif intent == "hours" and not business.get("horario_de_atendimento"):
            calls.append(("search_knowledge", {"pergunta": "horário de atendimento"}))
        elif intent == "address" and not business.get("enderecos"):
            calls.append(("search_knowledge", {"pergunta": "endereço"}))
        elif intent == "human":
            calls.append(("get_lead_context", {}))
        elif intent == "unknown" and not matching_facts(turn):
            calls.append(("search_knowledge", {"pergunta": turn.customer_text[:200]}))
    if turn.proactive and not intents:
        calls.append(("list_my_appointments", {}))
    unique: list[tuple[str, dict[str, Any]]] = []
    for name, args in calls:
        if (name, args) not in unique and not turn.called(name, args):
            unique.append((name, args))
    return unique


def _intents(turn: Turn) -> list[str]:
    if not turn.customer_text.strip():
        return []
    intents = detect_intents(turn.customer_text)
    offered = last_agent_text(turn)
    if (
        not {"book", "availability", "reschedule", "cancel", "opt_out", "human"} & set(intents)
        and wanted_time(turn.customer_text) is not None
        and re.search(r"\b\d{1,2}:\d{2}\b", offered)
    ):
        # "Pode ser quinta às 10h" right after times were offered: the customer is choosing one.
        intents.append("reschedule" if matches("reschedule", offered) else "book")
    if not intents:
        # "E domingo?" right after "vocês atendem no sábado?": the same question about something else.
        intents = _previous_question(turn)
    if not [i for i in intents if i != "greeting"]:
        if looks_garbled(without_greetings(turn.customer_text)):
            # Letters typed at random: nothing to look up; ask the customer to say it another way.
            intents.append("unclear")
        elif len(words(without_greetings(turn.customer_text))) >= 2:
            # Something other than a greeting that no rule recognised: look it up, do not guess.
            intents.append("unknown")
    return intents


# A short message that continues the previous question ("e domingo?", "e no feriado?", "mas e o preço?").
_FOLLOW_UP = re.compile(r"^\s*(?:mas\s+)?e\s+\S")
_CARRIED = ("book", "availability", "price", "hours", "address")


def _previous_question(turn: Turn) -> list[str]:
    """The intents of the customer's previous message, when this one only carries that question on."""
    text = fold(turn.customer_text)
    if len(text) > 60 or not _FOLLOW_UP.match(text):
        return []
    earlier = [m.text for m in turn.history if m.author == "customer"]
    if not earlier:
        return []
    return [i for i in detect_intents(earlier[-1]) if i in _CARRIED]


def draft(request: ModelRequest) -> list[TextPart | ToolCall]:
    turn = Turn.read(request)
    intents = _intents(turn)
    if request.tool_choice != "none" and turn.rounds < MAX_ROUNDS and not turn.guidance:
        wanted = planned_calls(turn, intents)
        if wanted:
            offset = len(turn.calls)
            return [ToolCall(f"offline_{offset + i + 1}", name, args) for i, (name, args) in enumerate(wanted)]
    piece = compose(turn, intents)
    declaracao = {
        "intencoes": piece.intencoes,
        "promessas": piece.promessas,
        "nada_a_declarar": not piece.intencoes and not piece.promessas,
    }
    return [TextPart(fmt.dumps({"mensagem": piece.text, "declaracao": declaracao}))]
