"""A customer's image: described by the model when the provider sees images, the caption kept always.

The description comes from `ModelProvider.describe_image`: the scripted double, and the real
Anthropic SDK against the local Messages API server (`tests/support/messages_api.py`), where the
request must carry the image itself as a base64 `image` block. The offline model sees nothing:
the caption alone, or a note that the image could not be seen.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx2
from fastapi import FastAPI

from balcao.models.anthropic import AnthropicProvider
from balcao.models.base import ImagePart, ModelUnavailable
from balcao.models.offline import OfflineProvider
from balcao.models.scripted import ScriptedProvider, text
from services.gateway.edge.content import ContentEnricher
from services.gateway.edge.directory import EvolutionInstance, StaticDirectory
from services.gateway.edge.evolution.client import EvolutionClient, RetryPolicy
from services.gateway.edge.evolution.normalize import normalize_webhook
from services.gateway.edge.http import Edge, create_edge_router
from services.gateway.edge.inbound import IMAGE_UNSEEN_PT, NormalizedInbound
from tests.gateway.edge.evolution_fixtures import load_fixture
from tests.gateway.edge.fake_evolution import running_fake_evolution
from tests.gateway.edge.runtime_double import RuntimeSinkDouble
from tests.support.messages_api import messages_api, reply_text

SEEN = "Um comprovante de PIX de R$ 150,00 para a Clínica Sorriso, pago em 21/10/2025."


def image_message(caption: bool = True, inline: bool = True) -> tuple[NormalizedInbound, dict[str, Any]]:
    body = load_fixture("03")
    if not caption:
        body["data"]["message"]["imageMessage"].pop("caption")
    if not inline:
        body["data"]["message"].pop("base64")
    (message,) = normalize_webhook(body)
    assert isinstance(message, NormalizedInbound)
    return message, body


def fixture_image_bytes() -> bytes:
    data = load_fixture("03")["data"]["message"]["base64"]  # sent without padding, as Evolution may
    return base64.b64decode(data + "=" * (-len(data) % 4))


async def test_the_description_joins_the_caption_as_the_conversador_reads_it() -> None:
    model = ScriptedProvider([text(SEEN)])
    message, _ = image_message()
    enriched = await ContentEnricher(describer=model).enrich(message)
    assert enriched.image_description == SEEN
    assert enriched.text == "Comprovante do pagamento"  # the customer's own words stay as they were
    assert enriched.to_proto().text == (
        f"[O cliente enviou uma imagem que mostra: {SEEN}]\nLegenda do cliente: Comprovante do pagamento"
    )
    (request,) = model.requests
    (image, _prompt) = request.messages[0].parts
    assert isinstance(image, ImagePart)
    assert (image.data, image.media_type) == (fixture_image_bytes(), "image/jpeg")


async def test_an_image_without_caption_is_read_from_its_description_alone() -> None:
    message, _ = image_message(caption=False)
    enriched = await ContentEnricher(describer=ScriptedProvider([text(SEEN)])).enrich(message)
    assert enriched.to_proto().text == f"[O cliente enviou uma imagem que mostra: {SEEN}]"


async def test_a_failing_model_keeps_the_caption_and_notes_why() -> None:
    model = ScriptedProvider([ModelUnavailable("anthropic 529: overloaded")])
    message, _ = image_message()
    enriched = await ContentEnricher(describer=model).enrich(message)
    assert enriched.to_proto().text == "Comprovante do pagamento"
    assert enriched.notes == ("image_description_failed: ModelUnavailable",)
    uncaptioned, _ = image_message(caption=False)
    failed = await ContentEnricher(describer=ScriptedProvider([ModelUnavailable("down")])).enrich(uncaptioned)
    assert failed.to_proto().text == IMAGE_UNSEEN_PT


async def test_the_offline_model_leaves_the_caption_or_says_kindly_that_it_could_not_see() -> None:
    enricher = ContentEnricher(describer=OfflineProvider())
    assert enricher.describer is None and not enricher.wants_media(image_message()[0])
    captioned = await enricher.enrich(image_message()[0])
    assert captioned.to_proto().text == "Comprovante do pagamento" and captioned.notes == ()
    bare = await enricher.enrich(image_message(caption=False)[0])
    assert bare.to_proto().text == IMAGE_UNSEEN_PT
    assert "imagem" in IMAGE_UNSEEN_PT and "gentileza" in IMAGE_UNSEEN_PT


async def test_an_image_not_inline_is_fetched_from_evolution_then_described() -> None:
    message, body = image_message(inline=False)
    model = ScriptedProvider([text(SEEN)])
    with running_fake_evolution({"atendimento": "tok"}) as fake:
        fake.add_media(message.message_id, b"\x89PNG\r\n\x1a\nfetched", "image/png")
        instance = EvolutionInstance("atendimento", "org", fake.url, "tok")
        async with EvolutionClient(retry=RetryPolicy(attempts=1)) as evo:
            enriched = await ContentEnricher(describer=model).enrich(
                message, media_source=evo.media_source(instance), raw_message=body["data"]
            )
    assert enriched.image_description == SEEN
    image = model.requests[0].messages[0].parts[0]
    assert isinstance(image, ImagePart) and image.data == b"\x89PNG\r\n\x1a\nfetched"


async def test_the_webhook_image_reaches_the_runtime_described_through_the_messages_api() -> None:
    body = load_fixture("03")
    secret = "segredo-do-webhook-0123456789"
    directory = StaticDirectory(
        [EvolutionInstance(body["instance"], "org-1", "http://127.0.0.1:9", body["apikey"], webhook_secret=secret)]
    )
    sink = RuntimeSinkDouble()
    with messages_api() as api:
        api.then(reply_text(SEEN))
        model = AnthropicProvider(
            api_key="sk-test", model="claude-test", cheap_model="claude-cheap", base_url=api.base_url
        )
        app = FastAPI()
        app.include_router(create_edge_router(Edge(directory, sink, ContentEnricher(describer=model))))
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://edge") as http:
            answer = await http.post(
                "/webhooks/evolution",
                content=json.dumps(body),
                headers={"x-balcao-webhook-secret": secret, "content-type": "application/json"},
            )
        await model.aclose()
        (request,) = api.accepted
    assert answer.status_code == 200 and answer.json()["accepted"] == 1
    image = request.body["messages"][0]["content"][0]
    assert image["type"] == "image" and image["source"]["media_type"] == "image/jpeg"
    assert base64.b64decode(image["source"]["data"]) == fixture_image_bytes()
    ((_, stored),) = sink.stored
    assert stored.to_proto().text.startswith(f"[O cliente enviou uma imagem que mostra: {SEEN}]")
