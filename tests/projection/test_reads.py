"""The opening's raw reads: one crm snapshot instead of seven single reads, and nothing else changes.

What the pure layer (allowlist, business language, findings) receives from `Reads.lead()` and
`Reads.turn()` must be the very messages the seven single crm reads answered before the snapshot
existed; and the errors the opening and `get_lead_context` return must map as before.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import grpc
import pytest

from balcao.crm.v1 import crm_read_pb2 as R
from balcao.crm.v1 import crm_resources_pb2 as C
from balcao.kit.channels import open_channel
from balcao.kit.server import Registration, ServiceDefinition, create_server
from balcao.projection.v1 import projection_pb2 as P
from balcao.projection.v1 import projection_pb2_grpc
from services.projection.config import Settings
from services.projection.handles import handle_key
from services.projection.lead import RawLead
from services.projection.reads import ACTIVITIES_READ, Reads
from services.projection.service import POLICY, Projection
from tests.projection.seeding import Business, Mesh, phone
from tests.support.mesh import RunningMesh, free_port


@pytest.fixture
async def reads(mesh: RunningMesh) -> AsyncIterator[Reads]:
    """projection's own `Reads`, signed as projection, on the mesh's crm and agenda (no config cache)."""
    settings = Settings(mesh_secret=mesh.secret.decode(), crm_addr=mesh.addr("crm"), agenda_addr=mesh.addr("agenda"))
    crm, agenda = open_channel(settings, "crm"), open_channel(settings, "agenda")
    yield Reads(crm, agenda, timeout=10)
    await crm.close()
    await agenda.close()


async def single_reads(stubs: Mesh, business: Business) -> tuple[RawLead, R.ListKnowledgeArticlesResponse]:
    """The lead and the unit's skill references as the opening read them before: seven single calls."""
    read, meta = stubs.crm_read, stubs.auth("projection")
    ids = {"organization_id": business.organization_id, "contact_id": business.contact_id}
    organization = await read.GetOrganization(R.GetOrganizationRequest(organization_id=ids["organization_id"]),
                                              metadata=meta)
    lead = RawLead(
        organization=organization.organization,
        contact=(await read.GetContact(R.GetContactRequest(**ids), metadata=meta)).contact,
        lead_state=await read.GetLeadState(R.GetLeadStateRequest(**ids), metadata=meta),
        checkpoint=await read.LatestCheckpoint(R.LatestCheckpointRequest(**ids), metadata=meta),
        cases=await read.ListHumanCases(R.ListHumanCasesRequest(**ids), metadata=meta),
        follow_ups=await read.ListFollowUps(
            R.ListFollowUpsRequest(**ids, statuses=[C.FOLLOW_UP_STATUS_PENDING]), metadata=meta),
        activities=await read.ListActivities(R.ListActivitiesRequest(**ids, page_size=ACTIVITIES_READ),
                                             metadata=meta),
    )
    references = await read.ListKnowledgeArticles(
        R.ListKnowledgeArticlesRequest(organization_id=ids["organization_id"],
                                       kinds=[C.KNOWLEDGE_KIND_SKILL_REFERENCE], unit_id=business.unit_id),
        metadata=meta,
    )
    return lead, references


async def test_the_pure_layer_receives_what_the_seven_single_reads_answered(stubs: Mesh, reads: Reads) -> None:
    business = await stubs.business(phone())
    await stubs.lead_memory(business)
    await stubs.unit(business, [])
    for n in range(ACTIVITIES_READ + 2):  # more than one page of timeline: the page size shows
        await stubs.activity(business, f"tentativa {n} falhou", "unsafe_url:https_required")
    org, contact = business.organization_id, business.contact_id

    # The mesh's Operador may still be acting on the closed turn: compare only when the single
    # reads agree before and after (nothing changed in between).
    for _ in range(20):
        before = await single_reads(stubs, business)
        lead = await reads.lead(org, contact)
        turn = await reads.turn(org, contact, business.unit_id)
        if before == await single_reads(stubs, business):
            break
    assert (lead, (turn.lead, turn.references)) == (before[0], before)
    assert turn.unit_id == business.unit_id and turn.agent.found

    # And they hold what was seeded, so the comparison compared something.
    assert lead.checkpoint.found and lead.lead_state.found and len(lead.cases.cases) == 1
    assert len(lead.follow_ups.follow_ups) == 1
    assert len(lead.activities.activities) == ACTIVITIES_READ and lead.activities.next_page_token
    assert [a.title for a in turn.references.articles] == ["Tabela de clareamento"]


async def test_an_unknown_contact_of_a_known_organisation_is_not_found(stubs: Mesh) -> None:
    business = await stubs.business(phone())
    other = await stubs.business(phone())  # a real contact, of another organisation
    for contact in (other.contact_id, str(uuid.uuid4())):
        ids = {"organization_id": business.organization_id, "contact_id": contact}
        for call in (
            stubs.projection.GetTurnContext(P.GetTurnContextRequest(**ids), metadata=stubs.auth("conversador")),
            stubs.projection.GetLeadContext(P.GetLeadContextRequest(**ids), metadata=stubs.auth("conversador")),
        ):
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await call
            assert caught.value.code() == grpc.StatusCode.NOT_FOUND


async def test_crm_not_answering_is_unavailable_so_the_runtime_retries(mesh: RunningMesh, stubs: Mesh) -> None:
    business = await stubs.business(phone())
    settings = Settings(mesh_secret=mesh.secret.decode(), crm_addr=f"127.0.0.1:{free_port()}",
                        agenda_addr=mesh.addr("agenda"))
    crm, agenda = open_channel(settings, "crm"), open_channel(settings, "agenda")
    servicer = Projection(Reads(crm, agenda, timeout=3), handle_key(mesh.secret))
    definition = ServiceDefinition(
        [Registration(servicer, projection_pb2_grpc.add_ProjectionServiceServicer_to_server, POLICY)]
    )
    running = await create_server(definition, secret=mesh.secret, host="127.0.0.1", port=0)
    ids = {"organization_id": business.organization_id, "contact_id": business.contact_id}
    codes = []
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = projection_pb2_grpc.ProjectionServiceStub(channel)
            for call in (
                stub.GetTurnContext(P.GetTurnContextRequest(**ids), metadata=stubs.auth("gateway")),
                stub.GetLeadContext(P.GetLeadContextRequest(**ids), metadata=stubs.auth("conversador")),
            ):
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await call
                codes.append(caught.value.code())
    finally:
        await running.server.stop(None)
        await crm.close()
        await agenda.close()
    assert codes == [grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNAVAILABLE]
