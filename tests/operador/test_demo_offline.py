"""The demo keeps its promises with no API key: a clinic built as `balcao seed-demo` builds it, the real mesh,
the offline model in every role and no script. A booking the assistant promised is made by the Operador,
the customer is told, and the next message sees it; a time someone else took is offered again."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from balcao import demo
from balcao.agenda.v1 import agenda_read_pb2 as ar
from balcao.agenda.v1 import agenda_write_pb2 as aw
from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.operador.conftest import SP, Env, local, until
from tests.support.mesh import RunningMesh

MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
          "novembro", "dezembro")


@pytest.fixture
async def client(mesh: RunningMesh) -> AsyncIterator[support.Client]:
    chat = support.Client(mesh, mesh.addr("gateway"))
    yield chat
    await chat.close()


async def _clinic(mesh: RunningMesh, env: Env) -> str:
    # Not "Demo" in the name: `balcao chat --org demo` would find two clinics.
    seeded = await asyncio.to_thread(demo.seed, mesh.addr("crm"), mesh.addr("agenda"), mesh.token("gateway"),
                                     name=support.org_name("Clínica Sorriso Ensaio"))
    assert seeded.created
    organization = (await env.crm_read.GetOrganization(cr.GetOrganizationRequest(
        organization_id=seeded.organization_id), metadata=env.md)).organization
    assert organization.settings.roles.operador_enabled  # the demo switches the Operador on
    return seeded.organization_id


def _weekday_ahead() -> tuple[date, str]:
    """A weekday (Monday to Friday) at least two days ahead, and how a customer writes it ("12/06")."""
    day = datetime.now(ZoneInfo(SP)).date() + timedelta(days=2)
    while day.isoweekday() > 5:
        day += timedelta(days=1)
    return day, f"{day.day:02d}/{day.month:02d}"


def _names_day_and_time(text: str, day: date, hhmm: str) -> bool:
    said = text.lower()
    return (f"{day.day} de {MONTHS[day.month - 1]}" in said or f"{day.day:02d}/{day.month:02d}" in said) and (
        hhmm in said or f"{int(hhmm[:2])}h" in said)


async def _contact_appointments(env: Env, org: str, contact: str) -> list:
    return list((await env.agenda_read.ListContactAppointments(ar.ListContactAppointmentsRequest(
        organization_id=org, contact_id=contact), metadata=env.md)).appointments)


async def _proactive_reply(env: Env, org: str, contact: str, after: set[str]) -> r.TurnExecution:
    """The proactive turn the Operador asked for, once it sent something."""
    async def sent() -> list[r.TurnExecutionSummary]:
        page = await env.crm_read.ListTurnExecutions(cr.ListTurnExecutionsRequest(
            organization_id=org, contact_id=contact, page_size=20), metadata=env.md)
        return [t for t in page.executions if t.trigger == r.TURN_TRIGGER_PROACTIVE and t.turn_id not in after
                and t.sent_preview]
    [summary] = await until(sent, lambda found: len(found) == 1, seconds=90, what="the proactive turn's reply")
    return (await env.crm_read.GetTurnExecution(cr.GetTurnExecutionRequest(
        organization_id=org, turn_id=summary.turn_id), metadata=env.md)).execution


async def test_the_demo_books_what_the_assistant_promised_and_says_so(
        mesh: RunningMesh, env: Env, client: support.Client) -> None:
    org = await _clinic(mesh, env)
    day, written = _weekday_ahead()
    phone = support.new_phone()

    asked = await client.say(support.Org(org), phone, f"Quero marcar uma consulta de avaliação dia {written} às 8h",
                             wait=60)
    assert asked.status == gw.TURN_STATUS_DONE
    promised = " ".join(p.text for p in asked.reply_parts)
    assert "Vou pedir a marcação" in promised, promised
    contact = asked.contact_id

    # The Operador books it: the appointment is in the agenda, the promise kept, the timeline says so.
    [booked] = await until(lambda: _contact_appointments(env, org, contact), lambda found: len(found) == 1,
                           seconds=60, what="the appointment the Operador booked")
    assert booked.labels.start_iso.startswith(f"{day.isoformat()}T08:00")
    # With the professional the reply named (both were free; nobody was asked for).
    assert booked.service_name == "Consulta de avaliação" and f"com {booked.resource_name}" in promised, promised
    obligations = await until(lambda: _obligations(env, org, asked.turn_id),
                              lambda found: bool(found) and found[0].status != r.OBLIGATION_STATUS_OPEN,
                              what="the promise resolved")
    assert [o.status for o in obligations] == [r.OBLIGATION_STATUS_FULFILLED]
    activities = (await env.crm_read.ListActivities(cr.ListActivitiesRequest(
        organization_id=org, contact_id=contact, turn_id=asked.turn_id), metadata=env.md)).activities
    assert any("compromisso marcado" in a.summary_pt for a in activities), [a.summary_pt for a in activities]

    # The customer is told, on the business's initiative, with the day and the time.
    proactive = await _proactive_reply(env, org, contact, after=set())
    told = " ".join(p.text for p in proactive.sent)
    assert _names_day_and_time(told, day, "08:00"), told

    # And the next message sees the appointment.
    again = await client.say(support.Org(org), phone, "quero remarcar", wait=60)
    answer = " ".join(p.text for p in again.reply_parts)
    assert "Não encontrei nenhum compromisso" not in answer, answer
    assert _names_day_and_time(answer, day, "08:00"), answer


async def test_a_time_another_customer_took_is_offered_again(
        mesh: RunningMesh, env: Env, client: support.Client) -> None:
    org = await _clinic(mesh, env)
    day, written = _weekday_ahead()
    resources = (await env.agenda_read.ListResources(ar.ListResourcesRequest(organization_id=org),
                                                     metadata=env.md)).resources
    for resource in resources:  # both professionals busy at 8h
        taken = await env.agenda_write.Book(aw.BookRequest(
            organization_id=org, idempotency_key=str(uuid.uuid4()), contact_id=str(uuid.uuid4()),
            resource_id=resource.resource_id, start=local(day, "08:00"), confirm=True, booked_by="teste"),
            metadata=env.operador_md)
        assert taken.HasField("appointment")

    asked = await client.say(support.Org(org), support.new_phone(),
                             f"Quero marcar uma consulta de avaliação dia {written} às 8h", wait=60)
    answer = " ".join(p.text for p in asked.reply_parts)
    # Nothing is promised for a time that is not free: other times are offered instead, and nothing is booked.
    assert "Vou pedir a marcação" not in answer, answer
    assert "horários livres" in answer and re.search(r"\b(?!08:00)\d{2}:\d{2}", answer), answer
    assert await _obligations(env, org, asked.turn_id) == []
    assert await _contact_appointments(env, org, asked.contact_id) == []


async def _obligations(env: Env, org: str, turn_id: str) -> list[r.Obligation]:
    return list((await env.crm_read.ListObligations(cr.ListObligationsRequest(
        organization_id=org, turn_id=turn_id), metadata=env.md)).obligations)


async def test_a_time_taken_after_the_promise_fails_it_and_offers_other_times(env: Env) -> None:
    # The race the conversation cannot see: the time was free when promised, and taken before the Operador ran.
    biz = await env.business(role_on=True)  # no script: the mesh's Operador uses the offline model
    day, written = _weekday_ahead()
    assert (await biz.book(local(day, "10:00"), contact=await env.contact(biz.org))).HasField("appointment")
    turn = str(uuid.uuid4())
    await biz.close(dc.DeclaracaoDoTurno(
        intencoes=[dc.Intencao(o_que="quer marcar um horário", evidencia=f"pode ser dia {written} às 10h",
                               categoria=dc.CATEGORIA_QUER_AGENDAR)],
        promessas=[dc.Promessa(o_que=f"pedir a marcação para dia {written} às 10:00")]), turn_id=turn)
    [failed] = await until(lambda: biz.obligations(turn),
                           lambda found: bool(found) and found[0].status != r.OBLIGATION_STATUS_OPEN,
                           what="the promise resolved")
    assert failed.status == r.OBLIGATION_STATUS_FAILED
    assert "Horários livres:" in failed.resolution, failed.resolution
    assert await biz.appointments() == []
    assert any(i.kind == r.CENTRAL_ITEM_KIND_OBLIGATION_FAILED for i in await biz.central())
    # The customer is told: the runtime is asked for a proactive turn about this promise.
    [asked] = await until(lambda: biz.events("proactive_turn_requested"), lambda es: len(es) == 1,
                          what="the proactive turn requested")
    assert asked.payload["obligation_id"] == failed.obligation_id
