"""A booking conversation through the whole mesh (offline model): what the customer reads, and what
crm keeps — the declaração, a checkpoint per turn in `seq` order, a `turn_closed` event per turn."""

from __future__ import annotations

import uuid

from google.protobuf import json_format

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.crm.v1 import event_queue_pb2_grpc
from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.support.mesh import RunningMesh


async def test_a_booking_conversation_end_to_end(mesh: RunningMesh, client: support.Client) -> None:
    org = await support.create_org(mesh, units=(("Recepção", "agendamentos e consultas"),))
    await support.agenda_for(mesh, org)
    phone = support.new_phone()

    first = await client.say(org, phone, "Oi! Quero marcar uma consulta de avaliação para amanhã")
    second = await client.say(org, phone, "Pode ser o primeiro horário, por favor")

    for turn in (first, second):
        assert turn.status == gw.TURN_STATUS_DONE and turn.outcome == gw.TURN_OUTCOME_REPLIED
        assert turn.reply_parts and all(p.text.strip() and p.HasField("sent_at") for p in turn.reply_parts)
        assert len(turn.trace_id) == 32 and int(turn.trace_id, 16)
    assert any(i.categoria == dc.CATEGORIA_QUER_AGENDAR for i in first.declaracao.intencoes)

    md = support.metadata(mesh, "gateway")
    channel, read = await support.crm_read(mesh)
    async with channel:
        checkpoints = await read.ListCheckpoints(
            cr.ListCheckpointsRequest(organization_id=org.organization_id, contact_id=first.contact_id), metadata=md
        )
        stored = await read.GetCheckpoint(
            cr.GetCheckpointRequest(
                organization_id=org.organization_id, contact_id=first.contact_id, turn_id=first.turn_id
            ),
            metadata=md,
        )
        events = await event_queue_pb2_grpc.EventQueueServiceStub(channel).ListEvents(
            eq.ListEventsRequest(
                organization_id=org.organization_id, kinds=["turn_closed"], contact_id=first.contact_id
            ),
            metadata=md,
        )
    assert [(c.seq, c.turn_id) for c in checkpoints.checkpoints] == [(2, second.turn_id), (1, first.turn_id)]
    assert stored.checkpoint.content.declaracao == first.declaracao
    assert stored.checkpoint.content.rolling_summary.strip()
    closed = {json_format.MessageToDict(e.payload).get("turn_id") for e in events.events}
    assert closed == {first.turn_id, second.turn_id}
    record = await support.execution(mesh, org, second.turn_id)
    assert [s.name for s in record.steps if s.status == "ok"][:5] == [
        "plan_gate",
        "screen",
        "controller",
        "opening",
        "draft",
    ]
    assert record.checkpoint_seq == 2 and record.trace_id == second.trace_id
    assert uuid.UUID(second.turn_id)
