"""Segurança reviews every draft; a veto gets a revision, three get the holding reply and a person.

And a customer who writes while the draft is being written, or while it is being reviewed, gets a
reply that answers both messages, not one that ignores the second. The Conversador here is a real conversador process
whose model is the scripted Messages API server.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.seguranca.v1 import seguranca_pb2 as sg
from balcao.seguranca.v1 import seguranca_pb2_grpc
from tests.gateway import support
from tests.gateway.conftest import Scripted
from tests.gateway.scripted import Call, Gate, draft, echo
from tests.support.mesh import RunningMesh

HOLDING = "Obrigado pela paciência! Vou pedir para alguém da equipe continuar com você."
UNAUTHORISED = "A consulta custa só R$ 50,00 à vista."


def _settings() -> r.OrganizationSettings:
    return r.OrganizationSettings(reply_catalog={"holding_reply": HOLDING})


async def test_three_vetoes_send_the_reviewed_holding_reply_and_open_a_human_case(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Veto")
    org = await support.create_org(mesh, name=name, settings=_settings())
    scripted.model.script(name, lambda call: draft(UNAUTHORISED))
    phone = support.new_phone()

    turn = await private_client.say(org, phone, "quanto custa a consulta?")

    assert turn.outcome == gw.TURN_OUTCOME_HOLDING_REPLY
    assert [v.attempt for v in turn.vetoes if v.gate == "commercial_promise"] == [1, 2, 3]
    assert all(v.guidance_pt and "commercial_promise" not in v.guidance_pt for v in turn.vetoes)
    sent = private.channel.texts_to(uuid.UUID(turn.contact_id))
    assert len(sent) == 1 and HOLDING in sent[0] and "R$ 50" not in sent[0]
    kinds = [c.kind for c in scripted.model.calls_for(name) if c.kind != "closing"]
    assert kinds == ["draft", "revision", "revision"]
    cases = await support.human_cases(mesh, org, turn.contact_id)
    assert [c.reason for c in cases] == [r.HUMAN_CASE_REASON_REVIEW_EXHAUSTED]
    record = await support.execution(mesh, org, turn.turn_id)
    holding = record.drafts[-1]
    assert HOLDING in holding.text and holding.review.verdict == "approved" and holding.review.gates


async def test_one_veto_sends_the_revision(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Revisão")
    org = await support.create_org(mesh, name=name, settings=_settings())
    revised = "Os valores dependem da avaliação. Quer que eu veja um horário para você?"

    def behaviour(call: Call) -> str:
        return draft(revised) if call.kind == "revision" else draft(UNAUTHORISED)

    scripted.model.script(name, behaviour)
    turn = await private_client.say(org, support.new_phone(), "quanto custa a consulta?")

    assert turn.outcome == gw.TURN_OUTCOME_REPLIED
    assert {v.attempt for v in turn.vetoes} == {1}
    sent = private.channel.texts_to(uuid.UUID(turn.contact_id))
    assert len(sent) == 1 and revised in sent[0] and "R$ 50" not in sent[0]
    revision = [c for c in scripted.model.calls_for(name) if c.kind == "revision"]
    assert len(revision) == 1 and revision[0].guidance
    assert not any("commercial_promise" in line for line in revision[0].guidance)


async def test_a_message_written_during_the_draft_is_answered_by_the_same_reply(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Rascunho")
    org = await support.create_org(mesh, name=name)
    gate = Gate()
    drafts: list[list[str]] = []

    def behaviour(call: Call) -> str:
        drafts.append(call.customer)
        if len(drafts) == 1:
            gate.hold()
        return echo(call)

    scripted.model.script(name, behaviour)
    phone = support.new_phone()
    first = await private_client.submit(org, phone, "quero marcar uma limpeza")
    await asyncio.to_thread(gate.reached.wait, 30)
    second = await private_client.submit(org, phone, "de preferência na sexta de manhã")
    gate.release()

    turn = await private_client.turn(org, inbound_id=first.inbound_id)
    assert set(turn.inbound_ids) == {first.inbound_id, second.inbound_id}
    later = await private_client.turn(org, inbound_id=second.inbound_id)
    assert later.turn_id == turn.turn_id
    sent = private.channel.texts_to(uuid.UUID(turn.contact_id))
    assert len(sent) == 1
    assert "quero marcar uma limpeza" in sent[0] and "de preferência na sexta de manhã" in sent[0]
    assert drafts[-1] == ["quero marcar uma limpeza", "de preferência na sexta de manhã"]


async def test_a_burst_within_the_debounce_window_is_one_turn(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Rajada")
    org = await support.create_org(
        mesh, name=name, settings=r.OrganizationSettings(runtime=r.RuntimeSettings(debounce_ms=2500))
    )
    phone = support.new_phone()
    texts = ["oi", "tudo bem?", "queria saber", "se tem horário", "amanhã cedo"]

    accepted = [await private_client.submit(org, phone, text) for text in texts]
    turns = [await private_client.turn(org, inbound_id=a.inbound_id) for a in accepted]

    assert len({t.turn_id for t in turns}) == 1
    assert set(turns[0].inbound_ids) == {a.inbound_id for a in accepted}
    sent = private.channel.texts_to(uuid.UUID(turns[0].contact_id))
    assert len(sent) == 1 and all(text in sent[0] for text in texts)
    assert [c.customer for c in scripted.model.calls_for(name) if c.kind == "draft"] == [texts]


async def test_a_draft_that_never_validates_ends_in_the_holding_reply_not_silence(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Inválida")
    org = await support.create_org(mesh, name=name, settings=_settings())
    scripted.model.script(name, lambda call: "Olá! Posso ajudar, sim.")  # never the JSON with a declaração

    turn = await private_client.say(org, support.new_phone(), "bom dia", wait=60)

    assert turn.status == gw.TURN_STATUS_DONE and turn.outcome == gw.TURN_OUTCOME_HOLDING_REPLY
    sent = private.channel.texts_to(uuid.UUID(turn.contact_id))
    assert len(sent) == 1 and HOLDING in sent[0]
    drafts = [c for c in scripted.model.calls_for(name) if c.kind == "draft"]
    assert len(drafts) == private.settings.turn_max_attempts  # every attempt tried, then the holding reply
    cases = await support.human_cases(mesh, org, turn.contact_id)
    assert [c.reason for c in cases] == [r.HUMAN_CASE_REASON_REVIEW_EXHAUSTED]


class _ReviewThenWrite(seguranca_pb2_grpc.SegurancaServiceServicer):
    """Segurança as the runtime sees it, forwarded to the mesh's; while the first reply of one
    contact is being reviewed, that customer writes again (the race this test needs, made certain)."""

    def __init__(self, mesh: RunningMesh, channel: grpc.aio.Channel, write: Callable[[], Awaitable[None]]) -> None:
        self._real = seguranca_pb2_grpc.SegurancaServiceStub(channel)
        self._md = support.metadata(mesh, "gateway")
        self._write: Callable[[], Awaitable[None]] | None = write
        self.reviewed: list[str] = []

    async def ReviewOutbound(self, request: sg.ReviewOutboundRequest, context: Any) -> sg.ReviewOutboundResponse:
        self.reviewed.append(request.draft)
        if self._write is not None:
            write, self._write = self._write, None
            await write()
        return await self._real.ReviewOutbound(request, metadata=self._md)

    async def ScreenInbound(self, request: sg.ScreenInboundRequest, context: Any) -> sg.ScreenInboundResponse:
        return await self._real.ScreenInbound(request, metadata=self._md)


async def test_a_message_written_during_the_review_is_answered_by_the_same_reply_and_nothing_stale_is_sent(
    mesh: RunningMesh, scripted: Scripted
) -> None:
    name = support.org_name("Clínica Revisão")
    org = await support.create_org(mesh, name=name)
    drafts: list[list[str]] = []

    def behaviour(call: Call) -> str:
        drafts.append(call.customer)
        return echo(call)

    scripted.model.script(name, behaviour)
    phone = support.new_phone()
    later: list[gw.SubmitInboundResponse] = []
    client: support.Client | None = None

    async def write() -> None:
        assert client is not None
        later.append(await client.submit(org, phone, "e também quero clarear os dentes"))

    async with grpc.aio.insecure_channel(mesh.addr("seguranca")) as real:
        proxy = _ReviewThenWrite(mesh, real, write)
        server = grpc.aio.server()
        seguranca_pb2_grpc.add_SegurancaServiceServicer_to_server(proxy, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        gateway = await support.start_gateway(
            mesh, peers={"conversador": scripted.conversador.addr, "seguranca": f"127.0.0.1:{port}"},
            model=scripted.chooser,
        )
        client = support.Client(mesh, gateway.addr)
        try:
            first = await client.submit(org, phone, "quero marcar uma limpeza")
            turn = await client.turn(org, inbound_id=first.inbound_id)
            sent = gateway.channel.texts_to(uuid.UUID(turn.contact_id))
        finally:
            await client.close()
            await gateway.stop()
            await server.stop(0)

    assert later and set(turn.inbound_ids) == {first.inbound_id, later[0].inbound_id}
    assert len(sent) == 1  # the reply reviewed before the second message never left
    assert "quero marcar uma limpeza" in sent[0] and "e também quero clarear os dentes" in sent[0]
    assert drafts[-1] == ["quero marcar uma limpeza", "e também quero clarear os dentes"]
    assert len(proxy.reviewed) == 2 and proxy.reviewed[-1] in sent[0]  # (after the disclosure line)
    steps = [s.name for s in (await support.execution(mesh, org, turn.turn_id)).steps]
    assert steps.count("send") == 1  # the send that did not happen is not a step of the turn
