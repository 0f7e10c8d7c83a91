"""The Operador's writes about a lead: stage, notes, timeline, attendants; refusals are data."""

from __future__ import annotations

from google.protobuf import field_mask_pb2
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from tests.crm.conftest import Crm, row_counts

RULES = r.Actor(kind=r.ACTOR_KIND_OPERADOR_RULES)


async def test_the_lead_moves_to_a_stage_with_the_tenants_label_and_a_timeline_line(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    moved = await crm.write.UpdateLeadState(
        wr.UpdateLeadStateRequest(organization_id=org, contact_id=contact, stage_key="lost",
                                  reason="desistiu por preço", source_turn_id="turn-1", actor=RULES),
        metadata=crm.metadata,
    )
    assert not moved.HasField("refusal")
    state = await crm.read.GetLeadState(rd.GetLeadStateRequest(organization_id=org, contact_id=contact),
                                        metadata=crm.metadata)
    assert state.found
    assert (state.lead_state.stage_key, state.lead_state.stage_label) == ("lost", "Perdido")
    assert state.lead_state.reason == "desistiu por preço"
    assert state.lead_state.updated_by.kind == r.ACTOR_KIND_OPERADOR_RULES
    timeline = await crm.read.ListActivities(
        rd.ListActivitiesRequest(organization_id=org, contact_id=contact, kinds=[r.ACTIVITY_KIND_STAGE_CHANGED]),
        metadata=crm.metadata,
    )
    assert [a.summary_pt for a in timeline.activities] == ["Etapa alterada para “Perdido”: desistiu por preço"]
    assert timeline.activities[0].turn_id == "turn-1"


async def test_an_unknown_stage_is_a_refusal_that_writes_nothing(crm: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    before = await row_counts(owner_engine, org)
    refused = await crm.write.UpdateLeadState(
        wr.UpdateLeadStateRequest(organization_id=org, contact_id=contact, stage_key="aguardando_pix", actor=RULES),
        metadata=crm.metadata,
    )
    assert refused.refusal.code == r.CRM_REFUSAL_CODE_UNKNOWN_STAGE
    assert "aguardando_pix" in refused.refusal.message_pt
    assert await row_counts(owner_engine, org) == before


async def test_automatic_writes_are_refused_while_a_person_holds_the_conversation(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    await crm.write.SetHumanControl(wr.SetHumanControlRequest(organization_id=org, contact_id=contact,
                                                              human_in_control=True), metadata=crm.metadata)
    refused = await crm.write.UpdateLeadState(
        wr.UpdateLeadStateRequest(organization_id=org, contact_id=contact, stage_key="won", actor=RULES),
        metadata=crm.metadata,
    )
    assert refused.refusal.code == r.CRM_REFUSAL_CODE_HUMAN_IN_CONTROL
    by_person = await crm.write.UpdateLeadState(
        wr.UpdateLeadStateRequest(organization_id=org, contact_id=contact, stage_key="won",
                                  actor=r.Actor(kind=r.ACTOR_KIND_PERSON, name="Carla")),
        metadata=crm.metadata,
    )
    assert by_person.lead_state.stage_key == "won"


async def test_a_note_with_a_key_is_replaced_and_read_by_key(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    for body in ("prefere manhãs", "prefere tardes"):
        await crm.write.SaveLeadNote(
            wr.SaveLeadNoteRequest(organization_id=org, contact_id=contact, key="preferencias", title="Preferências",
                                   body=body), metadata=crm.metadata)
    await crm.write.SaveLeadNote(wr.SaveLeadNoteRequest(organization_id=org, contact_id=contact, body="tem um gato"),
                                 metadata=crm.metadata)
    notes = await crm.read.ListLeadNotes(rd.ListLeadNotesRequest(organization_id=org, contact_id=contact),
                                         metadata=crm.metadata)
    assert sorted(n.body for n in notes.notes) == ["prefere tardes", "tem um gato"]
    by_key = await crm.read.GetLeadNote(rd.GetLeadNoteRequest(organization_id=org, contact_id=contact,
                                                              key="preferencias"), metadata=crm.metadata)
    assert by_key.found and by_key.note.body == "prefere tardes"
    missing = await crm.read.GetLeadNote(rd.GetLeadNoteRequest(organization_id=org, contact_id=contact,
                                                               key="alergias"), metadata=crm.metadata)
    assert not missing.found


async def test_nothing_to_do_is_recorded_on_the_timeline(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    recorded = await crm.write.RecordActivity(
        wr.RecordActivityRequest(organization_id=org, contact_id=contact, kind=r.ACTIVITY_KIND_NOTHING_TO_DO,
                                 actor=RULES, summary_pt="Nada a fazer neste turno", turn_id="turn-9",
                                 event_id="event-9", details={"declaracao": "nada_a_declarar"}),
        metadata=crm.metadata,
    )
    timeline = await crm.read.ListActivities(rd.ListActivitiesRequest(organization_id=org, contact_id=contact,
                                                                      turn_id="turn-9"), metadata=crm.metadata)
    assert [a.activity_id for a in timeline.activities] == [recorded.activity.activity_id]
    assert timeline.activities[0].details["declaracao"] == "nada_a_declarar"


async def test_attendants_are_distributed_in_turn_among_the_active_ones(crm: Crm) -> None:
    org = await crm.org()
    await crm.write.UpdateOrganizationSettings(
        wr.UpdateOrganizationSettingsRequest(
            organization_id=org,
            settings=r.OrganizationSettings(attendants=[
                r.Attendant(attendant_id="carla", name="Carla", active=True),
                r.Attendant(attendant_id="joao", name="João", active=False),
                r.Attendant(attendant_id="bia", name="Bia", active=True),
            ]),
            update_mask=field_mask_pb2.FieldMask(paths=["attendants"]),
        ),
        metadata=crm.metadata,
    )
    assigned = []
    for _ in range(3):
        contact = await crm.contact(org)
        response = await crm.write.AssignAttendant(wr.AssignAttendantRequest(organization_id=org, contact_id=contact),
                                                   metadata=crm.metadata)
        assert response.contact.assigned_attendant_id == response.attendant.attendant_id
        assigned.append(response.attendant.attendant_id)
    assert assigned == ["carla", "bia", "carla"]
    contact = await crm.contact(org)
    inactive = await crm.write.AssignAttendant(
        wr.AssignAttendantRequest(organization_id=org, contact_id=contact, attendant_id="joao"), metadata=crm.metadata
    )
    assert inactive.refusal.code == r.CRM_REFUSAL_CODE_NO_ACTIVE_ATTENDANT


async def test_no_attendant_at_all_is_a_refusal(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    refused = await crm.write.AssignAttendant(wr.AssignAttendantRequest(organization_id=org, contact_id=contact),
                                              metadata=crm.metadata)
    assert refused.refusal.code == r.CRM_REFUSAL_CODE_NO_ACTIVE_ATTENDANT
