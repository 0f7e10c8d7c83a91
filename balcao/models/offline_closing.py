"""The offline model's closing and condensation, by rules (see offline_conversador for the draft).

The closing rewrites the memory from the closing input: the agenda line is replaced by the
re-read (or marked unknown), the customer's requests are kept, the last turn is summarised,
commitments grow by the turn's promises, and `next_action` follows the declaração's category.
"""

from __future__ import annotations

import re

from balcao.models import conversador_format as fmt
from balcao.models.base import ModelRequest, TextPart, ToolCall
from balcao.models.offline_replies import appointment_line

# ---------------------------------------------------------------------------------------------
# Closing
# ---------------------------------------------------------------------------------------------

AGENDA_PREFIX = "Agenda atual:"
REQUEST_PREFIX = "Pedido do cliente:"
LAST_TURN_PREFIX = "Último atendimento:"
KEPT_REQUESTS = 5

# What comes after the customer's expected answer, by the turn's first recognised category.
NEXT_ACTION = {
    "opt_out": "não enviar mais mensagens; responder só se o cliente voltar a escrever",
    "pede_humano": "uma pessoa da equipe continua a conversa com o cliente",
    "quer_cancelar": "cancelar o compromisso se o cliente confirmar",
    "quer_remarcar": "remarcar para o horário que o cliente escolher entre os oferecidos",
    "quer_agendar": "marcar o horário que o cliente escolher entre os oferecidos",
    "objecao_preco": "apresentar condições se o cliente quiser continuar",
    "pergunta_preco": "oferecer um horário se o cliente quiser seguir",
    "pede_informacao": "responder a próxima dúvida do cliente",
}
# Categories whose next step stays the same whether or not something was promised.
_ALWAYS = ("opt_out", "pede_humano")


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def closing(request: ModelRequest) -> list[TextPart | ToolCall]:
    text = request.messages[0].text
    parts = fmt.sections(text)
    previous = fmt.read_json(parts.get(fmt.PREVIOUS_MEMORY, "")) or {}
    declaracao = fmt.read_json(parts.get(fmt.DECLARACAO, "")) or {}
    agenda_section = parts.get(fmt.AGENDA)
    agenda = fmt.read_json(agenda_section) if agenda_section is not None else None
    said = [m.text for m in fmt.read_messages(parts.get(fmt.TURN_MESSAGES, "")) if m.author == "customer"]
    sent = parts.get(fmt.SENT, "").strip()

    old_lines = [line for line in str(previous.get("rolling_summary", "")).splitlines() if line.strip()]
    agenda_line = next((line for line in old_lines if line.startswith(AGENDA_PREFIX)), "")
    if agenda is not None:
        if not agenda.get("agenda_consultada"):
            agenda_line = f"{AGENDA_PREFIX} desconhecida (não foi possível reler a agenda no fechamento)."
        elif agenda.get("compromissos"):
            agenda_line = f"{AGENDA_PREFIX} " + "; ".join(appointment_line(a) for a in agenda["compromissos"]) + "."
        else:
            agenda_line = f"{AGENDA_PREFIX} nenhum compromisso ativo e futuro."
    requests_ = [line for line in old_lines if line.startswith(REQUEST_PREFIX)]
    for intencao in declaracao.get("intencoes", []):
        line = f"{REQUEST_PREFIX} {intencao.get('o_que', '')} («{_clip(str(intencao.get('evidencia', '')), 120)}»)."
        if line not in requests_:
            requests_.append(line)
    others = [line for line in old_lines if not line.startswith((AGENDA_PREFIX, REQUEST_PREFIX, LAST_TURN_PREFIX))]
    customer = f"o cliente escreveu «{_clip(' '.join(said), 160)}»" if said else "o negócio escreveu primeiro"
    if sent.startswith("«"):
        last = f"{LAST_TURN_PREFIX} {customer}; a resposta foi {_clip(sent, 200)}."
    else:
        last = f"{LAST_TURN_PREFIX} {customer}; {_clip(sent, 200).rstrip('.')}."
    lines = [*([agenda_line] if agenda_line else []), *others, *requests_[-KEPT_REQUESTS:], last]

    promised = [str(p.get("o_que", "")) for p in declaracao.get("promessas", []) if p.get("o_que")]
    commitments = list(dict.fromkeys([*previous.get("commitments", []), *promised]))
    objections = list(previous.get("objections", []))
    for intencao in declaracao.get("intencoes", []):
        if intencao.get("categoria") == "objecao_preco" and intencao.get("o_que") not in objections:
            objections.append(intencao["o_que"])
    next_action = str(previous.get("next_action") or "aguardar a próxima mensagem do cliente")
    categories = [str(i.get("categoria")) for i in declaracao.get("intencoes", [])]
    always = [c for c in categories if c in _ALWAYS]
    if always:
        next_action = NEXT_ACTION[always[0]]
    elif promised:
        # Nothing is asked of the customer: the next step is keeping the promise and telling them.
        next_action = f"cumprir o combinado ({promised[0]}) e avisar o cliente"
    elif any(c in NEXT_ACTION for c in categories):
        next_action = NEXT_ACTION[next(c for c in categories if c in NEXT_ACTION)]
    output = {
        "rolling_summary": "\n".join(lines),
        "commitments": commitments,
        "objections": objections,
        "next_action": next_action,
    }
    return [TextPart(fmt.dumps(output))]


# ---------------------------------------------------------------------------------------------
# Condensation (seed 001)
# ---------------------------------------------------------------------------------------------


def condense(request: ModelRequest) -> list[TextPart | ToolCall]:
    """Keep every sentence with a digit, then the others in order while they fit the limit."""
    text = request.messages[0].text
    summary = fmt.sections(text).get(fmt.SUMMARY_TO_CONDENSE, "")
    match = re.search(r"no máximo (\d+) caracteres", text)
    limit = int(match.group(1)) if match else len(summary)
    pieces = [s for s in re.split(r"(?<=[.!?])\s+|\n+", summary) if s.strip()]
    with_digits = [i for i, s in enumerate(pieces) if re.search(r"\d", s)]
    budget = limit - sum(len(pieces[i]) + 1 for i in with_digits)
    kept = set(with_digits)
    for index, piece in enumerate(pieces):
        if index not in kept and len(piece) + 1 <= budget:
            kept.add(index)
            budget -= len(piece) + 1
    condensed = " ".join(" ".join(pieces[i].split()) for i in sorted(kept))
    return [TextPart(fmt.dumps({"rolling_summary": condensed}))]
