"""Checking and normalising one inbound message before it is stored (seed 003 §3).

The HTTP edge (Evolution, web) normalises the provider's payload into an `InboundMessage`; this
module checks what the runtime relies on (an organisation, a channel instance, a sender, a
message id) and normalises the phone once more with the kit's one rule (the crm's: a number that
passes here is one crm stores), so the deduplication key is the same however the number was
written. Bad input raises `InvalidInbound` with a sentence naming the field; nothing
is stored then.
"""

from __future__ import annotations

from datetime import UTC
from uuid import UUID

from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.kit.phones import InvalidPhone, normalize_phone
from services.gateway.records import NewInbound

MAX_TEXT_CHARS = 20_000
MAX_ID_CHARS = 200

CHANNEL_NAMES = {gw.CHANNEL_WHATSAPP: "whatsapp", gw.CHANNEL_WEB: "web", gw.CHANNEL_TEST: "test"}
MESSAGE_TYPE_NAMES = {
    value: name.removeprefix("MESSAGE_TYPE_").lower()
    for name, value in gw.MessageType.items()
    if value != gw.MESSAGE_TYPE_UNSPECIFIED
}

# What the Conversador reads about content it cannot see, in pt-BR.
_ATTACHMENT_NOTES = {
    "image": "imagem",
    "audio": "áudio sem transcrição",
    "video": "vídeo",
    "document": "documento",
    "location": "localização",
    "reaction": "reação a uma mensagem",
    "sticker": "figurinha",
    "contact": "cartão de contato",
    "other": "conteúdo não suportado",
}


class InvalidInbound(ValueError):
    """The message cannot be accepted as sent; the text names the field."""


def parse_uuid(value: str, field: str) -> UUID:
    if not value.strip():
        raise InvalidInbound(f"{field} is required")
    try:
        return UUID(value.strip())
    except ValueError:
        raise InvalidInbound(f"{field} must be a UUID, got {value!r}") from None


def normalise_phone(raw: str, field: str = "message.phone") -> str:
    """The kit's one phone rule (`balcao.kit.phones`: the crm's, so crm accepts what passes here)."""
    try:
        return normalize_phone(raw)
    except InvalidPhone as exc:
        raise InvalidInbound(exc.naming(field)) from None


def normalise(request: gw.SubmitInboundRequest) -> NewInbound:
    """The message as stored, or `InvalidInbound`."""
    organization_id = parse_uuid(request.organization_id, "organization_id")
    if not request.HasField("message"):
        raise InvalidInbound("message is required")
    m = request.message
    channel = CHANNEL_NAMES.get(m.channel)
    if channel is None:
        raise InvalidInbound("message.channel is required (whatsapp, web or test)")
    instance = m.channel_instance.strip()
    if not instance:
        raise InvalidInbound("message.channel_instance is required")
    message_id = m.message_id.strip()
    if not message_id:
        raise InvalidInbound("message.message_id is required")
    for name, value in (("message.channel_instance", instance), ("message.message_id", message_id)):
        if len(value) > MAX_ID_CHARS:
            raise InvalidInbound(f"{name} is longer than {MAX_ID_CHARS} characters")
    phone = normalise_phone(m.phone) if m.phone.strip() else ""
    profile = m.profile_id.strip()
    jid = m.jid.strip()
    if jid and "@" not in jid:  # crm keeps it among the contact's JIDs and refuses anything else
        raise InvalidInbound(
            f"message.jid {jid[:60]!r} is not a WhatsApp JID (expected e.g. 5511987654321@s.whatsapp.net)"
        )
    if not phone and not profile:
        raise InvalidInbound("message.phone is required (or message.profile_id for the web channel)")
    if not phone and channel != "web":
        raise InvalidInbound("message.profile_id identifies web messages only; give message.phone")
    message_type = MESSAGE_TYPE_NAMES.get(m.type, "")
    if not message_type:
        raise InvalidInbound("message.type is required")
    text = m.text.strip()
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidInbound(f"message.text is longer than {MAX_TEXT_CHARS} characters")
    if message_type == "text" and not text:
        raise InvalidInbound("message.text is required for a text message")
    details: dict[str, object] = {}
    if m.HasField("media"):
        details["media"] = {
            "mime_type": m.media.mime_type,
            "file_name": m.media.file_name,
            "duration_seconds": m.media.duration_seconds,
            "voice_note": m.media.voice_note,
            "fetch_from_provider": m.media.fetch_from_provider,
            "inline_bytes": len(m.media.content),
        }
    note = _ATTACHMENT_NOTES.get(message_type, "")
    if m.HasField("location"):
        details["location"] = {
            "latitude": m.location.latitude,
            "longitude": m.location.longitude,
            "name": m.location.name,
            "address": m.location.address,
        }
        where = m.location.name or m.location.address
        note = f"localização: {where}" if where else "localização"
    if m.quoted_text:
        details["quoted_text"] = m.quoted_text
    sent_at = m.sent_at.ToDatetime(tzinfo=UTC) if m.HasField("sent_at") else None
    return NewInbound(
        organization_id=organization_id,
        channel=channel,
        channel_instance=instance,
        sender_key=phone or f"profile:{profile}",
        phone=phone,
        message_id=message_id,
        jid=jid,
        message_type=message_type,
        text=text,
        attachment_note=note,
        details=details,
        sender_name=m.sender_name.strip(),
        from_business=m.from_business,
        sent_at=sent_at,
    )
