"""The Operador's figures: GetStatus over a window from crm's durable rows (every replica's work),
and the OpenTelemetry instruments a replica records, read through an in-memory reader."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from google.protobuf import struct_pb2
from google.protobuf.timestamp_pb2 import Timestamp
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.models.scripted import ScriptedProvider
from balcao.operador.v1 import operador_pb2 as pb
from services.operador import batch
from services.operador import worker as worker_module
from services.operador.processing import Processor
from services.operador.worker import Worker
from tests.operador.conftest import Env, declaracao, later, until


async def test_status_counts_every_replicas_work_over_a_window(env: Env) -> None:
    biz = await env.business(role_on=False)
    contacts = [await env.contact(biz.org) for _ in range(4)]
    peers = [env.peers(), env.peers()]
    # Two more replicas besides the mesh's own: whichever takes an event, the figures are the fleet's.
    workers = [Worker(Processor(p, ScriptedProvider()), batch_size=3, poll_seconds=1.0) for p in peers]
    for w in workers:
        await w.start()
    try:
        for n in range(10):
            content = declaracao(prazo=later(5)) if n < 6 else dc.DeclaracaoDoTurno(nada_a_declarar=True)
            await biz.close(content, contact=contacts[n % 4])

        async def done() -> int:
            stats = await env.queue.GetQueueStats(eq.GetQueueStatsRequest(organization_id=biz.org), metadata=env.md)
            return sum(c.count for c in stats.counts if c.kind == "turn_closed" and c.status == r.EVENT_STATUS_DONE)

        await until(done, lambda n: n == 10, seconds=60, what="ten events done")
    finally:
        for w in workers:
            await w.stop()
        for p in peers:
            await p.close()

    status = await env.operador.GetStatus(pb.GetStatusRequest(organization_id=biz.org), metadata=env.md)
    m = status.metrics
    assert (m.turns_processed, m.turns_nothing_to_do, m.turns_basic, m.turns_with_model) == (10, 4, 10, 0)
    assert (m.promises_declared, m.promises_fulfilled, m.promises_failed, m.promises_open) == (6, 6, 0, 0)
    # Each promised turn: the stage moved and the follow-up scheduled.
    assert m.actions_taken == 12 and m.actions_per_turn == 1.2
    assert (m.turns_could_not_act, m.events_dead) == (0, 0)
    # Not one replica's counters: the test replicas together saw at most what the fleet did.
    assert sum(w.processor.metrics.total(biz.org)["turns_processed"] for w in workers) <= 10
    future = Timestamp()
    future.FromDatetime(datetime.now(UTC) + timedelta(hours=1))
    later_window = await env.operador.GetStatus(pb.GetStatusRequest(organization_id=biz.org, since=future),
                                                metadata=env.md)
    assert later_window.metrics.turns_processed == 0 and later_window.metrics.promises_declared == 0
    assert later_window.metrics.since == future


async def test_a_replica_records_its_work_as_opentelemetry_instruments(env: Env) -> None:
    biz = await env.business(role_on=False)
    turns = [str(uuid.uuid4()), str(uuid.uuid4())]
    await biz.close(declaracao(promessa=None), turn_id=turns[0])  # moves the stage: one action
    await biz.close(dc.DeclaracaoDoTurno(nada_a_declarar=True), turn_id=turns[1])  # nothing to do
    # Events of this test's own (fresh ids, so fresh idempotency keys): the mesh's worker handles
    # the real ones, and what this replica does is exactly these two.
    events = []
    for turn in turns:
        payload = struct_pb2.Struct()
        payload.update({"turn_id": turn, "contact_id": biz.contact})
        events.append(r.Event(event_id=str(uuid.uuid4()), organization_id=biz.org, kind="turn_closed",
                              payload=payload))
    reader = InMemoryMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    peers = env.peers()
    try:
        processor = Processor(peers, ScriptedProvider(), meter=provider.get_meter("balcao.operador"))
        result = await batch.run(processor, events)
    finally:
        await peers.close()
    assert len(result.done) == 2 and not result.single

    points = {}
    for resource in reader.get_metrics_data().resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                for point in metric.data.data_points:
                    if point.attributes.get("organization_id") == biz.org:
                        points[metric.name] = point
    assert points["balcao.operador.turns_processed"].value == 2
    assert points["balcao.operador.actions_taken"].value == 1
    assert points["balcao.operador.turns_nothing_to_do"].value == 1
    histogram = points["balcao.operador.actions_per_turn"]
    assert (histogram.count, histogram.sum) == (2, 1)
    assert "balcao.operador.promises_failed" not in points
    await asyncio.sleep(0)
    provider.shutdown()


async def test_status_shows_failed_promises_turns_that_could_not_act_and_dead_events(env: Env) -> None:
    # Callbacks off: the promise cannot be kept by code, so it fails and the owner gets an inbox item.
    biz = await env.business(role_on=False, callback_enabled=False)
    turn = str(uuid.uuid4())
    await biz.close(declaracao(prazo=later(3)), turn_id=turn)
    # A turn_closed event that names no contact can never be processed: dead at once.
    payload = struct_pb2.Struct()
    payload.update({"turn_id": str(uuid.uuid4())})
    bad = (await env.queue.Publish(eq.PublishRequest(organization_id=biz.org, kind="turn_closed", payload=payload),
                                   metadata=env.md)).event

    async def settled() -> tuple[list[r.Obligation], int]:
        event = (await env.queue.GetEvent(eq.GetEventRequest(organization_id=biz.org, event_id=bad.event_id),
                                          metadata=env.md)).event
        return await biz.obligations(turn), event.status

    await until(settled, lambda s: bool(s[0]) and s[0][0].status != r.OBLIGATION_STATUS_OPEN
                and s[1] == r.EVENT_STATUS_DEAD, what="the promise failed and the bad event dead")

    m = (await env.operador.GetStatus(pb.GetStatusRequest(organization_id=biz.org), metadata=env.md)).metrics
    assert (m.promises_declared, m.promises_fulfilled, m.promises_failed, m.promises_open) == (1, 0, 1, 0)
    assert (m.turns_processed, m.turns_could_not_act, m.events_dead) == (1, 1, 1)
    assert (m.actions_taken, m.actions_per_turn) == (1, 1.0)  # the stage moved; the follow-up could not be made


async def test_a_replica_counts_promises_blocked_turns_and_dead_events_as_instruments(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    biz = await env.business(role_on=False, callback_enabled=False)
    # A person holds the conversation when the turn closes: the fleet's run writes nothing and the promise
    # stays open. The person lets go; this replica then runs the turn (an event of its own) and cannot keep it.
    await env.crm_write.SetHumanControl(cw.SetHumanControlRequest(
        organization_id=biz.org, contact_id=biz.contact, human_in_control=True, reason="teste"), metadata=env.md)
    turn = str(uuid.uuid4())
    await biz.close(declaracao(prazo=later(3)), turn_id=turn)
    await until(lambda: biz.execution(turn), lambda e: e.operador.status != 0, what="the fleet's run")
    await env.crm_write.SetHumanControl(cw.SetHumanControlRequest(
        organization_id=biz.org, contact_id=biz.contact, human_in_control=False, reason="teste"), metadata=env.md)
    payload = struct_pb2.Struct()
    payload.update({"turn_id": turn, "contact_id": biz.contact})
    event = r.Event(event_id=str(uuid.uuid4()), organization_id=biz.org, kind="turn_closed", payload=payload)

    reader = InMemoryMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    peers = env.peers()
    # This replica's worker claims a kind of its own, so the fleet's workers never take its malformed event.
    kind = f"test_turn_closed_{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(worker_module, "KINDS", (kind,))
    bad = struct_pb2.Struct()
    bad.update({"turn_id": str(uuid.uuid4())})
    await env.queue.Publish(eq.PublishRequest(organization_id=biz.org, kind=kind, payload=bad), metadata=env.md)
    try:
        processor = Processor(peers, ScriptedProvider(), meter=provider.get_meter("balcao.operador"))
        response = await processor.process(event)
        assert await Worker(processor).drain(organization_id=biz.org) == 1
    finally:
        await peers.close()
    assert [o.status for o in response.obligations] == [pb.OBLIGATION_STATUS_FAILED]

    points = {}
    for resource in reader.get_metrics_data().resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                for point in metric.data.data_points:
                    if point.attributes.get("organization_id") == biz.org:
                        points[metric.name] = point.value if hasattr(point, "value") else (point.count, point.sum)
    assert points["balcao.operador.promises_declared"] == 1
    assert points["balcao.operador.promises_failed"] == 1
    assert "balcao.operador.promises_fulfilled" not in points
    assert points["balcao.operador.turns_could_not_act"] == 1
    assert points["balcao.operador.events_dead"] == 1
    assert points["balcao.operador.actions_per_turn"] == (1, 1)  # one turn, the stage moved
    provider.shutdown()
