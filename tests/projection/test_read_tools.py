"""The read tools' projections: search_knowledge, get_lead_note, read_skill_reference, check_availability."""

from __future__ import annotations

from datetime import UTC, timedelta

import grpc
import pytest
from google.protobuf.json_format import MessageToJson

from balcao.agenda.v1 import agenda_read_pb2
from balcao.agenda.v1 import agenda_resources_pb2 as A
from balcao.crm.v1 import crm_read_pb2
from balcao.crm.v1 import crm_resources_pb2 as C
from balcao.projection.v1 import projection_pb2 as out
from services.projection import availability, knowledge
from services.projection.consequences import CONSEQUENCES
from services.projection.findings import Findings
from services.projection.handles import SlotRef, handle_key, resolve
from tests.projection import samples

KEY = handle_key(b"a-mesh-secret-for-tests")


# --- search_knowledge ------------------------------------------------------------------------


def test_search_gives_titles_and_excerpts_only() -> None:
    response = knowledge.project_search(samples.knowledge_hits(12), 0, Findings())
    assert len(response.hits) == knowledge.DEFAULT_HITS
    assert response.hits[0].title == "Pergunta frequente 1"
    assert response.hits[0].excerpt == "O clareamento a laser é feito em duas sessões de uma hora."
    assert response.notice == "" and not response.HasField("consequence")
    assert "articleId" not in MessageToJson(response) and "rank" not in MessageToJson(response)


def test_search_is_capped_at_ten() -> None:
    assert len(knowledge.project_search(samples.knowledge_hits(15), 50, Findings()).hits) == knowledge.MAX_HITS


def test_nothing_found_is_a_sentence_not_a_no() -> None:
    response = knowledge.project_search(crm_read_pb2.SearchKnowledgeResponse(), 5, Findings())
    assert list(response.hits) == []
    assert response.notice == knowledge.NO_KNOWLEDGE


def test_a_failed_search_is_a_consequence() -> None:
    response = knowledge.search_failed(grpc.StatusCode.PERMISSION_DENIED, Findings())
    assert response.consequence.text == CONSEQUENCES["grpc:permission_denied"]


# --- get_lead_note ---------------------------------------------------------------------------


def _notes() -> crm_read_pb2.ListLeadNotesResponse:
    return crm_read_pb2.ListLeadNotesResponse(
        notes=[
            C.LeadNote(
                note_id=samples.new_id(),
                contact_id=samples.CONTACT,
                key="preferencias",
                title="Preferências",
                body="prefere atendimento à tarde",
                author=C.Actor(kind=C.ACTOR_KIND_PERSON, name="Marta Souza"),
                updated_at=samples.ts(samples.NOW - timedelta(days=1)),
            ),
            C.LeadNote(
                note_id=samples.new_id(),
                key="alergias",
                title="Alergias",
                body="alérgica a látex",
                author=C.Actor(kind=C.ACTOR_KIND_OPERADOR_MODEL, name="operador"),
                updated_at=samples.ts(samples.NOW - timedelta(hours=1)),
            ),
        ]
    )


def test_notes_newest_first_with_who_wrote_them_as_a_person_says_it() -> None:
    response = knowledge.project_notes(_notes(), "", "America/Sao_Paulo", Findings())
    assert [(n.author, n.text) for n in response.notes] == [
        ("o assistente", "Alergias: alérgica a látex"),
        ("a equipe", "Preferências: prefere atendimento à tarde"),
    ]
    assert response.notes[0].written_label == "terça-feira, 5 de novembro de 2024, 13:30 (horário de Brasília)"
    assert "Marta" not in str(response) and "preferencias" not in str(response)


def test_notes_by_topic_ignore_case_and_accents() -> None:
    response = knowledge.project_notes(_notes(), "ALERGIA latex", "America/Sao_Paulo", Findings())
    assert [n.text for n in response.notes] == ["Alergias: alérgica a látex"]
    empty = knowledge.project_notes(_notes(), "pagamento", "America/Sao_Paulo", Findings())
    assert list(empty.notes) == [] and empty.notice == knowledge.NO_NOTES_ON_TOPIC


def test_no_notes_is_a_sentence() -> None:
    response = knowledge.project_notes(crm_read_pb2.ListLeadNotesResponse(), "", "America/Sao_Paulo", Findings())
    assert response.notice == knowledge.NO_NOTES


# --- read_skill_reference --------------------------------------------------------------------


def test_a_skill_reference_by_title() -> None:
    raw = crm_read_pb2.GetSkillReferenceResponse(
        found=True,
        reference=C.KnowledgeArticle(
            article_id=samples.new_id(),
            title="Tabela de clareamento",
            body="Sessão única: R$ 800,00. Duas sessões: R$ 1.500,00.",
            kind=C.KNOWLEDGE_KIND_SKILL_REFERENCE,
            unit_id=samples.UNIT,
            published=True,
        ),
    )
    response = knowledge.project_skill_reference(raw, Findings())
    assert response.reference.title == "Tabela de clareamento"
    assert response.reference.content.startswith("Sessão única")
    assert samples.UNIT not in str(response)


def test_an_unknown_title_says_so_without_listing_anything() -> None:
    response = knowledge.project_skill_reference(crm_read_pb2.GetSkillReferenceResponse(found=False), Findings())
    assert not response.HasField("reference")
    assert response.notice == knowledge.NO_REFERENCE


def test_a_reference_carrying_an_identifier_is_withheld() -> None:
    raw = crm_read_pb2.GetSkillReferenceResponse(
        found=True,
        reference=C.KnowledgeArticle(title="Roteiro", body=f"chamar o webhook {samples.new_id()}", published=True),
    )
    response = knowledge.project_skill_reference(raw, Findings())
    assert not response.HasField("reference")
    assert response.notice == knowledge.REFERENCE_WITHHELD


# --- check_availability ----------------------------------------------------------------------


def _slot(start_offset_hours: int, resource: str = samples.RESOURCE) -> A.Slot:
    start = samples.NOW + timedelta(days=2, hours=start_offset_hours)
    end = start + timedelta(minutes=50)
    return A.Slot(
        resource_id=resource,
        resource_name="Dra. Beatriz Lima",
        service_id=samples.SERVICE,
        start_time=samples.ts(start),
        end_time=samples.ts(end),
        labels=A.LocalTimeLabels(
            time_zone="America/Sao_Paulo",
            start_label=f"quinta-feira, 7 de novembro de 2024, {14 + start_offset_hours}:30 (horário de Brasília)",
            start_iso=f"2024-11-07T{14 + start_offset_hours}:30:00-03:00",
        ),
        remaining_capacity=1,
    )


def _project(raw: agenda_read_pb2.CheckAvailabilityResponse, max_slots: int = 0) -> out.CheckAvailabilityResponse:
    return availability.project_availability(
        raw,
        places={samples.RESOURCE: A.Place(kind=A.PLACE_KIND_IN_PERSON, name="Clínica Sorriso, sala 2")},
        handle_key=KEY,
        organization_id=samples.ORG,
        contact_id=samples.CONTACT,
        now=samples.NOW,
        max_slots=max_slots,
        findings=Findings(),
    )


def test_slots_have_labels_durations_places_and_handles_but_no_ids() -> None:
    raw = agenda_read_pb2.CheckAvailabilityResponse(slots=[_slot(1), _slot(0)])
    response = _project(raw)
    assert [s.starts_at_iso for s in response.slots] == ["2024-11-07T14:30:00-03:00", "2024-11-07T15:30:00-03:00"]
    first = response.slots[0]
    assert first.duration_label == "50 minutos"
    assert first.professional == "Dra. Beatriz Lima"
    assert first.place == "Clínica Sorriso, sala 2"
    assert response.handles_valid_until.ToDatetime().replace(tzinfo=UTC) > samples.NOW
    whole = MessageToJson(response)
    assert samples.RESOURCE not in whole and samples.SERVICE not in whole
    # The handle names that slot, for this contact, and the Operador can find it back.
    named = resolve(
        KEY,
        first.handle,
        organization_id=samples.ORG,
        contact_id=samples.CONTACT,
        now=samples.NOW,
        candidates=[
            SlotRef(samples.RESOURCE, samples.SERVICE, _slot(1).start_time.ToDatetime(tzinfo=UTC)),
            SlotRef(samples.RESOURCE, samples.SERVICE, _slot(0).start_time.ToDatetime(tzinfo=UTC)),
        ],
    )
    assert named is not None and named.start == _slot(0).start_time.ToDatetime(tzinfo=UTC)


def test_no_free_slot_is_a_sentence() -> None:
    response = _project(agenda_read_pb2.CheckAvailabilityResponse())
    assert list(response.slots) == [] and response.notice == availability.NO_SLOTS
    assert not response.HasField("handles_valid_until")


def test_more_slots_than_asked_says_so() -> None:
    raw = agenda_read_pb2.CheckAvailabilityResponse(slots=[_slot(h) for h in range(4)], truncated=True)
    response = _project(raw, max_slots=2)
    assert len(response.slots) == 2 and response.notice == availability.MORE_SLOTS


def test_a_refusal_is_a_consequence_and_its_alternatives_are_slots() -> None:
    raw = agenda_read_pb2.CheckAvailabilityResponse(
        refusal=A.Refusal(
            code=A.REFUSAL_CODE_OUTSIDE_BUSINESS_HOURS,
            message_pt="fora do horário (REFUSAL_CODE_OUTSIDE_BUSINESS_HOURS)",
            alternatives=[_slot(2)],
        )
    )
    response = _project(raw)
    assert response.consequence.text == CONSEQUENCES["agenda:outside_business_hours"]
    assert len(response.slots) == 1 and response.slots[0].handle
    assert response.notice == availability.ALTERNATIVES
    assert "REFUSAL" not in str(response)


def test_names_are_matched_like_a_person_writes_them() -> None:
    services = agenda_read_pb2.ListServicesResponse(
        services=[
            A.BookableService(service_id=samples.SERVICE, name="Consulta de Avaliação", active=True),
            A.BookableService(service_id=samples.new_id(), name="Clareamento a laser", active=True),
            A.BookableService(service_id=samples.new_id(), name="Limpeza", active=False),
        ]
    )
    assert availability.match_service(services, "consulta de avaliacao").service_id == samples.SERVICE
    assert availability.match_service(services, "clareamento").name == "Clareamento a laser"
    assert availability.match_service(services, "limpeza") is None
    resources = agenda_read_pb2.ListResourcesResponse(
        resources=[
            A.Resource(resource_id=samples.RESOURCE, name="Dra. Beatriz Lima", active=True),
            A.Resource(resource_id=samples.new_id(), name="Dr. Paulo Reis", active=True, service_ids=["other"]),
        ]
    )
    assert [r.name for r in availability.match_resources(resources, "beatriz", [], "")] == ["Dra. Beatriz Lima"]
    assert [r.name for r in availability.match_resources(resources, "", [], samples.SERVICE)] == ["Dra. Beatriz Lima"]
    assert availability.match_resources(resources, "", [samples.new_id()], "") == []


def test_dates_are_checked() -> None:
    assert availability.parse_range("2024-11-07", "") == (samples.NOW.date() + timedelta(days=2),) * 2
    for bad in (("07/11/2024", ""), ("2024-11-07", "2024-11-06")):
        with pytest.raises(availability.BadRange):
            availability.parse_range(*bad)
