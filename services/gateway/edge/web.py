"""The web channel's request (`POST /v1/web/messages`) → the same normalised inbound as WhatsApp.

The body is gateway.proto's `SubmitWebMessageRequest` in the protobuf JSON mapping (`message`,
`mediaBase64`, `mediaType`, `mediaMimeType`, `phone`, `profileId`, `messageId`), parsed with
`json_format`, so the shape has one source of truth. Rules: `message` or `mediaBase64`; with
media, a kind (image, audio, document) and a MIME type that agrees with it; `phone` (any common
format, normalised to E.164) or `profileId`. Bad input raises `InvalidWebMessage` naming the
field; nothing is stored then.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from google.protobuf import json_format

from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.kit.phones import InvalidPhone, normalize_phone
from services.gateway.edge.evolution.normalize import AUDIO_WITHOUT_TRANSCRIPTION_PT
from services.gateway.edge.inbound import Channel, Media, MessageType, NormalizedInbound

WEB_INSTANCE = "web"
MAX_TEXT_CHARS = 20_000
MAX_ID_CHARS = 200
_MEDIA_KINDS = {"image": MessageType.IMAGE, "audio": MessageType.AUDIO, "document": MessageType.DOCUMENT}
_DOCUMENT_MIME_PREFIXES = ("application/", "text/")


class InvalidWebMessage(ValueError):
    """The request cannot be accepted as sent; the text names the field."""


def parse_web_request(payload: Any) -> gw.SubmitWebMessageRequest:
    if not isinstance(payload, dict):
        raise InvalidWebMessage("the body must be a JSON object")
    request = gw.SubmitWebMessageRequest()
    try:
        json_format.ParseDict(payload, request, ignore_unknown_fields=False)
    except json_format.ParseError as exc:
        raise InvalidWebMessage(str(exc)) from None
    return request


def _identifier(value: str, field: str) -> str:
    value = value.strip()
    if len(value) > MAX_ID_CHARS:
        raise InvalidWebMessage(f"{field} is longer than {MAX_ID_CHARS} characters")
    if any(not ch.isprintable() for ch in value):
        raise InvalidWebMessage(f"{field} contains control characters")
    return value


def normalize_web_message(
    request: gw.SubmitWebMessageRequest,
    *,
    media_max_bytes: int,
    now: datetime | None = None,
) -> NormalizedInbound:
    text = request.message
    if "\x00" in text:
        raise InvalidWebMessage("message contains a NUL character")
    text = text.strip()
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidWebMessage(f"message is longer than {MAX_TEXT_CHARS} characters")
    content = request.media_base64
    if not text and not content:
        raise InvalidWebMessage("message or mediaBase64 is required")

    media: Media | None = None
    kind = MessageType.TEXT
    extra: dict[str, Any] = {}
    if content:
        if len(content) > media_max_bytes:
            raise InvalidWebMessage(f"mediaBase64 is larger than {media_max_bytes} bytes")
        media_type = request.media_type.strip().lower()
        if media_type not in _MEDIA_KINDS:
            raise InvalidWebMessage("mediaType must be one of image, audio, document")
        mime = request.media_mime_type.strip().lower()
        if not mime or "/" not in mime or len(mime) > 200 or not mime.isprintable():
            raise InvalidWebMessage("mediaMimeType is required with mediaBase64 (e.g. image/jpeg)")
        allowed = _DOCUMENT_MIME_PREFIXES if media_type == "document" else (f"{media_type}/",)
        if not mime.startswith(allowed):
            raise InvalidWebMessage(f"mediaMimeType {mime!r} does not match mediaType {media_type!r}")
        kind = _MEDIA_KINDS[media_type]
        media = Media(mime_type=mime, content=content)
        if kind == MessageType.AUDIO:
            extra = {"needs_transcription": True, "auto_reply_pt": AUDIO_WITHOUT_TRANSCRIPTION_PT}
    elif request.media_type or request.media_mime_type:
        raise InvalidWebMessage("mediaType and mediaMimeType go with mediaBase64")

    phone = ""
    if request.phone.strip():
        try:
            phone = normalize_phone(request.phone)
        except InvalidPhone as exc:
            raise InvalidWebMessage(exc.naming("phone")) from None
    profile = _identifier(request.profile_id, "profileId")
    if not phone and not profile:
        raise InvalidWebMessage("phone or profileId is required")
    message_id = _identifier(request.message_id, "messageId") or f"web-{uuid.uuid4().hex}"
    return NormalizedInbound(
        channel=Channel.WEB,
        channel_instance=WEB_INSTANCE,
        phone=phone,
        jid="",
        message_id=message_id,
        type=kind,
        text=text,
        media=media,
        sent_at=now or datetime.now(UTC),
        profile_id=profile,
        **extra,
    )
