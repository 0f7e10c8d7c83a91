"""Replies leave through Evolution's sendText; each answer Evolution can give is handled as the issue says."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator

import pytest

from services.gateway.edge.directory import EvolutionInstance, StaticDirectory
from services.gateway.edge.evolution.channel import EvolutionChannel
from services.gateway.edge.evolution.client import EvolutionClient, EvolutionError, RetryPolicy
from services.gateway.outbound import Recipient, SendError
from tests.gateway.edge.fake_evolution import FakeEvolution, running_fake_evolution
from tests.gateway.edge.pdfs import make_pdf

ORG = "6f1d3c1e-8a55-4c55-9a59-3a0c2d0e5b11"
JID = "5511987654321@s.whatsapp.net"


@pytest.fixture
def evolution() -> Iterator[FakeEvolution]:
    with running_fake_evolution({"atendimento": "token-atendimento"}) as fake:
        yield fake


def instance_of(fake: FakeEvolution, **overrides: str) -> EvolutionInstance:
    fields = {"name": "atendimento", "organization_id": ORG, "base_url": fake.url, "api_key": "token-atendimento"}
    fields.update(overrides)
    return EvolutionInstance(**fields)


class Pauses:
    """Records the backoff pauses instead of sleeping (no timing in tests)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


def client(pauses: Pauses | None = None, *, attempts: int = 3, timeout: float = 5.0) -> EvolutionClient:
    return EvolutionClient(
        timeout_seconds=timeout,
        connect_timeout_seconds=timeout,
        retry=RetryPolicy(attempts=attempts, base_seconds=0.5, max_seconds=8.0, jitter=0.0),
        sleep=pauses or Pauses(),
    )


async def test_201_is_a_success_with_the_provider_message_id(evolution: FakeEvolution) -> None:
    async with client() as evo:
        sent = await evo.send_text(instance_of(evolution), JID, "Olá Maria! Seu horário está confirmado.")
    assert sent.status == 201
    assert sent.provider_message_id.startswith("3EB0")
    assert sent.remote_jid == JID
    (request,) = evolution.sends()
    assert request.path == "/message/sendText/atendimento"
    assert request.headers["apikey"] == "token-atendimento"
    assert request.headers["content-type"].startswith("application/json")
    assert request.body == {"number": JID, "text": "Olá Maria! Seu horário está confirmado."}


async def test_optional_fields_follow_the_reference(evolution: FakeEvolution) -> None:
    async with client() as evo:
        target = instance_of(evolution)
        await evo.send_text(
            target, "103899771998284@lid", "oi", delay_ms=1200, link_preview=False, quoted_message_id="A1"
        )
    assert evolution.sends()[0].body == {
        "number": "103899771998284@lid",
        "text": "oi",
        "delay": 1200,
        "linkPreview": False,
        "quoted": {"key": {"id": "A1"}},
    }


async def test_number_not_on_whatsapp_is_a_permanent_failure_with_a_reason(evolution: FakeEvolution) -> None:
    evolution.script("not_on_whatsapp")
    pauses = Pauses()
    async with client(pauses) as evo:
        with pytest.raises(EvolutionError) as failure:
            await evo.send_text(instance_of(evolution), "5511900000000", "oi")
    assert failure.value.permanent
    assert failure.value.code == "not_on_whatsapp"
    assert "5511900000000" in failure.value.reason_pt and "WhatsApp" in failure.value.reason_pt
    assert len(evolution.sends()) == 1 and pauses.seconds == []  # not retried


@pytest.mark.parametrize(
    ("outcome", "code"),
    [("disconnected", "instance_disconnected"), ("license", "license_required")],
)
async def test_conditions_a_person_must_fix_are_permanent(evolution: FakeEvolution, outcome: str, code: str) -> None:
    evolution.script(outcome)
    async with client() as evo:
        with pytest.raises(EvolutionError) as failure:
            await evo.send_text(instance_of(evolution), JID, "oi")
    assert (failure.value.code, failure.value.permanent) == (code, True)
    assert len(evolution.sends()) == 1


async def test_wrong_api_key_and_unknown_instance_are_permanent(evolution: FakeEvolution) -> None:
    async with client() as evo:
        with pytest.raises(EvolutionError) as wrong_key:
            await evo.send_text(instance_of(evolution, api_key="wrong"), JID, "oi")
        with pytest.raises(EvolutionError) as unknown:
            await evo.send_text(instance_of(evolution, name="nao-existe"), JID, "oi")
    assert (wrong_key.value.code, wrong_key.value.status, wrong_key.value.permanent) == ("unauthorized", 401, True)
    assert (unknown.value.code, unknown.value.status, unknown.value.permanent) == ("unknown_instance", 404, True)
    assert "nao-existe" in unknown.value.reason_pt


async def test_5xx_is_retried_with_backoff_then_succeeds(evolution: FakeEvolution) -> None:
    evolution.script("server_error", "server_error")
    pauses = Pauses()
    async with client(pauses) as evo:
        sent = await evo.send_text(instance_of(evolution), JID, "oi")
    assert sent.provider_message_id
    assert len(evolution.sends()) == 3
    assert pauses.seconds == [0.5, 1.0]  # exponential backoff


async def test_5xx_every_time_is_a_retryable_failure(evolution: FakeEvolution) -> None:
    evolution.script("server_error", "server_error", "server_error")
    async with client() as evo:
        with pytest.raises(EvolutionError) as failure:
            await evo.send_text(instance_of(evolution), JID, "oi")
    assert (failure.value.code, failure.value.status, failure.value.permanent) == ("server_error", 500, False)
    assert len(evolution.sends()) == 3


async def test_a_hanging_server_times_out_and_is_retried(evolution: FakeEvolution) -> None:
    evolution.script("hang", "hang")
    async with client(attempts=2, timeout=0.3) as evo:
        with pytest.raises(EvolutionError) as failure:
            await evo.send_text(instance_of(evolution), JID, "oi")
    assert (failure.value.code, failure.value.permanent) == ("timeout", False)
    assert len(evolution.sends()) == 2


async def test_a_hang_then_201_succeeds(evolution: FakeEvolution) -> None:
    evolution.script("hang")
    async with client(attempts=2, timeout=0.3) as evo:
        sent = await evo.send_text(instance_of(evolution), JID, "oi")
    assert sent.provider_message_id and len(evolution.sends()) == 2


async def test_nobody_listening_is_a_retryable_connection_failure() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again before the request: connection refused
    closed = EvolutionInstance("atendimento", ORG, f"http://127.0.0.1:{port}", "k")
    async with client(attempts=2) as evo:
        with pytest.raises(EvolutionError) as failure:
            await evo.send_text(closed, JID, "oi")
    assert (failure.value.code, failure.value.permanent) == ("connection_failed", False)


async def test_blank_text_is_refused_before_calling_evolution(evolution: FakeEvolution) -> None:
    async with client() as evo:
        with pytest.raises(EvolutionError, match="invalid_request"):
            await evo.send_text(instance_of(evolution), JID, "   ")
    assert evolution.sends() == []


async def test_media_is_fetched_with_the_webhook_data(evolution: FakeEvolution) -> None:
    pdf = make_pdf([["Contrato"]])
    evolution.add_media("3AF1E2D3C4B5A6978877", pdf, "application/pdf", "contrato.pdf")
    data = {"key": {"id": "3AF1E2D3C4B5A6978877", "remoteJid": JID}, "message": {"documentMessage": {}}}
    async with client() as evo:
        media = await evo.media_source(instance_of(evolution)).fetch_media(data)
    assert (media.content, media.mime_type, media.file_name) == (pdf, "application/pdf", "contrato.pdf")
    (request,) = evolution.requests
    assert request.path == "/chat/getBase64FromMediaMessage/atendimento"
    assert request.headers["apikey"] == "token-atendimento"
    assert request.body == {"message": data, "convertToMp4": False}


async def test_media_evolution_cannot_find_is_an_error(evolution: FakeEvolution) -> None:
    async with client() as evo:
        with pytest.raises(EvolutionError) as failure:
            await evo.get_base64_from_media_message(instance_of(evolution), {"key": {"id": "nope"}})
    assert failure.value.permanent and failure.value.status == 400


# --- the runtime's outbound channel ----------------------------------------------------------


def recipient(reply_to: str = JID, instance: str = "atendimento", org: str = ORG) -> Recipient:
    return Recipient(uuid.UUID(org), uuid.uuid4(), instance, reply_to, "+5511987654321")


async def test_channel_replies_to_the_exact_jid_received(evolution: FakeEvolution) -> None:
    async with client() as evo:
        channel = EvolutionChannel(StaticDirectory([instance_of(evolution)]), evo)
        provider_id = await channel.send(recipient("103899771998284@lid"), "Oi Helena!", idempotency_key="t:0")
    assert provider_id.startswith("3EB0")
    assert evolution.sends()[0].body == {"number": "103899771998284@lid", "text": "Oi Helena!"}


async def test_channel_failures_carry_the_owners_reason(evolution: FakeEvolution) -> None:
    evolution.script("not_on_whatsapp", "server_error")
    async with client(attempts=1) as evo:
        channel = EvolutionChannel(StaticDirectory([instance_of(evolution)]), evo)
        with pytest.raises(SendError) as permanent:
            await channel.send(recipient(), "oi", idempotency_key="t:0")
        with pytest.raises(SendError) as temporary:
            await channel.send(recipient(), "oi", idempotency_key="t:1")
    assert permanent.value.permanent and "não tem WhatsApp" in str(permanent.value)
    assert not temporary.value.permanent


async def test_channel_never_sends_for_another_organisations_instance(evolution: FakeEvolution) -> None:
    async with client() as evo:
        channel = EvolutionChannel(StaticDirectory([instance_of(evolution)]), evo)
        with pytest.raises(SendError) as failure:
            await channel.send(recipient(org=str(uuid.uuid4())), "oi", idempotency_key="t:0")
    assert failure.value.permanent
    assert evolution.sends() == []
