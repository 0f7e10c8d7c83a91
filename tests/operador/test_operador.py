"""The Operador through the real mesh: turns closed with CloseTurn, effects read back from crm and agenda."""

from __future__ import annotations

import asyncio
import json
import uuid

import grpc
import pytest

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.models.scripted import ScriptedProvider, tool_calls
from balcao.models.scripted import text as text_reply
from balcao.operador.v1 import operador_pb2 as pb
from services.operador.processing import Processor
from services.operador.worker import Worker
from tests.operador.conftest import Env, declaracao, later, local, next_weekday, until

FULFILLED, FAILED, OPEN = r.OBLIGATION_STATUS_FULFILLED, r.OBLIGATION_STATUS_FAILED, r.OBLIGATION_STATUS_OPEN


def resolved(obligations: list[r.Obligation]) -> bool:
    return bool(obligations) and all(o.status != OPEN for o in obligations)


def reschedule_call(day: str, hhmm: str) -> dict[str, object]:
    return {"tool_calls": [{"name": "reschedule_appointment", "arguments": {
        "new_start": {"local": {"local_date_time": f"{day}T{hhmm}:00", "time_zone": "America/Sao_Paulo"}},
        "reason": "o cliente pediu outro horário", "promessa": 1}}]}


async def test_role_on_reschedules_fulfils_the_promise_and_requests_a_proactive_turn(env: Env) -> None:
    biz = await env.business(role_on=True)
    thursday = next_weekday(4)
    booked = await biz.book(local(thursday, "09:00"))
    assert booked.HasField("appointment")
    biz.script(reschedule_call(thursday.isoformat(), "10:00"), {"text": "Remarcado para quinta às 10h."})

    turn = await _close_remarcar(biz)
    obligations = await until(lambda: biz.obligations(turn), resolved, what="the obligation resolved")

    assert [o.status for o in obligations] == [FULFILLED]
    assert obligations[0].evidence[0].kind == "appointment"
    [appointment] = await biz.appointments()
    assert appointment.appointment_id == booked.appointment.appointment_id
    assert appointment.labels.start_iso.startswith(f"{thursday.isoformat()}T10:00")
    summaries = [a.summary_pt for a in await biz.activities(turn)]
    assert any("remarcado" in s for s in summaries), summaries
    proactive = await biz.events("proactive_turn_requested")
    assert [e.payload["obligation_id"] for e in proactive] == [obligations[0].obligation_id]
    execution = await until(lambda: biz.execution(turn), lambda e: e.operador.status != 0, what="the outcome")
    assert execution.operador.used_model and execution.operador.status == r.OPERADOR_OUTCOME_STATUS_ACTED


async def _close_remarcar(biz, prazo_hours: float = 2.0) -> str:  # type: ignore[no-untyped-def]
    turn_id = str(uuid.uuid4())
    await biz.close(declaracao(prazo=later(prazo_hours)), turn_id=turn_id)
    return turn_id


async def test_role_off_registers_by_code_with_no_model_call(env: Env) -> None:
    biz = await env.business(role_on=False)
    thursday = next_weekday(4)
    await biz.book(local(thursday, "09:00"))
    # Were the model called, it would move the booking: it must not be.
    biz.script(reschedule_call(thursday.isoformat(), "10:00"), {"text": "feito"})
    turn = await _close_remarcar(biz)

    obligations = await until(lambda: biz.obligations(turn), resolved, what="the obligation resolved")
    assert [o.status for o in obligations] == [FULFILLED]
    [follow_up] = await biz.follow_ups()
    assert follow_up.callback and follow_up.obligation_id == obligations[0].obligation_id
    assert follow_up.due_at.ToDatetime() == obligations[0].prazo.ToDatetime()
    state = (await env.crm_read.GetLeadState(cr.GetLeadStateRequest(
        organization_id=biz.org, contact_id=biz.contact), metadata=env.md)).lead_state
    assert state.stage_key == "scheduled"
    activities = await biz.activities(turn)
    assert any(a.actor.kind == r.ACTOR_KIND_OPERADOR_RULES and a.event_id for a in activities)
    [appointment] = await biz.appointments()
    assert appointment.labels.start_iso.startswith(f"{thursday.isoformat()}T09:00")
    execution = await until(lambda: biz.execution(turn), lambda e: e.operador.status != 0, what="the outcome")
    assert not execution.operador.used_model
    assert not await biz.events("proactive_turn_requested")


async def test_callbacks_off_hide_only_the_callback(env: Env) -> None:
    biz = await env.business(role_on=False, callback_enabled=False)
    turn = await _close_remarcar(biz)

    obligations = await until(lambda: biz.obligations(turn), resolved, what="the obligation resolved")
    assert [o.status for o in obligations] == [FAILED]
    assert "retornos automáticos estão desligados" in obligations[0].resolution
    assert await biz.follow_ups() == []
    state = (await env.crm_read.GetLeadState(cr.GetLeadStateRequest(
        organization_id=biz.org, contact_id=biz.contact), metadata=env.md)).lead_state
    assert state.stage_key == "scheduled"
    assert any(a.event_id for a in await biz.activities(turn))
    items = await biz.central()
    assert any(i.kind == r.CENTRAL_ITEM_KIND_OBLIGATION_FAILED and i.turn_id == turn for i in items)


async def test_a_refused_slot_fails_the_promise_raises_an_item_and_offers_other_times(env: Env) -> None:
    biz = await env.business(role_on=True)
    thursday = next_weekday(4)
    await biz.book(local(thursday, "09:00"))
    other = await env.contact(biz.org)
    taken = await biz.book(local(thursday, "10:00"), contact=other)
    assert taken.HasField("appointment")
    biz.script(reschedule_call(thursday.isoformat(), "10:00"), {"text": "Não deu."})
    turn = await _close_remarcar(biz)

    obligations = await until(lambda: biz.obligations(turn), resolved, what="the obligation resolved")
    assert [o.status for o in obligations] == [FAILED]
    assert "Horários livres" in obligations[0].resolution, obligations[0].resolution
    items = await biz.central()
    assert any(i.turn_id == turn and i.kind == r.CENTRAL_ITEM_KIND_OBLIGATION_FAILED for i in items)
    proactive = await biz.events("proactive_turn_requested")
    assert [e.payload["obligation_id"] for e in proactive] == [obligations[0].obligation_id]
    # The proactive turn is told the promise failed, and with the free times to offer.
    assert proactive[0].payload["outcome"] == "failed"
    assert "Horários livres" in proactive[0].payload["reason"]
    [mine] = await biz.appointments()
    assert mine.labels.start_iso.startswith(f"{thursday.isoformat()}T09:00")
    # No follow-up either: the failed promise is settled, not left open for the basic registration.
    assert await biz.follow_ups() == []


async def test_nada_a_declarar_records_nothing_to_do_without_the_model(env: Env) -> None:
    biz = await env.business(role_on=True)
    biz.script({"tool_calls": [{"name": "save_lead_note", "arguments": {"title": "x", "body": "y"}}]})
    turn = str(uuid.uuid4())
    await biz.close(dc.DeclaracaoDoTurno(nada_a_declarar=True), turn_id=turn)
    activities = await until(lambda: biz.activities(turn), lambda a: bool(a), what="the nothing-to-do activity")
    assert [a.kind for a in activities] == [r.ACTIVITY_KIND_NOTHING_TO_DO]
    execution = await until(lambda: biz.execution(turn), lambda e: e.operador.status != 0, what="the outcome")
    assert execution.operador.status == r.OPERADOR_OUTCOME_STATUS_NOTHING_TO_DO and not execution.operador.used_model


async def test_a_person_holding_the_conversation_means_no_write(env: Env) -> None:
    biz = await env.business(role_on=False)
    await env.crm_write.SetHumanControl(cw.SetHumanControlRequest(
        organization_id=biz.org, contact_id=biz.contact, human_in_control=True, reason="teste"), metadata=env.md)
    turn = await _close_remarcar(biz)
    execution = await until(lambda: biz.execution(turn), lambda e: e.operador.status != 0, what="the outcome")
    assert execution.operador.status == r.OPERADOR_OUTCOME_STATUS_SKIPPED_HUMAN_IN_CONTROL
    assert await biz.activities(turn) == []
    assert await biz.follow_ups() == []
    assert [o.status for o in await biz.obligations(turn)] == [OPEN]


async def test_a_crash_between_the_write_and_the_completion_books_exactly_once(env: Env) -> None:
    biz = await env.business(role_on=True)
    friday = next_weekday(5)
    book = ("book_appointment", {"resource_id": biz.resource_id, "confirm": True, "promessa": 1,
                                 "start": {"local": {"local_date_time": f"{friday.isoformat()}T11:00:00",
                                                     "time_zone": "America/Sao_Paulo"}}})
    biz.script({"tool_calls": [{"name": book[0], "arguments": book[1]}]}, {"text": "ok"})
    peers = env.peers()
    crashing = Worker(Processor(peers, ScriptedProvider([tool_calls(book), text_reply("ok")])), lease_seconds=1.0)
    crashing.crash_before_complete = True
    turn = await _close_remarcar(biz)
    event_id = (await biz.events("turn_closed"))[0].event_id
    claimed = 0
    try:
        while not claimed:
            event = (await env.queue.GetEvent(eq.GetEventRequest(organization_id=biz.org, event_id=event_id),
                                              metadata=env.md)).event
            if event.status != r.EVENT_STATUS_PENDING:
                break
            claimed = await crashing.drain_once(organization_id=biz.org)
    except asyncio.CancelledError:
        pass  # the simulated death: the booking was written, the event was never completed
    done = await until(lambda: env.queue.GetEvent(eq.GetEventRequest(organization_id=biz.org, event_id=event_id),
                                                  metadata=env.md), lambda e: e.event.status == r.EVENT_STATUS_DONE,
                       what="the event completed by another worker")
    if not claimed:
        # The mesh's worker got there first; a re-run of the finished event must still change nothing.
        await Processor(peers, ScriptedProvider([tool_calls(book), text_reply("ok")])).process(done.event)
    else:
        assert done.event.attempts >= 2
    appointments = await biz.appointments()
    assert len(appointments) == 1 and appointments[0].labels.start_iso.startswith(f"{friday.isoformat()}T11:00")
    assert [o.status for o in await biz.obligations(turn)] == [FULFILLED]
    assert len(await biz.events("proactive_turn_requested")) == 1
    await peers.close()


async def test_two_replicas_share_500_events_and_process_each_once(env: Env) -> None:
    biz = await env.business(role_on=False)
    contacts = [await env.contact(biz.org) for _ in range(25)]
    peers = [env.peers(), env.peers()]
    workers = [Worker(Processor(p, ScriptedProvider()), batch_size=25, poll_seconds=1.0) for p in peers]
    for w in workers:
        await w.start()
    gate = asyncio.Semaphore(25)

    async def close(contact: str) -> None:
        async with gate:
            await biz.close(dc.DeclaracaoDoTurno(nada_a_declarar=True), contact=contact)

    try:
        await asyncio.gather(*(close(contacts[i % 25]) for i in range(500)))

        async def done_count() -> int:
            stats = await env.queue.GetQueueStats(eq.GetQueueStatsRequest(organization_id=biz.org), metadata=env.md)
            return sum(c.count for c in stats.counts if c.kind == "turn_closed" and c.status == r.EVENT_STATUS_DONE)

        await until(done_count, lambda n: n == 500, seconds=120, what="500 events done")
    finally:
        for w in workers:
            await w.stop()
    first, second = (set(w.processed) for w in workers)
    assert not first & second
    for w in workers:
        assert len(w.processed) == len(set(w.processed))
        assert w.processor.metrics.total(biz.org)["turns_processed"] == len(w.processed)
    for contact in contacts[:3]:
        activities = (await env.crm_read.ListActivities(cr.ListActivitiesRequest(
            organization_id=biz.org, contact_id=contact, page_size=100), metadata=env.md)).activities
        assert len([a for a in activities if a.kind == r.ACTIVITY_KIND_NOTHING_TO_DO]) == 20
    for p in peers:
        await p.close()


async def test_catalog_lists_generated_tools_with_the_cap_and_the_callback_switch(env: Env) -> None:
    biz = await env.business(role_on=True, callback_enabled=False, packages=("agenda", "reter"))
    listing = await env.operador.ListCapabilities(pb.ListCapabilitiesRequest(organization_id=biz.org), metadata=env.md)
    by_name = {c.name: c for c in listing.capabilities}
    assert listing.max_enabled_per_agent == 25
    assert by_name["reschedule_appointment"].enabled
    assert by_name["reschedule_appointment"].method == "balcao.agenda.v1.AgendaWriteService/Reschedule"
    schema = json.loads(by_name["reschedule_appointment"].input_schema_json)
    assert "new_start" in schema["properties"] and "contact_id" not in schema["properties"]
    assert "appointment_id" not in schema["properties"] and "compromisso" in schema["properties"]
    assert not by_name["schedule_followup"].enabled and by_name["schedule_followup"].hidden_reason_pt
    assert by_name["cancel_followup"].enabled
    assert not by_name["take_conversation"].enabled  # critical: never through a package
    assert "send_message" not in by_name
    assert listing.enabled_count == sum(c.enabled for c in listing.capabilities)


async def test_bad_ids_are_invalid_arguments(env: Env) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await env.operador.RunEvent(pb.RunEventRequest(organization_id="x", event_id="y"), metadata=env.md)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_status_reports_the_obligation_figures(env: Env) -> None:
    biz = await env.business(role_on=False)
    turn = await _close_remarcar(biz)
    await until(lambda: biz.obligations(turn), resolved, what="the obligation resolved")
    status = await env.operador.GetStatus(pb.GetStatusRequest(organization_id=biz.org), metadata=env.md)
    assert status.metrics.promises_declared == 1 and status.metrics.promises_fulfilled == 1
    assert status.worker.state == pb.WORKER_STATE_RUNNING and status.worker.subscribed
    assert status.worker.HasField("last_completed_at")


async def test_a_model_naming_the_contact_is_refused_and_surfaced_not_obeyed(env: Env) -> None:
    biz = await env.business(role_on=True)
    other = await env.contact(biz.org)
    biz.script({"tool_calls": [{"name": "save_lead_note", "arguments": {
        "contact_id": other, "title": "Preferência", "body": "prefere manhã"}}]}, {"text": "ok"})
    turn = str(uuid.uuid4())
    await biz.close(declaracao(promessa=None), turn_id=turn)
    execution = await until(lambda: biz.execution(turn), lambda e: e.operador.status != 0, what="the outcome")
    assert execution.operador.used_model
    assert execution.operador.status == r.OPERADOR_OUTCOME_STATUS_ACTED  # the stage moved by code
    items = await biz.central()
    assert any(i.kind == r.CENTRAL_ITEM_KIND_OPERADOR_BLOCKED and "contact_id" in i.body_pt for i in items)
    for contact in (biz.contact, other):
        notes = (await env.crm_read.ListLeadNotes(cr.ListLeadNotesRequest(
            organization_id=biz.org, contact_id=contact), metadata=env.md)).notes
        assert list(notes) == []
    [decision] = [a for a in await biz.activities(turn) if a.event_id]
    assert "não conseguiu" in decision.summary_pt
