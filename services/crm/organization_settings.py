"""The organisation's settings: defaults, validation, partial updates and their consequences.

Settings are the `OrganizationSettings` message itself, stored as JSONB in the protobuf JSON
mapping, so a field added to the contract needs no migration. An update names the fields it
changes with a FieldMask; the owner gets back, in pt-BR, what each change means.

The two role switches are the exception to "false is left out": the JSON mapping writes no
`false`, so "switched off" and "never said" would be the same bytes. Every stored document
therefore carries both `roles.conversadorEnabled` and `roles.operadorEnabled` explicitly (crm_0003
made the stored documents so). The rule for a document without them (written before crm_0003, or
by hand): an absent `conversadorEnabled` means on (no runtime read the flag before, so every such
organisation's agent answered), an absent `operadorEnabled` means off (the Operador read it, so off
is what such an organisation ran with). A creation whose initial settings leave `roles` unset gets
both roles on, as a creation without initial settings does.
"""

from __future__ import annotations

import re
from typing import Any

from google.protobuf import field_mask_pb2, json_format

from balcao.common.v1 import declaracao_pb2
from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm.errors import InvalidArgument

# Gates the owner may not switch off (seed 002 §3.3; DESIGN §6).
ALWAYS_ON_GATES = frozenset({"stop"})
_STAGE_KEY = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
_CLOCK = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


def default_settings() -> r.OrganizationSettings:
    """What a new organisation starts with when it gives no settings of its own."""
    c = declaracao_pb2
    return r.OrganizationSettings(
        roles=r.RoleSettings(conversador_enabled=True, operador_enabled=True),
        followup=r.FollowUpSettings(callback_enabled=True),
        stages=[
            r.StageDefinition(key="new", label="Novo contato", position=1),
            r.StageDefinition(key="qualifying", label="Em atendimento", position=2),
            r.StageDefinition(key="scheduled", label="Agendado", position=3),
            r.StageDefinition(key="won", label="Cliente", position=4, terminal=True),
            r.StageDefinition(key="lost", label="Perdido", position=5, terminal=True),
        ],
        categoria_stages=[
            r.CategoriaStageRule(categoria=c.CATEGORIA_QUER_AGENDAR, stage_key="qualifying"),
            r.CategoriaStageRule(categoria=c.CATEGORIA_PERGUNTA_PRECO, stage_key="qualifying"),
            r.CategoriaStageRule(categoria=c.CATEGORIA_CONFIRMOU, stage_key="scheduled"),
            r.CategoriaStageRule(categoria=c.CATEGORIA_DESISTIU, stage_key="lost"),
        ],
        reply_catalog={
            "expired_plan": "No momento não conseguimos responder por aqui. Por favor, fale com a nossa equipe.",
            "handoff": "Vou chamar uma pessoa da nossa equipe para continuar com você. Já já alguém responde.",
            "holding_reply": "Recebi sua mensagem e vou confirmar com a equipe antes de te responder, tudo bem?",
            "opt_out_confirmation": (
                "Pronto, você não vai mais receber mensagens nossas. Se mudar de ideia, é só escrever."
            ),
            "jailbreak_safe_reply": "Posso te ajudar com informações sobre nossos serviços. Como posso ajudar?",
            "audio_not_supported": "Ainda não consigo ouvir áudios. Pode me escrever, por favor?",
        },
        seguranca=r.SegurancaSettings(disclosure_mode=r.DISCLOSURE_MODE_INJECT),
    )


def initial(given: r.OrganizationSettings | None) -> r.OrganizationSettings:
    """What a new organisation starts with: its initial settings, the defaults when it gave none.

    Initial settings that leave `roles` unset get the default roles (both on): a creation that
    did not mention the roles must not switch the agent off. Roles given (even empty) are kept.
    """
    if given is None:
        return default_settings()
    settings = r.OrganizationSettings()
    settings.CopyFrom(given)
    if not settings.HasField("roles"):
        settings.roles.CopyFrom(default_settings().roles)
    return settings


def to_document(settings: r.OrganizationSettings) -> dict[str, Any]:
    """The stored form: the protobuf JSON mapping, with both role switches always written."""
    document = json_format.MessageToDict(settings)
    roles = document.setdefault("roles", {})
    roles["conversadorEnabled"] = settings.roles.conversador_enabled
    roles["operadorEnabled"] = settings.roles.operador_enabled
    return document


def from_document(document: dict[str, Any]) -> r.OrganizationSettings:
    settings = json_format.ParseDict(document or {}, r.OrganizationSettings(), ignore_unknown_fields=True)
    roles = (document or {}).get("roles") or {}
    if "conversadorEnabled" not in roles and "conversador_enabled" not in roles:
        # Written before the switches were stored explicitly: the Conversador answered.
        settings.roles.conversador_enabled = True
    return settings


class ParsedSettings:
    """Each organisation's settings as last parsed, reused while its stored document is the same.

    The generic JSON parser (ParseDict) was the larger part of GetOrganization's CPU, and the same
    organisation is read on every turn. An entry is used only when the document just read from the
    row equals (deep equality) the one it was parsed from, so an update, whatever wrote it, is
    parsed afresh on the next read: the cache can never answer with settings the row no longer
    holds. Entries are shared: callers read them, or copy them into a message of their own.
    """

    def __init__(self, capacity: int = 1024) -> None:
        self._capacity = capacity
        self._entries: dict[Any, tuple[dict[str, Any], r.OrganizationSettings]] = {}

    def get(self, organization_id: Any, document: dict[str, Any] | None) -> r.OrganizationSettings:
        document = document or {}
        entry = self._entries.get(organization_id)
        if entry is not None and entry[0] == document:
            return entry[1]
        parsed = from_document(document)
        if entry is None and len(self._entries) >= self._capacity:
            self._entries.pop(next(iter(self._entries)))  # the oldest organisation seen
        self._entries[organization_id] = (document, parsed)
        return parsed


# One per process: crm's reads of an organisation's settings go through it.
PARSED = ParsedSettings()


def apply_update(
    current: r.OrganizationSettings, new: r.OrganizationSettings, mask: field_mask_pb2.FieldMask
) -> r.OrganizationSettings:
    """The settings after replacing the masked fields of `current` with `new`'s (all when empty)."""
    if not mask.paths:
        merged = r.OrganizationSettings()
        merged.CopyFrom(new)
        return merged
    for path in mask.paths:
        if not field_mask_pb2.FieldMask(paths=[path]).IsValidForDescriptor(r.OrganizationSettings.DESCRIPTOR):
            raise InvalidArgument(f"update_mask path {path!r} is not a field of OrganizationSettings")
    merged = r.OrganizationSettings()
    merged.CopyFrom(current)
    mask.MergeMessage(new, merged, replace_message_field=True, replace_repeated_field=True)
    return merged


def validate(settings: r.OrganizationSettings) -> None:
    """Raise InvalidArgument naming the first problem of a settings message."""
    for gate in ALWAYS_ON_GATES:
        if settings.seguranca.gates_enabled.get(gate, True) is False:
            raise InvalidArgument(f"seguranca.gates_enabled: the {gate!r} gate cannot be switched off")
    keys: set[str] = set()
    for stage in settings.stages:
        if not _STAGE_KEY.match(stage.key):
            raise InvalidArgument(f"stages: key {stage.key!r} must be lower snake_case")
        if stage.key in keys:
            raise InvalidArgument(f"stages: key {stage.key!r} appears twice")
        keys.add(stage.key)
    for rule in settings.categoria_stages:
        if rule.stage_key not in keys:
            raise InvalidArgument(f"categoria_stages: stage {rule.stage_key!r} is not one of the stages")
    pacing = settings.pacing
    if bool(pacing.quiet_hours_start) != bool(pacing.quiet_hours_end):
        raise InvalidArgument("pacing: quiet_hours_start and quiet_hours_end go together")
    for name in ("quiet_hours_start", "quiet_hours_end"):
        value = getattr(pacing, name)
        if value and not _CLOCK.match(value):
            raise InvalidArgument(f"pacing.{name} must be a time like '22:00', got {value!r}")
    attendant_ids = [a.attendant_id for a in settings.attendants]
    if any(not a for a in attendant_ids) or len(set(attendant_ids)) != len(attendant_ids):
        raise InvalidArgument("attendants: every attendant needs a unique attendant_id")
    numbers = [o.number for o in settings.menu.options]
    if len(set(numbers)) != len(numbers) or any(not n for n in numbers):
        raise InvalidArgument("menu.options: every option needs a unique number")
    for tag in settings.hashtags:
        if not tag.tag.startswith("#") or len(tag.tag) < 2:
            raise InvalidArgument(f"hashtags: {tag.tag!r} must start with '#'")
    runtime = settings.runtime
    for name in ("debounce_ms", "debounce_cap_ms", "human_reply_pause_minutes"):
        if getattr(runtime, name) < 0:
            raise InvalidArgument(f"runtime.{name} must not be negative")


_SECTION_LABELS = {
    "internal_vocabulary_additions": "Vocabulário interno atualizado.",
    "stages": "Etapas do funil atualizadas.",
    "categoria_stages": "Regras de etapa por intenção atualizadas.",
    "reply_catalog": "Respostas prontas atualizadas.",
    "menu": "Menu numerado atualizado.",
    "hashtags": "Atalhos com # atualizados.",
    "controller": "Frases reconhecidas antes do modelo atualizadas.",
    "runtime": "Tempos de espera do atendimento atualizados.",
    "pacing": "Ritmo de envio (silêncio noturno e limites) atualizado.",
    "business": "Informações públicas do negócio atualizadas.",
    "commercial": "Preços e ofertas autorizados atualizados.",
    "attendants": "Equipe de atendimento atualizada.",
}


def consequences(before: r.OrganizationSettings, after: r.OrganizationSettings) -> list[str]:
    """What each change means to the owner, in pt-BR, in a stable order."""
    out: list[str] = []
    if before.roles.conversador_enabled != after.roles.conversador_enabled:
        out.append(
            "O assistente volta a responder os clientes sozinho."
            if after.roles.conversador_enabled
            else "O assistente deixa de responder sozinho: cada mensagem recebida vira um atendimento para a equipe."
        )
    if before.roles.operador_enabled != after.roles.operador_enabled:
        out.append(
            "Operador ligado: depois de cada conversa ele pode mexer na operação (marcar, abrir casos, registrar), "
            "com uma chamada de modelo a mais por conversa."
            if after.roles.operador_enabled
            else "Operador desligado: ele continua registrando o básico sozinho; o que você desliga é a capacidade "
            "de mexer na operação."
        )
    if before.followup.callback_enabled != after.followup.callback_enabled:
        out.append(
            "O assistente volta a poder agendar os retornos que promete ao cliente."
            if after.followup.callback_enabled
            else "O assistente deixa de agendar retornos prometidos; consultas, cancelamentos e marcações de "
            "horário continuam normalmente."
        )
    gates = sorted(set(before.seguranca.gates_enabled) | set(after.seguranca.gates_enabled))
    for gate in gates:
        was, now = before.seguranca.gates_enabled.get(gate), after.seguranca.gates_enabled.get(gate)
        if was != now and now is not None:
            out.append(
                f"A verificação “{gate}” passa a conferir cada mensagem antes do envio."
                if now
                else f"A verificação “{gate}” deixa de conferir as mensagens antes do envio."
            )
    if before.seguranca.inbound_classifier_enabled != after.seguranca.inbound_classifier_enabled:
        out.append(
            "As mensagens recebidas também passam por um classificador de modelo (uma chamada a mais por mensagem)."
            if after.seguranca.inbound_classifier_enabled
            else "As mensagens recebidas passam só pela verificação por regras, sem chamada de modelo."
        )
    if (
        before.seguranca.disclosure_mode != after.seguranca.disclosure_mode
        or before.seguranca.disclosure_text != after.seguranca.disclosure_text
    ):
        out.append("O aviso de que o cliente fala com um assistente virtual foi atualizado.")
    for field, label in _SECTION_LABELS.items():
        if getattr(before, field) != getattr(after, field):
            out.append(label)
    return out
