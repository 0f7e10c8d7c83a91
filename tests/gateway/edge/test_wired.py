"""The edge wired into the real turn runtime: Evolution webhooks and the web channel in, replies out.

A private gateway runs in the test process against the mesh (its own database, the mesh's
Conversador and Segurança on the offline model); its HTTP app is the one `server.build` serves.
WhatsApp replies go to a local server speaking Evolution's protocol (`fake_evolution`), configured
through the admin RPCs like a real instance. Stored rows are checked in the gateway's database.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import grpc
import httpx2
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.gateway.v1 import gateway_pb2_grpc
from balcao.kit import db
from services.gateway.edge.evolution.auth import mint_webhook_jwt
from services.gateway.edge.evolution.normalize import AUDIO_WITHOUT_TRANSCRIPTION_PT, NormalizeOptions, normalize_event
from services.gateway.edge.inbound import Ignored, IgnoreReason, NormalizedInbound
from services.gateway.http import create_app
from tests.gateway import support
from tests.gateway.edge.evolution_fixtures import fixture_paths, load_fixture
from tests.gateway.edge.fake_evolution import FakeEvolution, running_fake_evolution
from tests.support.mesh import RunningMesh

TOKEN = "B5F4E3A2-1C0D-4E9F-8A7B-6C5D4E3F2A1B"  # the fixtures' body `apikey`: the instance token
SECRET = "segredo-do-webhook-0123456789"
FAILING_TOKEN = "token-da-instancia-falhas-0001"
FAILING_SECRET = "segredo-da-instancia-falhas-01"
GOOD = {"x-balcao-webhook-secret": SECRET}


@dataclass
class Wired:
    gateway: support.PrivateGateway
    org: support.Org
    evolution: FakeEvolution  # instance "atendimento"
    failing: FakeEvolution  # instance "falhas", scripted to fail
    http: httpx2.AsyncClient
    stub: gateway_pb2_grpc.GatewayServiceStub
    md: tuple[tuple[str, str], ...]
    sql: AsyncEngine
    web_key: str

    async def webhook(self, body: Any, headers: dict[str, str] | None = None) -> httpx2.Response:
        return await self.http.post(
            "/webhooks/evolution",
            content=json.dumps(body).encode(),
            headers={"content-type": "application/json", **(GOOD if headers is None else headers)},
        )

    async def rows(self, message_id: str) -> list[Any]:
        async with self.sql.connect() as conn:
            result = await conn.execute(
                sa.text(
                    "SELECT inbound_id, sender_key, jid, message_type, text, from_business, answerable, details "
                    "FROM gateway.inbound_messages WHERE message_id = :id"
                ),
                {"id": message_id},
            )
            return list(result.mappings())

    async def stored(self, message_id: str, wait: float = 30) -> list[Any]:
        """The inbound rows of a message the webhook acknowledged: the drain stores them just after."""
        deadline = time.monotonic() + wait
        while not (rows := await self.rows(message_id)):
            assert time.monotonic() < deadline, f"{message_id} never reached the runtime"
            await asyncio.sleep(0.05)
        return rows

    async def nothing_stored(self, message_id: str) -> bool:
        """Neither a delivery nor an inbound row for this message id."""
        async with self.sql.connect() as conn:
            deliveries = await conn.execute(
                sa.text("SELECT count(*) FROM gateway.edge_deliveries WHERE message_id = :id"), {"id": message_id}
            )
            return deliveries.scalar_one() == 0 and await self.rows(message_id) == []

    async def turn_of(self, message_id: str, wait: float = 60) -> gw.TurnResult:
        """The finished turn that took this message."""
        deadline = time.monotonic() + wait
        while True:
            rows = await self.rows(message_id)
            if rows:
                request = gw.GetTurnRequest(
                    organization_id=self.org.organization_id, inbound_id=str(rows[0]["inbound_id"])
                )
                request.wait.FromSeconds(5)
                turn = (await self.stub.GetTurn(request, metadata=self.md)).turn
                if turn.status in (gw.TURN_STATUS_DONE, gw.TURN_STATUS_FAILED):
                    return turn
            assert time.monotonic() < deadline, f"no finished turn for {message_id}"
            await asyncio.sleep(0.1)

    async def turns_of_contact(self, message_id: str) -> int:
        async with self.sql.connect() as conn:
            return (
                await conn.execute(
                    sa.text(
                        "SELECT count(*) FROM gateway.turns t JOIN gateway.inbound_messages m "
                        "ON m.organization_id = t.organization_id AND m.contact_id = t.contact_id "
                        "WHERE m.message_id = :id"
                    ),
                    {"id": message_id},
                )
            ).scalar_one()


@pytest.fixture(scope="module")
def fakes() -> Iterator[tuple[FakeEvolution, FakeEvolution]]:
    with ExitStack() as stack:
        main = stack.enter_context(running_fake_evolution({"atendimento": TOKEN}))
        failing = stack.enter_context(running_fake_evolution({"falhas": FAILING_TOKEN}))
        yield main, failing


@pytest.fixture(scope="module")
async def wired(mesh: RunningMesh, fakes: tuple[FakeEvolution, FakeEvolution]) -> AsyncIterator[Wired]:
    main, failing = fakes
    gateway = await support.start_gateway(
        mesh, edge_evolution_retry_base_seconds=0.01, edge_evolution_timeout_seconds=3, edge_geocode_enabled=True
    )
    # Every test here gets the offline model's same few replies from the one "atendimento" number:
    # Segurança's `repetition` gate would (rightly) take that for bulk sending and veto them, and
    # the revision's promise to involve the team makes the Operador hand the contact to a person.
    # The edge is what these tests are about, so that gate is off for their organisation.
    org = await support.create_org(
        mesh, settings=r.OrganizationSettings(seguranca=r.SegurancaSettings(gates_enabled={"repetition": False}))
    )
    channel = grpc.aio.insecure_channel(gateway.addr)
    stub = gateway_pb2_grpc.GatewayServiceStub(channel)
    md = support.metadata(mesh)
    for name, fake, token, secret in (
        ("atendimento", main, TOKEN, SECRET),
        ("falhas", failing, FAILING_TOKEN, FAILING_SECRET),
    ):
        answer = await stub.SetChannelInstance(
            gw.SetChannelInstanceRequest(
                organization_id=org.organization_id,
                instance_name=name,
                instance=gw.ChannelInstance(base_url=fake.url, api_key=token, webhook_secret=secret),
            ),
            metadata=md,
        )
        assert not answer.refusal_pt, answer.refusal_pt
    key = await stub.IssueWebChannelKey(
        gw.IssueWebChannelKeyRequest(organization_id=org.organization_id, label="site"), metadata=md
    )
    http = httpx2.AsyncClient(transport=httpx2.ASGITransport(app=create_app(gateway.app.edge)), base_url="http://gw")
    sql = create_async_engine(db.to_async_url(gateway.url))
    yield Wired(gateway, org, main, failing, http, stub, md, sql, key.secret)
    await http.aclose()
    await sql.dispose()
    await channel.close()
    await gateway.stop()


def text_event(instance: str, phone_digits: str, text: str, message_id: str | None = None) -> dict[str, Any]:
    body = load_fixture("01")
    body["instance"] = instance
    body["apikey"] = FAILING_TOKEN if instance == "falhas" else TOKEN
    body["data"]["key"]["remoteJid"] = f"{phone_digits}@s.whatsapp.net"
    body["data"]["key"]["id"] = message_id or uuid.uuid4().hex[:20].upper()
    body["data"]["message"]["conversation"] = text
    return body


def new_digits() -> str:
    return support.new_phone().lstrip("+")


def sends_to(fake: FakeEvolution, jid: str) -> list[Any]:
    return [r for r in fake.sends() if r.body.get("number") == jid]


async def eventually(check: Any, wait: float = 30) -> None:
    deadline = time.monotonic() + wait
    while not check():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.1)


# ---------------------------------------------------------------------------------------------
# Every fixture payload → the right stored inbound
# ---------------------------------------------------------------------------------------------


async def test_every_fixture_is_stored_as_the_right_inbound(wired: Wired) -> None:
    for path in fixture_paths():
        body = json.loads(path.read_text(encoding="utf-8"))
        expected = normalize_event(body, NormalizeOptions())
        response = await wired.webhook(body)
        assert response.status_code == 200, (path.name, response.text)
        summary = response.json()
        for item in expected:
            message = item.typed_by_business if isinstance(item, Ignored) else item
            if isinstance(item, Ignored) and (item.reason != IgnoreReason.FROM_ME or message is None):
                assert item.reason.value in [i["reason"] for i in summary["ignored"]], path.name
                if item.message_id:
                    assert await wired.nothing_stored(item.message_id), path.name
                continue
            assert isinstance(message, NormalizedInbound)
            (row,) = await wired.stored(message.message_id)
            assert (row["sender_key"], row["jid"], row["message_type"], row["from_business"]) == (
                message.phone,
                message.jid,
                message.type.value,
                message.from_business,
            ), path.name
            assert row["answerable"] is not message.from_business
            if message.type.value == "text":
                assert row["text"] == message.text, path.name
    # What a reader of the reference expects of a few of them, spelled out:
    by_id = {m: (await wired.stored(m))[0] for m in ("B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2",)}
    voice = by_id["B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2"]
    assert (voice["sender_key"], voice["message_type"]) == ("+5531988887777", "audio")


async def test_a_voice_note_without_transcript_gets_the_kind_fixed_reply(wired: Wired) -> None:
    body = load_fixture("04")
    body["data"]["key"]["remoteJid"] = f"{new_digits()}@s.whatsapp.net"
    body["data"]["key"]["id"] = uuid.uuid4().hex.upper()
    assert (await wired.webhook(body)).json()["accepted"] == 1
    turn = await wired.turn_of(body["data"]["key"]["id"])
    assert turn.outcome == gw.TURN_OUTCOME_FIXED_REPLY
    # The first message to a new contact opens with the AI disclosure, then the fixed text.
    (part,) = turn.reply_parts
    assert part.text.endswith(AUDIO_WITHOUT_TRANSCRIPTION_PT)
    (sent,) = sends_to(wired.evolution, body["data"]["key"]["remoteJid"])
    assert sent.body["text"] == part.text
    assert sent.headers["apikey"] == TOKEN and sent.path == "/message/sendText/atendimento"
    assert turn.reply_parts[0].provider_message_id.startswith("3EB0")  # Evolution's key.id, stored


# ---------------------------------------------------------------------------------------------
# Redeliveries and distinct messages
# ---------------------------------------------------------------------------------------------


async def test_the_same_webhook_ten_times_is_one_turn_and_one_send(wired: Wired) -> None:
    digits = new_digits()
    body = text_event("atendimento", digits, "Oi, queria marcar uma consulta")
    answers = await asyncio.gather(*(wired.webhook(body) for _ in range(10)))
    assert [a.status_code for a in answers] == [200] * 10
    assert sum(a.json()["accepted"] for a in answers) == 1
    assert sum(a.json()["duplicates"] for a in answers) == 9
    message_id = body["data"]["key"]["id"]
    turn = await wired.turn_of(message_id)
    assert turn.status == gw.TURN_STATUS_DONE and turn.reply_parts
    assert len(await wired.rows(message_id)) == 1
    assert await wired.turns_of_contact(message_id) == 1
    (part,) = turn.reply_parts
    (sent,) = sends_to(wired.evolution, f"{digits}@s.whatsapp.net")
    assert sent.body["text"] == part.text and part.provider_message_id
    # Evolution retries an old webhook once more after the answer left: still nothing new.
    assert (await wired.webhook(body)).json()["duplicates"] == 1
    assert await wired.turns_of_contact(message_id) == 1
    assert len(sends_to(wired.evolution, f"{digits}@s.whatsapp.net")) == 1


async def test_two_distinct_messages_with_one_timestamp_get_two_answers(wired: Wired) -> None:
    digits = new_digits()
    first = text_event("atendimento", digits, "Bom dia")
    second = text_event("atendimento", digits, "Vocês abrem no sábado?")
    assert first["data"]["messageTimestamp"] == second["data"]["messageTimestamp"]
    assert (await wired.webhook(first)).json()["accepted"] == 1
    await wired.turn_of(first["data"]["key"]["id"])
    assert (await wired.webhook(second)).json()["accepted"] == 1
    await wired.turn_of(second["data"]["key"]["id"])
    assert len(await wired.rows(first["data"]["key"]["id"])) == 1
    assert len(await wired.rows(second["data"]["key"]["id"])) == 1
    assert len(sends_to(wired.evolution, f"{digits}@s.whatsapp.net")) == 2


async def test_a_message_typed_on_the_business_phone_pauses_the_agent(wired: Wired) -> None:
    digits = new_digits()
    typed = text_event("atendimento", digits, "Oi Maria, aqui é a Ana da clínica")
    typed["data"]["key"]["fromMe"] = True
    assert (await wired.webhook(typed)).json()["recorded"] == 1
    customer = text_event("atendimento", digits, "Oi Ana! Pode ser amanhã às 10h?")
    assert (await wired.webhook(customer)).json()["accepted"] == 1
    turn = await wired.turn_of(customer["data"]["key"]["id"])
    assert turn.outcome == gw.TURN_OUTCOME_SILENT and not turn.reply_parts
    assert sends_to(wired.evolution, f"{digits}@s.whatsapp.net") == []


# ---------------------------------------------------------------------------------------------
# Authentication: 401 and nothing stored
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [{}, {"x-balcao-webhook-secret": "segredo-errado-0123456789"}, {"x-balcao-webhook-secret": FAILING_SECRET}],
    ids=["missing", "wrong", "another-instances"],
)
async def test_wrong_or_missing_secret_is_401_and_nothing_is_stored(wired: Wired, headers: dict[str, str]) -> None:
    body = text_event("atendimento", new_digits(), "Oi")
    response = await wired.webhook(body, headers)
    assert response.status_code == 401 and response.json()["code"] == "unauthenticated"
    assert await wired.nothing_stored(body["data"]["key"]["id"])


async def test_an_instance_nobody_configured_is_401_and_nothing_is_stored(wired: Wired) -> None:
    body = text_event("atendimento", new_digits(), "Oi")
    body["instance"] = "instancia-desconhecida"
    response = await wired.webhook(body)
    assert response.status_code == 401
    assert await wired.nothing_stored(body["data"]["key"]["id"])


async def test_a_number_no_phone_can_have_is_acknowledged_listed_and_not_stored(wired: Wired) -> None:
    # Possible (13 digits) but Brazil has no area code 20: the edge once stored it, the runtime's crm
    # call refused it on every retry of the drain. Now it is ignored at once, answered 2xx and listed.
    body = text_event("atendimento", "5520987654321", "Oi")
    message_id = body["data"]["key"]["id"]
    response = await wired.webhook(body)
    assert response.status_code == 200
    summary = response.json()
    assert (summary["accepted"], summary["ignored"][0]["reason"], summary["ignored"][0]["messageId"]) == (
        0,
        "invalid_phone",
        message_id,
    )
    assert "5520987654321@s.whatsapp.net" in summary["ignored"][0]["detail"]
    assert await wired.nothing_stored(message_id)


# ---------------------------------------------------------------------------------------------
# Sending: Evolution's failures
# ---------------------------------------------------------------------------------------------


async def test_a_number_not_on_whatsapp_is_not_delivered_and_not_retried(mesh: RunningMesh, wired: Wired) -> None:
    wired.failing.script("not_on_whatsapp")
    digits = new_digits()
    body = text_event("falhas", digits, "Oi, tudo bem?")
    assert (await wired.webhook(body, {"x-balcao-webhook-secret": FAILING_SECRET})).json()["accepted"] == 1
    turn = await wired.turn_of(body["data"]["key"]["id"])
    assert turn.outcome == gw.TURN_OUTCOME_NOT_DELIVERED
    assert "WhatsApp" in turn.detail_pt, turn.detail_pt
    assert len(sends_to(wired.failing, f"{digits}@s.whatsapp.net")) == 1  # a 4xx is never retried
    channel, read = await support.crm_read(mesh)
    async with channel:
        items = await read.ListCentralItems(
            cr.ListCentralItemsRequest(
                organization_id=wired.org.organization_id,
                contact_id=turn.contact_id,
                kinds=[r.CENTRAL_ITEM_KIND_SEND_FAILED],
            ),
            metadata=support.metadata(mesh, "gateway"),
        )
    (item,) = items.items
    assert item.turn_id == turn.turn_id and "WhatsApp" in (item.title_pt + item.body_pt)


async def test_a_server_error_is_retried_by_the_client_and_delivered_once(wired: Wired) -> None:
    wired.failing.script("server_error")
    digits = new_digits()
    body = text_event("falhas", digits, "Vocês atendem convênio?")
    assert (await wired.webhook(body, {"x-balcao-webhook-secret": FAILING_SECRET})).json()["accepted"] == 1
    turn = await wired.turn_of(body["data"]["key"]["id"])
    assert turn.status == gw.TURN_STATUS_DONE and turn.outcome != gw.TURN_OUTCOME_NOT_DELIVERED
    assert len(sends_to(wired.failing, f"{digits}@s.whatsapp.net")) == 2  # the 500, then the 201
    assert all(p.provider_message_id.startswith("3EB0") for p in turn.reply_parts)


# ---------------------------------------------------------------------------------------------
# The web channel
# ---------------------------------------------------------------------------------------------


async def test_a_web_message_with_the_organisation_key_gets_a_reply(wired: Wired) -> None:
    response = await wired.http.post(
        "/v1/web/messages",
        json={"message": "Oi, quais são os horários de atendimento?", "profileId": f"site-{uuid.uuid4().hex[:8]}"},
        headers={"authorization": f"Bearer {wired.web_key}"},
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["status"] == "SUBMIT_STATUS_ACCEPTED"
    assert answer["turnId"] and answer["turn"]["status"] == "TURN_STATUS_DONE"
    assert answer["turn"]["replyParts"] and answer["turn"]["replyParts"][0]["text"].strip()


async def test_web_keys_unknown_or_revoked_are_401(wired: Wired) -> None:
    issued = await wired.stub.IssueWebChannelKey(
        gw.IssueWebChannelKeyRequest(organization_id=wired.org.organization_id, label="landing"), metadata=wired.md
    )
    listed = await wired.stub.ListWebChannelKeys(
        gw.ListWebChannelKeysRequest(organization_id=wired.org.organization_id), metadata=wired.md
    )
    assert issued.key.key_id in [k.key_id for k in listed.keys]
    assert all(issued.secret not in str(k) for k in listed.keys)  # the secret is shown once only
    await wired.stub.RevokeWebChannelKey(
        gw.RevokeWebChannelKeyRequest(organization_id=wired.org.organization_id, key_id=issued.key.key_id),
        metadata=wired.md,
    )
    phone_id = f"site-{uuid.uuid4().hex[:8]}"
    for key in (issued.secret, "bk_nao_existe"):
        response = await wired.http.post(
            "/v1/web/messages", json={"message": "Oi", "profileId": phone_id}, headers={"x-api-key": key}
        )
        assert response.status_code == 401 and response.json()["code"] == "unauthenticated"
    async with wired.sql.connect() as conn:
        stored = await conn.execute(
            sa.text("SELECT count(*) FROM gateway.inbound_messages WHERE sender_key = :k"), {"k": f"profile:{phone_id}"}
        )
        assert stored.scalar_one() == 0


# ---------------------------------------------------------------------------------------------
# The admin RPCs of channel instances
# ---------------------------------------------------------------------------------------------


async def test_instances_are_listed_without_secrets(wired: Wired) -> None:
    listed = await wired.stub.ListChannelInstances(
        gw.ListChannelInstancesRequest(organization_id=wired.org.organization_id), metadata=wired.md
    )
    names = {i.instance_name: i for i in listed.instances}
    assert set(names) == {"atendimento", "falhas"}
    main = names["atendimento"]
    assert main.api_key_set and main.webhook_secret_set and not main.api_key and not main.webhook_secret
    assert main.base_url == wired.evolution.url and main.webhook_url.endswith("/webhooks/evolution")
    assert TOKEN not in str(listed) and SECRET not in str(listed)


async def test_set_instance_refusals_store_nothing(mesh: RunningMesh, wired: Wired) -> None:
    other = await support.create_org(mesh)

    async def refusal(org: str, name: str, instance: gw.ChannelInstance) -> str:
        answer = await wired.stub.SetChannelInstance(
            gw.SetChannelInstanceRequest(organization_id=org, instance_name=name, instance=instance), metadata=wired.md
        )
        return answer.refusal_pt

    good = {"api_key": "x" * 20, "webhook_secret": "y" * 20}
    assert "https" in await refusal(
        other.organization_id, "nova", gw.ChannelInstance(base_url="http://evo.example.com", **good)
    )
    assert "outra empresa" in await refusal(
        other.organization_id, "atendimento", gw.ChannelInstance(base_url="https://evo.example.com", **good)
    )
    assert "webhook" in await refusal(
        other.organization_id, "nova", gw.ChannelInstance(base_url="https://evo.example.com", api_key="x" * 20)
    )
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await refusal(str(uuid.uuid4()), "nova", gw.ChannelInstance(base_url="https://evo.example.com", **good))
    assert error.value.code() == grpc.StatusCode.NOT_FOUND
    async with wired.sql.connect() as conn:
        rows = await conn.execute(sa.text("SELECT instance_name, organization_id::text FROM gateway.channel_instances"))
        assert {r[0]: r[1] for r in rows} == {
            "atendimento": wired.org.organization_id,
            "falhas": wired.org.organization_id,
        }


async def test_channel_admin_is_for_admin_only(mesh: RunningMesh, wired: Wired) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await wired.stub.ListChannelInstances(
            gw.ListChannelInstancesRequest(organization_id=wired.org.organization_id),
            metadata=support.metadata(mesh, "operador"),
        )
    assert error.value.code() == grpc.StatusCode.PERMISSION_DENIED


# ---------------------------------------------------------------------------------------------
# Roles (admin)
# ---------------------------------------------------------------------------------------------


async def test_switching_the_operador_states_the_consequence_and_changes_crm(mesh: RunningMesh, wired: Wired) -> None:
    org = await support.create_org(mesh)

    async def set_role(role: str, enabled: bool) -> gw.SetRoleEnabledResponse:
        return await wired.stub.SetRoleEnabled(
            gw.SetRoleEnabledRequest(organization_id=org.organization_id, role=role, enabled=enabled),
            metadata=wired.md,
        )

    async def operador_in_crm() -> bool:
        channel, read = await support.crm_read(mesh)
        async with channel:
            got = await read.GetOrganization(
                cr.GetOrganizationRequest(organization_id=org.organization_id),
                metadata=support.metadata(mesh, "gateway"),
            )
        return got.organization.settings.roles.operador_enabled

    on = await set_role("operador", True)
    assert on.role.enabled and not on.refusal_pt and await operador_in_crm()
    off = await set_role("operador", False)
    assert not off.role.enabled and not await operador_in_crm()
    assert "ele continua registrando o básico sozinho; o que você desliga é a capacidade de mexer na operação" in (
        off.role.consequence_pt
    )
    listed = await wired.stub.ListRoles(gw.ListRolesRequest(organization_id=org.organization_id), metadata=wired.md)
    assert [(r.role, r.enabled, r.switchable) for r in listed.roles] == [
        ("conversador", True, True),
        ("operador", False, True),
        ("seguranca", True, False),
    ]

    refused = await set_role("seguranca", False)
    assert refused.refusal_pt and refused.role.enabled
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await set_role("gerente", True)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await wired.stub.ListRoles(gw.ListRolesRequest(organization_id=str(uuid.uuid4())), metadata=wired.md)
    assert error.value.code() == grpc.StatusCode.NOT_FOUND
    assert not await operador_in_crm()


# ---------------------------------------------------------------------------------------------
# Instance flags: groups, broadcasts, newsletters, the secret header's name, a separate JWT key
# ---------------------------------------------------------------------------------------------


async def set_instance(wired: Wired, name: str, **fields: Any) -> gw.SetChannelInstanceResponse:
    instance = gw.ChannelInstance(base_url=wired.evolution.url, api_key=TOKEN, **fields)
    return await wired.stub.SetChannelInstance(
        gw.SetChannelInstanceRequest(organization_id=wired.org.organization_id, instance_name=name, instance=instance),
        metadata=wired.md,
    )


def chat_event(instance: str, chat: str, participant: str) -> dict[str, Any]:
    body = text_event(instance, new_digits(), "Oi, vocês atendem sábado?")
    body["data"]["key"]["remoteJid"] = chat
    body["data"]["key"]["participant"] = participant
    return body


@pytest.mark.parametrize(
    ("flag", "chat", "reason"),
    [
        ("allow_groups", "120363025246125888@g.us", "group"),
        ("allow_broadcasts", "status@broadcast", "status"),
        ("allow_newsletters", "120363144038483540@newsletter", "newsletter"),
    ],
)
async def test_each_chat_kind_is_ignored_until_its_instance_flag_is_on(
    wired: Wired, flag: str, chat: str, reason: str
) -> None:
    name = f"flag-{reason}"
    assert not (await set_instance(wired, name, webhook_secret=SECRET)).refusal_pt
    participant = f"{new_digits()}@s.whatsapp.net"
    off = chat_event(name, chat, participant)
    answer = (await wired.webhook(off)).json()
    assert answer["accepted"] == 0 and [i["reason"] for i in answer["ignored"]] == [reason]
    assert await wired.nothing_stored(off["data"]["key"]["id"])

    stored = await set_instance(wired, name, **{flag: True})  # secrets omitted: the stored ones stay
    assert getattr(stored.instance, flag) and stored.instance.webhook_secret_set
    on = chat_event(name, chat, participant)
    assert (await wired.webhook(on)).json()["accepted"] == 1
    (row,) = await wired.stored(on["data"]["key"]["id"])
    assert row["sender_key"] == "+" + participant.split("@")[0]


async def test_the_secret_travels_in_the_header_the_instance_names(wired: Wired) -> None:
    stored = await set_instance(wired, "cabecalho", webhook_secret=SECRET, webhook_secret_header="X-Evo-Token")
    assert stored.instance.webhook_secret_header == "x-evo-token"
    body = text_event("cabecalho", new_digits(), "Oi")
    refused = await wired.webhook(body)  # the default header no longer counts
    assert refused.status_code == 401
    assert await wired.nothing_stored(body["data"]["key"]["id"])
    assert (await wired.webhook(body, {"X-Evo-Token": SECRET})).json()["accepted"] == 1


async def test_a_separate_jwt_key_signs_and_the_webhook_secret_does_not(wired: Wired) -> None:
    jwt_key = "chave-do-jwt-separada-0123456789"
    stored = await set_instance(wired, "jwt-separado", webhook_secret=SECRET, jwt_key=jwt_key)
    assert stored.instance.jwt_key_set and not stored.instance.jwt_key
    body = text_event("jwt-separado", new_digits(), "Oi")
    signed_with_secret = {"authorization": f"Bearer {mint_webhook_jwt(SECRET)}"}
    assert (await wired.webhook(body, signed_with_secret)).status_code == 401
    assert await wired.nothing_stored(body["data"]["key"]["id"])
    signed = {"authorization": f"Bearer {mint_webhook_jwt(jwt_key)}"}
    assert (await wired.webhook(body, signed)).json()["accepted"] == 1
    # A new webhook secret leaves the separate JWT key where it was.
    await set_instance(wired, "jwt-separado", webhook_secret="outro-segredo-do-webhook-01")
    again = text_event("jwt-separado", new_digits(), "Oi de novo")
    assert (await wired.webhook(again, signed)).json()["accepted"] == 1
    listed = await wired.stub.ListChannelInstances(
        gw.ListChannelInstancesRequest(organization_id=wired.org.organization_id), metadata=wired.md
    )
    assert jwt_key not in str(listed) and SECRET not in str(listed)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"webhook_secret_header": "authorization"}, "outro uso"),
        ({"webhook_secret_header": "x webhook"}, "hífens"),
        ({"jwt_key": "curta"}, "jwt_key"),
    ],
)
async def test_flag_refusals_store_nothing(wired: Wired, fields: dict[str, str], words: str) -> None:
    answer = await set_instance(wired, "recusada", webhook_secret=SECRET, **fields)
    assert words in answer.refusal_pt
    async with wired.sql.connect() as conn:
        count = await conn.execute(
            sa.text("SELECT count(*) FROM gateway.channel_instances WHERE instance_name = 'recusada'")
        )
        assert count.scalar_one() == 0
