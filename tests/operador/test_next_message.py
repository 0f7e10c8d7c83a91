"""End to end through the runtime: after the Operador moves a booking, the customer's next message
is answered from the new time (the turn's opening and closing read the agenda as it now stands)."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator

import pytest
from google.protobuf import field_mask_pb2

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.operador.conftest import Env, declaracao, later, local, next_weekday, until
from tests.operador.test_operador import reschedule_call, resolved
from tests.support.mesh import RunningMesh


@pytest.fixture
async def client(mesh: RunningMesh) -> AsyncIterator[support.Client]:
    chat = support.Client(mesh, mesh.addr("gateway"))
    yield chat
    await chat.close()


async def test_the_customers_next_message_sees_the_new_time(env: Env, client: support.Client) -> None:
    biz = await env.business(role_on=True)
    organization = (await env.crm_read.GetOrganization(cr.GetOrganizationRequest(organization_id=biz.org),
                                                       metadata=env.md)).organization
    settings = r.OrganizationSettings()
    settings.CopyFrom(organization.settings)
    settings.runtime.debounce_ms = 1
    await env.crm_write.UpdateOrganizationSettings(cw.UpdateOrganizationSettingsRequest(
        organization_id=biz.org, settings=settings, update_mask=field_mask_pb2.FieldMask(paths=["runtime"])),
        metadata=env.md)
    phone = support.new_phone()
    # The customer wrote first (a business may only write to someone who talked to it).
    hello = await client.say(support.Org(biz.org), phone, "Oi, aqui é a Marina", wait=60)
    contact = hello.contact_id
    # Its turn's Operador run is over before the model is scripted for the turn below.
    await until(lambda: biz.execution(hello.turn_id), lambda e: e.operador.status != 0, seconds=60,
                what="the Operador's run of the first turn")
    thursday = next_weekday(4)
    assert (await biz.book(local(thursday, "09:00"), contact=contact)).HasField("appointment")
    biz.script(reschedule_call(thursday.isoformat(), "10:00"), {"text": "Remarcado para quinta às 10h."})

    # The turn where the customer asked: "quer remarcar para quinta 10h", with the promise to confirm.
    turn = str(uuid.uuid4())
    await biz.close(declaracao(prazo=later(2)), contact=contact, turn_id=turn)
    obligations = await until(lambda: biz.obligations(turn), resolved, what="the obligation resolved")
    assert [o.status for o in obligations] == [r.OBLIGATION_STATUS_FULFILLED]
    [moved] = await biz.appointments(contact)
    assert moved.labels.start_iso.startswith(f"{thursday.isoformat()}T10:00")
    assert any("remarcado" in a.summary_pt for a in await biz.activities(turn, contact))
    [proactive] = await until(lambda: biz.events("proactive_turn_requested", contact),
                              lambda es: len(es) == 1 and es[0].status != r.EVENT_STATUS_PENDING,
                              seconds=60, what="the proactive turn taken by the runtime")
    assert proactive.payload["obligation_id"] == obligations[0].obligation_id

    # The runtime's proactive turn told the customer, and Segurança let it out: the reply names the new
    # time, which its evidence (the agenda as it now stands) backs.
    async def proactive_turns() -> list[r.TurnExecution]:
        executions = (await env.crm_read.ListTurnExecutions(cr.ListTurnExecutionsRequest(
            organization_id=biz.org, contact_id=contact), metadata=env.md)).executions
        return [e for e in executions if e.trigger == r.TURN_TRIGGER_PROACTIVE]

    [told] = await until(proactive_turns, lambda es: len(es) == 1, seconds=60, what="the proactive turn's record")
    told_turn = await client.turn(support.Org(biz.org), turn_id=told.turn_id, wait=60)
    assert told_turn.outcome == gw.TURN_OUTCOME_REPLIED, told_turn
    told_text = " ".join(p.text for p in told_turn.reply_parts)
    assert re.search(r"\b10(:00|h)", told_text), told_text

    # The customer's next message, through the gateway like any other.
    next_turn = await client.say(support.Org(biz.org), phone, "Quero cancelar a minha consulta", wait=60)
    assert next_turn.status == gw.TURN_STATUS_DONE and next_turn.contact_id == contact
    sent = " ".join(p.text for p in next_turn.reply_parts)
    # What was sent names the appointment at its new time, never the old one.
    assert re.search(r"\b10(:00|h)", sent), sent
    assert not re.search(r"\b0?9(:00|h)", sent), sent
    # And the closing of that turn re-read the agenda as it now stands.
    checkpoint = (await env.crm_read.GetCheckpoint(cr.GetCheckpointRequest(
        organization_id=biz.org, contact_id=contact, turn_id=next_turn.turn_id), metadata=env.md)).checkpoint
    assert re.search(r"\b10(:00|h)", checkpoint.content.rolling_summary), checkpoint.content.rolling_summary
