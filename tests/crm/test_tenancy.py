"""Tenancy: every read filters on the organisation, and row-level security is the second barrier."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from google.protobuf import timestamp_pb2
from google.protobuf.message import Message
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.kit.mesh import ADMIN
from tests.crm.conftest import TENANT_TABLES, Crm
from tests.crm.test_close_turn import close_request, closing
from tests.support.mesh import RunningMesh


@dataclass
class Tenant:
    """An organisation with at least one row in every crm table, and the ids to reach them."""

    org: str
    contact: str
    phone: str
    turn_id: str
    note_id: str
    case_id: str
    follow_up_id: str
    obligation_id: str
    central_item_id: str
    article_id: str
    skill_title: str
    version_id: str
    event_id: str
    kind: str


async def populate(crm: Crm) -> Tenant:
    org = await crm.org()
    phone = f"+55119{uuid.uuid4().int % 10**8:08d}"
    contact = await crm.quiet_contact(org, phone, name="Ana")
    meta = crm.metadata
    await crm.write.UpdateLeadState(wr.UpdateLeadStateRequest(organization_id=org, contact_id=contact,
                                                              stage_key="qualifying"), metadata=meta)
    turn_id = str(uuid.uuid4())
    closed = await crm.write.CloseTurn(close_request(org, contact, turn_id, checkpoint=closing(promises=1)),
                                       metadata=meta)
    note = await crm.write.SaveLeadNote(wr.SaveLeadNoteRequest(organization_id=org, contact_id=contact,
                                                               key="preferencias", body="manhãs",
                                                               idempotency_key="k"), metadata=meta)
    case = await crm.write.OpenHumanCase(wr.OpenHumanCaseRequest(organization_id=org, contact_id=contact,
                                                                 reason=r.HUMAN_CASE_REASON_CUSTOMER_ASKED,
                                                                 summary="quer falar com a doutora"), metadata=meta)
    await crm.write.ProvideCaseUpdate(wr.ProvideCaseUpdateRequest(organization_id=org, case_id=case.human_case.case_id,
                                                                  text="ligamos de volta"), metadata=meta)
    due = timestamp_pb2.Timestamp()
    due.FromDatetime(datetime.now(UTC) + timedelta(days=2))
    follow_up = await crm.write.ScheduleFollowUp(wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact,
                                                                            due_at=due, reason="orçamento"),
                                                 metadata=meta)
    article = await crm.write.UpsertKnowledgeArticle(
        wr.UpsertKnowledgeArticleRequest(organization_id=org, title="Avaliação", body="A avaliação é gratuita.",
                                         published=True), metadata=meta)
    skill_title = f"Roteiro {uuid.uuid4().hex[:6]}"
    await crm.write.UpsertKnowledgeArticle(
        wr.UpsertKnowledgeArticleRequest(organization_id=org, title=skill_title, body="passo a passo",
                                         kind=r.KNOWLEDGE_KIND_SKILL_REFERENCE, published=True), metadata=meta)
    draft = await crm.write.SaveAgentDraft(
        wr.SaveAgentDraftRequest(organization_id=org, configuration=r.AgentConfiguration(
            units=[r.UnitConfig(name="SDR")])), metadata=meta)
    kind = f"tenant_{uuid.uuid4().hex[:10]}"
    await crm.queue.Publish(eq.PublishRequest(organization_id=org, kind=kind, contact_id=contact), metadata=meta)
    await crm.write.PublishAgentVersion(wr.PublishAgentVersionRequest(organization_id=org,
                                                                      version_id=draft.version.version_id),
                                        metadata=meta)
    return Tenant(
        org=org, contact=contact, phone=phone, turn_id=turn_id, note_id=note.note.note_id,
        case_id=case.human_case.case_id, follow_up_id=follow_up.follow_up.follow_up_id,
        obligation_id=closed.obligation_ids[0], central_item_id=case.central_item_id,
        article_id=article.article.article_id, skill_title=skill_title, version_id=draft.version.version_id,
        event_id=closed.event_id, kind=kind,
    )


@pytest.fixture(scope="module")
async def tenants(crm: Crm) -> tuple[Tenant, Tenant]:
    return await populate(crm), await populate(crm)


async def test_both_tenants_have_rows_in_every_table(tenants: tuple[Tenant, Tenant], owner_engine: AsyncEngine) -> None:
    async with owner_engine.connect() as conn:
        for table in TENANT_TABLES:
            for tenant in tenants:
                count = (await conn.execute(sa.text(f"SELECT count(*) FROM crm.{table} WHERE organization_id = :o"),
                                            {"o": tenant.org})).scalar_one()
                assert count > 0, f"{table} has no row for the test tenant; the RLS test would prove nothing"


async def test_with_org_a_set_a_raw_select_as_the_app_role_sees_none_of_org_b(
    tenants: tuple[Tenant, Tenant], app_engine: AsyncEngine
) -> None:
    a, b = tenants
    async with app_engine.begin() as conn:
        assert (await conn.execute(sa.text("SELECT current_user"))).scalar_one() == "balcao_app"
        await conn.execute(sa.text("SELECT set_config('balcao.organization_id', :o, true)"), {"o": a.org})
        for table in ("organizations", *TENANT_TABLES):
            of_b = (await conn.execute(sa.text(f"SELECT count(*) FROM crm.{table} WHERE organization_id = :o"),
                                       {"o": b.org})).scalar_one()
            assert of_b == 0, table
            orgs_seen = (await conn.execute(sa.text(f"SELECT DISTINCT organization_id::text FROM crm.{table}")))
            assert set(orgs_seen.scalars()) == {a.org}, table


async def test_without_the_setting_the_app_role_sees_nothing(
    tenants: tuple[Tenant, Tenant], app_engine: AsyncEngine
) -> None:
    async with app_engine.begin() as conn:
        for table in ("organizations", *TENANT_TABLES):
            assert (await conn.execute(sa.text(f"SELECT count(*) FROM crm.{table}"))).scalar_one() == 0, table


async def test_the_app_role_cannot_write_a_row_for_another_organisation(
    tenants: tuple[Tenant, Tenant], app_engine: AsyncEngine
) -> None:
    a, b = tenants
    with pytest.raises(sa.exc.DBAPIError, match="row-level security"):
        async with app_engine.begin() as conn:
            await conn.execute(sa.text("SELECT set_config('balcao.organization_id', :o, true)"), {"o": a.org})
            await conn.execute(
                sa.text("INSERT INTO crm.crm_lead_activities (organization_id, activity_id, contact_id, kind, "
                        "summary_pt, occurred_at, recorded_at) VALUES (:b, :id, :c, 'other', 'x', now(), now())"),
                {"b": b.org, "id": str(uuid.uuid4()), "c": b.contact},
            )


async def test_the_cross_tenant_scope_opens_only_its_three_tables(
    tenants: tuple[Tenant, Tenant], app_engine: AsyncEngine
) -> None:
    a, b = tenants
    async with app_engine.begin() as conn:
        await conn.execute(sa.text("SELECT set_config('balcao.scope', 'all', true)"))
        for table in ("organizations", "lead_checkpoints", "event_log"):
            seen = set((await conn.execute(sa.text(f"SELECT organization_id::text FROM crm.{table}"))).scalars())
            assert {a.org, b.org} <= seen, table
        for table in set(TENANT_TABLES) - {"lead_checkpoints", "event_log"}:
            assert (await conn.execute(sa.text(f"SELECT count(*) FROM crm.{table}"))).scalar_one() == 0, table


# Every read, asked as tenant B with tenant A's ids. Each entry returns what it found.
Probe = Callable[[Crm, Tenant, Tenant], Awaitable[Any]]


def _read_probes() -> dict[str, Probe]:
    def call(method: str, request: Message) -> Callable[[Crm], Awaitable[Message]]:
        return lambda crm: getattr(crm.read, method)(request, metadata=crm.metadata)

    return {
        "GetOrganization": lambda crm, a, b: call("GetOrganization", rd.GetOrganizationRequest(
            organization_id=b.org))(crm),  # b's own: the org id is the only id, the read is scoped by it
        "GetContact": lambda crm, a, b: call("GetContact", rd.GetContactRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "FindContactByPhone": lambda crm, a, b: call("FindContactByPhone", rd.FindContactByPhoneRequest(
            organization_id=b.org, phone=a.phone))(crm),
        "ListContacts": lambda crm, a, b: call("ListContacts", rd.ListContactsRequest(
            organization_id=b.org, query=a.phone[-8:]))(crm),
        "GetLeadState": lambda crm, a, b: call("GetLeadState", rd.GetLeadStateRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "LatestCheckpoint": lambda crm, a, b: call("LatestCheckpoint", rd.LatestCheckpointRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "GetCheckpoint": lambda crm, a, b: call("GetCheckpoint", rd.GetCheckpointRequest(
            organization_id=b.org, contact_id=a.contact, turn_id=a.turn_id))(crm),
        "ListCheckpoints": lambda crm, a, b: call("ListCheckpoints", rd.ListCheckpointsRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "GetRollingSummaryStats": lambda crm, a, b: call("GetRollingSummaryStats", rd.GetRollingSummaryStatsRequest(
            organization_id=b.org))(crm),
        "ListLeadNotes": lambda crm, a, b: call("ListLeadNotes", rd.ListLeadNotesRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "GetLeadNote": lambda crm, a, b: call("GetLeadNote", rd.GetLeadNoteRequest(
            organization_id=b.org, contact_id=a.contact, note_id=a.note_id))(crm),
        "ListActivities": lambda crm, a, b: call("ListActivities", rd.ListActivitiesRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "ListHumanCases": lambda crm, a, b: call("ListHumanCases", rd.ListHumanCasesRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "GetHumanCase": lambda crm, a, b: call("GetHumanCase", rd.GetHumanCaseRequest(
            organization_id=b.org, case_id=a.case_id))(crm),
        "ListFollowUps": lambda crm, a, b: call("ListFollowUps", rd.ListFollowUpsRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "GetFollowUp": lambda crm, a, b: call("GetFollowUp", rd.GetFollowUpRequest(
            organization_id=b.org, follow_up_id=a.follow_up_id))(crm),
        "ListObligations": lambda crm, a, b: call("ListObligations", rd.ListObligationsRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "GetObligationStats": lambda crm, a, b: call("GetObligationStats", rd.GetObligationStatsRequest(
            organization_id=b.org))(crm),
        "ListCentralItems": lambda crm, a, b: call("ListCentralItems", rd.ListCentralItemsRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "GetCentralItem": lambda crm, a, b: call("GetCentralItem", rd.GetCentralItemRequest(
            organization_id=b.org, central_item_id=a.central_item_id))(crm),
        "SearchKnowledge": lambda crm, a, b: call("SearchKnowledge", rd.SearchKnowledgeRequest(
            organization_id=b.org, query="avaliacao"))(crm),
        "ListKnowledgeArticles": lambda crm, a, b: call("ListKnowledgeArticles", rd.ListKnowledgeArticlesRequest(
            organization_id=b.org, include_unpublished=True))(crm),
        "GetKnowledgeArticle": lambda crm, a, b: call("GetKnowledgeArticle", rd.GetKnowledgeArticleRequest(
            organization_id=b.org, article_id=a.article_id))(crm),
        "GetSkillReference": lambda crm, a, b: call("GetSkillReference", rd.GetSkillReferenceRequest(
            organization_id=b.org, title=a.skill_title))(crm),
        "GetTurnExecution": lambda crm, a, b: call("GetTurnExecution", rd.GetTurnExecutionRequest(
            organization_id=b.org, turn_id=a.turn_id))(crm),
        "ListTurnExecutions": lambda crm, a, b: call("ListTurnExecutions", rd.ListTurnExecutionsRequest(
            organization_id=b.org, contact_id=a.contact))(crm),
        "GetTurnStats": lambda crm, a, b: call("GetTurnStats", rd.GetTurnStatsRequest(organization_id=b.org))(crm),
        "GetAgentConfiguration": lambda crm, a, b: call("GetAgentConfiguration", rd.GetAgentConfigurationRequest(
            organization_id=b.org, version_id=a.version_id))(crm),
        "ListAgentVersions": lambda crm, a, b: call("ListAgentVersions", rd.ListAgentVersionsRequest(
            organization_id=b.org))(crm),
        "BatchGetClosedTurns": _batch_closed_turns,
        "GetOperadorStats": lambda crm, a, b: call("GetOperadorStats", rd.GetOperadorStatsRequest(
            organization_id=b.org, since=timestamp_pb2.Timestamp(seconds=0)))(crm),
        "GetLeadSnapshot": lambda crm, a, b: call("GetLeadSnapshot", rd.GetLeadSnapshotRequest(
            organization_id=b.org, contact_id=a.contact, knowledge_articles=rd.LeadSnapshotKnowledge()))(crm),
    }


async def _batch_closed_turns(crm: Crm, a: Tenant, b: Tenant) -> list[Any]:
    """What the batched read found (the echoed request `ref` left out: it is the caller's own input)."""
    response = await crm.read.BatchGetClosedTurns(rd.BatchGetClosedTurnsRequest(turns=[rd.ClosedTurnRef(
        organization_id=b.org, contact_id=a.contact, turn_id=a.turn_id)]), metadata=crm.metadata)
    return [(t.contact, t.checkpoint, list(t.obligations)) for t in response.turns if
            t.HasField("contact") or t.HasField("checkpoint") or t.obligations]


READ_PROBES = _read_probes()


def test_every_read_rpc_is_probed() -> None:
    every = {m.name for m in rd.DESCRIPTOR.services_by_name["CrmReadService"].methods}
    # ListOrganizations is the one read not scoped to a tenant (see the contract).
    assert set(READ_PROBES) == every - {"ListOrganizations"}


async def _found(probe: Probe, crm: Crm, a: Tenant, b: Tenant) -> list[str]:
    """Every id of tenant A (or A's data) that the probe's answer carries, or [] when it found nothing."""
    try:
        response = await probe(crm, a, b)
    except grpc.aio.AioRpcError as error:
        assert error.code() == grpc.StatusCode.NOT_FOUND, error.details()
        return []
    text = str(response)
    return [value for value in (a.org, a.contact, a.turn_id, a.note_id, a.case_id, a.follow_up_id, a.obligation_id,
                                a.central_item_id, a.article_id, a.version_id, a.event_id, a.skill_title)
            if value in text]


@pytest.mark.parametrize("rpc", sorted(READ_PROBES))
async def test_a_read_with_another_organisations_ids_returns_nothing_of_it(
    crm: Crm, tenants: tuple[Tenant, Tenant], rpc: str
) -> None:
    a, b = tenants
    assert await _found(READ_PROBES[rpc], crm, a, b) == []
    # The same probe as tenant A finds A's data, so the probe can tell.
    if rpc not in {"GetOrganization", "GetRollingSummaryStats", "GetObligationStats", "GetTurnStats",
                   "GetOperadorStats"}:
        assert await _found(READ_PROBES[rpc], crm, a, a) != []


async def test_queue_reads_with_another_organisations_ids_return_nothing(
    crm: Crm, tenants: tuple[Tenant, Tenant]
) -> None:
    a, b = tenants
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.queue.GetEvent(eq.GetEventRequest(organization_id=b.org, event_id=a.event_id),
                                 metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    listed = await crm.queue.ListEvents(eq.ListEventsRequest(organization_id=b.org, contact_id=a.contact),
                                        metadata=crm.metadata)
    assert list(listed.events) == []
    of_b = await crm.queue.GetQueueStats(eq.GetQueueStatsRequest(organization_id=b.org), metadata=crm.metadata)
    of_a = await crm.queue.GetQueueStats(eq.GetQueueStatsRequest(organization_id=a.org), metadata=crm.metadata)
    assert a.kind in {c.kind for c in of_a.counts}
    assert a.kind not in {c.kind for c in of_b.counts}


async def test_writes_with_another_organisations_ids_find_nothing(crm: Crm, tenants: tuple[Tenant, Tenant]) -> None:
    a, b = tenants
    calls = [
        crm.write.SaveLeadNote(wr.SaveLeadNoteRequest(organization_id=b.org, contact_id=a.contact, body="x"),
                               metadata=crm.metadata),
        crm.write.CloseHumanCase(wr.CloseHumanCaseRequest(organization_id=b.org, case_id=a.case_id),
                                 metadata=crm.metadata),
        crm.write.ResolveObligation(wr.ResolveObligationRequest(
            organization_id=b.org, obligation_id=a.obligation_id, outcome=r.OBLIGATION_STATUS_FULFILLED),
            metadata=crm.metadata),
        crm.write.CloseTurn(close_request(b.org, a.contact), metadata=crm.metadata),
    ]
    for call in calls:
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call
        assert caught.value.code() == grpc.StatusCode.NOT_FOUND


async def test_installation_wide_measurements_are_for_the_admin_side_only(mesh: RunningMesh, crm: Crm) -> None:
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        for caller, allowed in (("projection", False), ("operador", False), (ADMIN, True)):
            metadata = (("authorization", f"Bearer {mesh.token(caller)}"),)
            call = rd.GetRollingSummaryStatsRequest()
            stub = type(crm.read)(channel)
            if allowed:
                stats = await stub.GetRollingSummaryStats(call, metadata=metadata)
                assert stats.contacts >= 1
            else:
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await stub.GetRollingSummaryStats(call, metadata=metadata)
                assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_the_conversador_may_not_call_any_crm_rpc(mesh: RunningMesh, crm: Crm) -> None:
    metadata = (("authorization", f"Bearer {mesh.token('conversador')}"),)
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        stub_read, stub_write = type(crm.read)(channel), type(crm.write)(channel)
        for call in (
            stub_read.GetContact(rd.GetContactRequest(organization_id=str(uuid.uuid4())), metadata=metadata),
            stub_write.CloseTurn(wr.CloseTurnRequest(), metadata=metadata),
        ):
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await call
            assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED

