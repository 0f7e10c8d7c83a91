"""Crash between the write and the completion, made deterministic: the turn's own event is run by this test's
workers only (a kind of their own), so the crashed attempt always happens and the replay always follows."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from google.protobuf import struct_pb2

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.models.scripted import ScriptedProvider, tool_calls
from balcao.models.scripted import text as text_reply
from services.operador import worker as worker_module
from services.operador.processing import Processor
from services.operador.worker import Worker
from tests.operador.conftest import Env, declaracao, later, next_weekday, until


async def test_a_worker_killed_after_booking_leaves_the_event_to_run_again_and_the_booking_exists_once(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    biz = await env.business(role_on=True)
    friday = next_weekday(5)
    book = ("book_appointment", {"resource_id": biz.resource_id, "confirm": True, "promessa": 1,
                                 "start": {"local": {"local_date_time": f"{friday.isoformat()}T15:00:00",
                                                     "time_zone": "America/Sao_Paulo"}}})
    # The fleet's run of the real event writes nothing: a person holds the conversation when the turn closes.
    await env.crm_write.SetHumanControl(cw.SetHumanControlRequest(
        organization_id=biz.org, contact_id=biz.contact, human_in_control=True, reason="teste"), metadata=env.md)
    turn = str(uuid.uuid4())
    await biz.close(declaracao(prazo=later(2)), turn_id=turn)
    await until(lambda: biz.execution(turn), lambda e: e.operador.status != 0, what="the fleet's run")
    await env.crm_write.SetHumanControl(cw.SetHumanControlRequest(
        organization_id=biz.org, contact_id=biz.contact, human_in_control=False, reason="teste"), metadata=env.md)

    kind = f"test_turn_closed_{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(worker_module, "KINDS", (kind,))
    payload = struct_pb2.Struct()
    payload.update({"turn_id": turn, "contact_id": biz.contact})
    event = (await env.queue.Publish(eq.PublishRequest(organization_id=biz.org, kind=kind, payload=payload),
                                     metadata=env.md)).event
    peers = env.peers()
    try:
        dying = Worker(Processor(peers, ScriptedProvider([tool_calls(book), text_reply("ok")])), lease_seconds=1.0,
                       consumer="operador-que-morre")
        dying.crash_before_complete = True
        with pytest.raises(asyncio.CancelledError):
            await dying.drain_once(organization_id=biz.org)
        # Killed after its writes: the booking exists, the event is still leased to the dead worker.
        assert len(await biz.appointments()) == 1
        held = (await env.queue.GetEvent(eq.GetEventRequest(organization_id=biz.org, event_id=event.event_id),
                                         metadata=env.md)).event
        assert held.status == r.EVENT_STATUS_LEASED and held.lease.consumer == "operador-que-morre"

        # Another replica takes it once the lease is over and runs it again, with the same keys.
        survivor = Worker(Processor(peers, ScriptedProvider([tool_calls(book), text_reply("ok")])))

        async def rerun() -> r.Event:
            await survivor.drain_once(organization_id=biz.org)
            return (await env.queue.GetEvent(eq.GetEventRequest(organization_id=biz.org, event_id=event.event_id),
                                             metadata=env.md)).event

        done = await until(rerun, lambda e: e.status == r.EVENT_STATUS_DONE, what="the event run again")
    finally:
        await peers.close()
    assert done.attempts == 2 and survivor.processed == [event.event_id]
    appointments = await biz.appointments()
    assert len(appointments) == 1 and appointments[0].labels.start_iso.startswith(f"{friday.isoformat()}T15:00")
    assert [o.status for o in await biz.obligations(turn)] == [r.OBLIGATION_STATUS_FULFILLED]
    assert len(await biz.events("proactive_turn_requested")) == 1
    decisions = [a for a in await biz.activities(turn) if a.event_id == event.event_id]
    assert len(decisions) == 1  # the replay wrote its decision line once
