"""Operador.RunEvent: one event on demand, without a lease — what a person running it notices."""

from __future__ import annotations

import uuid

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.operador.v1 import operador_pb2 as pb
from tests.operador.conftest import Env, declaracao, later, until


async def test_run_event_answers_what_was_written_and_twice_writes_nothing_twice(env: Env) -> None:
    biz = await env.business(role_on=False)
    turn = str(uuid.uuid4())
    await biz.close(declaracao(prazo=later(4)), turn_id=turn)
    [event] = await until(lambda: biz.events("turn_closed"), lambda es: [e.status for e in es] == [r.EVENT_STATUS_DONE],
                          what="the worker finished the event")
    before = (sorted((a.kind, a.summary_pt) for a in await biz.activities(turn)),
              [f.follow_up_id for f in await biz.follow_ups()])

    request = pb.RunEventRequest(organization_id=biz.org, event_id=event.event_id)
    first = await env.operador.RunEvent(request, metadata=env.md)
    second = await env.operador.RunEvent(request, metadata=env.md)

    # The outcome reads as the worker recorded it: acted, the promise fulfilled; the record itself
    # is the worker's, written once (the re-runs' outcome writes are replays).
    execution = await biz.execution(turn)
    assert first.outcome == pb.EVENT_RUN_OUTCOME_ACTED and first.mode == pb.ROLE_MODE_BASIC
    assert execution.operador.status == r.OPERADOR_OUTCOME_STATUS_ACTED
    assert execution.operador.event_id == event.event_id and "retorno agendado" in execution.operador.summary_pt
    assert [o.status for o in first.obligations] == [pb.OBLIGATION_STATUS_FULFILLED]
    # Everything had been done by the worker: each write is reported as already done, none repeated.
    assert first.actions and {a.status for a in first.actions} == {pb.ACTION_STATUS_ALREADY_DONE}
    assert second == first
    after = (sorted((a.kind, a.summary_pt) for a in await biz.activities(turn)),
             [f.follow_up_id for f in await biz.follow_ups()])
    assert after == before and len(after[1]) == 1
    # No lease was taken: the event is as the worker left it.
    again = (await env.queue.GetEvent(eq.GetEventRequest(organization_id=biz.org, event_id=event.event_id),
                                      metadata=env.md)).event
    assert again.status == r.EVENT_STATUS_DONE and again.attempts == event.attempts


async def test_run_event_refuses_what_the_operador_does_not_run(env: Env) -> None:
    biz = await env.business(role_on=False)
    await biz.close(declaracao(prazo=later(4)))
    [follow_up_due] = await until(lambda: biz.events("followup_due"), lambda es: len(es) == 1,
                                  what="the follow-up's event")
    reply = await env.operador.RunEvent(pb.RunEventRequest(organization_id=biz.org, event_id=follow_up_due.event_id),
                                        metadata=env.md)
    assert reply.outcome == pb.EVENT_RUN_OUTCOME_NOT_RUN and "followup_due" in reply.not_run_reason_pt
    assert not reply.actions
