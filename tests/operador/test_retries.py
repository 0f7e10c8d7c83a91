"""A failure the Operador cannot get past (the model provider stays unavailable) is retried with backoff, and its
last attempt makes the event dead with a critical job_dead item for the owner: never a silent stop."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from google.protobuf import struct_pb2

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.models.base import ModelUnavailable
from balcao.models.scripted import ScriptedProvider
from services.operador import worker as worker_module
from services.operador.processing import Processor
from services.operador.worker import Worker
from tests.operador.conftest import Env, declaracao, until


async def test_an_unavailable_model_is_retried_with_backoff_then_dead_with_a_critical_item(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    biz = await env.business(role_on=True)
    biz.script({"text": "Nada a registrar."})  # the fleet's own run of the real event
    turn = str(uuid.uuid4())
    await biz.close(declaracao(promessa=None), turn_id=turn)
    # This replica claims a kind of its own, so the fleet's workers never take the event it fails.
    kind = f"test_turn_closed_{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(worker_module, "KINDS", (kind,))
    payload = struct_pb2.Struct()
    payload.update({"turn_id": turn, "contact_id": biz.contact})
    event = (await env.queue.Publish(eq.PublishRequest(organization_id=biz.org, kind=kind, payload=payload,
                                                       max_attempts=2), metadata=env.md)).event
    model = ScriptedProvider([ModelUnavailable("o provedor do modelo está fora do ar")] * 2)
    peers = env.peers()
    worker = Worker(Processor(peers, model))

    async def stored() -> r.Event:
        return (await env.queue.GetEvent(eq.GetEventRequest(organization_id=biz.org, event_id=event.event_id),
                                         metadata=env.md)).event

    try:
        assert await worker.drain(organization_id=biz.org) == 1
        first = await stored()
        # Not dead at once: retried later, after the backoff (the mesh's crm waits 5 s after a first failure).
        assert (first.status, first.attempts) == (r.EVENT_STATUS_PENDING, 1)
        assert "fora do ar" in first.last_error
        assert first.available_at.ToDatetime(tzinfo=UTC) > datetime.now(UTC)
        assert await worker.drain(organization_id=biz.org) == 0  # nothing to claim before its time

        async def attempt() -> r.Event:
            await worker.drain(organization_id=biz.org)
            return await stored()

        last = await until(attempt, lambda e: e.status != r.EVENT_STATUS_PENDING, seconds=30,
                           what="the second attempt")
    finally:
        await peers.close()
    assert (last.status, last.attempts) == (r.EVENT_STATUS_DEAD, 2)
    assert len(model.requests) == 2
    items = (await env.crm_read.ListCentralItems(cr.ListCentralItemsRequest(organization_id=biz.org),
                                                 metadata=env.md)).items
    [dead] = [i for i in items if i.event_id == event.event_id]
    assert dead.kind == r.CENTRAL_ITEM_KIND_JOB_DEAD and dead.severity == r.CENTRAL_ITEM_SEVERITY_CRITICAL
    assert worker.processor.metrics.total(biz.org)["events_dead"] == 1
