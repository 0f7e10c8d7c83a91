"""What the edge does with content after normalising it: PDF text, offline geocoding, transcripts.

- Documents that are PDFs get their text extracted with `pypdf` (page and character caps; an
  unreadable or encrypted PDF keeps the message with a note). The file comes inline or, when a
  `MediaSource` is given (Evolution's `getBase64FromMediaMessage`), is fetched.
- Locations are reverse geocoded OFFLINE with `reverse_geocode` (GeoNames cities of 1,000+
  people, shipped inside the package): the municipality and the state, Brazilian states named in
  Portuguese with their UF. Past `max_km` from any known city only the coordinates remain.
- Images are described by the model when the configured provider sees images (Anthropic): the
  file (inline, or fetched) goes to `ModelProvider.describe_image` and the words join the caption
  (`NormalizedInbound.image_description`, folded into the text the Conversador reads as "o
  cliente enviou uma imagem que mostra …"). The offline model sees none: the caption alone, or a
  pt-BR note that the image could not be seen. A failed or slow call keeps the caption (logged).
- Audio goes to a `TranscriptionProvider` when one is configured; with none (the default), or
  when it fails, the message keeps `needs_transcription` and the kind pt-BR reply asking the
  customer to write instead.

Nothing here ever drops a message: every failure becomes a note on it.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
import threading
from dataclasses import dataclass, replace
from typing import Any, Protocol

from services.gateway.edge.inbound import MessageType, NormalizedInbound, Place

log = logging.getLogger(__name__)

_SPACES = re.compile(r"[ \t\r\f\v]+")
_BLANK_LINES = re.compile(r"\n{3,}")

# GeoNames' English names of Brazil's states → (Portuguese name, UF).
BRAZILIAN_STATES = {
    "Acre": ("Acre", "AC"),
    "Alagoas": ("Alagoas", "AL"),
    "Amapá": ("Amapá", "AP"),
    "Amazonas": ("Amazonas", "AM"),
    "Bahia": ("Bahia", "BA"),
    "Ceará": ("Ceará", "CE"),
    "Espírito Santo": ("Espírito Santo", "ES"),
    "Federal District": ("Distrito Federal", "DF"),
    "Goiás": ("Goiás", "GO"),
    "Maranhão": ("Maranhão", "MA"),
    "Mato Grosso": ("Mato Grosso", "MT"),
    "Mato Grosso do Sul": ("Mato Grosso do Sul", "MS"),
    "Minas Gerais": ("Minas Gerais", "MG"),
    "Paraná": ("Paraná", "PR"),
    "Paraíba": ("Paraíba", "PB"),
    "Pará": ("Pará", "PA"),
    "Pernambuco": ("Pernambuco", "PE"),
    "Piauí": ("Piauí", "PI"),
    "Rio Grande do Norte": ("Rio Grande do Norte", "RN"),
    "Rio Grande do Sul": ("Rio Grande do Sul", "RS"),
    "Rio de Janeiro": ("Rio de Janeiro", "RJ"),
    "Rondônia": ("Rondônia", "RO"),
    "Roraima": ("Roraima", "RR"),
    "Santa Catarina": ("Santa Catarina", "SC"),
    "Sergipe": ("Sergipe", "SE"),
    "São Paulo": ("São Paulo", "SP"),
    "Tocantins": ("Tocantins", "TO"),
}


# ---------------------------------------------------------------------------------------------
# Interfaces
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MediaFile:
    content: bytes
    mime_type: str = ""
    file_name: str = ""


class MediaSource(Protocol):
    """Fetches a message's media from the provider (bound to one channel instance)."""

    async def fetch_media(self, raw_message: dict[str, Any]) -> MediaFile: ...


class TranscriptionProvider(Protocol):
    """Turns an audio into text. None is configured by default."""

    name: str

    async def transcribe(self, audio: bytes, mime_type: str, *, language: str = "pt-BR") -> str: ...


class ImageDescriber(Protocol):
    """What the enricher needs of a model provider (`balcao.models.base.ModelProvider` is one)."""

    name: str
    sees_images: bool

    async def describe_image(self, image: bytes, media_type: str) -> str | None: ...


class Geocoder(Protocol):
    async def place(self, latitude: float, longitude: float) -> Place | None: ...


# ---------------------------------------------------------------------------------------------
# PDF text
# ---------------------------------------------------------------------------------------------


class PdfUnreadable(ValueError):
    """The file is not a PDF whose text can be read (the text says why)."""


def is_pdf(mime_type: str, file_name: str, content: bytes = b"") -> bool:
    return (
        mime_type.split(";", 1)[0].strip().lower() == "application/pdf"
        or file_name.lower().endswith(".pdf")
        or content[:5] == b"%PDF-"
    )


def extract_pdf_text(content: bytes, *, max_pages: int = 20, max_chars: int = 12_000) -> str:
    """The PDF's text, whitespace tidied, at most `max_pages` pages and `max_chars` characters."""
    from pypdf import PdfReader  # imported here: only documents pay for it

    if not content.startswith(b"%PDF-") and b"%PDF-" not in content[:1024]:
        raise PdfUnreadable("the file is not a PDF")
    try:
        reader = PdfReader(io.BytesIO(content))
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfUnreadable("the PDF is protected by a password")
        parts: list[str] = []
        size = 0
        for page in reader.pages[:max_pages]:
            text = page.extract_text() or ""
            parts.append(text)
            size += len(text)
            if size >= max_chars:
                break
    except PdfUnreadable:
        raise
    except Exception as exc:  # noqa: BLE001 - pypdf raises many kinds on malformed files: all mean "cannot read"
        raise PdfUnreadable(f"the PDF could not be read ({type(exc).__name__})") from None
    text = "\n".join(_SPACES.sub(" ", line).strip() for line in "\n".join(parts).replace("\x00", "").splitlines())
    return _BLANK_LINES.sub("\n\n", text).strip()[:max_chars]


# ---------------------------------------------------------------------------------------------
# Offline reverse geocoding
# ---------------------------------------------------------------------------------------------


class OfflineGeocoder:
    """Nearest GeoNames city, from the data `reverse_geocode` ships (loaded once, ~1 s of CPU)."""

    def __init__(self, *, max_km: float = 30.0) -> None:
        self.max_km = max_km
        self._data: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._data is None:
                import reverse_geocode

                self._data = reverse_geocode.GeocodeData()
            return self._data

    async def warm(self) -> None:
        await asyncio.to_thread(self._load)

    def lookup(self, latitude: float, longitude: float) -> Place | None:
        found = self._load().query([(latitude, longitude)])[0]
        distance = _haversine_km(latitude, longitude, found["latitude"], found["longitude"])
        if distance > self.max_km:
            return None
        country = found.get("country_code", "")
        state, code = found.get("state", ""), ""
        if country == "BR" and state in BRAZILIAN_STATES:
            state, code = BRAZILIAN_STATES[state]
        # In Brazil the county (GeoNames admin2) is the municipality; `city` may be a district.
        city = found.get("county") or found.get("city", "")
        return Place(city=city, state=state, state_code=code, country_code=country, distance_km=round(distance, 1))

    async def place(self, latitude: float, longitude: float) -> Place | None:
        return await asyncio.to_thread(self.lookup, latitude, longitude)


def _haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


# ---------------------------------------------------------------------------------------------
# The enrichment step
# ---------------------------------------------------------------------------------------------


class ContentEnricher:
    def __init__(
        self,
        *,
        geocoder: Geocoder | None = None,
        transcriber: TranscriptionProvider | None = None,
        describer: ImageDescriber | None = None,
        describe_timeout_seconds: float = 30.0,
        pdf_max_pages: int = 20,
        pdf_max_chars: int = 12_000,
        media_max_bytes: int = 16 * 1024 * 1024,
        fetch_timeout_seconds: float = 10.0,
    ) -> None:
        self.geocoder = geocoder
        self.transcriber = transcriber
        self.describer = describer if describer is not None and describer.sees_images else None
        self.describe_timeout_seconds = describe_timeout_seconds
        self.pdf_max_pages = pdf_max_pages
        self.pdf_max_chars = pdf_max_chars
        self.media_max_bytes = media_max_bytes
        self.fetch_timeout_seconds = fetch_timeout_seconds

    def wants_media(self, message: NormalizedInbound) -> bool:
        """True when enriching this message reads its file (a PDF, or an audio to transcribe)."""
        media = message.media
        if media is None:
            return False
        if message.type == MessageType.DOCUMENT:
            return is_pdf(media.mime_type, media.file_name, media.content)
        if message.type == MessageType.IMAGE:
            return self.describer is not None
        return message.type == MessageType.AUDIO and message.needs_transcription and self.transcriber is not None

    async def enrich(
        self,
        message: NormalizedInbound,
        *,
        media_source: MediaSource | None = None,
        raw_message: dict[str, Any] | None = None,
    ) -> NormalizedInbound:
        if message.type == MessageType.LOCATION and message.location is not None and self.geocoder is not None:
            message = await self._geocode(message)
        if not self.wants_media(message):
            return message
        message = await self._with_media(message, media_source, raw_message)
        if message.type == MessageType.DOCUMENT:
            return await self._read_pdf(message)
        if message.type == MessageType.IMAGE:
            return await self._describe(message)
        return await self._transcribe(message)

    async def _describe(self, message: NormalizedInbound) -> NormalizedInbound:
        media = message.media
        assert media is not None and self.describer is not None
        if not media.content:
            return _noted(message, "image_not_available")
        try:
            description = await asyncio.wait_for(
                self.describer.describe_image(media.content, media.mime_type), self.describe_timeout_seconds
            )
        except Exception as exc:  # noqa: BLE001 - the caption stays; the message is never lost
            log.warning(
                "image description failed; the caption alone goes on",
                extra={"provider": self.describer.name, "message_id": message.message_id, "error": repr(exc)},
            )
            return _noted(message, f"image_description_failed: {type(exc).__name__}")
        if not description:
            return _noted(message, "image_not_described")
        return replace(message, image_description=description.replace("\x00", ""))

    async def _geocode(self, message: NormalizedInbound) -> NormalizedInbound:
        assert message.location is not None and self.geocoder is not None
        try:
            place = await self.geocoder.place(message.location.latitude, message.location.longitude)
        except Exception as exc:  # noqa: BLE001 - the coordinates stay; the place is a convenience
            log.warning("reverse geocoding failed", extra={"error": repr(exc)})
            return _noted(message, "geocode_failed")
        return replace(message, place=place) if place else _noted(message, "geocode_no_city_nearby")

    async def _with_media(
        self, message: NormalizedInbound, source: MediaSource | None, raw: dict[str, Any] | None
    ) -> NormalizedInbound:
        media = message.media
        assert media is not None
        if media.content or source is None or raw is None:
            return message
        try:
            fetched = await asyncio.wait_for(source.fetch_media(raw), self.fetch_timeout_seconds)
        except Exception as exc:  # noqa: BLE001 - the message is kept; the runtime may fetch later
            log.warning("media fetch failed", extra={"message_id": message.message_id, "error": repr(exc)})
            return _noted(message, f"media_fetch_failed: {type(exc).__name__}")
        if len(fetched.content) > self.media_max_bytes:
            return _noted(message, "media_too_large")
        media = replace(
            media,
            content=fetched.content,
            fetch_from_provider=not fetched.content,
            mime_type=media.mime_type or fetched.mime_type,
            file_name=media.file_name or fetched.file_name,
        )
        return replace(message, media=media)

    async def _read_pdf(self, message: NormalizedInbound) -> NormalizedInbound:
        media = message.media
        assert media is not None
        if not media.content:
            return _noted(message, "pdf_not_available")
        try:
            text = await asyncio.to_thread(
                extract_pdf_text, media.content, max_pages=self.pdf_max_pages, max_chars=self.pdf_max_chars
            )
        except PdfUnreadable as exc:
            return _noted(message, f"pdf_unreadable: {exc}")
        return replace(message, document_text=text) if text else _noted(message, "pdf_without_text")

    async def _transcribe(self, message: NormalizedInbound) -> NormalizedInbound:
        media = message.media
        assert media is not None and self.transcriber is not None
        if not media.content:
            return _noted(message, "audio_not_available")
        try:
            transcript = (await self.transcriber.transcribe(media.content, media.mime_type)).strip()
        except Exception as exc:  # noqa: BLE001 - the customer is asked to write instead
            log.warning("transcription failed", extra={"provider": self.transcriber.name, "error": repr(exc)})
            return _noted(message, f"transcription_failed: {type(exc).__name__}")
        if not transcript:
            return _noted(message, "transcription_empty")
        return replace(
            message,
            text=transcript.replace("\x00", "")[:20_000],
            transcribed=True,
            needs_transcription=False,
            auto_reply_pt="",
        )


def _noted(message: NormalizedInbound, note: str) -> NormalizedInbound:
    return replace(message, notes=(*message.notes, note))
