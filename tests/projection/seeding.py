"""Seed a business through crm's and agenda's real write RPCs, as the gateway and the Operador do."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.agenda.v1 import agenda_read_pb2, agenda_read_pb2_grpc, agenda_write_pb2, agenda_write_pb2_grpc
from balcao.agenda.v1 import agenda_resources_pb2 as A
from balcao.common.v1 import declaracao_pb2
from balcao.crm.v1 import crm_read_pb2, crm_read_pb2_grpc, crm_write_pb2, crm_write_pb2_grpc
from balcao.crm.v1 import crm_resources_pb2 as C
from balcao.projection.v1 import projection_pb2_grpc
from tests.support.mesh import RunningMesh


def ts(moment: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(moment)
    return stamp


def local_time(day: date, clock: str, zone: str = "America/Sao_Paulo", fold: int = 0) -> A.TimePoint:
    """A wall-clock start in a zone, as the Operador books from what the customer said."""
    return A.TimePoint(local=A.LocalDateTime(local_date_time=f"{day.isoformat()}T{clock}", time_zone=zone, fold=fold))


@dataclass
class Business:
    """What was seeded: ids that must never reach the Conversador, and the facts that must."""

    organization_id: str
    contact_id: str
    unit_id: str = ""
    resource_id: str = ""
    service_id: str = ""
    ids: set[str] = field(default_factory=set)


class Mesh:
    """Stubs on the real mesh, each call signed as the caller the real system would use."""

    def __init__(self, mesh: RunningMesh) -> None:
        self.mesh = mesh
        self.channels = {name: grpc.aio.insecure_channel(mesh.addr(name)) for name in ("crm", "agenda", "projection")}
        self.crm_write = crm_write_pb2_grpc.CrmWriteServiceStub(self.channels["crm"])
        self.crm_read = crm_read_pb2_grpc.CrmReadServiceStub(self.channels["crm"])
        self.agenda_write = agenda_write_pb2_grpc.AgendaWriteServiceStub(self.channels["agenda"])
        self.agenda_read = agenda_read_pb2_grpc.AgendaReadServiceStub(self.channels["agenda"])
        self.projection = projection_pb2_grpc.ProjectionServiceStub(self.channels["projection"])

    def auth(self, caller: str) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.mesh.token(caller)}"),)

    async def close(self) -> None:
        for channel in self.channels.values():
            await channel.close()

    # --- crm -------------------------------------------------------------------------------

    async def organization(self, zone: str = "America/Sao_Paulo") -> str:
        settings = C.OrganizationSettings()
        # The Operador off, as these tests always ran (initial settings without roles now start
        # with both roles on, and the mesh's Operador would act on the turns closed here).
        settings.roles.conversador_enabled = True
        settings.roles.operador_enabled = False
        settings.followup.callback_enabled = True
        settings.stages.add(key="new_lead", label="", position=1)
        settings.stages.add(key="qualifying", label="Aguardando pagamento", position=2)
        settings.business.display_name = "Clínica Sorriso"
        settings.business.opening_hours_text = "segunda a sexta, 8h às 18h"
        settings.business.address = "Rua Barão de Jaguara, 1200 - Centro, Campinas"
        settings.business.public_phones.append("+551932345678")
        settings.commercial.prices.add(item="Consulta de avaliação", price=C.Money(amount_minor=28000))
        response = await self.crm_write.UpsertOrganization(
            crm_write_pb2.UpsertOrganizationRequest(
                name="Clínica Sorriso Ltda", time_zone=zone, initial_settings=settings
            ),
            metadata=self.auth("gateway"),
        )
        return response.organization.organization_id

    async def contact(self, org: str, phone: str, name: str = "Ana Paula") -> str:
        response = await self.crm_write.UpsertContact(
            crm_write_pb2.UpsertContactRequest(
                organization_id=org,
                phone=phone,
                whatsapp_jid=f"{phone.lstrip('+')}@s.whatsapp.net",
                name=name,
                channel=C.CHANNEL_WHATSAPP,
                legal_basis=C.LEGAL_BASIS_CONTACT_INITIATED,
            ),
            metadata=self.auth("gateway"),
        )
        return response.contact.contact_id

    async def business(self, phone: str) -> Business:
        org = await self.organization()
        contact = await self.contact(org, phone)
        return Business(organization_id=org, contact_id=contact, ids={org, contact})

    async def lead_memory(self, business: Business) -> None:
        org, contact = business.organization_id, business.contact_id
        operador = self.auth("operador")
        state = await self.crm_write.UpdateLeadState(
            crm_write_pb2.UpdateLeadStateRequest(
                organization_id=org,
                contact_id=contact,
                stage_key="qualifying",
                reason="pediu o link de pagamento",
                actor=C.Actor(kind=C.ACTOR_KIND_OPERADOR_RULES),
                idempotency_key=f"{uuid.uuid4()}:update_lead_state",
            ),
            metadata=operador,
        )
        assert not state.HasField("refusal"), state.refusal
        turn = str(uuid.uuid4())
        business.ids.add(turn)
        checkpoint = C.CheckpointContent(
            rolling_summary="Ana quer clarear os dentes antes do casamento em dezembro.",
            commitments=["enviar os horários de quinta"],
            objections=["achou o clareamento caro"],
            next_action="oferecer a consulta de avaliação",
            declaracao=declaracao_pb2.DeclaracaoDoTurno(nada_a_declarar=True),
        )
        await self.crm_write.CloseTurn(
            crm_write_pb2.CloseTurnRequest(
                organization_id=org,
                contact_id=contact,
                turn_id=turn,
                checkpoint=checkpoint,
                execution=C.TurnExecution(
                    turn_id=turn,
                    organization_id=org,
                    contact_id=contact,
                    trigger=C.TURN_TRIGGER_INBOUND,
                    outcome=C.TURN_OUTCOME_REPLIED,
                ),
            ),
            metadata=self.auth("gateway"),
        )
        case = await self.crm_write.OpenHumanCase(
            crm_write_pb2.OpenHumanCaseRequest(
                organization_id=org,
                contact_id=contact,
                reason=C.HUMAN_CASE_REASON_CUSTOMER_ASKED,
                reason_text="dúvida sobre reembolso",
                summary=f"ver o turno {turn}",
                opened_by=C.Actor(kind=C.ACTOR_KIND_RUNTIME),
                idempotency_key=f"{uuid.uuid4()}:open_human_case",
            ),
            metadata=operador,
        )
        business.ids.add(case.human_case.case_id)
        follow_up = await self.crm_write.ScheduleFollowUp(
            crm_write_pb2.ScheduleFollowUpRequest(
                organization_id=org,
                contact_id=contact,
                due_at=ts(datetime.now(UTC) + timedelta(days=1)),
                reason="retornar com o orçamento do clareamento",
                callback=True,
                scheduled_by=C.Actor(kind=C.ACTOR_KIND_OPERADOR_RULES),
                idempotency_key=f"{uuid.uuid4()}:schedule_followup",
            ),
            metadata=operador,
        )
        assert not follow_up.HasField("refusal"), follow_up.refusal
        business.ids.add(follow_up.follow_up.follow_up_id)

    async def activity(
        self, business: Business, summary: str, code: str, kind: int = C.ACTIVITY_KIND_COULD_NOT_ACT
    ) -> None:
        request = crm_write_pb2.RecordActivityRequest(
            organization_id=business.organization_id,
            contact_id=business.contact_id,
            kind=kind,
            actor=C.Actor(kind=C.ACTOR_KIND_OPERADOR_MODEL, name="operador"),
            summary_pt=summary,
            idempotency_key=f"{uuid.uuid4()}:record_activity",
        )
        source = str(uuid.uuid4())
        business.ids.add(source)
        request.details.update({"code": code, "webhook_source_id": source})
        response = await self.crm_write.RecordActivity(request, metadata=self.auth("operador"))
        business.ids.add(response.activity.activity_id)

    async def unit(self, business: Business, resource_ids: list[str]) -> None:
        org = business.organization_id
        configuration = C.AgentConfiguration()
        unit = configuration.units.add(name="Recepção da clínica", description="agendamentos")
        unit.conversador.voice = "acolhedora, objetiva"
        unit.conversador.instructions = "Ofereça a consulta de avaliação antes de falar de preço."
        unit.resource_ids.extend(resource_ids)
        draft = await self.crm_write.SaveAgentDraft(
            crm_write_pb2.SaveAgentDraftRequest(organization_id=org, configuration=configuration),
            metadata=self.auth("gateway"),
        )
        await self.crm_write.PublishAgentVersion(
            crm_write_pb2.PublishAgentVersionRequest(organization_id=org, version_id=draft.version.version_id),
            metadata=self.auth("gateway"),
        )
        business.unit_id = draft.version.configuration.units[0].unit_id
        business.ids.update({business.unit_id, draft.version.version_id})
        for kind, title, body in (
            (C.KNOWLEDGE_KIND_ARTICLE, "Como funciona o clareamento", "O clareamento a laser é feito em duas sessões."),
            (C.KNOWLEDGE_KIND_SKILL_REFERENCE, "Tabela de clareamento", "Sessão única: R$ 800,00."),
        ):
            article = await self.crm_write.UpsertKnowledgeArticle(
                crm_write_pb2.UpsertKnowledgeArticleRequest(
                    organization_id=org,
                    title=title,
                    body=body,
                    kind=kind,
                    unit_id=business.unit_id if kind == C.KNOWLEDGE_KIND_SKILL_REFERENCE else "",
                    when_useful="quando perguntarem do clareamento",
                    published=True,
                ),
                metadata=self.auth("gateway"),
            )
            business.ids.add(article.article.article_id)

    async def note(self, business: Business, title: str, body: str) -> None:
        response = await self.crm_write.SaveLeadNote(
            crm_write_pb2.SaveLeadNoteRequest(
                organization_id=business.organization_id,
                contact_id=business.contact_id,
                key="preferencias",
                title=title,
                body=body,
                author=C.Actor(kind=C.ACTOR_KIND_PERSON, name="Marta Souza"),
                idempotency_key=f"{uuid.uuid4()}:save_lead_note",
            ),
            metadata=self.auth("operador"),
        )
        business.ids.add(response.note.note_id)

    # --- agenda ----------------------------------------------------------------------------

    async def resource(
        self, business: Business, zone: str = "America/Sao_Paulo", name: str = "Dra. Beatriz Lima"
    ) -> str:
        hours = A.BusinessHours()
        for day in range(1, 8):
            hours.weekly.add(weekday=day, opens="00:00", closes="23:30")
        response = await self.agenda_write.UpsertResource(
            agenda_write_pb2.UpsertResourceRequest(
                organization_id=business.organization_id,
                resource=A.Resource(
                    name=name,
                    kind=A.RESOURCE_KIND_PERSON,
                    time_zone=zone,
                    business_hours=hours,
                    slot_minutes=30,
                    capacity=1,
                    place=A.Place(
                        kind=A.PLACE_KIND_IN_PERSON,
                        name="Clínica Sorriso, sala 2",
                        address="Rua Barão de Jaguara, 1200",
                    ),
                    active=True,
                ),
            ),
            metadata=self.auth("gateway"),
        )
        resource = response.resource.resource_id
        business.resource_id = business.resource_id or resource
        business.ids.add(resource)
        return resource

    async def service(self, business: Business) -> str:
        response = await self.agenda_write.UpsertService(
            agenda_write_pb2.UpsertServiceRequest(
                organization_id=business.organization_id,
                service=A.BookableService(name="Consulta de avaliação", duration_minutes=30, active=True),
            ),
            metadata=self.auth("gateway"),
        )
        business.service_id = response.service.service_id
        business.ids.add(business.service_id)
        return business.service_id

    async def book(
        self, business: Business, start: A.TimePoint, resource: str = "", zone: str = "", confirm: bool = True
    ) -> A.Appointment:
        response = await self.agenda_write.Book(
            agenda_write_pb2.BookRequest(
                organization_id=business.organization_id,
                idempotency_key=f"{uuid.uuid4()}:book",
                contact_id=business.contact_id,
                resource_id=resource or business.resource_id,
                service_id=business.service_id,
                start=start,
                time_zone=zone,
                confirm=confirm,
                booked_by="operador",
            ),
            metadata=self.auth("operador"),
        )
        assert response.WhichOneof("result") == "appointment", response
        business.ids.add(response.appointment.appointment_id)
        return response.appointment

    async def raw_appointments(self, business: Business) -> agenda_read_pb2.ListContactAppointmentsResponse:
        return await self.agenda_read.ListContactAppointments(
            agenda_read_pb2.ListContactAppointmentsRequest(
                organization_id=business.organization_id, contact_id=business.contact_id
            ),
            metadata=self.auth("gateway"),
        )

    async def central_items(self, business: Business) -> crm_read_pb2.ListCentralItemsResponse:
        return await self.crm_read.ListCentralItems(
            crm_read_pb2.ListCentralItemsRequest(
                organization_id=business.organization_id, kinds=[C.CENTRAL_ITEM_KIND_UNMAPPED_ERROR]
            ),
            metadata=self.auth("gateway"),
        )


def phone() -> str:
    """A Brazilian mobile number no other test uses (most likely)."""
    return f"+55119{random.randrange(10**7, 10**8)}"
