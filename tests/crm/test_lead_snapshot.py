"""GetLeadSnapshot: a turn's opening reads of one lead in one call, each part what its single RPC says.

The contact is "quiet" (a person holds the conversation) so the mesh's Operador and runtime write
nothing of their own between the snapshot and the single reads it is compared with.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import grpc
import pytest
import sqlalchemy as sa
from google.protobuf import struct_pb2, timestamp_pb2
from google.protobuf.message import Message

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.kit import db
from balcao.kit.server import Database
from services.crm.repository import Store
from services.crm.repository import leads as leads_repo
from tests.crm.conftest import Crm
from tests.crm.test_close_turn import close_request, closing
from tests.support.mesh import RunningMesh

SKILL = r.KNOWLEDGE_KIND_SKILL_REFERENCE
RULES = r.Actor(kind=r.ACTOR_KIND_OPERADOR_RULES)


@dataclass
class Lead:
    org: str
    contact: str
    unit: str


def in_days(days: float) -> timestamp_pb2.Timestamp:
    value = timestamp_pb2.Timestamp()
    value.FromDatetime(datetime.now(UTC) + timedelta(days=days))
    return value


async def a_lead_with_everything(crm: Crm) -> Lead:
    """A stage, two checkpoints, an open and a closed case, pending and cancelled follow-ups, a
    timeline longer than one page, and skill references of this unit, of another, org-wide,
    unpublished, plus an ordinary article."""
    meta = crm.metadata
    org = await crm.org()
    contact = await crm.quiet_contact(org, name="Ana Paula")
    unit, other_unit = str(uuid.uuid4()), str(uuid.uuid4())
    await crm.write.UpdateLeadState(
        wr.UpdateLeadStateRequest(organization_id=org, contact_id=contact, stage_key="qualifying"), metadata=meta
    )
    await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing("Primeiro turno.")), metadata=meta)
    await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing("Quer clarear os dentes.")),
                              metadata=meta)
    closed = await crm.write.OpenHumanCase(
        wr.OpenHumanCaseRequest(organization_id=org, contact_id=contact, reason=r.HUMAN_CASE_REASON_COMPLAINT,
                                summary="reclamou do atraso"), metadata=meta)
    await crm.write.CloseHumanCase(
        wr.CloseHumanCaseRequest(organization_id=org, case_id=closed.human_case.case_id, resolution="resolvido"),
        metadata=meta)
    case = await crm.write.OpenHumanCase(
        wr.OpenHumanCaseRequest(organization_id=org, contact_id=contact, reason=r.HUMAN_CASE_REASON_CUSTOMER_ASKED,
                                reason_text="pediu a doutora", summary="quer falar com a doutora"), metadata=meta)
    for text, facing in (("ligamos de volta amanhã", True), ("nota interna", False)):
        await crm.write.ProvideCaseUpdate(
            wr.ProvideCaseUpdateRequest(organization_id=org, case_id=case.human_case.case_id, text=text,
                                        customer_facing=facing), metadata=meta)
    for days, callback in ((3, False), (1, True)):
        await crm.write.ScheduleFollowUp(
            wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact, due_at=in_days(days),
                                       callback=callback, reason=f"retorno em {days} dias"), metadata=meta)
    cancelled = await crm.write.ScheduleFollowUp(
        wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact, due_at=in_days(2)), metadata=meta)
    await crm.write.CancelFollowUp(
        wr.CancelFollowUpRequest(organization_id=org, follow_up_id=cancelled.follow_up.follow_up_id), metadata=meta)
    for n in range(25):
        details = struct_pb2.Struct()
        details.update({"code": "unsafe_url:https_required", "n": n})
        await crm.write.RecordActivity(
            wr.RecordActivityRequest(organization_id=org, contact_id=contact, kind=r.ACTIVITY_KIND_COULD_NOT_ACT,
                                     actor=RULES, summary_pt=f"linha {n}", details=details), metadata=meta)
    for title, fields in (
        ("Roteiro desta unidade", {"kind": SKILL, "unit_id": unit}),
        ("Roteiro de todas", {"kind": SKILL}),
        ("Roteiro de outra unidade", {"kind": SKILL, "unit_id": other_unit}),
        ("Roteiro em rascunho", {"kind": SKILL, "unit_id": unit, "published": False}),
        ("Avaliação", {}),
    ):
        await crm.write.UpsertKnowledgeArticle(
            wr.UpsertKnowledgeArticleRequest(organization_id=org, title=title, body="passo a passo",
                                             **{"published": True, **fields}),  # type: ignore[arg-type]
            metadata=meta)
    return Lead(org, contact, unit)


async def singles(crm: Crm, lead: Lead, activities: int) -> dict[str, Message]:
    """The seven single reads a turn's opening made before the snapshot existed."""
    ids = {"organization_id": lead.org, "contact_id": lead.contact}
    meta = crm.metadata
    return {
        "contact": await crm.read.GetContact(rd.GetContactRequest(**ids), metadata=meta),
        "lead_state": await crm.read.GetLeadState(rd.GetLeadStateRequest(**ids), metadata=meta),
        "latest_checkpoint": await crm.read.LatestCheckpoint(rd.LatestCheckpointRequest(**ids), metadata=meta),
        "human_cases": await crm.read.ListHumanCases(rd.ListHumanCasesRequest(**ids), metadata=meta),
        "pending_follow_ups": await crm.read.ListFollowUps(
            rd.ListFollowUpsRequest(**ids, statuses=[r.FOLLOW_UP_STATUS_PENDING]), metadata=meta),
        "activities": await crm.read.ListActivities(rd.ListActivitiesRequest(**ids, page_size=activities),
                                                    metadata=meta),
        "knowledge_articles": await crm.read.ListKnowledgeArticles(
            rd.ListKnowledgeArticlesRequest(organization_id=lead.org, kinds=[SKILL], unit_id=lead.unit),
            metadata=meta),
    }


def assert_same_bytes(snapshot: rd.GetLeadSnapshotResponse, expected: dict[str, Message]) -> None:
    for part, single in expected.items():
        assert snapshot.HasField(part), part
        got = getattr(snapshot, part)
        assert type(got) is type(single), part
        assert got.SerializeToString(deterministic=True) == single.SerializeToString(deterministic=True), part


async def test_every_part_is_byte_for_byte_what_its_single_rpc_answers(crm: Crm) -> None:
    lead = await a_lead_with_everything(crm)
    snapshot = await crm.read.GetLeadSnapshot(
        rd.GetLeadSnapshotRequest(organization_id=lead.org, contact_id=lead.contact, activities_page_size=20,
                                  knowledge_articles=rd.LeadSnapshotKnowledge(kinds=[SKILL], unit_id=lead.unit)),
        metadata=crm.metadata,
    )
    assert_same_bytes(snapshot, await singles(crm, lead, activities=20))

    # And the parts carry what was written, so the comparison above compared something.
    assert snapshot.contact.contact.name == "Ana Paula"
    assert snapshot.lead_state.found and snapshot.lead_state.lead_state.stage_key == "qualifying"
    assert snapshot.latest_checkpoint.checkpoint.seq == 2
    assert snapshot.latest_checkpoint.checkpoint.content.rolling_summary == "Quer clarear os dentes."
    assert [c.reason_text for c in snapshot.human_cases.cases] == ["pediu a doutora"]
    assert [u.text for u in snapshot.human_cases.cases[0].updates] == ["ligamos de volta amanhã", "nota interna"]
    assert [f.callback for f in snapshot.pending_follow_ups.follow_ups] == [True, False]  # earliest due first
    assert len(snapshot.activities.activities) == 20 and snapshot.activities.next_page_token
    assert snapshot.activities.activities[0].summary_pt == "linha 24"
    assert sorted(a.title for a in snapshot.knowledge_articles.articles) == ["Roteiro de todas",
                                                                            "Roteiro desta unidade"]


async def test_a_new_contact_has_empty_parts_and_no_knowledge_unless_asked(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    snapshot = await crm.read.GetLeadSnapshot(rd.GetLeadSnapshotRequest(organization_id=org, contact_id=contact),
                                              metadata=crm.metadata)
    assert not snapshot.lead_state.found and not snapshot.latest_checkpoint.found
    assert list(snapshot.human_cases.cases) == [] and list(snapshot.pending_follow_ups.follow_ups) == []
    assert not snapshot.HasField("knowledge_articles")
    expected = await singles(crm, Lead(org, contact, ""), activities=0)
    del expected["knowledge_articles"]
    assert_same_bytes(snapshot, expected)


async def test_the_timeline_page_defaults_to_list_activities_default(crm: Crm) -> None:
    lead = await a_lead_with_everything(crm)
    snapshot = await crm.read.GetLeadSnapshot(
        rd.GetLeadSnapshotRequest(organization_id=lead.org, contact_id=lead.contact), metadata=crm.metadata
    )
    single = await crm.read.ListActivities(
        rd.ListActivitiesRequest(organization_id=lead.org, contact_id=lead.contact), metadata=crm.metadata
    )
    assert snapshot.activities == single and len(single.activities) > 25


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"contact_id": str(uuid.uuid4())}, grpc.StatusCode.NOT_FOUND),
        ({"contact_id": "ana"}, grpc.StatusCode.INVALID_ARGUMENT),
        ({"contact_id": ""}, grpc.StatusCode.INVALID_ARGUMENT),
        ({"activities_page_size": -1}, grpc.StatusCode.INVALID_ARGUMENT),
        ({"organization_id": "42"}, grpc.StatusCode.INVALID_ARGUMENT),
    ],
)
async def test_bad_or_unknown_ids_get_the_single_reads_errors(crm: Crm, fields: dict[str, object],
                                                              code: grpc.StatusCode) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    request = rd.GetLeadSnapshotRequest(**{"organization_id": org, "contact_id": contact, **fields})  # type: ignore[arg-type]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.read.GetLeadSnapshot(request, metadata=crm.metadata)
    assert caught.value.code() == code


async def test_another_organisations_contact_is_not_found(crm: Crm) -> None:
    mine, theirs = await crm.org(), await crm.org()
    contact = await crm.contact(theirs)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.read.GetLeadSnapshot(rd.GetLeadSnapshotRequest(organization_id=mine, contact_id=contact),
                                       metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


@pytest.mark.parametrize(("caller", "allowed"), [("projection", True), ("seguranca", True), ("operador", True),
                                                 ("gateway", True), ("conversador", False), ("agenda", False)])
async def test_the_same_callers_as_the_single_reads(mesh: RunningMesh, crm: Crm, caller: str, allowed: bool) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    request = rd.GetLeadSnapshotRequest(organization_id=org, contact_id=contact)
    metadata = (("authorization", f"Bearer {mesh.token(caller)}"),)
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        stub = type(crm.read)(channel)
        if allowed:
            assert (await stub.GetLeadSnapshot(request, metadata=metadata)).contact.contact.contact_id == contact
            return
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.GetLeadSnapshot(request, metadata=metadata)
        assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED


# --- the transaction underneath: one snapshot, read-only, and nothing left on the pooled connection ---


_SETTINGS = sa.text("SELECT current_setting('transaction_isolation'), current_setting('transaction_read_only')")


async def test_the_snapshot_does_not_see_a_turn_closed_meanwhile_and_leaves_the_connection_as_it_was(
    mesh: RunningMesh, crm: Crm
) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing("antes")), metadata=crm.metadata)
    database = Database()
    database.attach(db.create_engine(mesh.database_url, pool_size=1))  # one connection: the same one reused
    store = Store(database)
    try:
        async with store.snapshot(uuid.UUID(org)) as conn:
            assert tuple((await conn.execute(_SETTINGS)).one()) == ("repeatable read", "on")
            before = await leads_repo.latest_checkpoint(conn, uuid.UUID(org), uuid.UUID(contact))
            await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing("depois")), metadata=crm.metadata)
            during = await leads_repo.latest_checkpoint(conn, uuid.UUID(org), uuid.UUID(contact))
            with pytest.raises(sa.exc.DBAPIError, match="read-only transaction"):
                async with conn.begin_nested():
                    await conn.execute(sa.text("UPDATE crm.contacts SET name = 'x' WHERE contact_id = :c"),
                                       {"c": contact})
        assert before is not None and during is not None
        assert (before["seq"], during["seq"]) == (1, 1)
        async with store.tenant(uuid.UUID(org)) as conn:
            assert tuple((await conn.execute(_SETTINGS)).one()) == ("read committed", "off")
            after = await leads_repo.latest_checkpoint(conn, uuid.UUID(org), uuid.UUID(contact))
        assert after is not None and after["seq"] == 2
    finally:
        await database.engine.dispose()
