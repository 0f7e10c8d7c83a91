"""The Conversador's read tools: their definitions, and the executor that runs them.

Six tools, all reads, each backed by one projection RPC. The organisation, contact and unit
come from the turn (the runtime's trusted context), never from the model. Descriptions are
pt-BR and speak of the business, not of how it is built (seed 002 §1.1: a tool's description
and name are leak doors). `ToolExecutor` is the small interface the model loop depends on, so
unit tests can give it any executor; `ProjectionToolExecutor` is the production one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

import grpc
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from balcao.models import conversador_format as fmt
from balcao.models.base import ToolDefinition
from balcao.projection.v1 import projection_pb2 as pj
from balcao.projection.v1 import projection_pb2_grpc

log = logging.getLogger(__name__)

AGENDA_TOOLS = frozenset({"list_my_appointments", "check_availability"})

READ_TOOLS: tuple[ToolDefinition, ...] = (
    ToolDefinition(
        "get_lead_context",
        "Relê agora o que se sabe deste cliente: o resumo das conversas anteriores, o que foi combinado, "
        "a etapa do atendimento, pedidos em andamento com a equipe, retornos pendentes e o histórico recente.",
        {"type": "object", "properties": {}, "additionalProperties": False},
    ),
    ToolDefinition(
        "search_knowledge",
        "Procura nas informações que o negócio escreveu (serviços, preparo, políticas, dúvidas frequentes) o "
        "que responde a uma pergunta do cliente.",
        {
            "type": "object",
            "properties": {"pergunta": {"type": "string", "description": "A dúvida, em poucas palavras."}},
            "required": ["pergunta"],
            "additionalProperties": False,
        },
    ),
    ToolDefinition(
        "get_lead_note",
        "Lê as anotações que a equipe deixou sobre este cliente.",
        {
            "type": "object",
            "properties": {
                "assunto": {"type": "string", "description": "Um assunto a procurar; vazio traz as últimas."}
            },
            "additionalProperties": False,
        },
    ),
    ToolDefinition(
        "read_skill_reference",
        "Lê um dos textos de referência deste atendimento, pelo título (os títulos estão no contexto).",
        {
            "type": "object",
            "properties": {"titulo": {"type": "string", "description": "O título do texto, como aparece no contexto."}},
            "required": ["titulo"],
            "additionalProperties": False,
        },
    ),
    ToolDefinition(
        "list_my_appointments",
        "Consulta agora os compromissos ativos e futuros deste cliente, com data e hora locais.",
        {"type": "object", "properties": {}, "additionalProperties": False},
    ),
    ToolDefinition(
        "check_availability",
        "Consulta os horários livres para um serviço num período. Não marca nada: só mostra o que está livre.",
        {
            "type": "object",
            "properties": {
                "servico": {"type": "string", "description": "O serviço, como o negócio o chama."},
                "profissional": {"type": "string", "description": "Com quem, se o cliente pediu alguém."},
                "data_inicial": {"type": "string", "description": "Primeiro dia, AAAA-MM-DD."},
                "data_final": {"type": "string", "description": "Último dia, AAAA-MM-DD; vazio é o mesmo dia."},
                "periodo": {"type": "string", "enum": ["manha", "tarde", "noite"], "description": "Parte do dia."},
            },
            "additionalProperties": False,
        },
    ),
)


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """A tool's answer as the model will read it."""

    content: str
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class TurnScope:
    """Who the reads are about: from the turn, never from the model."""

    organization_id: str
    contact_id: str
    unit_id: str
    # The agent configuration version of the turn ("" = published; a draft under "Testar").
    agent_version_id: str = ""


class ProjectionUnavailable(Exception):
    """Projection could not answer (unreachable, overloaded, not serving): the turn is retried."""


class ToolExecutor(Protocol):
    async def execute(self, name: str, arguments: dict[str, Any]) -> ToolOutcome: ...


# ---------------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------------


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class _NoArgs(_Args):
    pass


class _SearchArgs(_Args):
    pergunta: str = Field(min_length=1, max_length=500)


class _NoteArgs(_Args):
    assunto: str = Field("", max_length=200)


class _ReferenceArgs(_Args):
    titulo: str = Field(min_length=1, max_length=200)


_PERIODS = {
    "": pj.PART_OF_DAY_UNSPECIFIED,
    "manha": pj.PART_OF_DAY_MORNING,
    "tarde": pj.PART_OF_DAY_AFTERNOON,
    "noite": pj.PART_OF_DAY_EVENING,
}


class _AvailabilityArgs(_Args):
    servico: str = Field("", max_length=200)
    profissional: str = Field("", max_length=200)
    data_inicial: str = ""
    data_final: str = ""
    periodo: str = ""

    @field_validator("data_inicial", "data_final")
    @classmethod
    def _day(cls, value: str) -> str:
        if value:
            try:
                date.fromisoformat(value)
            except ValueError:
                raise ValueError("use uma data no formato AAAA-MM-DD") from None
        return value

    @field_validator("periodo")
    @classmethod
    def _period(cls, value: str) -> str:
        if value not in _PERIODS:
            raise ValueError("use manha, tarde ou noite")
        return value


ARGUMENTS: dict[str, type[_Args]] = {
    "get_lead_context": _NoArgs,
    "search_knowledge": _SearchArgs,
    "get_lead_note": _NoteArgs,
    "read_skill_reference": _ReferenceArgs,
    "list_my_appointments": _NoArgs,
    "check_availability": _AvailabilityArgs,
}


def parse_arguments(name: str, arguments: dict[str, Any]) -> _Args | ToolOutcome:
    """The validated arguments, or an error outcome the model can act on (pt-BR, no internals)."""
    model = ARGUMENTS.get(name)
    if model is None:
        return ToolOutcome("essa consulta não existe; use apenas as consultas oferecidas", is_error=True)
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entrada'}: {e['msg']}" for e in exc.errors())
        return ToolOutcome(f"não foi possível consultar com esses dados ({problems})", is_error=True)


# ---------------------------------------------------------------------------------------------
# The projection-backed executor
# ---------------------------------------------------------------------------------------------

# Status codes that mean "this question cannot be answered", told to the model as a sentence;
# any other failure means projection itself is not answering, and the turn is retried.
_ANSWERABLE = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.OUT_OF_RANGE,
        grpc.StatusCode.FAILED_PRECONDITION,
    }
)


class ProjectionToolExecutor:
    """Runs each read tool as one call to projection, scoped to the turn."""

    def __init__(self, stub: projection_pb2_grpc.ProjectionServiceStub, scope: TurnScope, *, timeout: float) -> None:
        self._stub = stub
        self._scope = scope
        self._timeout = timeout

    async def execute(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        parsed = parse_arguments(name, arguments)
        if isinstance(parsed, ToolOutcome):
            return parsed
        try:
            return await getattr(self, f"_{name}")(parsed)
        except grpc.aio.AioRpcError as exc:
            if exc.code() in _ANSWERABLE:
                log.warning("projection refused a read", extra={"tool": name, "code": exc.code().name})
                return ToolOutcome("não foi possível consultar isso com esses dados", is_error=True)
            raise ProjectionUnavailable(f"projection {exc.code().name}: {exc.details()}") from exc

    async def _get_lead_context(self, _: _NoArgs) -> ToolOutcome:
        s = self._scope
        response = await self._stub.GetLeadContext(
            pj.GetLeadContextRequest(organization_id=s.organization_id, contact_id=s.contact_id), timeout=self._timeout
        )
        return ToolOutcome(fmt.dumps(fmt.lead(response.lead)))

    async def _search_knowledge(self, args: _SearchArgs) -> ToolOutcome:
        s = self._scope
        response = await self._stub.SearchKnowledge(
            pj.SearchKnowledgeRequest(
                organization_id=s.organization_id, contact_id=s.contact_id, unit_id=s.unit_id, query=args.pergunta
            ),
            timeout=self._timeout,
        )
        return render_knowledge(response)

    async def _get_lead_note(self, args: _NoteArgs) -> ToolOutcome:
        s = self._scope
        response = await self._stub.GetLeadNote(
            pj.GetLeadNoteRequest(organization_id=s.organization_id, contact_id=s.contact_id, topic=args.assunto),
            timeout=self._timeout,
        )
        return render_notes(response)

    async def _read_skill_reference(self, args: _ReferenceArgs) -> ToolOutcome:
        s = self._scope
        response = await self._stub.ReadSkillReference(
            pj.ReadSkillReferenceRequest(
                organization_id=s.organization_id, contact_id=s.contact_id, unit_id=s.unit_id, title=args.titulo
            ),
            timeout=self._timeout,
        )
        return render_reference(response)

    async def _list_my_appointments(self, _: _NoArgs) -> ToolOutcome:
        s = self._scope
        response = await self._stub.ListMyAppointments(
            pj.ListMyAppointmentsRequest(organization_id=s.organization_id, contact_id=s.contact_id),
            timeout=self._timeout,
        )
        return ToolOutcome(fmt.dumps(fmt.appointments_view(response.appointments)))

    async def _check_availability(self, args: _AvailabilityArgs) -> ToolOutcome:
        s = self._scope
        response = await self._stub.CheckAvailability(
            pj.CheckAvailabilityRequest(
                organization_id=s.organization_id,
                contact_id=s.contact_id,
                unit_id=s.unit_id,
                service=args.servico,
                professional=args.profissional,
                from_date=args.data_inicial,
                to_date=args.data_final,
                part_of_day=_PERIODS[args.periodo],
                agent_version_id=s.agent_version_id,
            ),
            timeout=self._timeout,
        )
        return render_availability(response)


# ---------------------------------------------------------------------------------------------
# Rendering projection responses (pt-BR JSON; a consequence is an error sentence)
# ---------------------------------------------------------------------------------------------


def render_knowledge(response: pj.SearchKnowledgeResponse) -> ToolOutcome:
    if response.HasField("consequence"):
        return ToolOutcome(fmt.consequence_text(response.consequence, "a busca não pôde ser feita agora"), True)
    out: dict[str, Any] = {"resultados": [{"titulo": h.title, "trecho": h.excerpt} for h in response.hits]}
    if response.notice or not response.hits:
        out["aviso"] = response.notice or "não há nada escrito sobre isso"
    return ToolOutcome(fmt.dumps(out))


def render_notes(response: pj.GetLeadNoteResponse) -> ToolOutcome:
    if response.HasField("consequence"):
        return ToolOutcome(fmt.consequence_text(response.consequence, "as anotações não puderam ser lidas agora"), True)
    out: dict[str, Any] = {
        "anotacoes": [{"escrita_em": n.written_label, "autor": n.author, "texto": n.text} for n in response.notes]
    }
    if response.more_exist:
        out["ha_mais"] = True
    if response.notice or not response.notes:
        out["aviso"] = response.notice or "não há anotações sobre este cliente"
    return ToolOutcome(fmt.dumps(out))


def render_reference(response: pj.ReadSkillReferenceResponse) -> ToolOutcome:
    if response.HasField("consequence"):
        return ToolOutcome(fmt.consequence_text(response.consequence, "o texto não pôde ser lido agora"), True)
    if not response.HasField("reference"):
        return ToolOutcome(fmt.dumps({"aviso": response.notice or "não há texto com esse título"}))
    ref = response.reference
    return ToolOutcome(fmt.dumps({"referencia": {"titulo": ref.title, "conteudo": ref.content}}))


def render_availability(response: pj.CheckAvailabilityResponse) -> ToolOutcome:
    if response.HasField("consequence"):
        return ToolOutcome(fmt.consequence_text(response.consequence, "a agenda não pôde ser consultada agora"), True)
    out: dict[str, Any] = {"horarios": [fmt.slot(s) for s in response.slots]}
    if response.notice or not response.slots:
        out["aviso"] = response.notice or "não há horários livres nesse período"
    return ToolOutcome(fmt.dumps(out))
