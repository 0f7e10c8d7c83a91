"""The offline model's replies: one piece of text per intent, built only from given facts.

Each piece carries the reply text and its share of the declaração (intentions with the
customer's own words as evidence, promises). A fact in a piece — a time, a price, an address,
an appointment — is copied from the context or a tool result; what is missing is said to be
missing, and a person is offered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from balcao.kit.ptbr import de, em
from balcao.models.base import ToolResult
from balcao.models.offline_intents import CATEGORIA, O_QUE, evidence_for, fold, wanted_time, words
from balcao.models.offline_turn import (
    Turn,
    appointment_to_move,
    authorised_prices,
    availability_args,
    booking_service,
    data_of,
    days_asked,
    matching_facts,
    price_references,
    price_subject,
)

MAX_SLOTS_SHOWN = 4


@dataclass
class Piece:
    text: str
    intencoes: list[dict[str, Any]] = field(default_factory=list)
    promessas: list[dict[str, Any]] = field(default_factory=list)


def _intencao(turn: Turn, intent: str) -> dict[str, Any]:
    return {
        "o_que": O_QUE[intent],
        "evidencia": evidence_for(intent, turn.customer_text),
        "categoria": CATEGORIA[intent],
    }


def _promessa(what: str) -> dict[str, Any]:
    return {"o_que": what, "prazo": None}


def _slot_line(slot: dict[str, Any]) -> str:
    details = [d for d in (slot.get("profissional"), slot.get("duracao")) if d]
    return f"- {slot.get('quando', '')}" + (f" ({', '.join(details)})" if details else "")


def lower_first(name: str) -> str:
    """A business's name for a service, inside a sentence ("a marcação de consulta de avaliação")."""
    return name[0].lower() + name[1:] if len(name) > 1 and name[1].islower() else name


def appointment_line(appointment: dict[str, Any]) -> str:
    line = f"{appointment.get('servico') or 'compromisso'} em {appointment.get('quando', '')}"
    if appointment.get("profissional"):
        line += f", com {appointment['profissional']}"
    if appointment.get("situacao"):
        line += f" ({appointment['situacao']})"
    return line


def _chosen_slot(turn: Turn, slots: list[dict[str, Any]]) -> dict[str, Any] | None:
    tokens = {t.upper() for t in re.findall(r"[A-Za-z0-9]+", turn.customer_text)}
    for slot in slots:
        if slot.get("codigo") and slot["codigo"].upper() in tokens:
            return slot
    hhmm = wanted_time(turn.customer_text)
    if hhmm is None:
        return None
    start, end = days_asked(turn)
    said_a_day = start == end and start != ""
    matching = []
    for slot in slots:
        try:
            when = datetime.fromisoformat(str(slot.get("inicio", "")))
        except ValueError:
            continue
        if when.strftime("%H:%M") == hhmm and (not said_a_day or when.date().isoformat() == start):
            matching.append(slot)
    # Two professionals free at the same time: the one the customer named, never the other.
    said = {w for w in re.findall(r"\w+", turn.customer_text.lower()) if len(w) > 2} - _TITLES
    for slot in matching:
        if said & {w for w in re.findall(r"\w+", str(slot.get("profissional", "")).lower())}:
            return slot
    return matching[0] if matching else None


# Words of a professional's name that do not tell one professional from another.
_TITLES = frozenset({"dra", "doutor", "doutora", "com", "para"})


def _unavailable(result: ToolResult | None, what: str) -> str:
    if result is not None and result.is_error and result.content.strip():
        return f"Não consegui consultar {what} agora: {result.content.strip().rstrip('.')}."
    return f"Não consegui consultar {what} agora."


def _slots_piece(turn: Turn, intent: str, service: str, *, moving: dict[str, Any] | None = None) -> Piece:
    args = availability_args(turn, service)
    result = turn.result("check_availability", args)
    data = data_of(result)
    intencao = _intencao(turn, intent)
    if data is None:
        return Piece(
            _unavailable(result, "os horários livres")
            + " Se preferir, posso pedir para alguém da equipe te ajudar com isso.",
            [intencao],
        )
    slots = data.get("horarios", [])
    chosen = _chosen_slot(turn, slots)
    service_label = service or (moving or {}).get("servico", "")
    if chosen is not None:
        code = f" (código {chosen['codigo']})" if chosen.get("codigo") else ""
        with_whom = f", com {chosen['profissional']}" if chosen.get("profissional") else ""
        if moving is not None:
            text = (
                f"Combinado! Vou pedir a remarcação de {lower_first(appointment_line(moving))} para "
                f"{chosen.get('quando')}{with_whom}. Assim que estiver registrada, te confirmo por aqui."
            )
            promise = (
                f"pedir a remarcação de {lower_first(moving.get('servico') or 'compromisso')} de "
                f"{moving.get('quando')} para {chosen.get('quando')}{code}"
            )
        else:
            of_what = f" de {lower_first(service_label)}" if service_label else ""
            text = (
                f"Perfeito! Vou pedir a marcação{of_what} para {chosen.get('quando')}{with_whom}. "
                "Assim que estiver registrada, te confirmo por aqui."
            )
            promise = f"pedir a marcação{of_what} para {chosen.get('quando')}{code}"
        intencoes = [intencao]
        return Piece(text, intencoes, [_promessa(promise)])
    if not slots:
        notice = str(data.get("aviso") or "não encontrei horários livres nesse período").rstrip(".")
        return Piece(f"Consultei a agenda: {notice}. Quer que eu procure em outros dias?", [intencao])
    for_what = f" para {lower_first(service_label)}" if service_label else ""
    lines = [_slot_line(s) for s in slots[:MAX_SLOTS_SHOWN]]
    lead_in = "Para remarcar, tenho" if moving is not None else "Tenho"
    missing = ""
    if wanted_time(turn.customer_text):
        # Only the first free slots come back: a time past them may be free, so it is not called taken.
        more = "mais horarios" in fold(str(data.get("aviso", "")))
        missing = (
            "Não consigo confirmar daqui o horário que você pediu: a agenda me mostrou só os primeiros horários "
            "livres desse período. "
            if more
            else "O horário que você pediu não está livre. "
        )
    text = f"{missing}{lead_in} estes horários livres{for_what}:\n" + "\n".join(lines) + "\nQual fica melhor para você?"
    return Piece(text, [intencao])


def _appointments_data(turn: Turn) -> tuple[ToolResult | None, dict[str, Any] | None]:
    result = turn.result("list_my_appointments", {})
    return result, data_of(result)


def _reschedule_piece(turn: Turn) -> Piece:
    _result, data = _appointments_data(turn)
    intencao = _intencao(turn, "reschedule")
    if data is None or not data.get("agenda_consultada"):
        return Piece(
            "Não consegui consultar a sua agenda agora. Vou pedir para alguém da equipe verificar e te "
            "responder sobre a remarcação.",
            [intencao],
            [_promessa("alguém da equipe vai verificar e responder ao cliente sobre a remarcação")],
        )
    if not data.get("compromissos"):
        return Piece(
            "Não encontrei nenhum compromisso ativo e futuro no seu nome. Quer marcar um novo horário?", [intencao]
        )
    moving = appointment_to_move(turn)
    assert moving is not None
    found = f"Encontrei este compromisso no seu nome: {appointment_line(moving)}."
    slots = _slots_piece(turn, "reschedule", moving.get("servico", ""), moving=moving)
    if slots.promessas:
        return slots
    return Piece(f"{found}\n{slots.text}", slots.intencoes, slots.promessas)


_CONFIRMS = re.compile(r"\b(sim|pode cancelar|pode sim|confirmo|isso mesmo|pode desmarcar)\b")


def _cancel_piece(turn: Turn) -> Piece:
    _result, data = _appointments_data(turn)
    intencao = _intencao(turn, "cancel")
    if data is None or not data.get("agenda_consultada"):
        return Piece(
            "Não consegui consultar a sua agenda agora. Vou pedir para alguém da equipe verificar e te "
            "responder sobre o cancelamento.",
            [intencao],
            [_promessa("alguém da equipe vai verificar e responder ao cliente sobre o cancelamento")],
        )
    appointments = data.get("compromissos", [])
    if not appointments:
        return Piece("Não encontrei nenhum compromisso ativo e futuro no seu nome para cancelar.", [intencao])
    if len(appointments) > 1:
        listed = "\n".join(f"- {appointment_line(a)}" for a in appointments)
        return Piece(f"Encontrei estes compromissos no seu nome:\n{listed}\nQual deles você quer cancelar?", [intencao])
    only = appointments[0]
    if _CONFIRMS.search(fold(turn.customer_text)):
        return Piece(
            f"Certo. Vou pedir o cancelamento de {appointment_line(only)} e te confirmo por aqui assim que "
            "estiver feito.",
            [intencao],
            [_promessa(f"pedir o cancelamento de {lower_first(appointment_line(only))}")],
        )
    return Piece(
        f"Encontrei este compromisso no seu nome: {appointment_line(only)}. Confirma que quer cancelar?", [intencao]
    )


def _knowledge_text(turn: Turn, question: str) -> str | None:
    data = data_of(turn.result("search_knowledge", {"pergunta": question}))
    if not data or not data.get("resultados"):
        return None
    hit = data["resultados"][0]
    return str(hit.get("trecho") or "").strip() or None


def _price_piece(turn: Turn) -> Piece:
    intencao = _intencao(turn, "price")
    prices = authorised_prices(turn)
    if prices:
        return Piece("Os valores são:\n" + "\n".join(f"- {p}" for p in prices), [intencao])
    subject = price_subject(turn)
    found: list[str] = []
    for title in price_references(turn):
        data = data_of(turn.result("read_skill_reference", {"titulo": title})) or {}
        content = str(data.get("referencia", {}).get("conteudo", ""))
        found.extend(line.strip() for line in content.splitlines() if subject & words(line))
    excerpt = _knowledge_text(turn, evidence_for("price", turn.customer_text))
    if excerpt and subject & words(excerpt):
        found.append(excerpt)
    if found:
        return Piece("Sobre isso, o que tenho é:\n" + "\n".join(f"- {f}" for f in found), [intencao])
    return Piece(
        "Não tenho esse valor aqui comigo. Vou pedir para alguém da equipe te passar.",
        [intencao],
        [_promessa("alguém da equipe vai responder ao cliente sobre o valor")],
    )


def _objection_piece(turn: Turn) -> Piece:
    conditions = [
        str(f)
        for f in turn.context.get("negocio", {}).get("valores_autorizados", [])
        if re.search(r"parcel|desconto|condic|pix|cartao", fold(str(f)))
    ]
    text = "Entendo."
    if conditions:
        text += " Temos estas condições:\n" + "\n".join(f"- {c}" for c in conditions)
    text += "\nSe quiser, posso pedir para alguém da equipe conversar com você sobre isso."
    return Piece(text, [_intencao(turn, "price_objection")])


def _business_fact_piece(turn: Turn, intent: str) -> Piece:
    business = turn.context.get("negocio", {})
    intencao = _intencao(turn, intent)
    if intent == "hours":
        if business.get("horario_de_atendimento"):
            return Piece(f"Nosso horário de atendimento é: {business['horario_de_atendimento']}.", [intencao])
        excerpt = _knowledge_text(turn, "horário de atendimento")
    else:
        if business.get("enderecos"):
            return Piece("Estamos em: " + "; ".join(business["enderecos"]) + ".", [intencao])
        excerpt = _knowledge_text(turn, "endereço")
    if excerpt:
        return Piece(excerpt, [intencao])
    what = "o horário de atendimento" if intent == "hours" else "o endereço"
    return Piece(
        f"Não tenho {what} aqui comigo. Vou pedir para alguém da equipe te responder.",
        [intencao],
        [_promessa(f"alguém da equipe vai responder ao cliente sobre {what}")],
    )


def _human_piece(turn: Turn) -> Piece:
    data = data_of(turn.result("get_lead_context", {})) or {}
    cases = data.get("casos_abertos", [])
    intencao = _intencao(turn, "human")
    promise = _promessa("uma pessoa da equipe vai continuar a conversa com o cliente")
    if cases:
        subject = cases[0].get("assunto", "")
        about = f" sobre {subject}" if subject else ""
        return Piece(
            f"Seu atendimento{about} já está com a equipe. Vou avisar que você quer falar com uma pessoa; "
            "alguém continua a conversa com você por aqui.",
            [intencao],
            [promise],
        )
    return Piece(
        "Claro! Vou pedir para uma pessoa da equipe continuar a conversa com você por aqui.", [intencao], [promise]
    )


def _opt_out_piece(turn: Turn) -> Piece:
    name = f", {turn.first_name}" if turn.first_name else ""
    return Piece(
        f"Tudo bem{name}. Não vamos mais enviar mensagens para você. Se precisar de algo, é só escrever.",
        [_intencao(turn, "opt_out")],
        [_promessa("não enviar mais mensagens a este cliente")],
    )


def _unknown_piece(turn: Turn) -> Piece:
    intencao = _intencao(turn, "unknown")
    facts = matching_facts(turn)
    if facts:
        return Piece("\n".join(f"{f.rstrip('.')}." for f in facts), [intencao])
    excerpt = _knowledge_text(turn, turn.customer_text[:200])
    if excerpt:
        return Piece(f"Sobre isso, o que tenho é: {excerpt}", [intencao])
    return Piece(
        "Não tenho essa informação aqui comigo. Quer que eu peça para alguém da equipe te responder?", [intencao]
    )


def _proactive_piece(turn: Turn) -> Piece:
    _, data = _appointments_data(turn)
    name = f", {turn.first_name}" if turn.first_name else ""
    if data and data.get("agenda_consultada") and data.get("compromissos"):
        listed = "\n".join(f"- {appointment_line(a)}" for a in data["compromissos"])
        return Piece(f"Olá{name}! Passando para lembrar o que está na sua agenda conosco:\n{listed}")
    where = f" {em(turn.business_name)}" if turn.business_name else ""
    return Piece(f"Olá{name}! Estou retomando o seu atendimento{where}. Posso ajudar em algo?")


_HOW_ARE_YOU = re.compile(r"\b(tudo bem|tudo bom|tudo certo|como vai|como voce esta)\b")


def _greeting(turn: Turn, alone: bool) -> str:
    name = f", {turn.first_name}" if turn.first_name else ""
    if not alone:
        return f"Olá{name}!"
    if any(m.author == "agent" for m in turn.history):
        # Already introduced: the same introduction again reads like a bot on a loop (and Segurança's
        # repetition gate would send it back).
        if _HOW_ARE_YOU.search(fold(turn.customer_text)):
            return f"Tudo ótimo por aqui{name}! Em que posso ajudar?"
        return f"Oi{name}! Em que posso ajudar?"
    where = f" {de(turn.business_name)}" if turn.business_name else ""
    return f"Olá{name}! Aqui é a assistente virtual{where}. Como posso ajudar?"


def compose(turn: Turn, intents: list[str]) -> Piece:
    if turn.guidance:
        # A vetoed reply is not rewritten by rules: the safe answer is a person checking it.
        pieces = [
            Piece(
                "Obrigado pela paciência! Vou pedir para alguém da equipe conferir isso e te responder por aqui.",
                [_intencao(turn, i) for i in intents if i != "greeting"],
                [_promessa("alguém da equipe vai responder ao cliente depois de conferir o pedido")],
            )
        ]
        return _join(pieces)
    if not turn.customer_text.strip():
        return _proactive_piece(turn) if turn.proactive else Piece(_greeting(turn, True))
    pieces: list[Piece] = []
    for intent in intents:
        if intent in ("book", "availability"):
            pieces.append(_slots_piece(turn, intent, booking_service(turn)))
        elif intent == "reschedule":
            pieces.append(_reschedule_piece(turn))
        elif intent == "cancel":
            pieces.append(_cancel_piece(turn))
        elif intent == "price":
            pieces.append(_price_piece(turn))
        elif intent == "price_objection":
            pieces.append(_objection_piece(turn))
        elif intent in ("hours", "address"):
            pieces.append(_business_fact_piece(turn, intent))
        elif intent == "human":
            pieces.append(_human_piece(turn))
        elif intent == "opt_out":
            pieces.append(_opt_out_piece(turn))
        elif intent == "unknown":
            pieces.append(_unknown_piece(turn))
    if "greeting" in intents:
        pieces.insert(0, Piece(_greeting(turn, alone=len(pieces) == 0)))
    if not pieces:
        # Too little to go on ("hmm", "e aí"): never an empty reply; ask, and declare nothing.
        pieces.append(Piece("Pode me contar um pouco mais do que você precisa?"))
    return _join(pieces)


def _join(pieces: list[Piece]) -> Piece:
    intencoes: list[dict[str, Any]] = []
    for piece in pieces:
        for intencao in piece.intencoes:
            if all(i["categoria"] != intencao["categoria"] for i in intencoes):
                intencoes.append(intencao)
    return Piece(
        "\n\n".join(p.text for p in pieces if p.text),
        intencoes,
        [p for piece in pieces for p in piece.promessas],
    )
