"""Realistic raw crm/agenda payloads, ids and internal values included, as the raw services send them."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.agenda.v1 import agenda_read_pb2, agenda_resources_pb2
from balcao.crm.v1 import crm_read_pb2, crm_resources_pb2
from services.projection.lead import RawLead
from services.projection.turn import RawTurn

C = crm_resources_pb2
A = agenda_resources_pb2

ORG = "7b0f2a64-3d4e-4c8b-9a51-2f6d8e1c0a93"
CONTACT = "c41d8a2e-95b7-4f03-8e6a-1b2c3d4e5f60"
UNIT = "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b"
RESOURCE = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d"
SERVICE = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
NOW = datetime(2024, 11, 5, 17, 30, tzinfo=UTC)


def ts(moment: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(moment)
    return stamp


def new_id() -> str:
    return str(uuid.uuid4())


def organization(zone: str = "America/Sao_Paulo") -> crm_resources_pb2.Organization:
    org = C.Organization(
        organization_id=ORG,
        name="Clínica Sorriso Ltda",
        time_zone=zone,
        plan=C.Plan(name="Pro"),
        settings_version=7,
        created_at=ts(NOW - timedelta(days=300)),
    )
    s = org.settings
    s.roles.operador_enabled = True
    s.seguranca.gates_enabled["semantic_promise"] = True
    s.followup.callback_enabled = True
    s.internal_vocabulary_additions.extend(["webhook_sources", "evolution"])
    s.stages.add(key="new_lead", label="", position=1)
    s.stages.add(key="qualifying", label="Aguardando pagamento", position=2)
    s.stages.add(key="won", label="", position=9, terminal=True)
    s.reply_catalog["expired_plan"] = "Plano expirado."
    s.attendants.add(attendant_id=new_id(), name="Marta", active=True)
    b = s.business
    b.display_name = "Clínica Sorriso"
    b.description = "Clínica odontológica familiar no centro de Campinas."
    b.address = "Rua Barão de Jaguara, 1200 - Centro, Campinas"
    b.opening_hours_text = "segunda a sexta, 8h às 18h; sábado, 8h às 12h"
    b.public_phones.append("+551932345678")
    b.public_emails.append("contato@clinicasorriso.com.br")
    b.websites.append("https://clinicasorriso.com.br")
    b.public_documents.append("CNPJ 12.345.678/0001-90")
    c = s.commercial
    c.prices.add(
        item="Consulta de avaliação", price=C.Money(amount_minor=28000), conditions="à vista", max_instalments=1
    )
    c.prices.add(item="Clareamento", price=C.Money(amount_minor=150000, currency="BRL"), max_instalments=6)
    c.offers.add(
        subject="primeira consulta",
        description="10% de desconto",
        valid_until=ts(datetime(2024, 11, 30, 23, 0, tzinfo=UTC)),
    )
    c.free_items.append("avaliação de retorno em até 30 dias")
    return org


def contact(**changes: object) -> crm_resources_pb2.Contact:
    item = C.Contact(
        contact_id=CONTACT,
        organization_id=ORG,
        phone_e164="+5519987654321",
        whatsapp_jids=["5519987654321@s.whatsapp.net", "129384756102938@lid"],
        name="Ana Paula",
        email="ana.paula@example.com",
        cpf="39053344705",
        channel=C.CHANNEL_WHATSAPP,
        assigned_attendant_id=new_id(),
        legal_basis=C.LEGAL_BASIS_CONTACT_INITIATED,
        created_at=ts(NOW - timedelta(days=3)),
    )
    for key, value in changes.items():
        setattr(item, key, value)
    return item


def checkpoint(seq: int = 4) -> crm_read_pb2.LatestCheckpointResponse:
    cp = C.LeadCheckpoint(
        contact_id=CONTACT, seq=seq, turn_id=new_id(), unit_id=UNIT, created_at=ts(NOW - timedelta(hours=20))
    )
    cp.content.rolling_summary = (
        "Ana quer clarear os dentes antes do casamento em dezembro; perguntou sobre parcelamento."
    )
    cp.content.commitments.extend(["enviar os horários de quinta", "confirmar o valor do clareamento"])
    cp.content.objections.append("achou o clareamento caro")
    cp.content.next_action = "oferecer a consulta de avaliação"
    cp.content.agenda_reread = C.AGENDA_REREAD_STATUS_READ
    cp.content.declaracao.nada_a_declarar = True
    return crm_read_pb2.LatestCheckpointResponse(found=True, checkpoint=cp)


def lead_state(key: str = "qualifying", label: str = "Aguardando pagamento") -> crm_read_pb2.GetLeadStateResponse:
    return crm_read_pb2.GetLeadStateResponse(
        found=True,
        lead_state=C.LeadState(
            contact_id=CONTACT,
            stage_key=key,
            stage_label=label,
            reason="pediu o link de pagamento",
            source_turn_id=new_id(),
            updated_by=C.Actor(kind=C.ACTOR_KIND_OPERADOR_RULES, name="operador-worker-2"),
            updated_at=ts(NOW - timedelta(hours=20)),
        ),
    )


def human_case(
    subject: str = "dúvida sobre reembolso", status: int = C.HUMAN_CASE_STATUS_IN_PROGRESS
) -> crm_resources_pb2.HumanCase:
    case = C.HumanCase(
        case_id=new_id(),
        contact_id=CONTACT,
        status=status,
        reason=C.HUMAN_CASE_REASON_CUSTOMER_ASKED,
        reason_text=subject,
        summary=f"Cliente {CONTACT} pediu atendente; ver turno {new_id()}",
        priority=C.CASE_PRIORITY_NORMAL,
        assigned_attendant_id=new_id(),
        source_turn_id=new_id(),
        opened_at=ts(NOW - timedelta(days=1)),
    )
    case.updates.add(update_id=new_id(), text="nota interna: ligar para o financeiro", customer_facing=False)
    case.updates.add(update_id=new_id(), text="a equipe está verificando o reembolso", customer_facing=True)
    return case


def follow_up(reason: str = "retornar com o orçamento do clareamento") -> crm_resources_pb2.FollowUp:
    return C.FollowUp(
        follow_up_id=new_id(),
        contact_id=CONTACT,
        due_at=ts(NOW + timedelta(days=1)),
        reason=reason,
        status=C.FOLLOW_UP_STATUS_PENDING,
        callback=True,
        obligation_id=new_id(),
        source_turn_id=new_id(),
    )


def activity(
    summary: str, kind: int = C.ACTIVITY_KIND_OTHER, code: str = "", when: datetime = NOW - timedelta(hours=2)
) -> crm_resources_pb2.LeadActivity:
    item = C.LeadActivity(
        activity_id=new_id(),
        contact_id=CONTACT,
        kind=kind,
        actor=C.Actor(kind=C.ACTOR_KIND_OPERADOR_MODEL, name="operador"),
        summary_pt=summary,
        turn_id=new_id(),
        event_id=new_id(),
        occurred_at=ts(when),
    )
    item.details.update({"appointment_id": new_id(), "attempt": 2})
    if code:
        item.details.update({"code": code})
    return item


def raw_lead(
    *,
    cases: int = 3,
    activities: list[crm_resources_pb2.LeadActivity] | None = None,
    state: crm_read_pb2.GetLeadStateResponse | None = None,
    first_contact: bool = False,
) -> RawLead:
    return RawLead(
        organization=organization(),
        contact=contact(),
        lead_state=state if state is not None else lead_state(),
        checkpoint=crm_read_pb2.LatestCheckpointResponse(found=False) if first_contact else checkpoint(),
        cases=crm_read_pb2.ListHumanCasesResponse(
            cases=[human_case(f"assunto {i + 1} com a equipe") for i in range(cases)], next_page_token="cGFnZTI="
        ),
        follow_ups=crm_read_pb2.ListFollowUpsResponse(follow_ups=[follow_up()]),
        activities=crm_read_pb2.ListActivitiesResponse(
            activities=activities
            if activities is not None
            else [
                activity("Consulta de avaliação marcada para quinta às 10h", C.ACTIVITY_KIND_APPOINTMENT_BOOKED),
                activity("Nada a fazer neste turno", C.ACTIVITY_KIND_NOTHING_TO_DO),
            ]
        ),
    )


def labels(
    start: datetime, end: datetime, zone: str, start_label: str, start_iso: str, end_iso: str
) -> A.LocalTimeLabels:
    return A.LocalTimeLabels(
        time_zone=zone,
        start_label=start_label,
        end_label="",
        date_label="",
        time_range_label="",
        zone_label="horário de Brasília",
        start_iso=start_iso,
        end_iso=end_iso,
    )


def appointment(
    start: datetime,
    *,
    minutes: int = 50,
    zone: str = "America/Sao_Paulo",
    start_label: str = "",
    start_iso: str = "",
    end_iso: str = "",
    status: int = A.APPOINTMENT_STATUS_CONFIRMED,
    video: int = A.VIDEO_CALL_STATUS_NONE,
    place: A.Place | None = None,
) -> agenda_resources_pb2.Appointment:
    end = start + timedelta(minutes=minutes)
    return A.Appointment(
        appointment_id=new_id(),
        organization_id=ORG,
        contact_id=CONTACT,
        resource_id=RESOURCE,
        resource_name="Dra. Beatriz Lima",
        service_id=SERVICE,
        service_name="Consulta de avaliação",
        start_time=ts(start),
        end_time=ts(end),
        time_zone=zone,
        labels=labels(
            start,
            end,
            zone,
            start_label or f"rótulo de {start.isoformat()}",
            start_iso or start.isoformat(),
            end_iso or end.isoformat(),
        ),
        status=status,
        place=place
        if place is not None
        else A.Place(kind=A.PLACE_KIND_IN_PERSON, name="Clínica Sorriso, sala 2", address="Rua Barão de Jaguara, 1200"),
        video_call_status=video,
        video_call_url="https://meet.google.com/abc-defg-hij" if video == A.VIDEO_CALL_STATUS_READY else "",
        notes="primeira consulta",
        source_turn_id=new_id(),
        booked_by="operador",
    )


def appointments_response(
    count: int, *, truncated: bool = False, total: int | None = None
) -> agenda_read_pb2.ListContactAppointmentsResponse:
    items = [appointment(NOW + timedelta(days=i + 1, hours=i)) for i in range(count)]
    return agenda_read_pb2.ListContactAppointmentsResponse(
        appointments=items, truncated=truncated, total_count=total if total is not None else count, as_of=ts(NOW)
    )


def agent_configuration() -> crm_read_pb2.GetAgentConfigurationResponse:
    version = C.AgentVersion(
        version_id=new_id(), organization_id=ORG, number=3, status=C.AGENT_VERSION_STATUS_PUBLISHED
    )
    config = version.configuration
    config.default_unit_id = UNIT
    unit = config.units.add(unit_id=UNIT, name="Recepção da clínica", description="agendamentos")
    unit.conversador.voice = "acolhedora, objetiva, trata por você"
    unit.conversador.instructions = "Ofereça sempre a consulta de avaliação antes de falar de preço."
    unit.conversador.model = "claude-sonnet"
    unit.operador.capability_packages.append("agenda")
    unit.resource_ids.append(RESOURCE)
    return crm_read_pb2.GetAgentConfigurationResponse(found=True, version=version)


def skill_references() -> crm_read_pb2.ListKnowledgeArticlesResponse:
    return crm_read_pb2.ListKnowledgeArticlesResponse(
        articles=[
            C.KnowledgeArticle(
                article_id=new_id(),
                title="Tabela de clareamento",
                body="...",
                kind=C.KNOWLEDGE_KIND_SKILL_REFERENCE,
                unit_id=UNIT,
                when_useful="quando o cliente pergunta como funciona o clareamento",
                published=True,
            ),
            C.KnowledgeArticle(
                article_id=new_id(),
                title="Rascunho não publicado",
                kind=C.KNOWLEDGE_KIND_SKILL_REFERENCE,
                published=False,
            ),
        ]
    )


def raw_turn(appointments: agenda_read_pb2.ListContactAppointmentsResponse | None = None, **lead: object) -> RawTurn:
    return RawTurn(
        lead=raw_lead(**lead),  # type: ignore[arg-type]
        unit_id="",
        agent=agent_configuration(),
        references=skill_references(),
        appointments=appointments if appointments is not None else appointments_response(5),
    )


def knowledge_hits(count: int) -> crm_read_pb2.SearchKnowledgeResponse:
    return crm_read_pb2.SearchKnowledgeResponse(
        hits=[
            C.KnowledgeHit(
                article=C.KnowledgeArticle(
                    article_id=new_id(),
                    title=f"Pergunta frequente {i + 1}",
                    body="O clareamento a laser é feito em duas sessões de uma hora. " * 3,
                    kind=C.KNOWLEDGE_KIND_ARTICLE,
                    published=True,
                ),
                rank=0.9 - i / 100,
                snippet="O clareamento a laser é feito em duas sessões de uma hora.",
            )
            for i in range(count)
        ]
    )


def strings(message: Message) -> list[str]:
    """Every string a projected message carries (what its reader sees)."""
    found: list[str] = []
    for fd, value in message.ListFields():
        if fd.type == FieldDescriptor.TYPE_STRING:
            found.extend(value if fd.is_repeated else [value])
        elif fd.type == FieldDescriptor.TYPE_MESSAGE:
            for item in value if fd.is_repeated else [value]:
                found.extend(strings(item))
    return found
