"""`balcao seed-demo`: a demo clinic to talk to with `balcao chat`, created through the write RPCs.

The clinic has two professionals with business hours, two bookable services, the prices it
authorises, knowledge articles, a numbered menu, hashtags and a reply catalog, and one published
unit (the reception) whose Operador is on with the agenda package, so a booking the assistant
promises is made and confirmed to the customer (by the offline model too). Everything goes
through crm's and agenda's write RPCs, signed as the gateway (the service whose admin surface
will own this), so the data is exactly what the admin API would have written. Running it again
finds the demo clinic and changes nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import grpc

from balcao.agenda.v1 import agenda_resources_pb2 as ag
from balcao.agenda.v1 import agenda_write_pb2 as aw
from balcao.agenda.v1 import agenda_write_pb2_grpc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw

DEMO_NAME = "Clínica Sorriso Demo"
TIME_ZONE = "America/Sao_Paulo"
ADDRESS = "Rua das Flores, 123, Centro, Campinas/SP"
ACTOR = r.Actor(kind=r.ACTOR_KIND_PERSON, name="balcao seed-demo")

CATALOG = {
    "expired_plan": "No momento não conseguimos atender por aqui. Por favor, ligue para (19) 3333-4444.",
    "handoff": "Certo! Vou pedir para alguém da equipe continuar com você por aqui.",
    "holding_reply": "Obrigado pela paciência! Vou pedir para alguém da equipe continuar com você.",
    "opt_out_confirmation": "Pronto, você não vai mais receber mensagens da Clínica Sorriso. Se mudar de ideia, "
    "é só escrever.",
    "jailbreak_safe_reply": "Posso te ajudar com consultas, valores e horários da Clínica Sorriso. Como posso ajudar?",
    "audio_not_supported": "Ainda não consigo ouvir áudios. Pode me escrever, por favor?",
    "cancel_plan": "Para cancelar o seu plano odontológico, responda #humano e a nossa equipe cuida disso com você.",
    "precos": "Consulta de avaliação: R$ 150,00. Limpeza: R$ 200,00 (em até 2x no cartão).",
    "endereco": f"Estamos na {ADDRESS}. Atendemos de segunda a sexta, das 8h às 18h, e aos sábados, das 8h às 12h.",
}


@dataclass(frozen=True)
class Seeded:
    organization_id: str
    created: bool


def _channel(address: str) -> grpc.Channel:
    return grpc.insecure_channel(address)


def find_demo(crm_read: crm_read_pb2_grpc.CrmReadServiceStub, metadata: tuple[tuple[str, str], ...],
              name: str = DEMO_NAME) -> str:
    page = ""
    while True:
        response = crm_read.ListOrganizations(
            cr.ListOrganizationsRequest(page_size=100, page_token=page), metadata=metadata, timeout=10
        )
        for organization in response.organizations:
            if organization.name == name:
                return organization.organization_id
        page = response.next_page_token
        if not page:
            return ""


def _settings(unit_id: str) -> r.OrganizationSettings:
    c = r.ControllerAction
    return r.OrganizationSettings(
        roles=r.RoleSettings(conversador_enabled=True, operador_enabled=True),
        followup=r.FollowUpSettings(callback_enabled=True),
        stages=[
            r.StageDefinition(key="new", label="Novo contato", position=1),
            r.StageDefinition(key="qualifying", label="Em atendimento", position=2),
            r.StageDefinition(key="scheduled", label="Consulta marcada", position=3),
            r.StageDefinition(key="won", label="Paciente", position=4, terminal=True),
            r.StageDefinition(key="lost", label="Não seguiu", position=5, terminal=True),
        ],
        reply_catalog=CATALOG,
        menu=r.Menu(
            header="Olá! Sou a assistente virtual da Clínica Sorriso. Responda com o número:",
            options=[
                r.MenuOption(
                    number="1",
                    label="Marcar uma consulta",
                    action=c(kind=r.CONTROLLER_ACTION_KIND_ROUTE_TO_UNIT, unit_id=unit_id),
                ),
                r.MenuOption(
                    number="2", label="Valores", action=c(kind=r.CONTROLLER_ACTION_KIND_FIXED_REPLY, reply_key="precos")
                ),
                r.MenuOption(
                    number="3",
                    label="Endereço e horários",
                    action=c(kind=r.CONTROLLER_ACTION_KIND_FIXED_REPLY, reply_key="endereco"),
                ),
                r.MenuOption(number="4", label="Falar com a equipe", action=c(kind=r.CONTROLLER_ACTION_KIND_HANDOFF)),
            ],
        ),
        hashtags=[
            r.HashtagRule(tag="#humano", action=c(kind=r.CONTROLLER_ACTION_KIND_HANDOFF)),
            r.HashtagRule(tag="#menu", action=c(kind=r.CONTROLLER_ACTION_KIND_SHOW_MENU)),
            r.HashtagRule(tag="#precos", action=c(kind=r.CONTROLLER_ACTION_KIND_FIXED_REPLY, reply_key="precos")),
        ],
        runtime=r.RuntimeSettings(debounce_ms=500),
        business=r.BusinessProfile(
            display_name="Clínica Sorriso",
            description="Clínica odontológica em Campinas: avaliação, limpeza e tratamentos.",
            address=ADDRESS,
            opening_hours_text="segunda a sexta, das 8h às 18h; sábados, das 8h às 12h",
            public_phones=["+551933334444"],
            public_emails=["contato@clinicasorriso.example"],
            websites=["https://clinicasorriso.example"],
        ),
        commercial=r.CommercialFacts(
            prices=[
                r.PriceEntry(item="Consulta de avaliação", price=r.Money(amount_minor=15000, currency="BRL")),
                r.PriceEntry(
                    item="Limpeza",
                    price=r.Money(amount_minor=20000, currency="BRL"),
                    conditions="no cartão",
                    max_instalments=2,
                ),
            ],
        ),
    )


def _hours() -> ag.BusinessHours:
    weekly = [
        ag.WeeklyInterval(weekday=day, opens="08:00", closes="18:00")
        for day in (ag.WEEKDAY_MONDAY, ag.WEEKDAY_TUESDAY, ag.WEEKDAY_WEDNESDAY, ag.WEEKDAY_THURSDAY, ag.WEEKDAY_FRIDAY)
    ]
    weekly.append(ag.WeeklyInterval(weekday=ag.WEEKDAY_SATURDAY, opens="08:00", closes="12:00"))
    return ag.BusinessHours(weekly=weekly)


def seed(crm_address: str, agenda_address: str, token: str, *, name: str = DEMO_NAME) -> Seeded:
    """Create the demo clinic (or find it by `name`) and return its id. Tests build their own under another name."""
    metadata = (("authorization", f"Bearer {token}"),)
    with _channel(crm_address) as crm, _channel(agenda_address) as agenda:
        crm_read = crm_read_pb2_grpc.CrmReadServiceStub(crm)
        crm_write = crm_write_pb2_grpc.CrmWriteServiceStub(crm)
        agenda_write = agenda_write_pb2_grpc.AgendaWriteServiceStub(agenda)
        existing = find_demo(crm_read, metadata, name)
        if existing:
            return Seeded(existing, False)
        unit_id = str(uuid.uuid4())
        org = crm_write.UpsertOrganization(
            cw.UpsertOrganizationRequest(
                name=name, time_zone=TIME_ZONE, plan=r.Plan(name="Demo"), initial_settings=_settings(unit_id)
            ),
            metadata=metadata,
            timeout=10,
        ).organization
        org_id = org.organization_id

        place = ag.Place(kind=ag.PLACE_KIND_IN_PERSON, name="Clínica Sorriso", address=ADDRESS)
        services = []
        for name, minutes, description in (
            ("Consulta de avaliação", 30, "Primeira consulta: exame clínico e plano de tratamento."),
            ("Limpeza", 45, "Limpeza profissional (profilaxia) com remoção de tártaro."),
        ):
            services.append(
                agenda_write.UpsertService(
                    aw.UpsertServiceRequest(
                        organization_id=org_id,
                        service=ag.BookableService(
                            name=name, description=description, duration_minutes=minutes, place=place, active=True
                        ),
                    ),
                    metadata=metadata,
                    timeout=10,
                ).service.service_id
            )
        resource_ids = []
        for name in ("Dra. Ana Souza", "Dr. Bruno Lima"):
            resource_ids.append(
                agenda_write.UpsertResource(
                    aw.UpsertResourceRequest(
                        organization_id=org_id,
                        resource=ag.Resource(
                            name=name,
                            kind=ag.RESOURCE_KIND_PERSON,
                            time_zone=TIME_ZONE,
                            business_hours=_hours(),
                            slot_minutes=30,
                            capacity=1,
                            place=place,
                            video_call=ag.VIDEO_CALL_POLICY_NEVER,
                            min_notice_minutes=60,
                            booking_horizon_days=60,
                            service_ids=services,
                            active=True,
                        ),
                    ),
                    metadata=metadata,
                    timeout=10,
                ).resource.resource_id
            )

        for title, body in (
            (
                "Convênios aceitos",
                "Atendemos os convênios OdontoPrev e Amil Dental. Outros convênios: consulte a equipe.",
            ),
            (
                "Como chegar e estacionamento",
                "A clínica fica no Centro de Campinas, perto da Praça Carlos Gomes. Há estacionamento conveniado "
                "na Rua das Flores, 140.",
            ),
            (
                "Preparação para a limpeza",
                "Não é preciso jejum. Escove os dentes normalmente antes da consulta e chegue 10 minutos antes.",
            ),
        ):
            crm_write.UpsertKnowledgeArticle(
                cw.UpsertKnowledgeArticleRequest(
                    organization_id=org_id,
                    title=title,
                    body=body,
                    kind=r.KNOWLEDGE_KIND_ARTICLE,
                    published=True,
                    updated_by=ACTOR,
                ),
                metadata=metadata,
                timeout=10,
            )

        draft = crm_write.SaveAgentDraft(
            cw.SaveAgentDraftRequest(
                organization_id=org_id,
                configuration=r.AgentConfiguration(
                    units=[
                        r.UnitConfig(
                            unit_id=unit_id,
                            name="Recepção",
                            description="agendamentos, consultas, horários, valores e informações da clínica",
                            conversador=r.ConversadorConfig(
                                voice="acolhedora, objetiva, trata por você",
                                instructions=(
                                    "Ajude o paciente a marcar consultas de avaliação e limpeza, informe valores "
                                    "autorizados e tire dúvidas sobre a clínica."
                                ),
                            ),
                            operador=r.OperadorConfig(capability_packages=["agenda"]),
                            resource_ids=resource_ids,
                        )
                    ],
                    default_unit_id=unit_id,
                ),
                note="clínica de demonstração",
                saved_by=ACTOR,
            ),
            metadata=metadata,
            timeout=10,
        )
        crm_write.PublishAgentVersion(
            cw.PublishAgentVersionRequest(
                organization_id=org_id,
                version_id=draft.version.version_id,
                published_by=ACTOR,
                idempotency_key=f"seed-demo:{org_id}:publish",
            ),
            metadata=metadata,
            timeout=10,
        )
        return Seeded(org_id, True)
