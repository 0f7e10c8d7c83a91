"""The lead context and the opening, projected from realistic raw reads."""

from __future__ import annotations

from google.protobuf.json_format import MessageToJson

from balcao.crm.v1 import crm_resources_pb2 as C
from services.projection.consequences import GENERIC
from services.projection.findings import Findings
from services.projection.lead import project_lead_context
from services.projection.turn import project_turn_context
from tests.projection import samples


def test_the_memory_comes_from_the_checkpoint_with_its_label() -> None:
    lead = project_lead_context(samples.raw_lead(), Findings()).lead
    assert lead.memory.rolling_summary.startswith("Ana quer clarear os dentes")
    assert list(lead.memory.commitments) == ["enviar os horários de quinta", "confirmar o valor do clareamento"]
    assert list(lead.memory.objections) == ["achou o clareamento caro"]
    assert lead.memory.next_action == "oferecer a consulta de avaliação"
    assert lead.memory.written_label == "segunda-feira, 4 de novembro de 2024, 18:30 (horário de Brasília)"
    assert not lead.contact.first_contact


def test_a_first_contact_has_no_memory() -> None:
    lead = project_lead_context(samples.raw_lead(first_contact=True), Findings()).lead
    assert not lead.HasField("memory")
    assert lead.contact.first_contact


def test_the_contact_is_a_name_and_a_channel_only() -> None:
    response = project_lead_context(samples.raw_lead(), Findings())
    assert response.lead.contact.name == "Ana Paula"
    assert response.lead.contact.channel_label == "WhatsApp"
    whole = MessageToJson(response, ensure_ascii=False)
    for private in ("5519987654321", "39053344705", "ana.paula@example.com", "@lid", samples.CONTACT):
        assert private not in whole


def test_an_anonymised_contact_has_no_name() -> None:
    raw = samples.raw_lead()
    raw.contact.anonymized = True
    assert project_lead_context(raw, Findings()).lead.contact.name == ""


def test_open_cases_and_follow_ups_in_business_language() -> None:
    raw = samples.raw_lead(cases=2)
    raw.cases.cases.append(samples.human_case("caso antigo", status=C.HUMAN_CASE_STATUS_CLOSED))
    lead = project_lead_context(raw, Findings()).lead
    assert [c.subject for c in lead.open_cases] == ["assunto 1 com a equipe", "assunto 2 com a equipe"]
    case = lead.open_cases[0]
    assert case.status == "com a equipe, em andamento"
    # Only what is meant for the customer; the internal note and the hand-off summary stay out.
    assert case.last_update == "a equipe está verificando o reembolso"
    assert "financeiro" not in str(lead)
    follow_up = lead.pending_followups[0]
    assert follow_up.reason == "retornar com o orçamento do clareamento"
    assert follow_up.kind == "retorno combinado com o cliente"
    assert follow_up.due_label == "quarta-feira, 6 de novembro de 2024, 14:30 (horário de Brasília)"


def test_the_timeline_hides_the_machinery_and_turns_errors_into_consequences() -> None:
    activities = [
        samples.activity("Consulta de avaliação marcada para quinta às 10h", C.ACTIVITY_KIND_APPOINTMENT_BOOKED),
        samples.activity("Nada a fazer neste turno", C.ACTIVITY_KIND_NOTHING_TO_DO),
        samples.activity("deram erro na ação de webhook: unsafe_url:https_required", C.ACTIVITY_KIND_COULD_NOT_ACT),
        samples.activity(
            "Cadastro na integração falhou", C.ACTIVITY_KIND_OBLIGATION_FAILED, code="integration:timeout"
        ),
    ]
    findings = Findings()
    response = project_lead_context(samples.raw_lead(activities=activities), findings)
    texts = [e.text for e in response.lead.recent_activities]
    assert texts == [
        "Consulta de avaliação marcada para quinta às 10h",
        "Uma providência para este cliente não pôde ser concluída: "
        "a integração está configurada com um endereço que não é seguro.",
        "Um combinado com o cliente não pôde ser cumprido: o sistema parceiro demorou demais para responder.",
    ]
    whole = MessageToJson(response, ensure_ascii=False)
    assert "unsafe_url" not in whole and "webhook" not in whole and "Nada a fazer" not in whole
    assert findings.unmapped_codes == set()


def test_an_unknown_code_on_the_timeline_is_generic_and_reported() -> None:
    activity = samples.activity("falhou", C.ACTIVITY_KIND_COULD_NOT_ACT, code="crm_sync:conflict_409")
    findings = Findings()
    response = project_lead_context(samples.raw_lead(activities=[activity]), findings)
    assert GENERIC in response.lead.recent_activities[0].text
    assert findings.unmapped_codes == {"crm_sync:conflict_409"}


def test_the_opening_has_unit_business_and_now_in_the_organisation_zone() -> None:
    context = project_turn_context(samples.raw_turn(), samples.NOW, Findings()).context
    assert context.unit.name == "Recepção da clínica"
    assert context.unit.instructions.startswith("Ofereça sempre a consulta de avaliação")
    assert [r.title for r in context.unit.skill_references] == ["Tabela de clareamento"]
    business = context.business
    assert business.organization_name == "Clínica Sorriso"
    assert list(business.authorised_commercial_facts)[:2] == [
        "Consulta de avaliação: R$ 280,00 (à vista)",
        "Clareamento: R$ 1.500,00, em até 6x",
    ]
    assert "+55 19 3234-5678" in business.public_contacts
    assert business.time_zone_label == "horário de Brasília"
    assert context.now_label == "terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)"
    assert context.now_iso == "2024-11-05T14:30:00-03:00"
    whole = MessageToJson(context, ensure_ascii=False)
    for internal in ("Plano expirado", "Marta", "webhook_sources", "semantic_promise", "claude-sonnet", 'agenda"'):
        assert internal not in whole
