"""The closing (`fecharOTurno`, seed 000): the checkpoint content, written without tools.

The closing model gets the whole tape of the turn (every step of the draft and revisions)
as TEXT, each tool result capped, with the message that was sent, the previous checkpoint and
the agenda re-read — a list, or unknown, never confused. It is called with no `tools`: the
Messages API refuses tool blocks without tool definitions. An answer that does not validate
gets exactly one correction that names the wrong and the right field names; a second invalid
answer fails the closing. With `ROLLING_SUMMARY_MAX_TOKENS` set, `summary_cap` may condense the
summary afterwards; with it off, nothing else happens.
"""

from __future__ import annotations

import difflib
import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models import conversador_format as fmt
from balcao.models.base import Message, ModelProvider, ModelRequest
from balcao.projection.v1 import projection_pb2 as pj
from services.conversador import declaracao as decl
from services.conversador import prompts, summary_cap, tape
from services.conversador.model_calls import call_model

log = logging.getLogger(__name__)

FIELDS = ("rolling_summary", "commitments", "objections", "next_action")
CORRECTION_FAILED = "fechamento inválido após uma correção"

# Names models reach for instead of the contract's, folded (lower case, no accents, no separators).
_LIKELY = {
    "summary": "rolling_summary",
    "resumo": "rolling_summary",
    "rollingsummary": "rolling_summary",
    "resumoacumulado": "rolling_summary",
    "memoria": "rolling_summary",
    "compromissos": "commitments",
    "combinados": "commitments",
    "commitment": "commitments",
    "promessas": "commitments",
    "objecoes": "objections",
    "objection": "objections",
    "objecao": "objections",
    "nextaction": "next_action",
    "nextstep": "next_action",
    "proximaacao": "next_action",
    "proximopasso": "next_action",
}

CLOSING_SYSTEM = """\
Você escreve a memória do atendimento de um cliente, para quem for atendê-lo na próxima conversa.

- Parta da memória anterior e atualize com o que aconteceu agora.
- Substitua fatos superados: um horário remarcado substitui o antigo; um compromisso cancelado sai; uma \
informação corrigida pelo cliente vale na forma nova. Mantenha os pedidos e as preferências do cliente.
- Datas, horas e situação dos compromissos vêm da agenda relida depois do turno, quando ela estiver aqui. Se a \
agenda estiver DESCONHECIDA, registre que não se sabe — nunca escreva que o cliente não tem compromissos. Uma \
agenda relida vazia quer dizer nenhum compromisso ativo e futuro, não agenda livre.
- Conte só o que o cliente realmente recebeu: uma mensagem que não chegou não foi dita.
- Copie números exatamente como apareceram (datas, horários, valores, telefones).

Responda só com um objeto JSON com exatamente estes quatro campos:
{"rolling_summary": "o resumo atualizado da conversa", "commitments": ["o que foi combinado e continua valendo"], \
"objections": ["objeções do cliente ainda em aberto"], "next_action": "o próximo passo"}

next_action é o passo DEPOIS da resposta que se espera do cliente: se foram oferecidos horários, o próximo passo \
é marcar o horário que ele escolher — não oferecer horários de novo."""

_NO_APPOINTMENT_CLAIMS = re.compile(
    r"\b(nenhum compromisso|sem compromissos?|nao (tem|possui|ha) (nenhum )?(compromisso|consulta|agendamento|"
    r"horario marcado)|nenhuma consulta|sem consultas?|nenhum agendamento|sem agendamentos?|agenda (esta )?"
    r"(livre|vazia))"
)


@dataclass
class ClosingInput:
    new_messages: Sequence[cv.ConversationMessage]
    tape: cv.Tape
    sent: cv.SentReply
    declaracao: dc.DeclaracaoDoTurno | None
    previous: cv.CheckpointContent | None
    # None: no re-read was needed; a view (KNOWN, possibly empty); or `agenda_unknown`.
    agenda: pj.AppointmentsView | None
    agenda_unknown: bool = False


@dataclass
class ClosingResult:
    checkpoint: cv.CheckpointContent | None = None
    failure_reason: str = ""
    validation_error: str = ""
    usage: list[cv.ModelUsage] = field(default_factory=list)
    corrected: bool = False
    summary_condensed: bool = False


class InvalidClosing(Exception):
    def __init__(self, errors: str) -> None:
        super().__init__(errors)
        self.errors = errors


def _fold(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z]", "", plain)


def _right_name(wrong: str, missing: list[str]) -> str | None:
    guess = _LIKELY.get(_fold(wrong))
    if guess in missing:
        return guess
    close = difflib.get_close_matches(wrong.lower(), missing, n=1, cutoff=0.6)
    return close[0] if close else None


def check_closing(text: str, *, agenda_unknown: bool) -> dict[str, Any]:
    """The closing's JSON, validated; raises `InvalidClosing` naming the wrong and right fields."""
    try:
        value = fmt.first_json_object(text)
    except ValueError as exc:
        raise InvalidClosing(f"{exc}; responda com um objeto JSON com os campos {', '.join(FIELDS)}") from None
    problems: list[str] = []
    missing = [f for f in FIELDS if f not in value]
    for key in [k for k in value if k not in FIELDS]:
        right = _right_name(key, missing)
        if right:
            problems.append(f"o campo `{key}` está errado: o nome certo é `{right}`")
            missing.remove(right)
        else:
            problems.append(f"o campo `{key}` não existe; os campos são {', '.join(f'`{f}`' for f in FIELDS)}")
    problems.extend(f"falta o campo `{name}`" for name in missing)
    for name in ("rolling_summary", "next_action"):
        if name in value and (not isinstance(value[name], str) or not value[name].strip()):
            problems.append(f"o campo `{name}` deve ser um texto não vazio")
    for name in ("commitments", "objections"):
        if name in value and (not isinstance(value[name], list) or not all(isinstance(i, str) for i in value[name])):
            problems.append(f"o campo `{name}` deve ser uma lista de textos (use [] quando não houver)")
    summary = value.get("rolling_summary")
    if agenda_unknown and isinstance(summary, str) and _NO_APPOINTMENT_CLAIMS.search(_plain(summary)):
        problems.append(
            "o campo `rolling_summary` diz que o cliente não tem compromissos, mas a agenda está DESCONHECIDA: "
            "escreva que a agenda não pôde ser consultada"
        )
    if problems:
        raise InvalidClosing("\n".join(f"- {p}" for p in problems))
    return {
        "rolling_summary": value["rolling_summary"].strip(),
        "commitments": [i.strip() for i in value["commitments"] if i.strip()],
        "objections": [i.strip() for i in value["objections"] if i.strip()],
        "next_action": value["next_action"].strip(),
    }


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _memory(previous: cv.CheckpointContent | None) -> str:
    if previous is None:
        return "Nenhuma: é o primeiro atendimento registrado deste cliente."
    return fmt.json_block(
        {
            "rolling_summary": previous.rolling_summary,
            "commitments": list(previous.commitments),
            "objections": list(previous.objections),
            "next_action": previous.next_action,
        }
    )


def _sent(sent: cv.SentReply) -> str:
    if not sent.delivered or not sent.text.strip():
        return "Nenhuma mensagem chegou ao cliente neste turno (o envio falhou)."
    text = f"«{sent.text.strip()}»"
    if sent.holding_reply:
        text += "\n(Resposta de espera: uma pessoa da equipe vai assumir a conversa.)"
    return text


def _agenda(data: ClosingInput) -> str:
    if data.agenda_unknown:
        return (
            "DESCONHECIDA: não foi possível reler a agenda. Registre que a agenda é desconhecida; não escreva que o "
            "cliente não tem compromissos.\n" + fmt.json_block({"agenda_consultada": False})
        )
    if data.agenda is None:
        return "Não foi relida: nada neste turno envolveu a agenda."
    view = fmt.appointments_view(data.agenda)
    if not view.get("agenda_consultada"):
        return _agenda(ClosingInput(data.new_messages, data.tape, data.sent, None, None, None, agenda_unknown=True))
    return fmt.json_block(view)


def closing_input(data: ClosingInput, result_cap_tokens: int) -> str:
    blocks = [
        f"{fmt.PREVIOUS_MEMORY}\n{_memory(data.previous)}",
        f"{fmt.TURN_MESSAGES}\n"
        + ("\n".join(prompts.conversation_lines(data.new_messages, "")) or "(nenhuma: o negócio escreveu primeiro)"),
        f"{fmt.TURN_TAPE}\n{tape.as_text(data.tape, result_cap_tokens)}",
        f"{fmt.SENT}\n{_sent(data.sent)}",
    ]
    if data.declaracao is not None:
        blocks.append(f"{fmt.DECLARACAO}\n{fmt.json_block(decl.to_dict(data.declaracao))}")
    blocks.append(f"{fmt.AGENDA}\n{_agenda(data)}")
    blocks.append(fmt.CLOSE_NOW)
    return "\n\n".join(blocks)


def _correction(errors: str) -> str:
    return (
        "Essa resposta não pôde ser aceita:\n"
        f"{errors}\n"
        f"Responda de novo só com o objeto JSON, com exatamente os campos {', '.join(FIELDS)}."
    )


async def close_turn(
    model: ModelProvider,
    data: ClosingInput,
    *,
    result_cap_tokens: int,
    max_output_tokens: int = 1024,
    summary_max_tokens: int | None = None,
) -> ClosingResult:
    result = ClosingResult()
    unknown = data.agenda_unknown or (
        data.agenda is not None and data.agenda.appointments_known != pj.AGENDA_KNOWLEDGE_KNOWN
    )
    messages = [Message.user(closing_input(data, result_cap_tokens))]
    purpose = cv.MODEL_CALL_PURPOSE_CLOSING
    while True:
        # No tools, ever: the tape above is text.
        request = ModelRequest(
            system=CLOSING_SYSTEM, messages=tuple(messages), max_tokens=max_output_tokens, task=fmt.TASK_CLOSING
        )
        response, usage = await call_model(model, request, purpose)
        result.usage.append(usage)
        try:
            content = check_closing(response.text, agenda_unknown=unknown)
            break
        except InvalidClosing as exc:
            result.validation_error = exc.errors
            if result.corrected:
                result.failure_reason = CORRECTION_FAILED
                return result
            log.info("closing invalid, asking for one correction", extra={"errors": exc.errors})
            result.corrected = True
            purpose = cv.MODEL_CALL_PURPOSE_CLOSING_CORRECTION
            messages += [response.as_message(), Message.user(_correction(exc.errors))]

    result.validation_error = ""
    if summary_cap.over_cap(content["rolling_summary"], summary_max_tokens):
        condensation = await summary_cap.condense(model, content["rolling_summary"], int(summary_max_tokens or 0))
        if condensation.usage is not None:
            result.usage.append(condensation.usage)
        content["rolling_summary"] = condensation.summary
        result.summary_condensed = condensation.condensed
    result.checkpoint = cv.CheckpointContent(**content)
    if data.declaracao is not None:
        result.checkpoint.declaracao.CopyFrom(data.declaracao)
    return result
