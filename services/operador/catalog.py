"""The capability catalog: the write RPCs of CrmWrite and AgendaWrite exposed as the Operador's tools.

Each capability names a gRPC method; its tool description and JSON schema are GENERATED from
the method's descriptor (the request message's fields, types, enums and nesting). Descriptions
come from the `.proto` leading comments when the contract files are present next to the code
(the generated `_pb2` modules carry no source info); otherwise from the maintained pt-BR table
below. A new RPC becomes a tool by adding one `Capability` entry, never by writing a schema.

Fields the trusted context fills are left out of the schema: the organisation, the contact, the
appointment / case / follow-up (the model names them by their position in the context it was
shown, never by id), idempotency keys, actors and the source turn. Every tool also takes an
optional `promessa`: the 1-based number of the declared promise the action fulfils.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from balcao.agenda.v1 import agenda_write_pb2
from balcao.crm.v1 import crm_resources_pb2 as crm_r
from balcao.crm.v1 import crm_write_pb2
from balcao.models.base import ToolDefinition
from balcao.operador.v1 import operador_pb2 as pb

# At most 25 tools per agent. Why 25: every tool's name, description and schema go into each
# Operador call, and past roughly two dozen tools the choice among them degrades and the prompt
# grows with no gain; 25 still lets an owner switch on the whole agenda package on an agent that
# already has every other non-critical capability. crm checks the same cap on the capabilities
# a unit switches on one by one; package expansion is checked here.
MAX_ENABLED_PER_AGENT = 25

SAFE, ATTENTION, CRITICAL = pb.RISK_LEVEL_SAFE, pb.RISK_LEVEL_ATTENTION, pb.RISK_LEVEL_CRITICAL
AGENDA, VENDER, RETER = pb.CAPABILITY_PACKAGE_AGENDA, pb.CAPABILITY_PACKAGE_VENDER, pb.CAPABILITY_PACKAGE_RETER
ESCALAR, ORGANIZAR = pb.CAPABILITY_PACKAGE_ESCALAR, pb.CAPABILITY_PACKAGE_ORGANIZAR

PACKAGE_KEYS: dict[str, int] = {
    "agenda": AGENDA, "vender": VENDER, "reter": RETER, "escalar": ESCALAR, "organizar": ORGANIZAR,
}
PACKAGE_LABELS: dict[int, tuple[str, str]] = {
    AGENDA: ("Agenda", "marcar, remarcar, cancelar e confirmar compromissos dos clientes"),
    VENDER: ("Vender", "mover o cliente pelas etapas de venda"),
    RETER: ("Reter", "agendar e cancelar retornos para não perder o cliente"),
    ESCALAR: ("Escalar", "abrir atendimento humano, dar andamento a casos e chamar um atendente"),
    ORGANIZAR: ("Organizar", "guardar anotações sobre o cliente"),
}

# Fields never shown to the model: the trusted context or the Operador itself fills them.
CONTEXT_FIELDS = frozenset({
    "organization_id", "contact_id", "idempotency_key", "source_turn_id", "appointment_id", "case_id",
    "follow_up_id", "obligation_id", "declaracao", "categoria", "actor", "author", "opened_by",
    "closed_by", "scheduled_by", "booked_by", "rescheduled_by", "cancelled_by", "confirmed_by",
})
# How the model names a record of the context instead of giving its id.
REFERENCE_ARGUMENTS: dict[str, tuple[str, str]] = {
    "appointment_id": ("compromisso",
                       "Número do compromisso do cliente, na ordem mostrada no contexto (1 = o primeiro)."),
    "follow_up_id": ("retorno", "Número do retorno pendente, na ordem mostrada no contexto (1 = o primeiro)."),
}
PROMISE_ARGUMENT = "promessa"


@dataclass(frozen=True)
class Capability:
    name: str
    method: str  # "balcao.agenda.v1.AgendaWriteService/Book"
    request: Descriptor
    label_pt: str
    explanation_pt: str
    risk: int
    package: int
    # Callback creation: hidden when `followup.callback_enabled` is false.
    is_callback: bool = False
    fixed: Mapping[str, Any] = field(default_factory=dict)  # arguments the Operador always sets


def _crm(rpc: str) -> tuple[str, Descriptor]:
    method = crm_write_pb2.DESCRIPTOR.services_by_name["CrmWriteService"].methods_by_name[rpc]
    return f"balcao.crm.v1.CrmWriteService/{rpc}", method.input_type


def _agenda(rpc: str) -> tuple[str, Descriptor]:
    method = agenda_write_pb2.DESCRIPTOR.services_by_name["AgendaWriteService"].methods_by_name[rpc]
    return f"balcao.agenda.v1.AgendaWriteService/{rpc}", method.input_type


def _cap(name: str, where: tuple[str, Descriptor], label: str, explanation: str, risk: int, package: int,
         **extra: Any) -> Capability:
    return Capability(name, where[0], where[1], label, explanation, risk, package, **extra)


CATALOG: tuple[Capability, ...] = (
    _cap("book_appointment", _agenda("Book"), "Marcar compromisso",
         "cria um compromisso na agenda do profissional para este cliente", ATTENTION, AGENDA),
    _cap("reschedule_appointment", _agenda("Reschedule"), "Remarcar compromisso",
         "muda o horário de um compromisso deste cliente, liberando o horário antigo", ATTENTION, AGENDA),
    _cap("cancel_appointment", _agenda("Cancel"), "Cancelar compromisso",
         "cancela um compromisso deste cliente e libera o horário", ATTENTION, AGENDA),
    _cap("confirm_appointment", _agenda("Confirm"), "Confirmar compromisso",
         "confirma um compromisso pendente deste cliente", SAFE, AGENDA),
    _cap("update_lead_state", _crm("UpdateLeadState"), "Mudar etapa do cliente",
         "move o cliente para outra etapa do seu funil", SAFE, VENDER),
    _cap("schedule_followup", _crm("ScheduleFollowUp"), "Agendar retorno",
         "agenda um retorno ao cliente na data combinada", ATTENTION, RETER, is_callback=True),
    _cap("cancel_followup", _crm("CancelFollowUp"), "Cancelar retorno",
         "cancela um retorno que ainda não aconteceu", ATTENTION, RETER),
    _cap("save_lead_note", _crm("SaveLeadNote"), "Anotar sobre o cliente",
         "guarda uma anotação na ficha do cliente", SAFE, ORGANIZAR),
    _cap("open_human_case", _crm("OpenHumanCase"), "Abrir atendimento humano",
         "abre um caso para sua equipe atender este cliente", ATTENTION, ESCALAR),
    _cap("provide_case_update", _crm("ProvideCaseUpdate"), "Dar andamento a um caso",
         "registra uma atualização no caso aberto deste cliente", ATTENTION, ESCALAR),
    _cap("assign_attendant", _crm("AssignAttendant"), "Chamar um atendente",
         "coloca um atendente da sua equipe como responsável pelo cliente", ATTENTION, ESCALAR),
    _cap("take_conversation", _crm("SetHumanControl"), "Passar a conversa para uma pessoa",
         "silencia o agente com este cliente até alguém devolver a conversa", CRITICAL, ESCALAR,
         fixed={"human_in_control": True}),
    _cap("block_contact", _crm("SetContactBlocked"), "Bloquear cliente",
         "bloqueia o cliente: ele não recebe mais nenhuma mensagem", CRITICAL, ORGANIZAR),
)
BY_NAME: dict[str, Capability] = {c.name: c for c in CATALOG}
CAPABILITY_BY_METHOD: dict[str, Capability] = {c.method: c for c in CATALOG}


# ---------------------------------------------------------------------------------------------
# Descriptions: the .proto leading comments when the contracts are present
# ---------------------------------------------------------------------------------------------

_PROTOS = Path(__file__).resolve().parents[2] / "protos"
_RPC = re.compile(r"^\s*rpc\s+(\w+)\s*\(")
_MESSAGE = re.compile(r"^\s*message\s+(\w+)\s*\{")
_FIELD = re.compile(r"^\s*(?:repeated\s+|optional\s+)?[\w.<>, ]+\s+(\w+)\s*=\s*\d+")


@cache
def proto_comments() -> dict[str, str]:
    """Leading comments by full name ("pkg.Service.Rpc", "pkg.Message.field"); {} without the files."""
    found: dict[str, str] = {}
    if not _PROTOS.is_dir():
        return found
    files = sorted(_PROTOS.glob("balcao/*/v1/*_write.proto")) + sorted(_PROTOS.glob("balcao/*/v1/*_resources.proto"))
    for path in files:
        package, service, messages, comment = "", "", [], []  # type: ignore[var-annotated]
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("package "):
                package = stripped.removeprefix("package ").rstrip(";").strip()
            if stripped.startswith("//"):
                comment.append(stripped[2:].strip())
                continue
            text = " ".join(comment).strip()
            if stripped.startswith("service "):
                service = stripped.split()[1]
            elif m := _RPC.match(line):
                found[f"{package}.{service}.{m.group(1)}"] = text
            elif m := _MESSAGE.match(line):
                messages.append(m.group(1))
                found[f"{package}.{m.group(1)}"] = text
            elif stripped == "}" and messages and not line.startswith("  "):
                messages.pop()
            elif messages and (m := _FIELD.match(line)) and not stripped.startswith(("oneof", "rpc", "enum")):
                found[f"{package}.{messages[-1]}.{m.group(1)}"] = text
            comment = []
    return found


def _method_comment(capability: Capability) -> str:
    service, rpc = capability.method.split("/")
    return proto_comments().get(f"{service}.{rpc}", "")


def _field_comment(message: Descriptor, name: str) -> str:
    return proto_comments().get(f"{message.full_name}.{name}", "")


def description(capability: Capability) -> str:
    generated = _method_comment(capability)
    base = f"{capability.label_pt}: {capability.explanation_pt}."
    return f"{generated} ({base})" if generated else base


# ---------------------------------------------------------------------------------------------
# Schemas: generated from the request message
# ---------------------------------------------------------------------------------------------

_SCALARS = {
    FieldDescriptor.TYPE_STRING: {"type": "string"},
    FieldDescriptor.TYPE_BOOL: {"type": "boolean"},
    FieldDescriptor.TYPE_INT32: {"type": "integer"}, FieldDescriptor.TYPE_INT64: {"type": "integer"},
    FieldDescriptor.TYPE_UINT32: {"type": "integer"}, FieldDescriptor.TYPE_UINT64: {"type": "integer"},
    FieldDescriptor.TYPE_DOUBLE: {"type": "number"}, FieldDescriptor.TYPE_FLOAT: {"type": "number"},
}


def _field_schema(fd: FieldDescriptor, depth: int) -> dict[str, Any]:
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        name = fd.message_type.full_name
        if name == "google.protobuf.Timestamp":
            schema: dict[str, Any] = {"type": "string", "format": "date-time"}
        elif name == "google.protobuf.Struct":
            schema = {"type": "object"}
        elif name == "google.protobuf.FieldMask":
            schema = {"type": "string"}
        else:
            schema = _message_schema(fd.message_type, depth + 1)
    elif fd.type == FieldDescriptor.TYPE_ENUM:
        schema = {"type": "string", "enum": [v.name for v in fd.enum_type.values if v.number != 0]}
    else:
        schema = dict(_SCALARS.get(fd.type, {"type": "string"}))
    comment = _field_comment(fd.containing_type, fd.name)
    if fd.is_repeated and not (fd.message_type and fd.message_type.GetOptions().map_entry):
        schema = {"type": "array", "items": schema}
    if comment:
        schema["description"] = comment
    return schema


def _message_schema(message: Descriptor, depth: int = 0, hide: Iterable[str] = ()) -> dict[str, Any]:
    hidden = set(hide)
    properties: dict[str, Any] = {}
    if depth < 4:
        for fd in message.fields:
            if fd.name in hidden:
                continue
            properties[fd.name] = _field_schema(fd, depth)
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    comment = proto_comments().get(message.full_name, "")
    if comment:
        schema["description"] = comment
    return schema


def input_schema(capability: Capability) -> dict[str, Any]:
    hide = CONTEXT_FIELDS | set(capability.fixed)
    schema = _message_schema(capability.request, hide=hide)
    names = {fd.name for fd in capability.request.fields}
    for original, (argument, text) in REFERENCE_ARGUMENTS.items():
        if original in names:
            schema["properties"][argument] = {"type": "integer", "minimum": 1, "description": text}
    schema["properties"][PROMISE_ARGUMENT] = {
        "type": "integer", "minimum": 1,
        "description": "Número da promessa declarada que esta ação cumpre (1 = a primeira), se houver.",
    }
    return schema


@cache
def _tool(name: str) -> ToolDefinition:
    capability = BY_NAME[name]
    return ToolDefinition(capability.name, description(capability), input_schema(capability))


def tool_definition(name: str) -> ToolDefinition:
    return _tool(name)


# ---------------------------------------------------------------------------------------------
# Selection: what an agent unit has enabled
# ---------------------------------------------------------------------------------------------


class SelectionError(ValueError):
    """A unit's selection is invalid (unknown package, over the cap)."""


@dataclass(frozen=True)
class Selection:
    packages: frozenset[int]
    enabled: tuple[str, ...]
    hidden: Mapping[str, str]  # capability → why a setting hides it (pt-BR)


CALLBACKS_OFF_PT = "os retornos automáticos estão desligados nas configurações (followup.callback_enabled)"


def select(config: crm_r.OperadorConfig | None, *, callback_enabled: bool) -> Selection:
    """The unit's enabled capabilities: its packages' non-critical ones, plus extras, minus disabled."""
    config = config or crm_r.OperadorConfig()
    packages: set[int] = set()
    for key in config.capability_packages:
        if key not in PACKAGE_KEYS:
            raise SelectionError(f"unknown capability package {key!r}; known: {', '.join(PACKAGE_KEYS)}")
        packages.add(PACKAGE_KEYS[key])
    unknown = [n for n in (*config.extra_capabilities, *config.disabled_capabilities) if n not in BY_NAME]
    if unknown:
        raise SelectionError(f"unknown capabilities: {', '.join(sorted(unknown))}")
    disabled = set(config.disabled_capabilities)
    chosen = [c.name for c in CATALOG if c.package in packages and c.risk != CRITICAL and c.name not in disabled]
    chosen += [n for n in config.extra_capabilities if n not in chosen and n not in disabled]
    if len(chosen) > MAX_ENABLED_PER_AGENT:
        raise SelectionError(f"{len(chosen)} capabilities enabled; at most {MAX_ENABLED_PER_AGENT} per agent")
    hidden = {} if callback_enabled else {c.name: CALLBACKS_OFF_PT for c in CATALOG if c.is_callback}
    return Selection(frozenset(packages), tuple(n for n in chosen if n not in hidden), hidden)


def tools_for(selection: Selection) -> list[ToolDefinition]:
    return [tool_definition(n) for n in selection.enabled]


def listing(selection: Selection) -> pb.ListCapabilitiesResponse:
    capabilities = [
        pb.Capability(
            name=c.name, label_pt=c.label_pt, explanation_pt=c.explanation_pt, risk=c.risk, package=c.package,  # type: ignore[arg-type]
            enabled=c.name in selection.enabled, method=c.method, description=description(c),
            input_schema_json=json.dumps(input_schema(c), ensure_ascii=False, sort_keys=True),
            hidden_reason_pt=selection.hidden.get(c.name, ""),
        )
        for c in sorted(CATALOG, key=lambda c: (c.package, c.name))
    ]
    packages = [
        pb.PackageInfo(package=p, label_pt=label, explanation_pt=text, selected=p in selection.packages)  # type: ignore[arg-type]
        for p, (label, text) in PACKAGE_LABELS.items()
    ]
    return pb.ListCapabilitiesResponse(
        capabilities=capabilities, packages=packages, max_enabled_per_agent=MAX_ENABLED_PER_AGENT,
        enabled_count=len(selection.enabled),
    )


def names(capabilities: Sequence[Capability]) -> list[str]:
    return [c.name for c in capabilities]
