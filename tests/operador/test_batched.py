"""The worker's batched way for role-off turns (one read, one RegisterTurnBasics per claimed batch):
a bad event fails alone, running a batch again writes nothing twice, and a worker that dies right
after the registration leaves nothing to redo (the registration completed its events)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

from google.protobuf import struct_pb2

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.models.scripted import ScriptedProvider
from services.operador import batch
from services.operador.processing import Processor
from services.operador.worker import Worker
from tests.operador.conftest import Business, Env, declaracao, later, ts, until
from tests.support.mesh import RunningMesh

DONE, DEAD = r.EVENT_STATUS_DONE, r.EVENT_STATUS_DEAD


async def test_a_bad_event_fails_alone_and_a_second_run_writes_nothing_twice(env: Env, mesh: RunningMesh) -> None:
    biz = await env.business(role_on=False)
    contacts = [biz.contact] + [await env.contact(biz.org) for _ in range(2)]
    turns = [str(uuid.uuid4()) for _ in contacts]
    # A turn_closed event for a turn that never closed: no checkpoint, no execution record.
    payload = struct_pb2.Struct()
    payload.update({"turn_id": str(uuid.uuid4()), "contact_id": biz.contact})
    bad = (await env.queue.Publish(eq.PublishRequest(
        organization_id=biz.org, kind="turn_closed", contact_id=biz.contact, payload=payload, max_attempts=2),
        metadata=env.md)).event
    for contact, turn in zip(contacts, turns, strict=True):
        await biz.close(declaracao(prazo=later(3)), contact=contact, turn_id=turn)

    async def statuses() -> dict[str, int]:
        return {e.event_id: e.status for e in await _events(env, biz.org)}

    final = await until(statuses, lambda s: len(s) == 4 and all(v in (DONE, DEAD) for v in s.values()), seconds=60,
                        what="every event finished")
    assert final.pop(bad.event_id) == DEAD
    assert set(final.values()) == {DONE}
    dead_items = [i for i in await _central(env, biz.org) if i.event_id == bad.event_id]
    assert [i.kind for i in dead_items] == [r.CENTRAL_ITEM_KIND_JOB_DEAD]
    for contact, turn in zip(contacts, turns, strict=True):
        assert [o.status for o in await biz.obligations(turn)] == [r.OBLIGATION_STATUS_FULFILLED]
        assert len([a for a in await biz.activities(turn, contact) if a.event_id]) == 1
        execution = await biz.execution(turn)
        assert execution.operador.status == r.OPERADOR_OUTCOME_STATUS_ACTED and not execution.operador.used_model

    before = await _footprint(env, biz, contacts, turns)
    events = await _events(env, biz.org)
    good = [e for e in events if e.event_id != bad.event_id]
    peers = env.peers()
    try:
        # The same events in one batch again: the good ones are replayed (nothing written), the bad
        # one is handed back for the single way, the rest of the batch is not held up by it.
        again = await batch.run(Processor(peers, ScriptedProvider()), events)
    finally:
        await peers.close()
    assert sorted(e.event_id for e in again.done) == sorted(e.event_id for e in good)
    assert [e.event_id for e in again.single] == [bad.event_id]
    assert await _footprint(env, biz, contacts, turns) == before


async def test_a_worker_dying_after_the_batched_registration_leaves_its_events_done(env: Env) -> None:
    biz = await env.business(role_on=False)
    peers = env.peers()
    dying = Worker(Processor(peers, ScriptedProvider()), batch_size=10, lease_seconds=1.0)
    dying.crash_before_complete = True  # it registers the batch, then stops before its CompleteBatch
    mine: list[tuple[r.Event, str, str]] = []
    try:
        for _ in range(3):  # the mesh's own worker may, rarely, poll at that very moment and take a round
            due = datetime.now(UTC) + timedelta(seconds=1.5)
            published = [await _turn_closed_later(env, biz, due) for _ in range(3)]
            await asyncio.sleep(max(0.0, (due - datetime.now(UTC)).total_seconds()))
            try:
                while await dying.drain_once(organization_id=biz.org):
                    pass
            except asyncio.CancelledError:
                pass  # the simulated death, after RegisterTurnBasics
            mine = [p for p in published if p[0].event_id in dying.processed]
            if mine:
                break
    finally:
        await peers.close()
    assert mine, "the test worker never got a batch of its own"
    await asyncio.sleep(1.5)  # past the lease: an event left leased would now be claimed and run again
    for event, contact, turn in mine:
        after = (await env.queue.GetEvent(eq.GetEventRequest(organization_id=biz.org, event_id=event.event_id),
                                          metadata=env.md)).event
        # Done by the registration's own transaction (the dying worker never completed anything) and never
        # claimed again: a completion left to the CompleteBatch it never sent would have let the lease expire.
        assert after.status == DONE and after.attempts == 1
        assert len([a for a in await biz.activities(turn, contact) if a.event_id == event.event_id]) == 1
        assert (await biz.execution(turn)).operador.event_id == event.event_id


async def _turn_closed_later(env: Env, biz: Business, due: datetime) -> tuple[r.Event, str, str]:
    """A turn (its execution record) and its `turn_closed` event, claimable only from `due` on: published
    for later, it wakes no worker, so the test's worker can claim it as soon as it is due."""
    contact, turn = await env.contact(biz.org), str(uuid.uuid4())
    await env.crm_write.RecordTurnExecution(cw.RecordTurnExecutionRequest(organization_id=biz.org, execution=(
        r.TurnExecution(turn_id=turn, contact_id=contact, trigger=r.TURN_TRIGGER_INBOUND,
                        outcome=r.TURN_OUTCOME_REPLIED))), metadata=env.md)
    payload = struct_pb2.Struct()
    payload.update({"turn_id": turn, "contact_id": contact})
    event = (await env.queue.Publish(eq.PublishRequest(
        organization_id=biz.org, kind="turn_closed", contact_id=contact, payload=payload, available_at=ts(due)),
        metadata=env.md)).event
    return event, contact, turn


async def _events(env: Env, org: str) -> list[r.Event]:
    return list((await env.queue.ListEvents(eq.ListEventsRequest(organization_id=org, kinds=["turn_closed"]),
                                            metadata=env.md)).events)


async def _central(env: Env, org: str) -> list[r.CentralItem]:
    from balcao.crm.v1 import crm_read_pb2 as cr

    return list((await env.crm_read.ListCentralItems(cr.ListCentralItemsRequest(organization_id=org),
                                                     metadata=env.md)).items)


async def _footprint(env: Env, biz, contacts: list[str], turns: list[str]) -> list[object]:  # type: ignore[no-untyped-def]
    from balcao.crm.v1 import crm_read_pb2 as cr

    rows: list[object] = []
    for contact, turn in zip(contacts, turns, strict=True):
        activities = await biz.activities(turn, contact)
        rows.append(sorted((a.kind, a.summary_pt) for a in activities))
        follow_ups = (await env.crm_read.ListFollowUps(cr.ListFollowUpsRequest(
            organization_id=biz.org, contact_id=contact), metadata=env.md)).follow_ups
        rows.append(sorted(f.follow_up_id for f in follow_ups))
        rows.append((await biz.execution(turn)).operador.summary_pt)
    return rows
