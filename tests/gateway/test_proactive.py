"""Proactive turns on the mesh's gateway: asked for over gRPC, by an event on crm's queue, or by a
follow-up coming due — through the same sequence, Segurança included."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import grpc
import pytest
from google.protobuf import struct_pb2

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import crm_write_pb2_grpc, event_queue_pb2_grpc
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.support.mesh import RunningMesh


async def _followup(mesh: RunningMesh, org: support.Org, contact_id: str, text: str) -> str:
    due = datetime.now(UTC) + timedelta(seconds=2)
    request = cw.ScheduleFollowUpRequest(
        organization_id=org.organization_id,
        contact_id=contact_id,
        reason="lembrete da avaliação",
        fixed_text=text,
        scheduled_by=r.Actor(kind=r.ACTOR_KIND_PERSON, name="recepção"),
    )
    request.due_at.FromDatetime(due)
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        response = await crm_write_pb2_grpc.CrmWriteServiceStub(channel).ScheduleFollowUp(
            request, metadata=support.metadata(mesh, "operador")
        )
    assert not response.HasField("refusal"), response.refusal
    return response.follow_up.follow_up_id


async def _until_done(mesh: RunningMesh, org: support.Org, followup_id: str, timeout: float = 45) -> r.FollowUp:
    deadline = time.monotonic() + timeout
    channel, read = await support.crm_read(mesh)
    async with channel:
        while True:
            followup = (
                await read.GetFollowUp(
                    cr.GetFollowUpRequest(organization_id=org.organization_id, follow_up_id=followup_id),
                    metadata=support.metadata(mesh, "gateway"),
                )
            ).follow_up
            if followup.status != r.FOLLOW_UP_STATUS_PENDING:
                return followup
            if time.monotonic() > deadline:
                pytest.fail(f"the follow-up was not carried out in {timeout}s")
            await asyncio.sleep(0.5)


async def test_start_proactive_turn_is_idempotent_and_goes_through_the_sequence(
    mesh: RunningMesh, client: support.Client
) -> None:
    org = await support.create_org(mesh)
    hello = await client.say(org, support.new_phone(), "oi")
    trigger = gw.ProactiveTrigger(
        kind=gw.TRIGGER_KIND_OBLIGATION_FULFILLED, reason_pt="a equipe confirmou o horário pedido pelo cliente"
    )
    request = gw.StartProactiveTurnRequest(
        organization_id=org.organization_id, contact_id=hello.contact_id, trigger=trigger, idempotency_key="ob-1"
    )
    operador = support.metadata(mesh, "operador")

    first = await client.stub.StartProactiveTurn(request, metadata=operador)
    again = await client.stub.StartProactiveTurn(request, metadata=operador)
    turn = await client.turn(org, turn_id=first.turn_id)

    assert (first.duplicate, again.duplicate, again.turn_id) == (False, True, first.turn_id)
    assert turn.status == gw.TURN_STATUS_DONE and turn.outcome == gw.TURN_OUTCOME_REPLIED and turn.reply_parts
    assert not turn.inbound_ids
    record = await support.execution(mesh, org, turn.turn_id)
    assert record.trigger == r.TURN_TRIGGER_PROACTIVE and record.drafts[0].review.gates

    with pytest.raises(grpc.aio.AioRpcError) as denied:
        await client.stub.StartProactiveTurn(request, metadata=support.metadata(mesh, "conversador"))
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_an_event_asking_for_a_proactive_turn_is_answered(mesh: RunningMesh, client: support.Client) -> None:
    org = await support.create_org(mesh)
    hello = await client.say(org, support.new_phone(), "oi")
    payload = struct_pb2.Struct()
    payload.update({"contact_id": hello.contact_id, "reason": "a consulta foi confirmada para quinta às 10h"})
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        published = await event_queue_pb2_grpc.EventQueueServiceStub(channel).Publish(
            eq.PublishRequest(
                organization_id=org.organization_id,
                kind="proactive_turn_requested",
                contact_id=hello.contact_id,
                payload=payload,
            ),
            metadata=support.metadata(mesh, "operador"),
        )
        deadline = time.monotonic() + 45
        while True:
            event = (
                await event_queue_pb2_grpc.EventQueueServiceStub(channel).GetEvent(
                    eq.GetEventRequest(organization_id=org.organization_id, event_id=published.event.event_id),
                    metadata=support.metadata(mesh, "gateway"),
                )
            ).event
            if event.status == r.EVENT_STATUS_DONE or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.3)
    assert event.status == r.EVENT_STATUS_DONE
    channel, read = await support.crm_read(mesh)
    async with channel:
        while True:  # the event is done once its turn exists; the turn's record comes when it ends
            executions = await read.ListTurnExecutions(
                cr.ListTurnExecutionsRequest(organization_id=org.organization_id, contact_id=hello.contact_id),
                metadata=support.metadata(mesh, "gateway"),
            )
            proactive = [e for e in executions.executions if e.trigger == r.TURN_TRIGGER_PROACTIVE]
            if proactive or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.3)
    assert len(proactive) == 1
    turn = await client.turn(org, turn_id=proactive[0].turn_id)
    assert turn.outcome == gw.TURN_OUTCOME_REPLIED and turn.reply_parts


async def test_a_due_follow_up_is_reviewed_sent_or_withheld(mesh: RunningMesh, client: support.Client) -> None:
    org = await support.create_org(mesh)
    hello = await client.say(org, support.new_phone(), "oi")

    fine = await _followup(mesh, org, hello.contact_id, "Olá! Passando para lembrar da sua avaliação amanhã.")
    promise = await _followup(mesh, org, hello.contact_id, "Promoção: limpeza por R$ 19,90 só hoje!")
    sent, withheld = await _until_done(mesh, org, fine), await _until_done(mesh, org, promise)

    assert sent.status == r.FOLLOW_UP_STATUS_SENT
    sent_turn = await client.turn(org, turn_id=sent.executed_turn_id)
    assert sent_turn.outcome == gw.TURN_OUTCOME_FIXED_REPLY
    assert "lembrar da sua avaliação" in "".join(p.text for p in sent_turn.reply_parts)

    assert withheld.status == r.FOLLOW_UP_STATUS_SKIPPED
    withheld_turn = await client.turn(org, turn_id=withheld.executed_turn_id)
    assert withheld_turn.outcome == gw.TURN_OUTCOME_SILENT and not withheld_turn.reply_parts
    assert [v.gate for v in withheld_turn.vetoes] == ["commercial_promise"]
