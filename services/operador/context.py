"""What the Operador knows about one closed turn: read from crm and agenda, never from the model.

The turn's own checkpoint is read by turn id (a later turn may have closed meanwhile). The
contact, appointment, case and follow-ups the tools act on come from here: the trusted context.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

import grpc

from balcao.agenda.v1 import agenda_read_pb2 as ar
from balcao.agenda.v1 import agenda_resources_pb2 as ag
from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from services.operador.peers import Peers


class MalformedEvent(ValueError):
    """The event cannot be processed however often it is retried (missing turn or contact)."""


@dataclass
class TurnContext:
    organization_id: str
    event_id: str
    turn_id: str
    contact: r.Contact
    organization: r.Organization
    checkpoint: r.LeadCheckpoint | None
    declaracao: dc.DeclaracaoDoTurno | None  # None: absent or invalid (runs with the history)
    declaracao_problem: str
    obligations: list[r.Obligation]
    lead_state: r.LeadState | None
    operador_config: r.OperadorConfig | None
    appointments: list[ag.Appointment] = field(default_factory=list)
    pending_follow_ups: list[r.FollowUp] = field(default_factory=list)
    open_case: r.HumanCase | None = None
    history: list[str] = field(default_factory=list)
    # Role on: the unit's professionals (its resources, in the unit's order) and the bookable services,
    # so a booking names a real resource and service.
    professionals: list[ag.Resource] = field(default_factory=list)
    services: list[ag.BookableService] = field(default_factory=list)
    # Role on: what the customer was sent in that turn (a booking promised "com a Dra. Ana" is booked with her).
    sent: list[str] = field(default_factory=list)

    @property
    def settings(self) -> r.OrganizationSettings:
        return self.organization.settings

    @property
    def role_on(self) -> bool:
        return self.settings.roles.operador_enabled

    @property
    def callback_enabled(self) -> bool:
        return self.settings.followup.callback_enabled

    @property
    def human_owns(self) -> bool:
        if not self.contact.human_in_control:
            return False
        if not self.contact.HasField("human_control_until"):
            return True
        return self.contact.human_control_until.ToDatetime(tzinfo=UTC) > datetime.now(UTC)

    def open_obligations(self) -> list[r.Obligation]:
        return [o for o in self.obligations if o.status == r.OBLIGATION_STATUS_OPEN]


def declaracao_problem(declaracao: dc.DeclaracaoDoTurno) -> str:
    """Why a declaração cannot be trusted, or "" when it is valid."""
    empty = not declaracao.intencoes and not declaracao.promessas
    if declaracao.nada_a_declarar != empty:
        return "nada_a_declarar não bate com as listas de intenções e promessas"
    if any(not i.o_que.strip() for i in declaracao.intencoes) or any(not p.o_que.strip() for p in declaracao.promessas):
        return "intenção ou promessa sem texto"
    return ""


class OrganizationCache:
    """The organisations' settings, re-read after `ttl` seconds: a batch of one tenant's events reads
    them once, and a change (the role switched off) is seen within `ttl`."""

    def __init__(self, ttl: float = 2.0) -> None:
        self.ttl = ttl
        self._entries: dict[str, tuple[float, r.Organization]] = {}

    async def get(self, peers: Peers, organization_id: str) -> r.Organization:
        now = time.monotonic()
        cached = self._entries.get(organization_id)
        if cached is not None and now - cached[0] < self.ttl:
            return cached[1]
        org = (await peers.crm_read.GetOrganization(
            cr.GetOrganizationRequest(organization_id=organization_id), timeout=peers.timeout)).organization
        if len(self._entries) > 10_000:
            self._entries.clear()
        self._entries[organization_id] = (now, org)
        return org


organizations = OrganizationCache()


def ids_of(payload: dict[str, object]) -> tuple[str, str]:
    """The turn and the contact a `turn_closed` event names (MalformedEvent without them)."""
    turn_id = str(payload.get("turn_id") or "")
    contact_id = str(payload.get("contact_id") or "")
    if not turn_id or not contact_id:
        raise MalformedEvent("the turn_closed event carries no turn_id or contact_id")
    return turn_id, contact_id


def assemble(event_id: str, organization: r.Organization, turn_id: str, contact: r.Contact,
             checkpoint: r.LeadCheckpoint | None, obligations: list[r.Obligation]) -> TurnContext:
    """The context of one turn from what crm answered (the single reads or one batched read)."""
    declaracao: dc.DeclaracaoDoTurno | None = None
    problem = "a declaração do turno não foi registrada"
    if checkpoint is not None and checkpoint.content.HasField("declaracao"):
        problem = declaracao_problem(checkpoint.content.declaracao)
        declaracao = None if problem else checkpoint.content.declaracao
    if declaracao is not None and not declaracao.promessas:
        obligations = []  # one obligation per declared promise, none otherwise
    return TurnContext(
        organization_id=organization.organization_id, event_id=event_id, turn_id=turn_id, contact=contact,
        organization=organization, checkpoint=checkpoint, declaracao=declaracao, declaracao_problem=problem,
        obligations=obligations, lead_state=None, operador_config=None,
    )


def needs_obligations(checkpoint: r.LeadCheckpoint | None) -> bool:
    if checkpoint is None or not checkpoint.content.HasField("declaracao"):
        return True
    declaracao = checkpoint.content.declaracao
    return bool(declaracao_problem(declaracao)) or bool(declaracao.promessas)


async def load(peers: Peers, event_id: str, organization_id: str, payload: dict[str, object], *,
               with_model_context: bool = True) -> TurnContext:
    turn_id, contact_id = ids_of(payload)
    t = peers.timeout
    org = await organizations.get(peers, organization_id)
    try:
        contact = (await peers.crm_read.GetContact(
            cr.GetContactRequest(organization_id=organization_id, contact_id=contact_id), timeout=t)).contact
    except grpc.aio.AioRpcError as error:
        if error.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
            raise MalformedEvent(f"contact {contact_id}: {error.details()}") from error
        raise
    checkpoint: r.LeadCheckpoint | None = None
    try:
        checkpoint = (await peers.crm_read.GetCheckpoint(
            cr.GetCheckpointRequest(organization_id=organization_id, contact_id=contact_id, turn_id=turn_id),
            timeout=t)).checkpoint
    except grpc.aio.AioRpcError as error:
        if error.code() != grpc.StatusCode.NOT_FOUND:
            raise
    obligations: list[r.Obligation] = []
    if needs_obligations(checkpoint):
        obligations = list((await peers.crm_read.ListObligations(
            cr.ListObligationsRequest(organization_id=organization_id, turn_id=turn_id, page_size=50),
            timeout=t)).obligations)
    context = assemble(event_id, org, turn_id, contact, checkpoint, obligations)
    if context.role_on and with_model_context:
        unit = checkpoint.unit_id if checkpoint else str(payload.get("unit_id") or "")
        await _load_model_context(peers, context, unit)
    return context


async def _load_model_context(peers: Peers, context: TurnContext, unit_id: str) -> None:
    t, org, contact = peers.timeout, context.organization_id, context.contact.contact_id
    context.lead_state = (await peers.crm_read.GetLeadState(
        cr.GetLeadStateRequest(organization_id=org, contact_id=contact), timeout=t)).lead_state
    configuration = (await peers.crm_read.GetAgentConfiguration(
        cr.GetAgentConfigurationRequest(organization_id=org), timeout=t))
    units = configuration.version.configuration if configuration.found else None
    wanted = unit_id or (units.default_unit_id if units else "")
    unit_resources: list[str] = []
    if units is not None:
        for unit in units.units:
            if unit.unit_id == wanted:
                context.operador_config = unit.operador
                unit_resources = list(unit.resource_ids)
    resources = (await peers.agenda_read.ListResources(
        ar.ListResourcesRequest(organization_id=org), timeout=t)).resources
    by_id = {x.resource_id: x for x in resources if x.active}
    context.professionals = ([by_id[i] for i in unit_resources if i in by_id] if unit_resources
                             else list(by_id.values()))
    try:
        execution = (await peers.crm_read.GetTurnExecution(
            cr.GetTurnExecutionRequest(organization_id=org, turn_id=context.turn_id), timeout=t)).execution
        context.sent = [part.text for part in execution.sent if part.text]
    except grpc.aio.AioRpcError as error:
        if error.code() != grpc.StatusCode.NOT_FOUND:
            raise
    context.services = [s for s in (await peers.agenda_read.ListServices(
        ar.ListServicesRequest(organization_id=org), timeout=t)).services if s.active]
    context.appointments = list((await peers.agenda_read.ListContactAppointments(
        ar.ListContactAppointmentsRequest(organization_id=org, contact_id=contact), timeout=t)).appointments)
    context.pending_follow_ups = list((await peers.crm_read.ListFollowUps(
        cr.ListFollowUpsRequest(organization_id=org, contact_id=contact), timeout=t)).follow_ups)
    cases = (await peers.crm_read.ListHumanCases(
        cr.ListHumanCasesRequest(organization_id=org, contact_id=contact, page_size=5), timeout=t)).cases
    context.open_case = next((c for c in cases if c.status != r.HUMAN_CASE_STATUS_CLOSED), None)
    if context.checkpoint is None or context.declaracao is None:
        recent = (await peers.crm_read.ListCheckpoints(
            cr.ListCheckpointsRequest(organization_id=org, contact_id=contact, page_size=3), timeout=t)).checkpoints
        context.history = [c.content.rolling_summary for c in recent if c.content.rolling_summary]

