"""The Conversador's prompts, in pt-BR and in the voice of the business (per unit).

Seed 002's lesson rules this file: a prompt that teaches the model how the business is
operated makes it talk about operating. So the system prompt speaks only of the business, the
customer and the conversation; it names no tool, table, system or internal process (the read
tools' names exist only in the tool definitions the SDK sends). A test keeps it that way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models import conversador_format as fmt
from balcao.projection.v1 import projection_pb2 as pj
from services.conversador.declaracao import CATEGORIAS

DEFAULT_VOICE = "cordial, acolhedor e direto, como uma boa recepção"

_AUTHORS = {cv.AUTHOR_CUSTOMER: "customer", cv.AUTHOR_AGENT: "agent", cv.AUTHOR_TEAM: "team"}

_OUTPUT_RULES = f"""\
Quando terminar, responda com um único objeto JSON, sem nada fora dele, neste formato:
{{"mensagem": "o texto para o cliente", "declaracao": {{"intencoes": [{{"o_que": "...", "evidencia": "...", \
"categoria": "..."}}], "promessas": [{{"o_que": "...", "prazo": null}}], "nada_a_declarar": false}}}}

- mensagem: o que o cliente vai ler.
- intencoes: o que o cliente quer nesta conversa, em poucas palavras de negócio ("quer remarcar", \
"achou caro"). evidencia: o trecho exato da conversa que mostra isso, copiado palavra por palavra. \
categoria: uma destas — {", ".join(CATEGORIAS)} — ou null.
- promessas: o que você disse que vai ser feito ("vou pedir a marcação para quinta às 10h"). prazo: data e hora \
ISO-8601 com fuso (2024-11-08T18:00:00-03:00) quando houver um prazo combinado; senão null.
- nada_a_declarar: true somente quando as duas listas estão vazias; false quando há alguma intenção ou promessa."""


def system_prompt(unit: pj.UnitView, business: pj.BusinessFacts) -> str:
    """The draft's system prompt: who speaks, how, and what they may say."""
    who = unit.name.strip() or "o atendimento"
    business_name = business.organization_name.strip() or "o negócio"
    voice = unit.voice.strip() or DEFAULT_VOICE
    parts = [
        f"Você é {who} de {business_name} e conversa com um cliente por mensagens.",
        f"Jeito de falar: {voice}.",
    ]
    if unit.instructions.strip():
        parts.append(f"Orientações de {business_name} para este atendimento:\n{unit.instructions.strip()}")
    parts.append(
        "Como atender:\n"
        "- Escreva em português do Brasil, em mensagens curtas, como uma pessoa da equipe escreveria.\n"
        "- Diga só o que está no contexto do atendimento ou no que você consultou agora. Preço, horário, endereço, "
        "condição ou resultado que você não tem, você não afirma: diga que vai verificar com a equipe.\n"
        "- Antes de oferecer horários, consulte os horários livres. Datas e horas de compromissos vêm sempre da "
        "agenda consultada, nunca da memória da conversa.\n"
        "- Você não marca, remarca nem cancela nada sozinho e não diz que algo já foi feito: diga o que vai pedir "
        "para a equipe fazer e registre isso como promessa.\n"
        "- Se a agenda não pôde ser consultada, diga que não conseguiu ver agora; não diga que o cliente não tem "
        "compromissos.\n"
        "- Se o cliente pedir para falar com uma pessoa, diga que vai chamar alguém da equipe.\n"
        "- Se o cliente não quiser mais receber mensagens, respeite e confirme com gentileza.\n"
        "- Fale do atendimento com as palavras do cliente; não comente como o trabalho é organizado por dentro, "
        "nem use códigos ou nomes técnicos."
    )
    parts.append(_OUTPUT_RULES)
    return "\n\n".join(parts)


def _zone(now_iso: str) -> timezone:
    try:
        offset = datetime.fromisoformat(now_iso).utcoffset()
    except ValueError:
        offset = None
    return timezone(offset) if offset is not None else timezone(timedelta(0))


def _stamp(message: cv.ConversationMessage, zone: timezone) -> str:
    if not message.HasField("sent_at"):
        return ""
    return message.sent_at.ToDatetime(tzinfo=UTC).astimezone(zone).strftime("%d/%m %H:%M")


def conversation_lines(messages: Sequence[cv.ConversationMessage], now_iso: str) -> list[str]:
    zone = _zone(now_iso)
    return [
        fmt.message_line(_AUTHORS.get(m.author, "customer"), m.text, stamp=_stamp(m, zone), note=m.attachment_note)
        for m in messages
    ]


def conversation_text(history: Sequence[cv.ConversationMessage], new: Sequence[cv.ConversationMessage]) -> str:
    """The conversation as plain text, attachment notes included: what an `evidencia` must quote."""
    return "\n".join(f"{m.text}\n{m.attachment_note}" if m.attachment_note else m.text for m in [*history, *new])


def turn_message(
    context: pj.TurnContext,
    history: Sequence[cv.ConversationMessage],
    new_messages: Sequence[cv.ConversationMessage],
    proactive: cv.ProactiveReason | None,
) -> str:
    """The first user message of a draft: the context, the conversation, what to answer."""
    blocks = [f"{fmt.CONTEXT}\n{fmt.json_block(fmt.turn_context(context))}"]
    past = conversation_lines(history, context.now_iso)
    blocks.append(f"{fmt.HISTORY}\n" + ("\n".join(past) if past else "(esta é a primeira conversa)"))
    if new_messages:
        blocks.append(f"{fmt.NEW_MESSAGES}\n" + "\n".join(conversation_lines(new_messages, context.now_iso)))
    if proactive is not None and proactive.reason.strip():
        blocks.append(f"{fmt.PROACTIVE}\n{proactive.reason.strip()}")
    blocks.append(fmt.WRITE_NOW)
    return "\n\n".join(blocks)


def revision_message(previous_message: str, guidance: Sequence[str]) -> str:
    """What a revision asks: the vetoed text and Segurança's guidance, never a gate's name."""
    lines = [fmt.REVISION]
    lines.extend(f"- {g.strip()}" for g in guidance if g.strip())
    lines.append("")
    lines.append(f"Mensagem que não pode ser enviada: «{previous_message}»")
    lines.append("Escreva a mensagem e a declaração de novo, no mesmo formato.")
    return "\n".join(lines)


def repair_message(errors: str) -> str:
    return (
        "A resposta não pôde ser aceita por estes motivos:\n"
        f"{errors}\n"
        "Responda de novo com o objeto JSON completo (mensagem e declaracao), corrigindo esses pontos."
    )


FINAL_STEP_MESSAGE = "Já há informação suficiente: escreva agora a resposta final, sem consultar mais nada."
