"""Idempotency keys: the same key twice returns the first result and writes nothing new; a
refusal writes nothing at all, not even the key."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from google.protobuf import field_mask_pb2, timestamp_pb2
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from tests.crm.conftest import Crm, row_counts

OPERADOR = r.Actor(kind=r.ACTOR_KIND_OPERADOR_RULES)


def tomorrow() -> timestamp_pb2.Timestamp:
    value = timestamp_pb2.Timestamp()
    value.FromDatetime(datetime.now(UTC) + timedelta(days=1))
    return value


async def test_a_replayed_key_returns_the_first_result_and_writes_nothing(crm: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    request = wr.ScheduleFollowUpRequest(
        organization_id=org, contact_id=contact, due_at=tomorrow(), reason="retornar com o orçamento",
        callback=True, scheduled_by=OPERADOR, idempotency_key="event-42:schedule_followup:0",
    )
    first = await crm.write.ScheduleFollowUp(request, metadata=crm.metadata)
    assert not first.replayed and first.follow_up.follow_up_id and first.event_id
    before = await row_counts(owner_engine, org)
    changed = wr.ScheduleFollowUpRequest()
    changed.CopyFrom(request)
    changed.reason = "texto que o modelo escreveu diferente na segunda tentativa"
    second = await crm.write.ScheduleFollowUp(changed, metadata=crm.metadata)
    assert second.replayed
    assert second.follow_up == first.follow_up and second.event_id == first.event_id
    assert await row_counts(owner_engine, org) == before


async def test_concurrent_calls_with_one_key_have_one_effect(crm: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    request = wr.SaveLeadNoteRequest(organization_id=org, contact_id=contact, title="Preferência",
                                     body="prefere atendimento de manhã", author=OPERADOR,
                                     idempotency_key="event-7:save_lead_note:0")
    results = await asyncio.gather(*(crm.write.SaveLeadNote(request, metadata=crm.metadata) for _ in range(10)))
    assert len({result.note.note_id for result in results}) == 1
    assert sum(not result.replayed for result in results) == 1
    counts = await row_counts(owner_engine, org)
    assert counts["lead_notes"] == 1
    assert counts["crm_lead_activities"] == 1


async def test_the_same_key_on_another_rpc_is_another_write(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    key = "event-9:action"
    note = await crm.write.SaveLeadNote(
        wr.SaveLeadNoteRequest(organization_id=org, contact_id=contact, body="nota", idempotency_key=key),
        metadata=crm.metadata,
    )
    activity = await crm.write.RecordActivity(
        wr.RecordActivityRequest(organization_id=org, contact_id=contact, kind=r.ACTIVITY_KIND_NOTHING_TO_DO,
                                 summary_pt="Nada a fazer neste turno", idempotency_key=key),
        metadata=crm.metadata,
    )
    assert not note.replayed and not activity.replayed


async def test_a_refusal_writes_nothing_not_even_its_key(crm: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    await crm.write.UpdateOrganizationSettings(
        wr.UpdateOrganizationSettingsRequest(
            organization_id=org, settings=r.OrganizationSettings(followup=r.FollowUpSettings(callback_enabled=False)),
            update_mask=field_mask_pb2.FieldMask(paths=["followup.callback_enabled"]),
        ),
        metadata=crm.metadata,
    )
    request = wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact, due_at=tomorrow(), callback=True,
                                         reason="retorno prometido", scheduled_by=OPERADOR,
                                         idempotency_key="event-1:schedule_followup:0")
    before = await row_counts(owner_engine, org)
    refused = await crm.write.ScheduleFollowUp(request, metadata=crm.metadata)
    assert refused.refusal.code == r.CRM_REFUSAL_CODE_CALLBACKS_DISABLED
    assert refused.refusal.message_pt
    assert not refused.HasField("follow_up")
    assert await row_counts(owner_engine, org) == before

    # Once callbacks are back on, the same key is judged afresh, not answered with the refusal.
    await crm.write.UpdateOrganizationSettings(
        wr.UpdateOrganizationSettingsRequest(
            organization_id=org, settings=r.OrganizationSettings(followup=r.FollowUpSettings(callback_enabled=True)),
            update_mask=field_mask_pb2.FieldMask(paths=["followup.callback_enabled"]),
        ),
        metadata=crm.metadata,
    )
    accepted = await crm.write.ScheduleFollowUp(request, metadata=crm.metadata)
    assert not accepted.HasField("refusal") and accepted.follow_up.callback
    listed = await crm.read.ListFollowUps(rd.ListFollowUpsRequest(organization_id=org, contact_id=contact),
                                          metadata=crm.metadata)
    assert [f.follow_up_id for f in listed.follow_ups] == [accepted.follow_up.follow_up_id]


async def test_a_used_key_replays_even_when_the_call_would_now_be_refused_or_fail(
    crm: Crm, owner_engine: AsyncEngine
) -> None:
    # The key is written with the response, at the end of the transaction; a second call's work
    # may run first, but what it would answer (a refusal, an error) never replaces the stored one.
    org = await crm.org()
    contact = await crm.contact(org)
    request = wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact, due_at=tomorrow(), callback=True,
                                         reason="retorno prometido", scheduled_by=OPERADOR,
                                         idempotency_key="event-3:schedule_followup:0")
    first = await crm.write.ScheduleFollowUp(request, metadata=crm.metadata)
    assert first.follow_up.follow_up_id and not first.replayed
    await crm.write.UpdateOrganizationSettings(
        wr.UpdateOrganizationSettingsRequest(
            organization_id=org, settings=r.OrganizationSettings(followup=r.FollowUpSettings(callback_enabled=False)),
            update_mask=field_mask_pb2.FieldMask(paths=["followup.callback_enabled"]),
        ),
        metadata=crm.metadata,
    )
    before = await row_counts(owner_engine, org)
    refused_now = await crm.write.ScheduleFollowUp(request, metadata=crm.metadata)
    assert refused_now.replayed and not refused_now.HasField("refusal")
    assert refused_now.follow_up == first.follow_up and refused_now.event_id == first.event_id

    # The same key on a contact that does not exist (NOT_FOUND for a new key) is still the replay.
    elsewhere = wr.ScheduleFollowUpRequest()
    elsewhere.CopyFrom(request)
    elsewhere.contact_id = "00000000-0000-4000-8000-000000000000"
    failing_now = await crm.write.ScheduleFollowUp(elsewhere, metadata=crm.metadata)
    assert failing_now.replayed and failing_now.follow_up == first.follow_up
    assert await row_counts(owner_engine, org) == before


async def test_concurrent_contact_upserts_with_one_key_answer_alike(crm: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    request = wr.UpsertContactRequest(organization_id=org, phone="+5511987650001", name="Ana", fill_empty_only=True,
                                      idempotency_key="inbound:test:5511987650001:m1")
    results = await asyncio.gather(*(crm.write.UpsertContact(request, metadata=crm.metadata) for _ in range(10)))
    assert sum(not result.replayed for result in results) == 1
    assert all(result.created for result in results)  # every answer is the first one's
    assert len({result.contact.SerializeToString(deterministic=True) for result in results}) == 1
    counts = await row_counts(owner_engine, org)
    assert counts["contacts"] == 1 and counts["idempotency_keys"] == 1
