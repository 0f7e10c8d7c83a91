"""CloseTurn and the lead's memory: one transaction, `seq` never reused, "latest" by `seq`."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import grpc
import pytest
import sqlalchemy as sa
from google.protobuf import duration_pb2, timestamp_pb2
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.common.v1 import declaracao_pb2 as d
from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.crm.v1 import event_queue_pb2 as eq
from tests.crm.conftest import Crm, close_turn_footprint


def stamp(moment: datetime) -> timestamp_pb2.Timestamp:
    value = timestamp_pb2.Timestamp()
    value.FromDatetime(moment)
    return value


def closing(summary: str = "Cliente quer marcar avaliação.", promises: int = 0) -> r.CheckpointContent:
    promessas = [
        d.Promessa(o_que=f"vou verificar com a equipe ({i})", prazo=stamp(datetime(2030, 1, 2, 15, tzinfo=UTC)))
        for i in range(promises)
    ]
    intencoes = [d.Intencao(o_que="quer agendar", evidencia="posso marcar?", categoria=d.CATEGORIA_QUER_AGENDAR)]
    return r.CheckpointContent(
        rolling_summary=summary, commitments=["retornar com horários"], objections=["preço"],
        next_action="oferecer horários", agenda_reread=r.AGENDA_REREAD_STATUS_READ,
        declaracao=d.DeclaracaoDoTurno(intencoes=intencoes, promessas=promessas, nada_a_declarar=False),
    )


def close_request(org: str, contact: str, turn_id: str | None = None, **fields: object) -> wr.CloseTurnRequest:
    turn_id = turn_id or str(uuid.uuid4())
    return wr.CloseTurnRequest(
        organization_id=org, contact_id=contact, turn_id=turn_id, unit_id="sdr",
        checkpoint=fields.pop("checkpoint", closing()),  # type: ignore[arg-type]
        execution=r.TurnExecution(trigger=r.TURN_TRIGGER_INBOUND, outcome=r.TURN_OUTCOME_REPLIED,
                                  inbound=[r.InboundRef(text="Oi, queria marcar")],
                                  sent=[r.SentPart(text="Claro! Tenho terça às 14h.")]),
        traceparent="00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        **fields,  # type: ignore[arg-type]
    )


async def test_close_turn_writes_checkpoint_obligations_record_and_event_together(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    turn_id = str(uuid.uuid4())
    closed = await crm.write.CloseTurn(
        close_request(org, contact, turn_id, checkpoint=closing(promises=2)), metadata=crm.metadata
    )
    assert closed.seq == 1 and not closed.replayed
    assert len(closed.obligation_ids) == 2

    latest = await crm.read.LatestCheckpoint(rd.LatestCheckpointRequest(organization_id=org, contact_id=contact),
                                             metadata=crm.metadata)
    assert latest.found and latest.checkpoint.turn_id == turn_id
    assert latest.checkpoint.content.rolling_summary == "Cliente quer marcar avaliação."
    assert list(latest.checkpoint.content.objections) == ["preço"]
    assert len(latest.checkpoint.content.declaracao.promessas) == 2

    obligations = await crm.read.ListObligations(rd.ListObligationsRequest(organization_id=org, turn_id=turn_id),
                                                 metadata=crm.metadata)
    assert [o.obligation_id for o in obligations.obligations] == list(closed.obligation_ids)
    assert [o.promise_index for o in obligations.obligations] == [0, 1]
    assert all(o.status == r.OBLIGATION_STATUS_OPEN and o.checkpoint_seq == 1 for o in obligations.obligations)

    record = await crm.read.GetTurnExecution(rd.GetTurnExecutionRequest(organization_id=org, turn_id=turn_id),
                                             metadata=crm.metadata)
    assert record.execution.checkpoint_seq == 1
    assert record.execution.closing.rolling_summary == "Cliente quer marcar avaliação."
    assert record.execution.sent[0].text == "Claro! Tenho terça às 14h."

    event = await crm.queue.GetEvent(eq.GetEventRequest(organization_id=org, event_id=closed.event_id),
                                     metadata=crm.metadata)
    assert event.event.kind == "turn_closed"
    assert event.event.traceparent.startswith("00-4bf92f35")
    assert dict(event.event.payload) == {"turn_id": turn_id, "contact_id": contact, "seq": 1.0, "unit_id": "sdr"}


async def test_a_turn_closes_once_even_when_the_runtime_retries(crm: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    request = close_request(org, contact, checkpoint=closing(promises=1))
    first = await crm.write.CloseTurn(request, metadata=crm.metadata)
    before = await close_turn_footprint(owner_engine, org)
    again = await crm.write.CloseTurn(request, metadata=crm.metadata)
    other_key = wr.CloseTurnRequest()
    other_key.CopyFrom(request)
    other_key.idempotency_key = "some-other-key"
    third = await crm.write.CloseTurn(other_key, metadata=crm.metadata)
    for replay in (again, third):
        assert replay.replayed
        assert (replay.seq, list(replay.obligation_ids), replay.event_id) == (
            first.seq, list(first.obligation_ids), first.event_id
        )
    assert await close_turn_footprint(owner_engine, org) == before


async def test_twenty_concurrent_closes_of_one_contact_get_twenty_distinct_increasing_seqs(
    crm: Crm, owner_engine: AsyncEngine
) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    results = await asyncio.gather(
        *(crm.write.CloseTurn(close_request(org, contact), metadata=crm.metadata) for _ in range(20))
    )
    seqs = sorted(result.seq for result in results)
    assert seqs == list(range(1, 21))
    # …and later closes keep counting from there, never reusing one.
    later = await crm.write.CloseTurn(close_request(org, contact), metadata=crm.metadata)
    assert later.seq == 21
    async with owner_engine.connect() as conn:
        stored = (await conn.execute(
            sa.text("SELECT seq FROM crm.lead_checkpoints WHERE organization_id = :o AND contact_id = :c ORDER BY seq"),
            {"o": org, "c": contact},
        )).scalars().all()
    assert stored == list(range(1, 22))


async def test_latest_checkpoint_is_the_highest_seq_not_the_newest_created_at(
    crm: Crm, owner_engine: AsyncEngine
) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing("primeiro")), metadata=crm.metadata)
    # A later seq written with an EARLIER created_at (clocks tie and drift; seq is the order).
    async with owner_engine.begin() as conn:
        await conn.execute(
            sa.text(
                "INSERT INTO crm.lead_checkpoints (organization_id, contact_id, seq, turn_id, rolling_summary, "
                "created_at) VALUES (:o, :c, 2, :t, 'segundo, escrito com relógio atrasado', :at)"
            ),
            {"o": org, "c": contact, "t": str(uuid.uuid4()), "at": datetime.now(UTC) - timedelta(days=1)},
        )
    latest = await crm.read.LatestCheckpoint(rd.LatestCheckpointRequest(organization_id=org, contact_id=contact),
                                             metadata=crm.metadata)
    assert latest.checkpoint.seq == 2
    assert latest.checkpoint.content.rolling_summary.startswith("segundo")
    listed = await crm.read.ListCheckpoints(rd.ListCheckpointsRequest(organization_id=org, contact_id=contact),
                                            metadata=crm.metadata)
    assert [c.seq for c in listed.checkpoints] == [2, 1]
    by_seq = await crm.read.GetCheckpoint(rd.GetCheckpointRequest(organization_id=org, contact_id=contact, seq=1),
                                          metadata=crm.metadata)
    assert by_seq.checkpoint.content.rolling_summary == "primeiro"


async def test_a_contact_without_checkpoints_has_no_latest_one(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    latest = await crm.read.LatestCheckpoint(rd.LatestCheckpointRequest(organization_id=org, contact_id=contact),
                                             metadata=crm.metadata)
    assert not latest.found


@pytest.mark.parametrize(
    ("mutate", "code", "problem"),
    [
        (lambda q: q.ClearField("turn_id"), grpc.StatusCode.INVALID_ARGUMENT, "turn_id is required"),
        (lambda q: q.ClearField("checkpoint"), grpc.StatusCode.INVALID_ARGUMENT, "checkpoint is required"),
        (lambda q: q.checkpoint.ClearField("declaracao"), grpc.StatusCode.INVALID_ARGUMENT, "declaração"),
        (lambda q: setattr(q.checkpoint.declaracao, "nada_a_declarar", True), grpc.StatusCode.INVALID_ARGUMENT,
         "nada_a_declarar"),
        (lambda q: q.checkpoint.declaracao.promessas.add(o_que=""), grpc.StatusCode.INVALID_ARGUMENT, "o_que"),
        (lambda q: setattr(q, "contact_id", str(uuid.uuid4())), grpc.StatusCode.NOT_FOUND, "contact"),
        (lambda q: setattr(q, "contact_id", "ana"), grpc.StatusCode.INVALID_ARGUMENT, "contact_id must be a UUID"),
    ],
)
async def test_an_invalid_close_is_refused_and_writes_nothing(
    crm: Crm, owner_engine: AsyncEngine, mutate: object, code: grpc.StatusCode, problem: str
) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    request = close_request(org, contact)
    mutate(request)  # type: ignore[operator]
    before = await close_turn_footprint(owner_engine, org)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.CloseTurn(request, metadata=crm.metadata)
    assert caught.value.code() == code
    assert problem in caught.value.details()
    assert await close_turn_footprint(owner_engine, org) == before


async def test_the_rolling_summary_measurement_reads_the_latest_checkpoint_by_seq(crm: Crm) -> None:
    org = await crm.org()
    for size in (3000, 100):  # the long summary came first; the latest (seq 2) is short
        contact = await crm.quiet_contact(org)
        await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing("x" * size)), metadata=crm.metadata)
        await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing("y" * (size // 10))),
                                  metadata=crm.metadata)
    stats = await crm.read.GetRollingSummaryStats(rd.GetRollingSummaryStatsRequest(organization_id=org),
                                                  metadata=crm.metadata)
    assert stats.contacts == 2
    assert stats.max_chars == 300
    assert stats.threshold_chars == 2500
    assert not stats.triggered


async def test_a_turn_closed_for_one_contact_cannot_be_closed_for_another(crm: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    first, second = await crm.quiet_contact(org), await crm.quiet_contact(org)
    request = close_request(org, first)
    await crm.write.CloseTurn(request, metadata=crm.metadata)
    before = await close_turn_footprint(owner_engine, org)
    elsewhere = wr.CloseTurnRequest()
    elsewhere.CopyFrom(request)
    elsewhere.contact_id, elsewhere.idempotency_key = second, "another-key"
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.CloseTurn(elsewhere, metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert await close_turn_footprint(owner_engine, org) == before


async def test_a_closed_turn_wakes_the_subscribers_of_turn_closed(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    stream = crm.queue.Subscribe(
        eq.SubscribeRequest(organization_id=org, consumer="test", kinds=["turn_closed"],
                            poll_interval=duration_pb2.Duration(seconds=120)),  # a wake-up can only be NOTIFY
        metadata=crm.metadata,
    )
    try:
        initial = await asyncio.wait_for(stream.read(), 15)
        assert initial.reason == eq.WAKE_REASON_INITIAL
        await crm.write.CloseTurn(close_request(org, contact), metadata=crm.metadata)
        woken = await asyncio.wait_for(stream.read(), 15)
        assert (woken.reason, woken.kind, woken.organization_id) == (eq.WAKE_REASON_NOTIFY, "turn_closed", org)
    finally:
        stream.cancel()
