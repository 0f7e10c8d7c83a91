"""Two closed turns of one contact registered out of order (two replicas, or a retry): the lead keeps the
newer turn's stage, and the timeline says why the older one did not move it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from google.protobuf import struct_pb2

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.models.scripted import ScriptedProvider
from services.crm.leads import KEPT_BY_TURN
from services.operador import batch
from services.operador.processing import Processor
from tests.operador.conftest import Business, Env, declaracao, ts


async def _closed_for_later(env: Env, biz: Business, contact: str, categoria: int) -> str:
    """A closed turn whose `turn_closed` event only this test's worker runs: the event is published first, for an
    hour from now, under the dedup key CloseTurn uses, so CloseTurn's own publication finds it and the mesh's
    workers never claim it."""
    turn = str(uuid.uuid4())
    payload = struct_pb2.Struct()
    payload.update({"turn_id": turn, "contact_id": contact})
    await env.queue.Publish(eq.PublishRequest(
        organization_id=biz.org, kind="turn_closed", contact_id=contact, payload=payload, dedup_key=turn,
        available_at=ts(datetime.now(UTC) + timedelta(hours=1))), metadata=env.md)
    await biz.close(declaracao(intencao="quer algo", categoria=categoria, promessa=None), contact=contact,
                    turn_id=turn)
    return turn


async def test_the_older_turn_registered_last_leaves_the_newer_stage(env: Env) -> None:
    biz = await env.business(role_on=False)
    contact = await env.contact(biz.org)
    older = await _closed_for_later(env, biz, contact, dc.CATEGORIA_DESISTIU)  # → lost
    newer = await _closed_for_later(env, biz, contact, dc.CATEGORIA_QUER_REMARCAR)  # → scheduled
    events = {e.payload["turn_id"]: e for e in (await env.queue.ListEvents(eq.ListEventsRequest(
        organization_id=biz.org, kinds=["turn_closed"]), metadata=env.md)).events}
    peers = env.peers()
    try:
        processor = Processor(peers, ScriptedProvider())
        first = await batch.run(processor, [events[newer]])  # one replica
        second = await batch.run(processor, [events[older]])  # the other, later
    finally:
        await peers.close()
    assert [e.event_id for e in first.done] == [events[newer].event_id]
    assert [e.event_id for e in second.done] == [events[older].event_id]

    state = (await env.crm_read.GetLeadState(cr.GetLeadStateRequest(organization_id=biz.org, contact_id=contact),
                                             metadata=env.md)).lead_state
    assert state.stage_key == "scheduled" and state.source_turn_id == newer
    kept = [a for a in await biz.activities(older, contact) if a.summary_pt.startswith(KEPT_BY_TURN)]
    assert len(kept) == 1
