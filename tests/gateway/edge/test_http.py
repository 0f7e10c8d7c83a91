"""The edge router: what Evolution and a site see, and what would be stored (the runtime is a test double here)."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI

from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.edge.content import ContentEnricher
from services.gateway.edge.directory import EvolutionInstance, StaticDirectory, WebChannelKey
from services.gateway.edge.evolution.auth import mint_webhook_jwt
from services.gateway.edge.evolution.client import EvolutionClient, RetryPolicy
from services.gateway.edge.http import Edge, EdgeLimits, create_edge_router
from services.gateway.edge.inbound import Channel, MessageType, Receipt
from services.gateway.http import create_app
from tests.gateway.edge.evolution_fixtures import fixture_paths, load_fixture
from tests.gateway.edge.fake_evolution import running_fake_evolution
from tests.gateway.edge.pdfs import make_pdf
from tests.gateway.edge.runtime_double import RuntimeSinkDouble

ORG = "6f1d3c1e-8a55-4c55-9a59-3a0c2d0e5b11"
INSTANCE_TOKEN = "B5F4E3A2-1C0D-4E9F-8A7B-6C5D4E3F2A1B"  # the fixtures' body `apikey`
SECRET = "segredo-do-webhook-0123456789"
JWT_KEY = "chave-jwt-do-webhook-0123456789"
WEB_KEY = "bk_live_0123456789abcdef"
GOOD = {"x-balcao-webhook-secret": SECRET}
PHONE = "+5511987654321"
LIMITS = EdgeLimits(webhook_max_body_bytes=64 * 1024, web_max_body_bytes=64 * 1024, media_max_bytes=32 * 1024)


def directory(base_url: str = "http://127.0.0.1:9") -> StaticDirectory:
    return StaticDirectory(
        [
            EvolutionInstance("atendimento", ORG, base_url, INSTANCE_TOKEN, webhook_secret=SECRET, jwt_key=JWT_KEY),
            EvolutionInstance("filial", "0b7e6c1a-0000-4000-8000-000000000002", base_url, "tok-filial", jwt_key="k2"),
        ],
        [(WEB_KEY, WebChannelKey(ORG, "key-1"))],
    )


class Harness:
    def __init__(self, edge: Edge) -> None:
        self.edge = edge
        self.sink: RuntimeSinkDouble = edge.sink  # type: ignore[assignment]
        app = FastAPI()
        app.include_router(create_edge_router(edge))
        self.app = app
        self.http = httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://edge")

    async def webhook(self, body: Any, headers: dict[str, str] | None = None, path: str = "") -> httpx2.Response:
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        hdrs = {"content-type": "application/json", **(GOOD if headers is None else headers)}
        return await self.http.post(f"/webhooks/evolution{path}", content=content, headers=hdrs)

    async def web(self, body: Any, key: str | None = WEB_KEY, **headers: str) -> httpx2.Response:
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        hdrs = {"content-type": "application/json", **headers}
        if key is not None:
            hdrs["authorization"] = f"Bearer {key}"
        return await self.http.post("/v1/web/messages", content=content, headers=hdrs)


@pytest.fixture
async def edge() -> AsyncIterator[Harness]:
    harness = Harness(Edge(directory(), RuntimeSinkDouble(), limits=LIMITS))
    yield harness
    await harness.http.aclose()


def assert_error(response: httpx2.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and body["message"], body


# ---------------------------------------------------------------------------------------------
# The webhook: every fixture
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda p: p.name[:2])
async def test_every_fixture_is_answered_2xx(edge: Harness, path: Any) -> None:
    response = await edge.webhook(json.loads(path.read_text(encoding="utf-8")))
    assert response.status_code == 200, response.text
    summary = response.json()
    prefix = path.name[:2]
    if prefix in {"08", "10"}:
        assert edge.sink.stored == []
        assert summary["ignored"][0]["reason"] == {"08": "group", "10": "other_event"}[prefix]
    elif prefix == "07":
        assert summary["recorded"] == 1
        (message,) = edge.sink.messages()
        assert message.from_business and message.text == "Já te respondo!"
    else:
        assert summary["accepted"] == 1
        (message,) = edge.sink.messages()
        assert message.channel == Channel.WHATSAPP and message.channel_instance == "atendimento"
        assert edge.sink.stored[0][0] == ORG  # the instance's organisation


async def test_fixture_content_reaches_the_runtime_as_normalised(edge: Harness) -> None:
    await edge.webhook(load_fixture("09"))
    (message,) = edge.sink.messages()
    assert (message.type, message.text, message.phone, message.jid) == (
        MessageType.TEXT,
        "Olá, vi o anúncio de vocês",
        "+5511987654321",
        "103899771998284@lid",
    )


async def test_jwt_authentication(edge: Harness) -> None:
    response = await edge.webhook(load_fixture("01"), {"authorization": f"Bearer {mint_webhook_jwt(JWT_KEY)}"})
    assert response.status_code == 200 and response.json()["accepted"] == 1


async def test_by_events_urls_are_served_too(edge: Harness) -> None:
    response = await edge.webhook(load_fixture("01"), path="/messages-upsert")
    assert response.status_code == 200 and response.json()["accepted"] == 1


# ---------------------------------------------------------------------------------------------
# Deduplication
# ---------------------------------------------------------------------------------------------


async def test_the_same_webhook_ten_times_is_stored_once(edge: Harness) -> None:
    answers = [(await edge.webhook(load_fixture("01"))).json() for _ in range(10)]
    assert [a["accepted"] for a in answers] == [1] + [0] * 9
    assert [a["duplicates"] for a in answers] == [0] + [1] * 9
    assert len(edge.sink.stored) == 1


async def test_two_distinct_messages_with_one_timestamp_are_both_stored(edge: Harness) -> None:
    second = load_fixture("01")
    second["data"]["key"]["id"] = "3A5F0E7C9B1D2E4F6B00"
    second["data"]["message"]["conversation"] = "Tem horário amanhã?"
    for body in (load_fixture("01"), second):
        assert (await edge.webhook(body)).json()["accepted"] == 1
    assert [m.text for m in edge.sink.messages()] == ["Oi, tudo bem?", "Tem horário amanhã?"]


async def test_a_list_body_stores_each_message(edge: Harness) -> None:
    response = await edge.webhook([load_fixture("01"), load_fixture("06"), load_fixture("10")])
    summary = response.json()
    assert (summary["received"], summary["accepted"], len(summary["ignored"])) == (3, 2, 1)


# ---------------------------------------------------------------------------------------------
# Authentication: 401 and nothing stored
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"x-balcao-webhook-secret": "wrong"},
        {"x-balcao-webhook-secret": SECRET[:-1]},
        {"authorization": "Bearer " + mint_webhook_jwt("another-key")},
        {"authorization": "Bearer " + mint_webhook_jwt(JWT_KEY, issued_at=0)},
    ],
    ids=["missing", "wrong", "prefix", "jwt-wrong-key", "jwt-expired"],
)
async def test_wrong_or_missing_secret_is_401_and_nothing_is_stored(edge: Harness, headers: dict[str, str]) -> None:
    assert_error(await edge.webhook(load_fixture("01"), headers), 401, "unauthenticated")
    assert edge.sink.stored == [] and edge.sink.outcomes == []


async def test_body_apikey_of_another_instance_is_401(edge: Harness) -> None:
    body = load_fixture("01")
    body["apikey"] = "not-this-instances-token"
    assert_error(await edge.webhook(body), 401, "unauthenticated")
    assert edge.sink.stored == []


async def test_unknown_instance_is_401(edge: Harness) -> None:
    body = load_fixture("01")
    body["instance"] = "desconhecida"
    assert_error(await edge.webhook(body), 401, "unauthenticated")
    assert edge.sink.stored == []


async def test_one_unauthenticated_instance_in_a_list_stores_nothing_at_all(edge: Harness) -> None:
    other = load_fixture("06")
    other["instance"] = "filial"  # needs its own JWT, which this request does not carry
    assert_error(await edge.webhook([load_fixture("01"), other]), 401, "unauthenticated")
    assert edge.sink.stored == []


# ---------------------------------------------------------------------------------------------
# Bad input: a clear 4xx and nothing stored
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        (b'{"event": "messages.upsert", "instance": ', 400, "malformed_json"),
        (b"", 400, "empty_body"),
        (b'"messages.upsert"', 400, "invalid_body"),
        (b"[]", 400, "invalid_body"),
        (b"[1, 2]", 400, "invalid_body"),
        (b'{"event": "messages.upsert"}', 400, "invalid_body"),
        (b"\xff\xfe{}", 400, "invalid_encoding"),
        (json.dumps(load_fixture("01")).encode("utf-16"), 400, "invalid_encoding"),
        (b"[" * 100_00 + b"]" * 100_00, 400, "malformed_json"),
    ],
    ids=["truncated", "empty", "scalar", "empty-list", "not-objects", "no-instance", "bad-utf8", "utf16", "deep"],
)
async def test_malformed_bodies_are_a_clear_400(edge: Harness, raw: bytes, status: int, code: str) -> None:
    assert_error(await edge.webhook(raw), status, code)
    assert edge.sink.stored == []


async def test_an_unpaired_surrogate_is_refused(edge: Harness) -> None:
    raw = json.dumps(load_fixture("01")).replace("Oi, tudo bem?", "Oi \\ud83d tudo bem?").encode()
    assert_error(await edge.webhook(raw), 400, "invalid_unicode")
    assert edge.sink.stored == []


async def test_a_paired_surrogate_escape_is_an_emoji_and_kept(edge: Harness) -> None:
    raw = json.dumps(load_fixture("01")).replace("Oi, tudo bem?", "Oi \\ud83d\\ude00").encode()
    assert (await edge.webhook(raw)).status_code == 200
    assert edge.sink.messages()[0].text == "Oi 😀"


async def test_unicode_text_survives_exactly(edge: Harness) -> None:
    text = "Olá! 👩🏽‍⚕️ consulta às 9h — مرحبا — e\u0301 — \u200f\u200b — 𝔘𝔫𝔦"
    body = load_fixture("01")
    body["data"]["message"]["conversation"] = text
    assert (await edge.webhook(body)).status_code == 200
    assert edge.sink.messages()[0].text == text


async def test_a_body_over_the_limit_is_413(edge: Harness) -> None:
    body = load_fixture("03")
    body["data"]["message"]["base64"] = "A" * (LIMITS.webhook_max_body_bytes + 10)
    assert_error(await edge.webhook(body), 413, "body_too_large")
    assert edge.sink.stored == []


async def test_a_streamed_body_over_the_limit_is_413_without_content_length(edge: Harness) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"event": "messages.upsert", "instance": "atendimento", "data": "'
        for _ in range(20):
            yield b"x" * 8192
        yield b'"}'

    response = await edge.http.post(
        "/webhooks/evolution", content=chunks(), headers={"content-type": "application/json", **GOOD}
    )
    assert_error(response, 413, "body_too_large")
    assert edge.sink.stored == []


async def test_too_many_events_is_413(edge: Harness) -> None:
    small = {"event": "presence.update", "instance": "atendimento", "data": {}}
    assert_error(await edge.webhook([small] * (LIMITS.max_events_per_body + 1)), 413, "too_many_events")


async def test_a_non_json_content_type_is_415(edge: Harness) -> None:
    response = await edge.http.post(
        "/webhooks/evolution", content=json.dumps(load_fixture("01")), headers={"content-type": "text/plain", **GOOD}
    )
    assert_error(response, 415, "unsupported_media_type")


# ---------------------------------------------------------------------------------------------
# When the runtime cannot take the message
# ---------------------------------------------------------------------------------------------


async def test_store_down_is_503_so_evolution_retries_and_the_retry_is_stored(edge: Harness) -> None:
    edge.sink.fail_next = 1
    assert_error(await edge.webhook(load_fixture("01")), 503, "unavailable")
    assert edge.sink.stored == []
    assert (await edge.webhook(load_fixture("01"))).json()["accepted"] == 1


async def test_a_message_the_runtime_rejects_is_reported_not_retried(edge: Harness) -> None:
    edge.sink.reject_phone = "+5511987654321"
    response = await edge.webhook(load_fixture("01"))
    assert response.status_code == 200
    assert response.json()["ignored"][0]["reason"] == "rejected"


async def test_a_document_is_fetched_from_evolution_and_read_before_storing() -> None:
    with running_fake_evolution({"atendimento": INSTANCE_TOKEN}) as fake:
        fake.add_media("3AF1E2D3C4B5A6978877", make_pdf([["Contrato assinado por Maria"]]), "application/pdf")
        async with EvolutionClient(retry=RetryPolicy(attempts=1)) as evo:
            harness = Harness(Edge(directory(fake.url), RuntimeSinkDouble(), ContentEnricher(), evo, limits=LIMITS))
            assert (await harness.webhook(load_fixture("05"))).json()["accepted"] == 1
            await harness.http.aclose()
    (message,) = harness.sink.messages()
    assert message.document_text == "Contrato assinado por Maria"
    assert fake.requests[0].headers["apikey"] == INSTANCE_TOKEN


# ---------------------------------------------------------------------------------------------
# The web channel
# ---------------------------------------------------------------------------------------------


async def test_web_text_message_from_a_phone(edge: Harness) -> None:
    response = await edge.web({"message": "Oi, vocês abrem sábado?", "phone": "(11) 98765-4321"})
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "SUBMIT_STATUS_ACCEPTED"
    ((org, message),) = edge.sink.stored
    assert org == ORG
    assert (message.channel, message.channel_instance, message.phone, message.type, message.text) == (
        Channel.WEB,
        "web",
        "+5511987654321",
        MessageType.TEXT,
        "Oi, vocês abrem sábado?",
    )
    assert message.message_id.startswith("web-")


async def test_web_profile_id_and_a_retried_message_id_is_a_duplicate(edge: Harness) -> None:
    body = {"message": "oi", "profileId": "visitante-42", "messageId": "site-msg-1"}
    first, second = (await edge.web(body)).json(), (await edge.web(body)).json()
    assert (first["status"], second["status"]) == ("SUBMIT_STATUS_ACCEPTED", "SUBMIT_STATUS_DUPLICATE")
    (message,) = edge.sink.messages()
    assert (message.phone, message.profile_id) == ("", "visitante-42")


async def test_web_media_image_and_pdf(edge: Harness) -> None:
    image = base64.b64encode(b"\xff\xd8\xff\xe0 a tiny jpeg").decode()
    body = {"mediaBase64": image, "mediaType": "image", "mediaMimeType": "image/jpeg", "phone": "+5511987654321"}
    assert (await edge.web(body)).status_code == 200
    pdf = base64.b64encode(make_pdf([["Orçamento: R$ 300"]])).decode()
    body = {
        "message": "segue o orçamento",
        "mediaBase64": pdf,
        "mediaType": "document",
        "mediaMimeType": "application/pdf",
        "phone": "+5511987654321",
    }
    assert (await edge.web(body)).status_code == 200
    image_message, pdf_message = edge.sink.messages()
    assert image_message.type == MessageType.IMAGE
    assert image_message.media is not None and image_message.media.content == b"\xff\xd8\xff\xe0 a tiny jpeg"
    assert (pdf_message.type, pdf_message.text, pdf_message.document_text) == (
        MessageType.DOCUMENT,
        "segue o orçamento",
        "Orçamento: R$ 300",
    )


async def test_web_audio_is_kept_and_the_kind_reply_is_returned(edge: Harness) -> None:
    body = {"mediaBase64": "T2dnUw==", "mediaType": "audio", "mediaMimeType": "audio/ogg", "profileId": "v1"}
    response = await edge.web(body)
    assert "escrever" in response.json()["autoReply"]
    assert edge.sink.messages()[0].needs_transcription


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"phone": "+5511987654321"}, "message or mediaBase64"),
        ({"message": "oi"}, "phone or profileId"),
        ({"message": "oi", "phone": "abc"}, "phone"),
        ({"message": "oi", "phone": "123"}, "phone"),
        ({"message": "oi", "phone": "+55 20 98765-4321"}, "phone '+55 20 98765-4321' is not a valid phone number"),
        ({"message": "oi", "phone": "+5511987654321", "unknown": 1}, "unknown"),
        ({"message": 5, "phone": "+5511987654321"}, "message"),
        ({"message": "a\u0000b", "phone": "+5511987654321"}, "NUL"),
        ({"message": "x" * 20_001, "phone": "+5511987654321"}, "longer"),
        ({"mediaBase64": "%%%", "mediaType": "image", "mediaMimeType": "image/png", "phone": PHONE}, "media"),
        ({"mediaBase64": "AAAA", "mediaType": "video", "mediaMimeType": "video/mp4", "phone": PHONE}, "mediaType"),
        ({"mediaBase64": "AAAA", "mediaType": "image", "mediaMimeType": "audio/ogg", "phone": PHONE}, "match"),
        ({"mediaBase64": "AAAA", "mediaType": "image", "phone": PHONE}, "mediaMimeType"),
        ({"message": "oi", "mediaType": "image", "phone": "+5511987654321"}, "go with mediaBase64"),
        ({"message": "oi", "profileId": "a\nb"}, "profileId"),
    ],
)
async def test_web_bad_input_is_a_400_naming_the_field(edge: Harness, body: dict[str, Any], field: str) -> None:
    response = await edge.web(body)
    assert_error(response, 400, "invalid_argument")
    assert field in response.json()["message"]
    assert edge.sink.stored == []


async def test_web_media_over_the_limit_is_refused(edge: Harness) -> None:
    big = base64.b64encode(b"x" * (LIMITS.media_max_bytes + 1)).decode()
    body = {"mediaBase64": big, "mediaType": "image", "mediaMimeType": "image/png", "phone": "+5511987654321"}
    assert_error(await edge.web(body), 400, "invalid_argument")


async def test_web_requires_an_organisation_key(edge: Harness) -> None:
    assert_error(await edge.web({"message": "oi", "phone": "+5511987654321"}, key=None), 401, "unauthenticated")
    assert_error(await edge.web({"message": "oi", "phone": "+5511987654321"}, key="bk_wrong"), 401, "unauthenticated")
    response = await edge.web({"message": "oi", "phone": "+5511987654321"}, key=None, **{"x-api-key": WEB_KEY})
    assert response.status_code == 200
    assert len(edge.sink.stored) == 1


async def test_web_malformed_and_huge_bodies(edge: Harness) -> None:
    assert_error(await edge.web(b"{not json"), 400, "malformed_json")
    assert_error(await edge.web(b"[1]"), 400, "invalid_argument")
    assert_error(await edge.web(b'{"message": "\\udc00", "phone": "+5511987654321"}'), 400, "invalid_unicode")
    huge = json.dumps({"message": "x" * (LIMITS.web_max_body_bytes + 1), "phone": "+5511987654321"}).encode()
    assert_error(await edge.web(huge), 413, "body_too_large")
    assert edge.sink.stored == []


class TurnsDouble:
    """Stands in for the runtime's turn lookup (`WebTurns`)."""

    async def turn_for(self, organization_id: str, receipt: Receipt, wait_seconds: float) -> gw.TurnResult | None:
        return gw.TurnResult(
            turn_id="9d2b6f0e-1111-4222-8333-944455556666",
            status=gw.TURN_STATUS_DONE,
            reply_parts=[gw.ReplyPart(text="Abrimos sim, das 9h às 13h.")],
            inbound_ids=[receipt.inbound_id],
        )


async def test_web_answer_carries_the_turn_when_the_runtime_has_it() -> None:
    harness = Harness(Edge(directory(), RuntimeSinkDouble(), turns=TurnsDouble(), limits=LIMITS))
    response = await harness.web({"message": "abrem sábado?", "phone": "+5511987654321"})
    await harness.http.aclose()
    body = response.json()
    assert body["turnId"] == "9d2b6f0e-1111-4222-8333-944455556666"
    assert body["turn"]["inboundIds"] == ["inbound-1"]
    assert body["turn"]["replyParts"][0]["text"] == "Abrimos sim, das 9h às 13h."


# ---------------------------------------------------------------------------------------------
# OpenAPI
# ---------------------------------------------------------------------------------------------


def test_openapi_lists_both_routes_with_json_errors() -> None:
    app = create_app(Edge(directory(), RuntimeSinkDouble()))
    schema = app.openapi()
    assert {"/webhooks/evolution", "/v1/web/messages"} <= set(schema["paths"])
    web = schema["paths"]["/v1/web/messages"]["post"]
    assert "mediaBase64" in web["requestBody"]["content"]["application/json"]["schema"]["properties"]
    error = web["responses"]["401"]["content"]["application/json"]["schema"]
    assert schema["components"]["schemas"][error["$ref"].rsplit("/", 1)[1]]["required"] == ["code", "message"]


class BrokenDirectory:
    """A directory whose store is down."""

    async def evolution_instance(self, name: str) -> EvolutionInstance | None:
        raise ConnectionError("the configuration store is down")

    async def web_key(self, secret: str) -> WebChannelKey | None:
        raise ConnectionError("the configuration store is down")


async def test_an_unexpected_failure_is_still_a_json_error_and_stores_nothing() -> None:
    harness = Harness(Edge(BrokenDirectory(), RuntimeSinkDouble(), limits=LIMITS))  # type: ignore[arg-type]
    webhook = await harness.webhook(load_fixture("01"))
    web = await harness.web({"message": "oi", "phone": PHONE})
    await harness.http.aclose()
    assert_error(webhook, 500, "internal")
    assert_error(web, 500, "internal")
    assert harness.sink.stored == []


async def test_the_gateway_app_serves_the_webhook_ahead_of_its_middleware_alike() -> None:
    """create_app answers the webhook before FastAPI's stack; the answers are the router's."""
    sink = RuntimeSinkDouble()
    app = create_app(Edge(directory(), sink, limits=LIMITS))
    headers = {"content-type": "application/json", **GOOD}
    body = json.dumps(load_fixture("01")).encode()
    async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://gw") as http:
        first = await http.post("/webhooks/evolution", content=body, headers=headers)
        again = await http.post("/webhooks/evolution/messages-upsert", content=body, headers=headers)
        wrong = await http.post("/webhooks/evolution", content=body, headers={"content-type": "application/json"})
        too_deep = await http.post("/webhooks/evolution/messages-upsert/x", content=body, headers=headers)
        listed = await http.get("/webhooks/evolution")
    assert first.status_code == 200 and first.json()["accepted"] == 1
    assert again.status_code == 200 and again.json()["duplicates"] == 1
    assert_error(wrong, 401, "unauthenticated")
    assert_error(too_deep, 404, "not_found")
    assert_error(listed, 405, "method_not_allowed")
    assert len(sink.stored) == 1
    assert "/webhooks/evolution" in app.openapi()["paths"]
