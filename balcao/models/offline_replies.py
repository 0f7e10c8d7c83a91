"""The offline model's replies: one piece of text per intent, built only from given facts.

Each piece carries the reply text and its share of the declaração (intentions with the
customer's own words as evidence, promises). A fact in a piece — a time, a price, an address,
an appointment — is copied from the context or a tool result; what is missing is said to be
missing, and a person is offered.

Every customer-facing sentence comes in three wordings (`_say`): the draft uses the first; when
Segurança sends a message back only because it nearly repeats one the business's number sent
recently (to this customer or another), each revision says the same facts in the next wording,
with another closing and, in the second, the answers in the other order.
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
    # An answer that ends on a fact (not a question): a reworded message may close it with an offer to help.
    closable: bool = False


def _say(turn: Turn, *wordings: str) -> str:
    """The wording this attempt writes: the first for a draft, another for each revision asking for one."""
    return wordings[turn.wording % len(wordings)]


def _intencao(turn: Turn, intent: str) -> dict[str, Any]:
    return {
        "o_que": O_QUE[intent],
        "evidencia": evidence_for(intent, turn.customer_text),
        "categoria": CATEGORIA[intent],
    }


def _promessa(what: str) -> dict[str, Any]:
    return {"o_que": what, "prazo": None}


# The zone an agenda label ends with: "quarta-feira, 6 de novembro de 2024, 08:30 (horário de Brasília)".
_ZONE = re.compile(r"\s*\(([^()]*)\)\s*$")


def _without_zone(label: str) -> tuple[str, str]:
    match = _ZONE.search(label)
    return (label[: match.start()], match.group(1)) if match else (label, "")


def either(names: list[str]) -> str:
    """ "Dra. Ana", "Dra. Ana ou Dr. Bruno", "Dra. Ana, Dr. Bruno ou Dra. Carla"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} ou {names[-1]}"


def slot_lines(slots: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """The lines of the free times and what they all share (said once, before them).

    One line per moment, with everyone free then ("- quarta-feira, …, 08:30 — Dra. Ana ou Dr. Bruno"),
    at most MAX_SLOTS_SHOWN lines. The zone and the duration, when every line has the same one, are
    said once (returned as the shared details) instead of on every line.
    """
    moments: dict[str, list[dict[str, Any]]] = {}
    for slot in slots:
        moments.setdefault(str(slot.get("quando", "")), []).append(slot)
    shown = list(moments.items())[:MAX_SLOTS_SHOWN]
    zones = {_without_zone(label)[1] for label, _ in shown}
    durations = {str(s.get("duracao") or "") for _, group in shown for s in group}
    one_zone = len(zones) == 1 and "" not in zones
    one_duration = len(durations) == 1 and "" not in durations
    lines = []
    for label, group in shown:
        line = f"- {_without_zone(label)[0] if one_zone else label}"
        people = list(dict.fromkeys(str(s["profissional"]) for s in group if s.get("profissional")))
        if people:
            line += f" — {either(people)}"
        if not one_duration:
            lasting = list(dict.fromkeys(str(s["duracao"]) for s in group if s.get("duracao")))
            if lasting:
                line += f" ({', '.join(lasting)})"
        lines.append(line)
    shared = ([durations.pop()] if one_duration else []) + ([zones.pop()] if one_zone else [])
    return lines, shared


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
            what = f"a remarcação de {lower_first(appointment_line(moving))} para {chosen.get('quando')}{with_whom}"
            text = _say(
                turn,
                f"Combinado! Vou pedir {what}. Assim que estiver registrada, te confirmo por aqui.",
                f"Certo, vou pedir {what}. Te aviso nesta conversa assim que estiver registrada.",
                f"Ótimo! Então vou pedir {what}; assim que estiver registrada, mando a confirmação aqui.",
            )
            promise = (
                f"pedir a remarcação de {lower_first(moving.get('servico') or 'compromisso')} de "
                f"{moving.get('quando')} para {chosen.get('quando')}{code}"
            )
        else:
            of_what = f" de {lower_first(service_label)}" if service_label else ""
            what = f"a marcação{of_what} para {chosen.get('quando')}{with_whom}"
            text = _say(
                turn,
                f"Perfeito! Vou pedir {what}. Assim que estiver registrada, te confirmo por aqui.",
                f"Combinado, vou pedir {what}. Te aviso nesta conversa assim que estiver registrada.",
                f"Ótimo! Então vou pedir {what}; assim que estiver registrada, mando a confirmação aqui.",
            )
            promise = f"pedir a marcação{of_what} para {chosen.get('quando')}{code}"
        intencoes = [intencao]
        return Piece(text, intencoes, [_promessa(promise)])
    if not slots:
        notice = str(data.get("aviso") or "não encontrei horários livres nesse período").rstrip(".")
        text = _say(
            turn,
            f"Consultei a agenda: {notice}. Quer que eu procure em outros dias?",
            f"Olhei a agenda e {lower_first(notice)}. Prefere que eu veja outras datas?",
            f"Pela agenda, {lower_first(notice)}. Posso procurar em outros dias, se quiser.",
        )
        return Piece(text, [intencao])
    for_what = f" para {lower_first(service_label)}" if service_label else ""
    lines, shared = slot_lines(slots)
    details = f" ({', '.join(shared)})" if shared else ""
    remarcar = moving is not None
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
    listed = "\n".join(lines)
    text = missing + _say(
        turn,
        f"{'Para remarcar, tenho' if remarcar else 'Tenho'} estes horários livres{for_what}{details}:\n{listed}\n"
        "Qual fica melhor para você?",
        f"Olhei a agenda e{', para remarcar,' if remarcar else ''} encontrei estas vagas{for_what}{details}:\n"
        f"{listed}\nÉ só me dizer qual opção prefere.",
        f"{'Para a remarcação, estas' if remarcar else 'Estas'} são as opções disponíveis{for_what}{details}:\n"
        f"{listed}\nMe diga qual delas combina mais com a sua rotina.",
    )
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
        text = _say(
            turn,
            "Não encontrei nenhum compromisso ativo e futuro no seu nome. Quer marcar um novo horário?",
            "Por aqui não aparece nenhum compromisso futuro no seu nome. Gostaria de marcar um horário?",
            "Não vejo nenhum compromisso à frente no seu nome. Posso procurar um horário novo para você?",
        )
        return Piece(text, [intencao])
    moving = appointment_to_move(turn)
    assert moving is not None
    line = appointment_line(moving)
    found = _say(
        turn,
        f"Encontrei este compromisso no seu nome: {line}.",
        f"Na sua agenda consta: {line}.",
        f"Localizei o seu compromisso: {line}.",
    )
    slots = _slots_piece(turn, "reschedule", moving.get("servico", ""), moving=moving)
    if slots.promessas:
        return slots
    return Piece(f"{found}\n{slots.text}", slots.intencoes, slots.promessas)


def _my_appointments_piece(turn: Turn) -> Piece:
    _result, data = _appointments_data(turn)
    intencao = _intencao(turn, "my_appointments")
    if data is None or not data.get("agenda_consultada"):
        return Piece(
            _say(
                turn,
                "Não consegui consultar a sua agenda agora. Pode me perguntar de novo daqui a pouco?",
                "A sua agenda não abriu para mim agora. Tenta me perguntar de novo em instantes?",
                "Não consegui ver a sua agenda neste momento. Pode perguntar de novo daqui a pouco?",
            ),
            [intencao],
        )
    appointments = data.get("compromissos", [])
    if not appointments:
        return Piece(
            _say(
                turn,
                "Não encontrei nenhum compromisso ativo e futuro no seu nome. Quer marcar um horário?",
                "Por aqui não aparece nenhum compromisso futuro no seu nome. Gostaria de marcar um horário?",
                "Não vejo nenhum compromisso à frente no seu nome. Posso procurar um horário para você?",
            ),
            [intencao],
        )
    listed = "\n".join(f"- {appointment_line(a)}" for a in appointments)
    lead = _say(
        turn,
        "Estes são os seus compromissos conosco:" if len(appointments) > 1 else "Este é o seu compromisso conosco:",
        "Na sua agenda com a gente consta:",
        "Encontrei na sua agenda:",
    )
    return Piece(f"{lead}\n{listed}", [intencao])


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
        text = _say(
            turn,
            "Não encontrei nenhum compromisso ativo e futuro no seu nome para cancelar.",
            "Por aqui não aparece nenhum compromisso futuro no seu nome que possa ser cancelado.",
            "Não vejo nenhum compromisso à frente no seu nome para cancelar.",
        )
        return Piece(text, [intencao])
    if len(appointments) > 1:
        listed = "\n".join(f"- {appointment_line(a)}" for a in appointments)
        text = _say(
            turn,
            f"Encontrei estes compromissos no seu nome:\n{listed}\nQual deles você quer cancelar?",
            f"Na sua agenda constam:\n{listed}\nMe diga qual deles devo cancelar.",
            f"Localizei os seus compromissos:\n{listed}\nQual é o que você gostaria de cancelar?",
        )
        return Piece(text, [intencao])
    only = appointment_line(appointments[0])
    if _CONFIRMS.search(fold(turn.customer_text)):
        text = _say(
            turn,
            f"Certo. Vou pedir o cancelamento de {only} e te confirmo por aqui assim que estiver feito.",
            f"Combinado, vou pedir o cancelamento de {only}. Te aviso nesta conversa assim que estiver feito.",
            f"Entendido! Vou pedir o cancelamento de {only}; assim que estiver feito, mando a confirmação aqui.",
        )
        return Piece(text, [intencao], [_promessa(f"pedir o cancelamento de {lower_first(only)}")])
    text = _say(
        turn,
        f"Encontrei este compromisso no seu nome: {only}. Confirma que quer cancelar?",
        f"Na sua agenda consta: {only}. Posso seguir com o pedido de cancelamento?",
        f"Localizei o seu compromisso: {only}. É esse mesmo que você deseja cancelar?",
    )
    return Piece(text, [intencao])


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
        listed = "\n".join(f"- {p}" for p in prices)
        lead = _say(turn, "Os valores são:", "Estes são os valores que posso te informar:", "Segue a nossa tabela:")
        return Piece(f"{lead}\n{listed}", [intencao], closable=True)
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
        lead = _say(turn, "Sobre isso, o que tenho é:", "Encontrei estas informações:", "Veja o que consta aqui:")
        return Piece(lead + "\n" + "\n".join(f"- {f}" for f in found), [intencao], closable=True)
    return Piece(
        _say(
            turn,
            "Não tenho esse valor aqui comigo. Vou pedir para alguém da equipe te passar.",
            "Esse valor eu ainda não tenho por aqui. Vou pedir para alguém da equipe te informar.",
            "Ainda não sei te dizer esse valor. Vou pedir para uma pessoa da equipe te passar.",
        ),
        [intencao],
        [_promessa("alguém da equipe vai responder ao cliente sobre o valor")],
    )


def _objection_piece(turn: Turn) -> Piece:
    conditions = [
        str(f)
        for f in turn.context.get("negocio", {}).get("valores_autorizados", [])
        if re.search(r"parcel|desconto|condic|pix|cartao", fold(str(f)))
    ]
    text = _say(turn, "Entendo.", "Compreendo.", "Faz sentido.")
    if conditions:
        lead = _say(
            turn, "Temos estas condições:", "As condições disponíveis são estas:", "Veja as condições que temos:"
        )
        text += f" {lead}\n" + "\n".join(f"- {c}" for c in conditions)
    text += _say(
        turn,
        "\nSe quiser, posso pedir para alguém da equipe conversar com você sobre isso.",
        "\nQuer que eu peça para alguém da equipe conversar com você sobre isso?",
        "\nSe for útil, posso pedir para uma pessoa da equipe falar com você a respeito.",
    )
    return Piece(text, [_intencao(turn, "price_objection")])


def _business_fact_piece(turn: Turn, intent: str) -> Piece:
    business = turn.context.get("negocio", {})
    intencao = _intencao(turn, intent)
    if intent == "hours":
        if business.get("horario_de_atendimento"):
            hours = str(business["horario_de_atendimento"]).rstrip(".")
            text = _say(
                turn,
                f"Nosso horário de atendimento é: {hours}.",
                f"Atendemos nos seguintes dias e horários: {hours}.",
                f"Funcionamos assim: {hours}.",
            )
            return Piece(text, [intencao], closable=True)
        excerpt = _knowledge_text(turn, "horário de atendimento")
    else:
        if business.get("enderecos"):
            where = "; ".join(str(a) for a in business["enderecos"]).rstrip(".")
            text = _say(
                turn, f"Estamos em: {where}.", f"Nosso endereço: {where}.", f"Você encontra a gente em: {where}."
            )
            return Piece(text, [intencao], closable=True)
        excerpt = _knowledge_text(turn, "endereço")
    if excerpt:
        text = _say(turn, excerpt, f"Pelo que tenho aqui: {excerpt}", f"A informação que tenho é esta: {excerpt}")
        return Piece(text, [intencao], closable=True)
    what = "o horário de atendimento" if intent == "hours" else "o endereço"
    return Piece(
        _say(
            turn,
            f"Não tenho {what} aqui comigo. Vou pedir para alguém da equipe te responder.",
            f"Ainda não tenho {what} por aqui. Vou pedir para alguém da equipe te passar essa informação.",
            "Essa informação eu não tenho comigo agora; vou pedir para uma pessoa da equipe te responder.",
        ),
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
        text = _say(
            turn,
            f"Seu atendimento{about} já está com a equipe. Vou avisar que você quer falar com uma pessoa; "
            "alguém continua a conversa com você por aqui.",
            f"A equipe já está cuidando do seu atendimento{about}. Vou avisar que você prefere falar com uma "
            "pessoa; alguém segue com você nesta conversa.",
            f"O seu atendimento{about} já está nas mãos da equipe. Vou avisar que você quer falar com uma pessoa, "
            "e alguém continua com você por aqui.",
        )
        return Piece(text, [intencao], [promise])
    text = _say(
        turn,
        "Claro! Vou pedir para uma pessoa da equipe continuar a conversa com você por aqui.",
        "Certo! Vou pedir para alguém da equipe seguir com você nesta conversa.",
        "Sem problema. Vou pedir para uma pessoa da equipe continuar o seu atendimento por aqui.",
    )
    return Piece(text, [intencao], [promise])


def _opt_out_piece(turn: Turn) -> Piece:
    name = f", {turn.first_name}" if turn.first_name else ""
    return Piece(
        _say(
            turn,
            f"Tudo bem{name}. Não vamos mais enviar mensagens para você. Se precisar de algo, é só escrever.",
            f"Certo{name}, não vamos mais te enviar mensagens. Quando precisar, é só chamar.",
            f"Entendido{name}. Você não vai mais receber mensagens nossas; "
            "se quiser falar com a gente, basta escrever.",
        ),
        [_intencao(turn, "opt_out")],
        [_promessa("não enviar mais mensagens a este cliente")],
    )


def _unknown_piece(turn: Turn) -> Piece:
    intencao = _intencao(turn, "unknown")
    facts = matching_facts(turn)
    if facts:
        listed = "\n".join(f"{f.rstrip('.')}." for f in facts)
        text = _say(
            turn, listed, f"O que posso te dizer sobre isso:\n{listed}", f"Tenho esta informação aqui:\n{listed}"
        )
        return Piece(text, [intencao], closable=True)
    excerpt = _knowledge_text(turn, turn.customer_text[:200])
    if excerpt:
        text = _say(
            turn,
            f"Sobre isso, o que tenho é: {excerpt}",
            f"Encontrei esta informação: {excerpt}",
            f"Pelo que consta aqui: {excerpt}",
        )
        return Piece(text, [intencao], closable=True)
    text = _say(
        turn,
        "Não tenho essa informação aqui comigo. Quer que eu peça para alguém da equipe te responder?",
        "Sobre isso, ainda não sei te dizer. Gostaria que uma pessoa da equipe respondesse?",
        "Isso eu não sei te dizer daqui. Prefere que alguém da equipe te responda?",
    )
    return Piece(text, [intencao])


def _unclear_piece(turn: Turn) -> Piece:
    """Letters that make no words ("asdkjh qwe zzzz"): ask for it in other words, claim nothing."""
    return Piece(
        _say(
            turn,
            "Desculpe, não consegui entender a sua mensagem. Pode escrever de outro jeito?",
            "Não entendi bem o que você quis dizer. Pode me explicar com outras palavras?",
            "Perdão, não ficou claro para mim. Consegue reformular a sua mensagem?",
        )
    )


# How crm words the news of a resolved promise (the proactive turn's reason): "Promessa cumprida:
# <o que> — <resolução>" or "Promessa não cumprida: <o que> — <por quê>".
_KEPT, _NOT_KEPT = "Promessa cumprida:", "Promessa não cumprida:"


def _proactive_piece(turn: Turn) -> Piece:
    _, data = _appointments_data(turn)
    name = f", {turn.first_name}" if turn.first_name else ""
    reason = turn.proactive.strip()
    if reason.startswith(_NOT_KEPT):
        # What was agreed could not be done: say so, with the consequence (the free times the agenda
        # offered), and ask; never a reminder that reads like good news.
        what, _, why = reason.removeprefix(_NOT_KEPT).partition(" — ")
        what, why = what.strip().rstrip("."), why.strip()
        lead = _say(
            turn,
            f"Olá{name}! Sobre o que combinamos ({what}): não foi possível.",
            f"Oi{name}! Voltando ao seu pedido ({what}): infelizmente não deu certo.",
            f"Olá{name}, tudo bem? Sobre {what}: não conseguimos concluir.",
        )
        ask = (
            "Quer que eu veja um desses horários para você?"
            if "Horários livres" in why
            else "Posso ajudar de outro jeito?"
        )
        return Piece(" ".join(p for p in (lead, why, ask) if p))
    if data and data.get("agenda_consultada") and data.get("compromissos"):
        listed = "\n".join(f"- {appointment_line(a)}" for a in data["compromissos"])
        if reason.startswith(_KEPT):
            lead = _say(
                turn,
                f"Pronto{name}! O seu pedido foi atendido. Veja como ficou a sua agenda conosco:",
                f"Oi{name}! Tudo certo com o seu pedido. Esta é a sua agenda com a gente agora:",
                f"Olá{name}, tudo bem? Seu pedido foi atendido; segue a sua agenda conosco:",
            )
            return Piece(f"{lead}\n{listed}")
        lead = _say(
            turn,
            f"Olá{name}! Passando para lembrar o que está na sua agenda conosco:",
            f"Oi{name}! Um lembrete do que está na sua agenda com a gente:",
            f"Olá{name}, tudo bem? Segue o que consta na sua agenda conosco:",
        )
        return Piece(f"{lead}\n{listed}")
    where = f" {em(turn.business_name)}" if turn.business_name else ""
    return Piece(
        _say(
            turn,
            f"Olá{name}! Estou retomando o seu atendimento{where}. Posso ajudar em algo?",
            f"Oi{name}! Retomando o seu atendimento{where}: em que posso ajudar?",
            f"Olá{name}, tudo bem? Voltando ao seu atendimento{where}. Precisa de alguma coisa?",
        )
    )


_HOW_ARE_YOU = re.compile(r"\b(tudo bem|tudo bom|tudo certo|como vai|como voce esta)\b")


def _greeting(turn: Turn, alone: bool) -> str:
    name = f", {turn.first_name}" if turn.first_name else ""
    if not alone:
        return _say(turn, f"Olá{name}!", f"Oi{name}!", f"Oi{name}, que bom falar com você!")
    if any(m.author == "agent" for m in turn.history):
        # Already introduced: the same introduction again reads like a bot on a loop (and Segurança's
        # repetition gate would send it back).
        if _HOW_ARE_YOU.search(fold(turn.customer_text)):
            return _say(
                turn,
                f"Tudo ótimo por aqui{name}! Em que posso ajudar?",
                f"Tudo certo, obrigada por perguntar{name}! Me conta o que você precisa.",
                f"Por aqui está tudo bem{name}, e com você? Diga como posso te ajudar hoje.",
            )
        return _say(
            turn,
            f"Oi{name}! Em que posso ajudar?",
            f"Olá{name}! Me conta o que você precisa.",
            f"Oi{name}, tudo bem? Estou por aqui para o que você precisar.",
        )
    where = f" {de(turn.business_name)}" if turn.business_name else ""
    return _say(
        turn,
        f"Olá{name}! Aqui é a assistente virtual{where}. Como posso ajudar?",
        f"Oi{name}! Você está falando com a assistente virtual{where}. Me conta o que você precisa.",
        f"Que bom ter você por aqui{name}! Sou a assistente virtual{where}. Qual é a sua dúvida?",
    )


def compose(turn: Turn, intents: list[str]) -> Piece:
    if turn.guidance and not turn.wording:
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
        elif intent == "my_appointments":
            pieces.append(_my_appointments_piece(turn))
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
        elif intent == "unclear":
            pieces.append(_unclear_piece(turn))
    if turn.wording == 2:
        pieces.reverse()  # the same answers, the other way round
    if turn.wording and pieces and pieces[-1].closable:
        pieces.append(
            Piece(
                _say(
                    turn, "", "Posso ajudar com mais alguma coisa?", "Se surgir outra dúvida, é só me chamar por aqui."
                )
            )
        )
    if "greeting" in intents:
        pieces.insert(0, Piece(_greeting(turn, alone=len(pieces) == 0)))
    if not pieces:
        # Too little to go on ("hmm", "e aí"): never an empty reply; ask, and declare nothing.
        pieces.append(
            Piece(
                _say(
                    turn,
                    "Pode me contar um pouco mais do que você precisa?",
                    "Me explica um pouco melhor o que você procura?",
                    "Pode detalhar um pouco mais o seu pedido?",
                )
            )
        )
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
