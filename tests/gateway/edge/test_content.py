"""PDFs are read, locations placed (offline), audio transcribed or the customer asked kindly to write."""

from __future__ import annotations

import pytest

from services.gateway.edge.content import (
    ContentEnricher,
    MediaFile,
    OfflineGeocoder,
    PdfUnreadable,
    extract_pdf_text,
)
from services.gateway.edge.directory import EvolutionInstance
from services.gateway.edge.evolution.client import EvolutionClient, RetryPolicy
from services.gateway.edge.evolution.normalize import AUDIO_WITHOUT_TRANSCRIPTION_PT, normalize_webhook
from services.gateway.edge.inbound import NormalizedInbound
from tests.gateway.edge.evolution_fixtures import load_fixture
from tests.gateway.edge.fake_evolution import running_fake_evolution
from tests.gateway.edge.pdfs import make_pdf

GEOCODER = OfflineGeocoder()


def normalized(prefix: str) -> NormalizedInbound:
    (result,) = normalize_webhook(load_fixture(prefix))
    assert isinstance(result, NormalizedInbound)
    return result


# --- PDF ---------------------------------------------------------------------------------------


def test_pdf_text_is_extracted_across_pages() -> None:
    pdf = make_pdf([["Contrato de prestação de serviços", "Valor: R$ 1.200,00"], ["Assinado em São Paulo"]])
    assert extract_pdf_text(pdf) == "Contrato de prestação de serviços\nValor: R$ 1.200,00\n\nAssinado em São Paulo"


def test_pdf_text_is_capped() -> None:
    pdf = make_pdf([[f"linha {i} " + "x" * 60] for i in range(30)])
    assert len(extract_pdf_text(pdf, max_chars=500)) == 500
    assert "linha 2 " not in extract_pdf_text(pdf, max_pages=2)


@pytest.mark.parametrize(
    "content",
    [b"not a pdf at all", b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog", make_pdf([["ok"]])[:120]],
)
def test_unreadable_pdfs_say_so(content: bytes) -> None:
    with pytest.raises(PdfUnreadable):
        extract_pdf_text(content)


async def test_document_arriving_inline_gets_its_text() -> None:
    body = load_fixture("05")
    body["data"]["message"]["base64"] = __import__("base64").b64encode(make_pdf([["Cláusula 1: prazo"]])).decode()
    (message,) = normalize_webhook(body)
    assert isinstance(message, NormalizedInbound)
    enriched = await ContentEnricher().enrich(message)
    assert enriched.document_text == "Cláusula 1: prazo"
    assert enriched.text == "Segue o contrato assinado"  # the caption stays the customer's words
    folded = "Segue o contrato assinado\n\n[Texto do documento contrato.pdf]\nCláusula 1: prazo"
    assert enriched.to_proto().text == folded


async def test_document_without_base64_is_fetched_from_evolution_and_read() -> None:
    body = load_fixture("05")
    message = normalized("05")
    with running_fake_evolution({"atendimento": "tok"}) as fake:
        fake.add_media(message.message_id, make_pdf([["Total a pagar: R$ 80,00"]]), "application/pdf", "contrato.pdf")
        instance = EvolutionInstance("atendimento", "org", fake.url, "tok")
        async with EvolutionClient(retry=RetryPolicy(attempts=1)) as evo:
            enriched = await ContentEnricher().enrich(
                message, media_source=evo.media_source(instance), raw_message=body["data"]
            )
    assert enriched.document_text == "Total a pagar: R$ 80,00"
    assert enriched.media is not None and not enriched.media.fetch_from_provider
    assert fake.requests[0].body["message"]["key"]["id"] == message.message_id


async def test_a_failed_fetch_keeps_the_message_with_a_note() -> None:
    message = normalized("05")
    with running_fake_evolution({"atendimento": "tok"}) as fake:  # no media registered: 400
        instance = EvolutionInstance("atendimento", "org", fake.url, "tok")
        async with EvolutionClient(retry=RetryPolicy(attempts=1)) as evo:
            enriched = await ContentEnricher().enrich(
                message, media_source=evo.media_source(instance), raw_message=load_fixture("05")["data"]
            )
    assert enriched.document_text == ""
    assert enriched.media is not None and enriched.media.fetch_from_provider
    assert enriched.notes[0] == "media_fetch_failed: EvolutionError"
    assert enriched.text == "Segue o contrato assinado"


async def test_a_corrupt_pdf_keeps_the_message_with_a_note() -> None:
    message = normalized("05")
    source = StaticMedia(MediaFile(b"%PDF-1.4 garbage", "application/pdf"))
    enriched = await ContentEnricher().enrich(message, media_source=source, raw_message={})
    assert enriched.notes and enriched.notes[0].startswith("pdf_unreadable")
    assert enriched.document_text == ""


class StaticMedia:
    """A MediaSource answering one file (for the enrichment's own logic; the client has its own tests)."""

    def __init__(self, media: MediaFile) -> None:
        self.media = media
        self.calls = 0

    async def fetch_media(self, raw_message: dict[str, object]) -> MediaFile:
        self.calls += 1
        return self.media


# --- location ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latitude", "longitude", "city", "state", "uf"),
    [
        (-23.5613496, -46.6565712, "São Paulo", "São Paulo", "SP"),  # MASP, fixture 06
        (-19.9245, -43.9352, "Belo Horizonte", "Minas Gerais", "MG"),
        (-15.7939, -47.8828, "Brasília", "Distrito Federal", "DF"),
        (-3.1190, -60.0217, "Manaus", "Amazonas", "AM"),
    ],
)
def test_offline_geocoder_finds_city_and_state(
    latitude: float, longitude: float, city: str, state: str, uf: str
) -> None:
    place = GEOCODER.lookup(latitude, longitude)
    assert place is not None
    assert (place.city, place.state, place.state_code, place.country_code) == (city, state, uf, "BR")


def test_open_sea_has_no_city() -> None:
    assert GEOCODER.lookup(-30.0, -30.0) is None


async def test_location_message_is_placed_and_the_place_reaches_the_proto() -> None:
    message = normalized("06")
    enriched = await ContentEnricher(geocoder=GEOCODER).enrich(message)
    assert enriched.place is not None and enriched.place.describe_pt() == "São Paulo - SP"
    assert (enriched.location.latitude, enriched.location.longitude) == (-23.5613496, -46.6565712)  # type: ignore[union-attr]
    # Without an address from WhatsApp, the place becomes the address the runtime reads.
    from dataclasses import replace

    bare = replace(message, location=replace(message.location, address="", name=""))  # type: ignore[type-var]
    placed = await ContentEnricher(geocoder=GEOCODER).enrich(bare)
    assert placed.to_proto().location.address == "São Paulo - SP"


# --- audio -------------------------------------------------------------------------------------


class ScriptedTranscriber:
    """A transcription provider double: the edge's own handling of a transcript, not a provider's."""

    name = "scripted"

    def __init__(self, answer: str | Exception) -> None:
        self.answer = answer
        self.heard: list[tuple[bytes, str]] = []

    async def transcribe(self, audio: bytes, mime_type: str, *, language: str = "pt-BR") -> str:
        self.heard.append((audio, mime_type))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


async def test_with_no_transcription_provider_the_customer_is_asked_to_write() -> None:
    source = StaticMedia(MediaFile(b"OggS...", "audio/ogg"))
    enriched = await ContentEnricher().enrich(normalized("04"), media_source=source, raw_message={})
    assert enriched.needs_transcription
    assert enriched.auto_reply_pt == AUDIO_WITHOUT_TRANSCRIPTION_PT
    assert source.calls == 0  # nothing to transcribe with: the audio is not even fetched
    assert enriched.message_id == "B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2"  # the message is kept


async def test_a_transcript_becomes_the_text() -> None:
    transcriber = ScriptedTranscriber("Queria saber se tem horário amanhã")
    source = StaticMedia(MediaFile(b"OggS-audio", "audio/ogg"))
    enriched = await ContentEnricher(transcriber=transcriber).enrich(
        normalized("04"), media_source=source, raw_message={}
    )
    assert (enriched.text, enriched.transcribed, enriched.needs_transcription, enriched.auto_reply_pt) == (
        "Queria saber se tem horário amanhã",
        True,
        False,
        "",
    )
    assert transcriber.heard == [(b"OggS-audio", "audio/ogg; codecs=opus")]


async def test_a_failing_provider_falls_back_to_asking_kindly() -> None:
    source = StaticMedia(MediaFile(b"OggS-audio", "audio/ogg"))
    enriched = await ContentEnricher(transcriber=ScriptedTranscriber(TimeoutError())).enrich(
        normalized("04"), media_source=source, raw_message={}
    )
    assert enriched.auto_reply_pt == AUDIO_WITHOUT_TRANSCRIPTION_PT
    assert enriched.notes == ("transcription_failed: TimeoutError",)
