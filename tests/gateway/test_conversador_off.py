"""The Conversador switched off by the owner: every inbound message becomes (or joins) a human case,
no model is called and nothing is sent on the agent's own initiative; an opt-out is still recorded
and confirmed; switching it back on answers the next message (docs/services/gateway.md "Roles")."""

from __future__ import annotations

import uuid

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.gateway.conftest import Scripted
from tests.support.mesh import RunningMesh


async def _switch(client: support.Client, org: support.Org, enabled: bool) -> gw.SetRoleEnabledResponse:
    return await client.stub.SetRoleEnabled(
        gw.SetRoleEnabledRequest(organization_id=org.organization_id, role="conversador", enabled=enabled),
        metadata=client.md,
    )


async def test_off_every_message_goes_to_one_case_without_a_model_and_on_again_the_agent_answers(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Recesso")
    org = await support.create_org(mesh, name=name)
    off = await _switch(private_client, org, False)
    assert (off.role.role, off.role.enabled, off.role.switchable, off.refusal_pt) == ("conversador", False, True, "")
    assert "cada mensagem vira um atendimento para a equipe" in off.role.consequence_pt
    phone = support.new_phone()

    first = await private_client.say(org, phone, "vocês abrem no feriado de sexta?")
    second = await private_client.say(org, phone, "preciso remarcar minha consulta")

    contact = uuid.UUID(first.contact_id)
    for turn in (first, second):
        assert (turn.status, turn.outcome, list(turn.reply_parts)) == (gw.TURN_STATUS_DONE, gw.TURN_OUTCOME_HANDOFF, [])
    assert private.channel.texts_to(contact) == []
    assert scripted.model.calls_for(name) == []
    cases = await support.human_cases(mesh, org, first.contact_id)
    assert len(cases) == 1  # the second message joined the case the first one opened
    case = cases[0]
    assert case.status == r.HUMAN_CASE_STATUS_OPEN and case.reason == r.HUMAN_CASE_REASON_OTHER
    assert "vocês abrem no feriado de sexta?" in case.summary
    assert [u.text for u in case.updates] == ["Nova mensagem do cliente: preciso remarcar minha consulta"]
    assert not (await support.contact(mesh, org, first.contact_id)).human_in_control  # the assistant may come back
    record = await support.execution(mesh, org, second.turn_id)
    assert record.route.reason == "conversador_off" and not record.usage and not record.drafts
    assert [m.text for m in record.inbound] == ["preciso remarcar minha consulta"]  # each message handled once

    on = await _switch(private_client, org, True)
    assert on.role.enabled and "responde os clientes sozinho" in on.role.consequence_pt
    answered = await private_client.say(org, phone, "oi, alguém aí?")

    assert answered.outcome == gw.TURN_OUTCOME_REPLIED
    sent = private.channel.texts_to(contact)
    assert len(sent) == 1 and sent[0].endswith("Recebi: oi, alguém aí?")
    assert scripted.model.calls_for(name)
    assert len(await support.human_cases(mesh, org, first.contact_id)) == 1 and len(case.updates) == 1


async def test_off_a_request_for_a_person_is_held_by_the_person_after_switching_back_on(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Plantão")
    org = await support.create_org(mesh, name=name)
    await _switch(private_client, org, False)
    phone = support.new_phone()

    hello = await private_client.say(org, phone, "bom dia")
    asked = await private_client.say(org, phone, "quero falar com um atendente")

    assert asked.outcome == gw.TURN_OUTCOME_HANDOFF and not asked.reply_parts
    cases = await support.human_cases(mesh, org, hello.contact_id)
    assert len(cases) == 1 and "quero falar com um atendente" in cases[0].updates[-1].text
    assert (await support.contact(mesh, org, hello.contact_id)).human_in_control
    record = await support.execution(mesh, org, asked.turn_id)
    assert (record.route.reason, record.route.used_model) == ("handoff_phrase", False)

    await _switch(private_client, org, True)
    later = await private_client.say(org, phone, "e então?")

    assert later.outcome == gw.TURN_OUTCOME_SILENT and not later.reply_parts
    assert private.channel.texts_to(uuid.UUID(hello.contact_id)) == []
    assert scripted.model.calls_for(name) == []


async def test_off_an_opt_out_is_recorded_and_confirmed_once_and_opens_no_case(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Silêncio")
    org = await support.create_org(mesh, name=name)
    await _switch(private_client, org, False)
    phone = support.new_phone()

    stop = await private_client.say(org, phone, "PARE")
    again = await private_client.say(org, phone, "pare de mandar")

    assert stop.outcome == gw.TURN_OUTCOME_OPT_OUT_CONFIRMED
    assert (await support.contact(mesh, org, stop.contact_id)).opted_out
    sent = private.channel.texts_to(uuid.UUID(stop.contact_id))
    assert len(sent) == 1 and "você não vai mais receber mensagens nossas" in sent[0]  # the confirmation, once
    assert again.outcome == gw.TURN_OUTCOME_SILENT
    assert await support.human_cases(mesh, org, stop.contact_id) == []
    assert scripted.model.calls_for(name) == []


async def test_off_proactive_turns_send_nothing_and_news_the_customer_waits_for_goes_to_the_case(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Folga")
    org = await support.create_org(mesh, name=name)
    hello = await private_client.say(org, support.new_phone(), "oi")  # answered: the Conversador is on
    await _switch(private_client, org, False)
    operador = support.metadata(mesh, "operador")

    async def proactive(kind: int, reason: str, key: str) -> gw.TurnResult:
        started = await private_client.stub.StartProactiveTurn(
            gw.StartProactiveTurnRequest(
                organization_id=org.organization_id,
                contact_id=hello.contact_id,
                trigger=gw.ProactiveTrigger(kind=kind, reason_pt=reason),
                idempotency_key=key,
            ),
            metadata=operador,
        )
        return await private_client.turn(org, turn_id=started.turn_id)

    nudge = await proactive(gw.TRIGGER_KIND_SCHEDULED, "lembrar o cliente da avaliação", "off-nudge")
    assert (nudge.outcome, list(nudge.reply_parts)) == (gw.TURN_OUTCOME_SILENT, [])
    assert await support.human_cases(mesh, org, hello.contact_id) == []

    news = await proactive(
        gw.TRIGGER_KIND_OBLIGATION_FULFILLED, "a consulta foi confirmada para quinta às 10h", "off-news"
    )
    assert (news.outcome, list(news.reply_parts)) == (gw.TURN_OUTCOME_SILENT, [])
    cases = await support.human_cases(mesh, org, hello.contact_id)
    assert len(cases) == 1 and "a consulta foi confirmada para quinta às 10h" in cases[0].summary
    sent = private.channel.texts_to(uuid.UUID(hello.contact_id))
    assert len(sent) == 1 and sent[0].endswith("Recebi: oi")  # only the answer given while on
    assert len(scripted.model.calls_for(name)) == 2  # the draft and the closing of "oi", nothing after


async def test_the_mesh_gateway_switches_the_conversador_and_lists_its_state(
    mesh: RunningMesh, client: support.Client
) -> None:
    org = await support.create_org(mesh)

    async def listed() -> dict[str, tuple[bool, bool]]:
        request = gw.ListRolesRequest(organization_id=org.organization_id)
        roles = await client.stub.ListRoles(request, metadata=client.md)
        return {role.role: (role.enabled, role.switchable) for role in roles.roles}

    assert (await listed())["conversador"] == (True, True)
    await _switch(client, org, False)
    assert (await listed())["conversador"] == (False, True)
    channel, read = await support.crm_read(mesh)
    async with channel:
        stored = await read.GetOrganization(
            cr.GetOrganizationRequest(organization_id=org.organization_id), metadata=support.metadata(mesh, "gateway")
        )
    assert not stored.organization.settings.roles.conversador_enabled
    assert not stored.organization.settings.roles.operador_enabled  # untouched (create_org keeps it off)

    turn = await client.say(org, support.new_phone(), "tem horário amanhã?")
    assert turn.outcome == gw.TURN_OUTCOME_HANDOFF and not turn.reply_parts
    assert len(await support.human_cases(mesh, org, turn.contact_id)) == 1

    await _switch(client, org, True)
    assert (await listed())["conversador"] == (True, True)
