"""RegisterTurnBasics and BatchGetClosedTurns: the Operador's batched registration, one transaction.

Turns are recorded with RecordTurnExecution (no checkpoint, no `turn_closed` event), so the
mesh's own Operador never touches them and every row counted here is the batch's.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import grpc
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.crm.v1 import event_queue_pb2 as eq
from tests.crm.conftest import Crm, row_counts, stubs
from tests.support.mesh import RunningMesh

RULES = r.Actor(kind=r.ACTOR_KIND_OPERADOR_RULES, name="operador")


@pytest.fixture
async def operador(mesh: RunningMesh) -> AsyncIterator[Crm]:
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        yield stubs(channel, mesh.token("operador", ttl=3600))


async def _turn(crm: Crm, org: str, contact: str) -> str:
    turn = str(uuid.uuid4())
    await crm.write.RecordTurnExecution(wr.RecordTurnExecutionRequest(organization_id=org, execution=r.TurnExecution(
        turn_id=turn, contact_id=contact, trigger=r.TURN_TRIGGER_INBOUND, outcome=r.TURN_OUTCOME_REPLIED)),
        metadata=crm.metadata)
    return turn


def _basics(org: str, contact: str, turn: str, *, stage: str = "scheduled", event: str | None = None) -> wr.TurnBasics:
    event = event or str(uuid.uuid4())
    return wr.TurnBasics(organization_id=org, event_id=event, writes=[
        wr.TurnBasicsWrite(update_lead_state=wr.UpdateLeadStateRequest(
            organization_id=org, contact_id=contact, stage_key=stage, reason="quer agendar", source_turn_id=turn,
            actor=RULES, idempotency_key=f"op:{event}:update_lead_state:1")),
        wr.TurnBasicsWrite(record_activity=wr.RecordActivityRequest(
            organization_id=org, contact_id=contact, kind=r.ACTIVITY_KIND_OTHER, actor=RULES, turn_id=turn,
            event_id=event, summary_pt="Operador: cliente movido para a etapa",
            idempotency_key=f"op:{event}:decision")),
        wr.TurnBasicsWrite(record_operador_outcome=wr.RecordOperadorOutcomeRequest(
            organization_id=org, turn_id=turn, idempotency_key=f"op:{event}:outcome", outcome=r.OperadorOutcome(
                status=r.OPERADOR_OUTCOME_STATUS_ACTED, actions=["update_lead_state"], summary_pt="feito",
                event_id=event))),
    ])


async def _activities(crm: Crm, org: str, contact: str) -> list[r.LeadActivity]:
    return list((await crm.read.ListActivities(rd.ListActivitiesRequest(
        organization_id=org, contact_id=contact, page_size=100), metadata=crm.metadata)).activities)


async def test_a_batch_applies_every_good_turn_and_leaves_the_bad_one_untouched(
        crm: Crm, operador: Crm, owner_engine: AsyncEngine) -> None:
    org, other_org = await crm.org(), await crm.org("Outra Clínica")
    first, second, third = [await crm.contact(org) for _ in range(3)]
    elsewhere = await crm.contact(other_org)
    turns = [await _turn(crm, org, c) for c in (first, second)]
    foreign_turn = await _turn(crm, other_org, elsewhere)
    no_record = str(uuid.uuid4())  # a turn without an execution record: the outcome would be NOT_FOUND
    unknown_stage = await _turn(crm, org, third)
    before = await row_counts(owner_engine, org)

    request = wr.RegisterTurnBasicsRequest(turns=[
        _basics(org, first, turns[0]), _basics(org, first, no_record), _basics(other_org, elsewhere, foreign_turn),
        _basics(org, second, turns[1]), _basics(org, third, unknown_stage, stage="no_such_stage"),
    ])
    reply = await operador.write.RegisterTurnBasics(request, metadata=operador.metadata)

    applied, not_applied = wr.TURN_BASICS_STATUS_APPLIED, wr.TURN_BASICS_STATUS_NOT_APPLIED
    assert [x.status for x in reply.results] == [applied, not_applied, applied, applied, not_applied]
    assert "execution record" in reply.results[1].detail and "stage" in reply.results[4].detail
    assert [x.event_id for x in reply.results] == [t.event_id for t in request.turns]
    # The good turns: stage, the STAGE_CHANGED line and the decision line, the outcome on the record.
    for org_id, contact, turn in ((org, first, turns[0]), (org, second, turns[1]),
                                  (other_org, elsewhere, foreign_turn)):
        state = (await crm.read.GetLeadState(rd.GetLeadStateRequest(organization_id=org_id, contact_id=contact),
                                             metadata=crm.metadata)).lead_state
        assert state.stage_key == "scheduled" and state.stage_label == "Agendado"
        kinds = sorted(a.kind for a in await _activities(crm, org_id, contact))
        assert kinds == sorted([r.ACTIVITY_KIND_STAGE_CHANGED, r.ACTIVITY_KIND_OTHER])
        execution = (await crm.read.GetTurnExecution(rd.GetTurnExecutionRequest(
            organization_id=org_id, turn_id=turn), metadata=crm.metadata)).execution
        assert execution.operador.status == r.OPERADOR_OUTCOME_STATUS_ACTED
    # The bad ones wrote nothing: no state, no line for `third`; `first` has only its good turn's lines.
    assert await _activities(crm, org, third) == []
    after = await row_counts(owner_engine, org)
    assert after["lead_state"] - before["lead_state"] == 2
    assert after["crm_lead_activities"] - before["crm_lead_activities"] == 4
    assert after["idempotency_keys"] - before["idempotency_keys"] == 6

    # The same batch again: the applied turns are replayed and nothing is written twice.
    again = await operador.write.RegisterTurnBasics(request, metadata=operador.metadata)
    replayed = wr.TURN_BASICS_STATUS_REPLAYED
    assert [x.status for x in again.results] == [replayed, not_applied, replayed, replayed, not_applied]
    assert await row_counts(owner_engine, org) == after


async def test_the_single_rpcs_replay_what_a_batch_wrote_and_a_half_done_turn_is_left_to_them(
        crm: Crm, operador: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    turn = await _turn(crm, org, contact)
    item = _basics(org, contact, turn)
    # One write of the turn was already made the single way: the batch leaves the whole turn alone.
    single = item.writes[0].update_lead_state
    await operador.write.UpdateLeadState(single, metadata=operador.metadata)
    reply = await operador.write.RegisterTurnBasics(wr.RegisterTurnBasicsRequest(turns=[item]),
                                                    metadata=operador.metadata)
    assert reply.results[0].status == wr.TURN_BASICS_STATUS_NOT_APPLIED
    assert "made before" in reply.results[0].detail
    assert len(await _activities(crm, org, contact)) == 1  # the single call's STAGE_CHANGED line only

    # A turn the batch wrote: the single RPC with the same key answers the stored response, writes nothing.
    fresh_contact = await crm.contact(org)
    fresh = _basics(org, fresh_contact, await _turn(crm, org, fresh_contact))
    applied = await operador.write.RegisterTurnBasics(wr.RegisterTurnBasicsRequest(turns=[fresh]),
                                                      metadata=operador.metadata)
    assert applied.results[0].status == wr.TURN_BASICS_STATUS_APPLIED
    replay = await operador.write.UpdateLeadState(fresh.writes[0].update_lead_state, metadata=operador.metadata)
    assert replay.replayed and replay.lead_state.stage_key == "scheduled"
    activity = await operador.write.RecordActivity(fresh.writes[1].record_activity, metadata=operador.metadata)
    assert activity.replayed and activity.activity.summary_pt == "Operador: cliente movido para a etapa"
    assert len(await _activities(crm, org, fresh_contact)) == 2


async def _leased_event(operador: Crm, org: str, contact: str) -> r.Event:
    """An event claimed under a lease. Its kind is this test's own, so no worker of the mesh takes it."""
    kind = f"basics_probe_{uuid.uuid4().hex[:8]}"
    await operador.queue.Publish(eq.PublishRequest(organization_id=org, kind=kind, contact_id=contact),
                                 metadata=operador.metadata)
    [event] = (await operador.queue.Claim(eq.ClaimRequest(organization_id=org, consumer="test", kinds=[kind],
                                                          batch_size=5), metadata=operador.metadata)).events
    return event


async def _status(operador: Crm, org: str, event: r.Event) -> int:
    return (await operador.queue.GetEvent(eq.GetEventRequest(organization_id=org, event_id=event.event_id),
                                          metadata=operador.metadata)).event.status


async def test_a_turn_with_its_lease_completes_its_event_with_its_writes(
        crm: Crm, operador: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contacts = [await crm.contact(org) for _ in range(3)]
    turns = [await _turn(crm, org, c) for c in contacts]
    events = [await _leased_event(operador, org, c) for c in contacts]
    good = _basics(org, contacts[0], turns[0], event=events[0].event_id)
    good.lease_token = events[0].lease.token
    refused = _basics(org, contacts[1], turns[1], stage="no_such_stage", event=events[1].event_id)
    refused.lease_token = events[1].lease.token
    stale = _basics(org, contacts[2], turns[2], event=events[2].event_id)
    stale.lease_token = str(uuid.uuid4())  # not the token this event is leased under
    request = wr.RegisterTurnBasicsRequest(turns=[good, refused, stale])

    reply = await operador.write.RegisterTurnBasics(request, metadata=operador.metadata)

    applied, not_applied = wr.TURN_BASICS_STATUS_APPLIED, wr.TURN_BASICS_STATUS_NOT_APPLIED
    assert [(x.status, x.completion) for x in reply.results] == [
        (applied, eq.LEASE_OUTCOME_COMPLETED), (not_applied, eq.LEASE_OUTCOME_UNSPECIFIED),
        (applied, eq.LEASE_OUTCOME_LEASE_LOST)]
    # Registered and completed together; the refused turn's event stays leased for the single way;
    # a lease the caller no longer holds completes nothing (its writes stand: the holder replays them).
    assert [await _status(operador, org, e) for e in events] == [
        r.EVENT_STATUS_DONE, r.EVENT_STATUS_LEASED, r.EVENT_STATUS_LEASED]
    assert len(await _activities(crm, org, contacts[0])) == 2 and await _activities(crm, org, contacts[1]) == []
    after = await row_counts(owner_engine, org)

    # The same call again (a retry after a lost answer): replayed, already completed, nothing written.
    again = await operador.write.RegisterTurnBasics(request, metadata=operador.metadata)
    replayed = wr.TURN_BASICS_STATUS_REPLAYED
    assert [(x.status, x.completion) for x in again.results] == [
        (replayed, eq.LEASE_OUTCOME_ALREADY_COMPLETED), (not_applied, eq.LEASE_OUTCOME_UNSPECIFIED),
        (replayed, eq.LEASE_OUTCOME_LEASE_LOST)]
    assert await row_counts(owner_engine, org) == after

    # A lease token that is not a UUID is this turn's problem only: nothing written, event untouched.
    fresh_contact = await crm.contact(org)
    event = await _leased_event(operador, org, fresh_contact)
    malformed = _basics(org, fresh_contact, await _turn(crm, org, fresh_contact), event=event.event_id)
    malformed.lease_token = "not-a-token"
    [result] = (await operador.write.RegisterTurnBasics(wr.RegisterTurnBasicsRequest(turns=[malformed]),
                                                        metadata=operador.metadata)).results
    assert result.status == not_applied and "lease_token" in result.detail
    assert await _status(operador, org, event) == r.EVENT_STATUS_LEASED
    assert await _activities(crm, org, fresh_contact) == []


async def test_batched_read_answers_each_turn_and_bad_input_is_rejected(crm: Crm, operador: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    turn = await _turn(crm, org, contact)
    missing_contact = str(uuid.uuid4())
    reply = await operador.read.BatchGetClosedTurns(rd.BatchGetClosedTurnsRequest(turns=[
        rd.ClosedTurnRef(organization_id=org, contact_id=contact, turn_id=turn),
        rd.ClosedTurnRef(organization_id=org, contact_id=missing_contact, turn_id=turn),
    ]), metadata=operador.metadata)
    assert reply.turns[0].contact.contact_id == contact and not reply.turns[0].HasField("checkpoint")
    assert not reply.turns[1].HasField("contact")
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await operador.read.BatchGetClosedTurns(rd.BatchGetClosedTurnsRequest(turns=[
            rd.ClosedTurnRef(organization_id=org, contact_id="not-a-uuid", turn_id=turn)]), metadata=operador.metadata)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await operador.write.RegisterTurnBasics(wr.RegisterTurnBasicsRequest(
            turns=[wr.TurnBasics(organization_id=org)] * 501), metadata=operador.metadata)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as error:  # the gateway is not the Operador
        await crm.write.RegisterTurnBasics(wr.RegisterTurnBasicsRequest(), metadata=crm.metadata)
    assert error.value.code() == grpc.StatusCode.PERMISSION_DENIED
