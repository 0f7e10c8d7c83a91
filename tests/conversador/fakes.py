"""Projection-shaped test data for the Conversador: a clinic, its agenda, its knowledge.

`FakeProjection` is a ProjectionService servicer answering from this data (served over real
gRPC in the executor and servicer tests, or called in-process through `InProcessStub`, so the
production `ProjectionToolExecutor` — argument checks, rendering — runs either way).
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import grpc

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.projection.v1 import projection_pb2 as pj
from balcao.projection.v1 import projection_pb2_grpc
from services.conversador.tools import ProjectionToolExecutor, ToolOutcome, TurnScope

NOW_ISO = "2024-11-05T14:30:00-03:00"  # a Tuesday
ORG = str(uuid.UUID(int=1))
CONTACT = str(uuid.UUID(int=2))
UNIT = str(uuid.UUID(int=3))
SCOPE = TurnScope(ORG, CONTACT, UNIT)
PLACE = "Rua das Flores, 120 — Centro, Campinas/SP"

BOOKED = pj.Appointment(
    local_label="quinta-feira, 7 de novembro de 2024, 10:00 (horário de Brasília)",
    starts_at_iso="2024-11-07T10:00:00-03:00",
    ends_at_iso="2024-11-07T10:50:00-03:00",
    service="Consulta de avaliação",
    professional="Dra. Ana Lima",
    place=PLACE,
    status="confirmado",
    meet_status="presencial, sem vídeo",
)


def _slot(label: str, iso: str, who: str, handle: str) -> pj.Slot:
    return pj.Slot(
        local_label=label, starts_at_iso=iso, duration_label="50 minutos", professional=who, place=PLACE, handle=handle
    )


FREE_SLOTS = [
    _slot("quarta-feira, 6 de novembro, 09:00", "2024-11-06T09:00:00-03:00", "Dra. Ana Lima", "H7K2"),
    _slot("quarta-feira, 6 de novembro, 16:00", "2024-11-06T16:00:00-03:00", "Dr. Paulo Reis", "M4N8"),
    _slot("quinta-feira, 7 de novembro, 15:30", "2024-11-07T15:30:00-03:00", "Dra. Ana Lima", "P3Q9"),
    _slot("sexta-feira, 8 de novembro, 10:00", "2024-11-08T10:00:00-03:00", "Dra. Ana Lima", "Z8M1"),
    _slot("terça-feira, 12 de novembro, 09:30", "2024-11-12T09:30:00-03:00", "Dr. Paulo Reis", "K5T2"),
]
SERVICES = ("Consulta de avaliação", "Limpeza")
KNOWLEDGE = [
    ("Preparo para a limpeza", "Evite comer 1 hora antes da limpeza e traga a carteirinha do convênio."),
    ("Convênios aceitos", "Atendemos Unimed e Bradesco Saúde."),
    ("Estacionamento", "Há estacionamento conveniado na Rua das Flores, 98."),
]


def business(**overrides: Any) -> pj.BusinessFacts:
    values: dict[str, Any] = {
        "organization_name": "Clínica Sorriso",
        "opening_hours": "segunda a sexta, 8h às 18h; sábado, 8h às 12h",
        "addresses": [PLACE],
        "public_contacts": ["(19) 3232-4545"],
        "authorised_commercial_facts": [
            "Consulta de avaliação: R$ 280,00",
            "Limpeza: R$ 150,00",
            "Parcelamos tratamentos em até 3x sem juros no cartão",
        ],
        "facts": ["Aceitamos Unimed e Bradesco Saúde"],
        "time_zone_label": "horário de Brasília",
    }
    values.update(overrides)
    return pj.BusinessFacts(**values)


def lead(**overrides: Any) -> pj.LeadContext:
    view = pj.LeadContext(
        contact=pj.ContactView(name="Maria Souza", channel_label="WhatsApp"),
        stage=pj.LeadStage(label="Em atendimento"),
    )
    for key, value in overrides.items():
        if isinstance(value, list):
            getattr(view, key).extend(value)
        else:
            getattr(view, key).CopyFrom(value)
    return view


def appointments(*items: pj.Appointment, known: bool = True) -> pj.AppointmentsView:
    if not known:
        return pj.AppointmentsView(
            appointments_known=pj.AGENDA_KNOWLEDGE_UNKNOWN, notice="não foi possível consultar a agenda agora"
        )
    return pj.AppointmentsView(
        appointments_known=pj.AGENDA_KNOWLEDGE_KNOWN,
        appointments=list(items),
        notice="" if items else "nenhum compromisso ativo e futuro",
    )


def turn_context(
    *,
    booked: tuple[pj.Appointment, ...] = (),
    known: bool = True,
    facts: pj.BusinessFacts | None = None,
    voice: str = "simpática e objetiva, tratando o cliente por você",
    unit_name: str = "Recepção",
) -> pj.TurnContext:
    return pj.TurnContext(
        lead=lead(),
        appointments=appointments(*booked, known=known),
        unit=pj.UnitView(
            name=unit_name,
            voice=voice,
            instructions="Ofereça sempre a consulta de avaliação para quem está chegando.",
            skill_references=[pj.SkillReferenceEntry(title="Tabela de tratamentos", when_useful="dúvidas de valores")],
        ),
        business=facts or business(),
        now_label="terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)",
        now_iso=NOW_ISO,
    )


def customer(text: str) -> cv.ConversationMessage:
    return cv.ConversationMessage(author=cv.AUTHOR_CUSTOMER, text=text)


def agent(text: str) -> cv.ConversationMessage:
    return cv.ConversationMessage(author=cv.AUTHOR_AGENT, text=text)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


@dataclass
class FakeProjection(projection_pb2_grpc.ProjectionServiceServicer):
    """Projection's contract answered from the data above; records what it was asked."""

    booked: list[pj.Appointment] = field(default_factory=lambda: [BOOKED])
    agenda_known: bool = True
    open_cases: list[pj.HumanCaseView] = field(default_factory=list)
    calls: list[tuple[str, Any]] = field(default_factory=list)

    def _record(self, name: str, request: Any) -> None:
        self.calls.append((name, request))

    async def GetLeadContext(self, request: pj.GetLeadContextRequest, context: Any) -> pj.GetLeadContextResponse:
        self._record("GetLeadContext", request)
        return pj.GetLeadContextResponse(lead=lead(open_cases=list(self.open_cases)))

    async def SearchKnowledge(self, request: pj.SearchKnowledgeRequest, context: Any) -> pj.SearchKnowledgeResponse:
        self._record("SearchKnowledge", request)
        words = {w for w in re.findall(r"[a-z]+", _fold(request.query)) if len(w) > 3}
        hits = [
            pj.KnowledgeHit(title=t, excerpt=e)
            for t, e in KNOWLEDGE
            if words & set(re.findall(r"[a-z]+", _fold(f"{t} {e}")))
        ]
        if not hits:
            return pj.SearchKnowledgeResponse(notice="não há nada cadastrado sobre isso")
        return pj.SearchKnowledgeResponse(hits=hits)

    async def GetLeadNote(self, request: pj.GetLeadNoteRequest, context: Any) -> pj.GetLeadNoteResponse:
        self._record("GetLeadNote", request)
        return pj.GetLeadNoteResponse(
            notes=[pj.LeadNote(written_label="ontem, 10:00", author="a equipe", text="Prefere horários pela manhã.")]
        )

    async def ReadSkillReference(
        self, request: pj.ReadSkillReferenceRequest, context: Any
    ) -> pj.ReadSkillReferenceResponse:
        self._record("ReadSkillReference", request)
        if request.title != "Tabela de tratamentos":
            return pj.ReadSkillReferenceResponse(notice="não há texto de referência com esse título")
        return pj.ReadSkillReferenceResponse(
            reference=pj.SkillReference(title=request.title, content="Clareamento: R$ 900,00 em 2 sessões.")
        )

    async def ListMyAppointments(
        self, request: pj.ListMyAppointmentsRequest, context: Any
    ) -> pj.ListMyAppointmentsResponse:
        self._record("ListMyAppointments", request)
        return pj.ListMyAppointmentsResponse(appointments=appointments(*self.booked, known=self.agenda_known))

    async def CheckAvailability(
        self, request: pj.CheckAvailabilityRequest, context: Any
    ) -> pj.CheckAvailabilityResponse:
        self._record("CheckAvailability", request)
        if request.service and _fold(request.service) not in {_fold(s) for s in SERVICES}:
            return pj.CheckAvailabilityResponse(
                consequence=pj.Consequence(text="esse serviço não está na agenda da clínica")
            )
        first = date.fromisoformat(request.from_date) if request.from_date else date(2024, 11, 5)
        last = date.fromisoformat(request.to_date) if request.to_date else first
        periods = {
            pj.PART_OF_DAY_MORNING: (0, 12),
            pj.PART_OF_DAY_AFTERNOON: (12, 18),
            pj.PART_OF_DAY_EVENING: (18, 24),
        }
        low, high = periods.get(request.part_of_day, (0, 24))
        slots = []
        for slot in FREE_SLOTS:
            start = datetime.fromisoformat(slot.starts_at_iso)
            if first <= start.date() <= last and low <= start.hour < high:
                if not request.professional or _fold(request.professional) in _fold(slot.professional):
                    slots.append(slot)
        if not slots:
            return pj.CheckAvailabilityResponse(notice="não há horários livres nesse período")
        return pj.CheckAvailabilityResponse(slots=slots)


class InProcessStub:
    """The ProjectionService stub's shape, calling a servicer directly (no network)."""

    def __init__(self, servicer: FakeProjection) -> None:
        self._servicer = servicer

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._servicer, name)

        async def call(request: Any, timeout: float | None = None) -> Any:
            return await method(request, None)

        return call


def projection_executor(projection: FakeProjection | None = None) -> ProjectionToolExecutor:
    return ProjectionToolExecutor(InProcessStub(projection or FakeProjection()), SCOPE, timeout=5)  # type: ignore[arg-type]


class RecordingExecutor:
    """A tool executor answering from a table, recording every call (for the loop's unit tests)."""

    def __init__(self, answers: dict[str, ToolOutcome] | None = None, inner: Any = None) -> None:
        self.answers = answers or {}
        self.inner = inner
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def execute(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        self.calls.append((name, dict(arguments)))
        if self.inner is not None:
            return await self.inner.execute(name, arguments)
        return self.answers.get(name, ToolOutcome("essa consulta não existe", is_error=True))


class FailingStub:
    """A stub whose every call fails with the given gRPC status."""

    def __init__(self, code: grpc.StatusCode) -> None:
        self.code = code

    def __getattr__(self, name: str) -> Any:
        async def call(request: Any, timeout: float | None = None) -> Any:
            raise grpc.aio.AioRpcError(self.code, grpc.aio.Metadata(), grpc.aio.Metadata(), details="down")

        return call
