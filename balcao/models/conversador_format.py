"""How the Conversador lays out what a model reads, in one place for writer and reader.

The Conversador's prompts (services/conversador/prompts.py, closing.py) are written with these
headings and renderers; the offline model (offline_conversador.py) reads them back. Projected
facts are shown as compact JSON with pt-BR keys and no identifier: the same text a real model
sees, so the offline model answers from exactly what the tools returned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from balcao.projection.v1 import projection_pb2 as pj

# Tasks: what a call is for (ModelRequest.task).
TASK_DRAFT = "conversador.draft"
TASK_CLOSING = "conversador.closing"
TASK_CONDENSE = "conversador.condense"

# The turn prompt (the first user message of a draft or revision).
CONTEXT = "Contexto do atendimento:"
HISTORY = "Conversa até agora:"
NEW_MESSAGES = "Mensagens novas do cliente:"
PROACTIVE = "Motivo desta mensagem (quem escreve primeiro é o negócio):"
WRITE_NOW = "Escreva agora a sua resposta."

# A revision's request (a user message after the vetoed draft).
REVISION = "A mensagem anterior não pode ser enviada como está. Escreva de novo seguindo estas orientações:"

# The closing input.
PREVIOUS_MEMORY = "Memória anterior do cliente:"
TURN_MESSAGES = "Mensagens do cliente neste turno:"
TURN_TAPE = "O que aconteceu no turno, passo a passo:"
SENT = "Mensagem que o cliente recebeu:"
DECLARACAO = "Declaração do turno:"
AGENDA = "Agenda relida depois do turno:"
CLOSE_NOW = "Escreva agora a memória atualizada."

# The condensation input.
SUMMARY_TO_CONDENSE = "Resumo a condensar:"

AUTHOR_LABELS = {"customer": "Cliente", "agent": "Atendente", "team": "Equipe"}
_AUTHOR_BY_LABEL = {v: k for k, v in AUTHOR_LABELS.items()}

_HEADINGS = (
    CONTEXT,
    HISTORY,
    NEW_MESSAGES,
    PROACTIVE,
    WRITE_NOW,
    REVISION,
    PREVIOUS_MEMORY,
    TURN_MESSAGES,
    TURN_TAPE,
    SENT,
    DECLARACAO,
    AGENDA,
    CLOSE_NOW,
    SUMMARY_TO_CONDENSE,
)


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def json_block(value: Any) -> str:
    return f"```json\n{dumps(value)}\n```"


def indent_continuation(text: str) -> str:
    """Multi-line text on one logical line: continuation lines start with two spaces."""
    return "\n  ".join(text.splitlines()) if text else ""


def message_line(author: str, text: str, *, stamp: str = "", note: str = "") -> str:
    label = AUTHOR_LABELS.get(author, "Cliente")
    body = indent_continuation(text)
    if note:
        body = f"{body} [{note}]" if body else f"[{note}]"
    prefix = f"[{stamp}] " if stamp else ""
    return f"{prefix}{label}: {body}"


def _compact(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if v not in ("", None, [], {})}


def appointment(a: pj.Appointment) -> dict[str, Any]:
    return _compact(
        {
            "quando": a.local_label,
            "inicio": a.starts_at_iso,
            "fim": a.ends_at_iso,
            "servico": a.service,
            "profissional": a.professional,
            "local": a.place,
            "situacao": a.status,
            "video": a.meet_status,
        }
    )


def appointments_view(view: pj.AppointmentsView) -> dict[str, Any]:
    """The contact's appointments; an unknown agenda says so and lists nothing (seed 000)."""
    if view.appointments_known != pj.AGENDA_KNOWLEDGE_KNOWN:
        return {
            "agenda_consultada": False,
            "aviso": view.notice or "não foi possível consultar a agenda agora; nada se sabe sobre os compromissos",
        }
    out: dict[str, Any] = {
        "agenda_consultada": True,
        "compromissos": [appointment(a) for a in view.appointments],
    }
    if view.more_exist:
        out["ha_outros"] = True
    notice = view.notice or ("nenhum compromisso ativo e futuro" if not view.appointments else "")
    if notice:
        out["aviso"] = notice
    return out


def slot(s: pj.Slot) -> dict[str, Any]:
    return _compact(
        {
            "quando": s.local_label,
            "inicio": s.starts_at_iso,
            "duracao": s.duration_label,
            "profissional": s.professional,
            "local": s.place,
            "codigo": s.handle,
        }
    )


def lead(view: pj.LeadContext) -> dict[str, Any]:
    contact = _compact(
        {
            "nome": view.contact.name,
            "primeiro_contato": True if view.contact.first_contact else None,
            "canal": view.contact.channel_label,
        }
    )
    memory = None
    if view.HasField("memory"):
        m = view.memory
        memory = _compact(
            {
                "resumo": m.rolling_summary,
                "combinados": list(m.commitments),
                "objecoes": list(m.objections),
                "proximo_passo": m.next_action,
                "escrita_em": m.written_label,
            }
        )
    return _compact(
        {
            "cliente": contact,
            "memoria": memory,
            "etapa": view.stage.label,
            "casos_abertos": [
                _compact(
                    {
                        "assunto": c.subject,
                        "situacao": c.status,
                        "aberto_em": c.opened_label,
                        "ultima_atualizacao": c.last_update,
                    }
                )
                for c in view.open_cases
            ],
            "retornos_pendentes": [
                _compact({"motivo": f.reason, "quando": f.due_label, "tipo": f.kind}) for f in view.pending_followups
            ],
            "historico_recente": [_compact({"quando": t.when_label, "o_que": t.text}) for t in view.recent_activities],
        }
    )


def business(facts: pj.BusinessFacts) -> dict[str, Any]:
    return _compact(
        {
            "nome": facts.organization_name,
            "horario_de_atendimento": facts.opening_hours,
            "enderecos": list(facts.addresses),
            "contatos": list(facts.public_contacts),
            "valores_autorizados": list(facts.authorised_commercial_facts),
            "outras_informacoes": list(facts.facts),
            "fuso": facts.time_zone_label,
        }
    )


def turn_context(context: pj.TurnContext) -> dict[str, Any]:
    return _compact(
        {
            "agora": context.now_label,
            "agora_iso": context.now_iso,
            "negocio": business(context.business),
            "cliente": lead(context.lead),
            "compromissos": appointments_view(context.appointments),
            "referencias_disponiveis": [
                _compact({"titulo": r.title, "quando_usar": r.when_useful}) for r in context.unit.skill_references
            ],
        }
    )


def consequence_text(consequence: pj.Consequence, fallback: str) -> str:
    return consequence.text or fallback


# ---------------------------------------------------------------------------------------------
# Reading (the offline model)
# ---------------------------------------------------------------------------------------------


def sections(text: str) -> dict[str, str]:
    """Split a prompt into its known sections: heading → the text below it."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped in _HEADINGS:
            current = found.setdefault(stripped, [])
            continue
        if stripped.startswith(REVISION):
            current = found.setdefault(REVISION, [])
            continue
        if current is not None:
            current.append(line)
    return {k: "\n".join(v).strip() for k, v in found.items()}


_FENCE = re.compile(r"```json\n(.*?)\n```", re.S)


def read_json(section: str) -> Any | None:
    match = _FENCE.search(section or "")
    if not match:
        return None
    try:
        return json.loads(match.group(1))
    except json.JSONDecodeError:
        return None


@dataclass(frozen=True, slots=True)
class WrittenMessage:
    author: str
    text: str


_LINE = re.compile(r"^(?:\[[^\]]*\] )?(Cliente|Atendente|Equipe): ?(.*)$")


def read_messages(section: str) -> list[WrittenMessage]:
    messages: list[WrittenMessage] = []
    for line in (section or "").splitlines():
        match = _LINE.match(line)
        if match:
            messages.append(WrittenMessage(_AUTHOR_BY_LABEL[match.group(1)], match.group(2)))
        elif line.startswith("  ") and messages:
            last = messages[-1]
            messages[-1] = WrittenMessage(last.author, f"{last.text}\n{line[2:]}")
    return messages


def first_json_object(text: str) -> Any:
    """The JSON object in a model's answer: the whole text, a fenced block, or the outermost braces.

    Raises `ValueError` (with a pt-BR message a model can act on) when there is none.
    """
    candidates = [text.strip()]
    candidates.extend(m.group(1) for m in re.finditer(r"```(?:json)?\s*\n(.*?)\n```", text, re.S))
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    error = "a resposta não contém um objeto JSON"
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError as exc:
            if candidate.lstrip().startswith(("{", "[")):
                error = f"o JSON da resposta não é válido: {exc.msg} (linha {exc.lineno}, coluna {exc.colno})"
            continue
        if isinstance(value, dict):
            return value
        error = "a resposta deve ser um objeto JSON, não uma lista ou um valor solto"
    raise ValueError(error)


def join_lines(lines: Iterable[str]) -> str:
    return "\n".join(line for line in lines if line is not None)
