"""Evolution API webhook bodies → normalised inbound messages, or an explicit reason to ignore.

Follows `shared/reference/evolution-api.md` (§2, §7, §8) across the versions it lists. Rules:

- The body is one event object or a list of them; a `messages.upsert` whose `data` is a list is
  taken message by message. Every other event is ignored explicitly (`other_event`).
- No `data.key` → `no_key`. `fromMe` → `from_me`, carrying the message as typed by the business
  (`from_business=True`) so the runtime can pause the agent for that contact.
- Groups, broadcast lists, Status posts and newsletters are ignored unless the instance enables
  them.
- The phone is the first of `remoteJid`, `remoteJidAlt`, `senderPn` (for groups and Status:
  `participant`, `participantAlt`, `participantPn`) on a phone-number server, which covers
  every key shape from 2.2.x to 2.4.0-rc2. A LID with no phone anywhere → `lid_without_phone`:
  a phone is never made up. The JID replied to is `remoteJid` exactly as received.
- Wrappers (ephemeral, view-once, document-with-caption, lottie sticker) are unwrapped; the time
  is `messageTimestamp` (Unix seconds; a number, a string or a protobuf Long `{low, high}`).

Pure and synchronous: fetching media, reading PDFs and geocoding happen afterwards (`content`).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from balcao.kit.phones import InvalidPhone, is_lid, is_phone_jid, jid_server, normalize_phone
from services.gateway.edge.inbound import (
    Channel,
    Ignored,
    IgnoreReason,
    Location,
    Media,
    MessageType,
    NormalizedInbound,
)

UPSERT = "messages.upsert"
MAX_MESSAGE_ID_CHARS = 200
MAX_TEXT_CHARS = 20_000

AUDIO_WITHOUT_TRANSCRIPTION_PT = (
    "Recebi seu áudio, obrigado! Por enquanto eu ainda não consigo ouvir áudios por aqui. "
    "Você pode me escrever em texto o que precisa?"
)
UNSUPPORTED_PT = (
    "Desculpe, ainda não consigo abrir esse tipo de mensagem por aqui. Você pode me escrever em texto o que precisa?"
)

# Keys next to the content that are not content (reference §2.4, §2.6).
_SIBLINGS = frozenset({"messageContextInfo", "senderKeyDistributionMessage", "base64", "mediaUrl", "speechToText"})
# Containers whose `message` holds the real content (Evolution does not unwrap them).
_WRAPPERS = (
    "ephemeralMessage",
    "viewOnceMessage",
    "viewOnceMessageV2",
    "viewOnceMessageV2Extension",
    "documentWithCaptionMessage",
    "lottieStickerMessage",
)
# Contents that are not something a customer said: never answered.
_PROTOCOL = frozenset(
    {
        "protocolMessage",
        "editedMessage",
        "pollUpdateMessage",
        "keepInChatMessage",
        "pinInChatMessage",
        "encReactionMessage",
        "encEventResponseMessage",
        "messageHistoryBundle",
    }
)
_TEL = re.compile(r"^(?:item\d+\.)?TEL(?P<params>[^:]*):(?P<value>.*)$", re.IGNORECASE)
_WAID = re.compile(r"waid=(\d+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class NormalizeOptions:
    """What an instance lets through besides one-to-one chats."""

    allow_groups: bool = False
    allow_broadcasts: bool = False  # broadcast lists and WhatsApp Status posts
    allow_newsletters: bool = False
    # Inline media (`message.base64`) larger than this once decoded is not kept inline.
    media_max_bytes: int = 16 * 1024 * 1024


Normalized = NormalizedInbound | Ignored


def events_of(body: Any) -> list[Any]:
    """The events of a webhook body: one object, or a list of them. `ValueError` for anything else."""
    if isinstance(body, dict):
        return [body]
    if isinstance(body, list):
        return list(body)
    raise ValueError("the body must be a JSON object (one event) or a list of events")


def event_name(event: dict[str, Any]) -> str:
    raw = event.get("event")
    return raw.strip().lower().replace("_", ".").replace("-", ".") if isinstance(raw, str) else ""


def normalize_webhook(body: Any, options: NormalizeOptions = NormalizeOptions()) -> list[Normalized]:
    """Every event of the body, in order: each gives messages or reasons to ignore."""
    results: list[Normalized] = []
    for event in events_of(body):
        results.extend(normalize_event(event, options))
    return results


def normalize_event(event: Any, options: NormalizeOptions = NormalizeOptions()) -> list[Normalized]:
    if not isinstance(event, dict):
        return [Ignored(IgnoreReason.NOT_AN_OBJECT, "an element of the body is not a JSON object")]
    name = event_name(event)
    instance = event.get("instance") if isinstance(event.get("instance"), str) else ""
    if name != UPSERT:
        detail = f"event {name!r} is not handled" if name else "the event has no name"
        return [Ignored(IgnoreReason.OTHER_EVENT, detail, event=name, instance=instance)]
    data = event.get("data")
    items = data if isinstance(data, list) else [data]
    own = event.get("sender") if isinstance(event.get("sender"), str) else ""
    return [_upsert(instance, item, options, own) for item in items]


# ---------------------------------------------------------------------------------------------
# One messages.upsert
# ---------------------------------------------------------------------------------------------


def _upsert(instance: str, data: Any, options: NormalizeOptions, own_jid: str) -> Normalized:
    def ignored(reason: IgnoreReason, detail: str, message_id: str = "", **extra: Any) -> Ignored:
        return Ignored(reason, detail, event=UPSERT, instance=instance, message_id=message_id, **extra)

    key = data.get("key") if isinstance(data, dict) else None
    if not isinstance(key, dict):
        return ignored(IgnoreReason.NO_KEY, "messages.upsert without data.key")
    message_id = key.get("id")
    if not isinstance(message_id, str) or not message_id.strip() or len(message_id) > MAX_MESSAGE_ID_CHARS:
        return ignored(IgnoreReason.NO_MESSAGE_ID, "data.key.id is missing or not a usable id")
    message_id = message_id.strip()
    chat = key.get("remoteJid") if isinstance(key.get("remoteJid"), str) else ""
    if not chat:
        return ignored(IgnoreReason.NO_SENDER, "data.key.remoteJid is missing", message_id)

    server = jid_server(chat)
    from_participant = False
    if server == "g.us":
        if not options.allow_groups:
            return ignored(IgnoreReason.GROUP, "group messages are not enabled for this instance", message_id)
        from_participant = True
    elif chat.lower() == "status@broadcast":
        if not options.allow_broadcasts:
            return ignored(IgnoreReason.STATUS, "WhatsApp Status posts are not enabled for this instance", message_id)
        from_participant = True
    elif server == "broadcast":
        if not options.allow_broadcasts:
            return ignored(IgnoreReason.BROADCAST, "broadcast lists are not enabled for this instance", message_id)
    elif server == "newsletter":
        if not options.allow_newsletters:
            return ignored(IgnoreReason.NEWSLETTER, "newsletters are not enabled for this instance", message_id)
        from_participant = True

    if from_participant:
        fields: tuple[str, ...] = ("participant", "participantAlt", "participantPn")
    else:
        fields = ("remoteJid", "remoteJidAlt", "senderPn")
    candidates = [key.get(name) for name in fields]
    phone_jid = _first_phone(candidates, own_jid)
    if phone_jid is None:
        lids = [c for c in candidates if isinstance(c, str) and is_lid(c)]
        if lids:
            return ignored(
                IgnoreReason.LID_WITHOUT_PHONE,
                f"the sender is known only by the hidden-number identity {lids[0]}; no phone number came with it",
                message_id,
            )
        return ignored(IgnoreReason.NO_SENDER, f"no phone number in {', '.join(fields)}", message_id)
    try:
        phone = normalize_phone(phone_jid)
    except InvalidPhone as exc:
        return ignored(IgnoreReason.INVALID_PHONE, str(exc), message_id)

    reply_to = chat
    if chat.lower() == "status@broadcast" or server == "newsletter":
        participant = key.get("participant")
        reply_to = participant if isinstance(participant, str) and participant else phone_jid

    raw_message = data.get("message")
    message = raw_message if isinstance(raw_message, dict) else {}
    from_me = key.get("fromMe") is True
    push_name = data.get("pushName")
    base = {
        "channel": Channel.WHATSAPP,
        "channel_instance": instance,
        "phone": phone,
        "jid": reply_to,
        "message_id": message_id,
        "sent_at": _timestamp(data.get("messageTimestamp")),
        "sender_name": _clean(push_name)[:200] if isinstance(push_name, str) and not from_me else "",
        "from_business": from_me,
    }
    content = _content(message, data, options)
    if isinstance(content, tuple):
        reason, detail = content
        return ignored(reason, detail, message_id)
    normalized = NormalizedInbound(**base, **content)
    if from_me:
        return ignored(
            IgnoreReason.FROM_ME,
            "typed by a person on the connected phone: not answered; the agent pauses for this contact",
            message_id,
            typed_by_business=normalized,
        )
    return normalized


def _first_phone(candidates: Iterable[Any], own_jid: str) -> str | None:
    own = own_jid.split("@", 1)[0].split(":", 1)[0] if own_jid else ""
    for candidate in candidates:
        if not isinstance(candidate, str) or not candidate:
            continue
        if candidate.isdigit():  # some versions give `senderPn` as bare digits
            candidate = f"{candidate}@s.whatsapp.net"
        if is_phone_jid(candidate) and candidate.split("@", 1)[0].split(":", 1)[0] != own:
            return candidate
    return None


# ---------------------------------------------------------------------------------------------
# Content
# ---------------------------------------------------------------------------------------------


def _content(
    message: dict[str, Any], data: dict[str, Any], options: NormalizeOptions
) -> dict[str, Any] | tuple[IgnoreReason, str]:
    """The content fields of the message, or (reason, detail) to ignore it."""
    inline = message.get("base64")
    speech = message.get("speechToText")
    inner = _unwrap(message)
    kind = _content_key(inner)
    if kind is None:
        return (IgnoreReason.NO_CONTENT, "the message has no content")
    if kind in _PROTOCOL:
        return (IgnoreReason.PROTOCOL_MESSAGE, f"{kind} is not a customer message")
    body = inner.get(kind)
    quoted = _quoted_text(data, body)
    fields: dict[str, Any] = {"quoted_text": quoted} if quoted else {}

    if kind == "conversation" or kind == "extendedTextMessage":
        text = body if isinstance(body, str) else _str(body, "text")
        text = _clean(text)
        if not text.strip():
            return (IgnoreReason.NO_CONTENT, "an empty text message")
        return {**fields, "type": MessageType.TEXT, "text": text[:MAX_TEXT_CHARS]}
    if not isinstance(body, dict):
        body = {}
    if kind == "imageMessage":
        return {**fields, "type": MessageType.IMAGE, "text": _caption(body), "media": _media(body, inline, options)}
    if kind in ("videoMessage", "ptvMessage"):
        media = _media(body, inline, options, duration=_int(body.get("seconds")))
        return {**fields, "type": MessageType.VIDEO, "text": _caption(body), "media": media}
    if kind == "documentMessage":
        name = _clean(_str(body, "fileName") or _str(body, "title"))[:255]
        media = _media(body, inline, options, file_name=name)
        return {**fields, "type": MessageType.DOCUMENT, "text": _caption(body), "media": media}
    if kind == "audioMessage":
        media = _media(body, inline, options, duration=_int(body.get("seconds")), voice_note=body.get("ptt") is True)
        transcript = _clean(speech).strip() if isinstance(speech, str) else ""
        if transcript:  # Evolution's own speech-to-text integration already transcribed it
            return {**fields, "type": MessageType.AUDIO, "text": transcript, "media": media, "transcribed": True}
        return {
            **fields,
            "type": MessageType.AUDIO,
            "media": media,
            "needs_transcription": True,
            "auto_reply_pt": AUDIO_WITHOUT_TRANSCRIPTION_PT,
        }
    if kind == "stickerMessage":
        return {**fields, "type": MessageType.STICKER, "media": _media(body, inline, options)}
    if kind in ("locationMessage", "liveLocationMessage"):
        latitude, longitude = _float(body.get("degreesLatitude")), _float(body.get("degreesLongitude"))
        if latitude is None or longitude is None or not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
            return (IgnoreReason.NO_CONTENT, "a location without valid coordinates")
        name = _clean(_str(body, "name"))[:300]
        address = _clean(_str(body, "address"))[:500]
        comment = _clean(_str(body, "comment") or _str(body, "caption"))[:MAX_TEXT_CHARS]
        location = Location(latitude, longitude, name, address)
        return {**fields, "type": MessageType.LOCATION, "text": comment, "location": location}
    if kind == "contactMessage":
        return {**fields, "type": MessageType.CONTACT, "text": _contacts_text([body])}
    if kind == "contactsArrayMessage":
        contacts = [c for c in body.get("contacts") or [] if isinstance(c, dict)]
        return {**fields, "type": MessageType.CONTACT, "text": _contacts_text(contacts)}
    if kind == "reactionMessage":
        emoji = _clean(_str(body, "text"))
        if not emoji:
            return (IgnoreReason.REACTION_REMOVED, "the customer removed a reaction")
        target = body.get("key") if isinstance(body.get("key"), dict) else {}
        return {
            **fields,
            "type": MessageType.REACTION,
            "text": emoji[:50],
            "reacted_message_id": _str(target, "id")[:MAX_MESSAGE_ID_CHARS],
        }
    if kind == "buttonsResponseMessage":
        shown, chosen = _str(body, "selectedDisplayText"), _str(body, "selectedButtonId")
        return _choice(fields, MessageType.BUTTON_REPLY, shown, chosen)
    if kind == "templateButtonReplyMessage":
        shown, chosen = _str(body, "selectedDisplayText"), _str(body, "selectedId")
        return _choice(fields, MessageType.BUTTON_REPLY, shown, chosen)
    if kind == "interactiveResponseMessage":
        shown = _str(body.get("body") if isinstance(body.get("body"), dict) else {}, "text")
        flow = body.get("nativeFlowResponseMessage") if isinstance(body.get("nativeFlowResponseMessage"), dict) else {}
        return _choice(fields, MessageType.BUTTON_REPLY, shown, _flow_choice(_str(flow, "paramsJson")))
    if kind == "listResponseMessage":
        reply = body.get("singleSelectReply") if isinstance(body.get("singleSelectReply"), dict) else {}
        # What the customer saw is the row's title; the row id is kept for whoever sent the list.
        return _choice(fields, MessageType.LIST_REPLY, _str(body, "title"), _str(reply, "selectedRowId"))
    # Polls, events, products, orders, payments, invitations, …: kept, and declined kindly.
    return {**fields, "type": MessageType.OTHER, "auto_reply_pt": UNSUPPORTED_PT, "notes": (f"unsupported: {kind}",)}


def _choice(
    fields: dict[str, Any], kind: MessageType, shown: str, chosen: str
) -> dict[str, Any] | tuple[IgnoreReason, str]:
    text = _clean(shown or chosen).strip()
    if not text:
        return (IgnoreReason.NO_CONTENT, f"a {kind.value} without a choice")
    return {**fields, "type": kind, "text": text[:MAX_TEXT_CHARS], "selected_id": _clean(chosen)[:200]}


def _flow_choice(params_json: str) -> str:
    try:
        params = json.loads(params_json) if params_json else {}
    except ValueError:
        return ""
    if isinstance(params, dict):
        for name in ("id", "selected_id", "selectedId"):
            if isinstance(params.get(name), str):
                return str(params[name])
    return ""


def _unwrap(message: dict[str, Any]) -> dict[str, Any]:
    for _ in range(6):  # wrappers nest (ephemeral → view-once → image); a bound keeps it finite
        for wrapper in _WRAPPERS:
            box = message.get(wrapper)
            if isinstance(box, dict) and isinstance(box.get("message"), dict):
                message = box["message"]
                break
        else:
            return message
    return message


def _content_key(message: dict[str, Any]) -> str | None:
    """Baileys' `getContentType`: the first key that is `conversation` or contains `Message`."""
    for name, value in message.items():
        if name in _SIBLINGS or value is None:
            continue
        if name == "conversation" or "Message" in name:
            return name
    return None


def _media(
    body: dict[str, Any],
    inline: Any,
    options: NormalizeOptions,
    *,
    file_name: str = "",
    duration: int = 0,
    voice_note: bool = False,
) -> Media:
    mime = _clean(_str(body, "mimetype"))[:200]
    content = b""
    if isinstance(inline, str) and inline:
        if len(inline) * 3 // 4 <= options.media_max_bytes:
            content = _decode_base64(inline)
    return Media(
        mime_type=mime,
        content=content,
        fetch_from_provider=not content,
        file_name=file_name,
        duration_seconds=duration,
        voice_note=voice_note,
    )


def _decode_base64(text: str) -> bytes:
    compact = "".join(text.split())
    if compact.startswith("data:") and "," in compact:  # tolerate a data: URL, though Evolution sends none
        compact = compact.split(",", 1)[1]
    try:
        return base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True)
    except (binascii.Error, ValueError):
        return b""


def _quoted_text(data: dict[str, Any], body: Any) -> str:
    for context in (data.get("contextInfo"), body.get("contextInfo") if isinstance(body, dict) else None):
        if isinstance(context, dict) and isinstance(context.get("quotedMessage"), dict):
            return _plain_text(_unwrap(context["quotedMessage"]))[:2000]
    return ""


def _plain_text(message: dict[str, Any]) -> str:
    if isinstance(message.get("conversation"), str):
        return _clean(message["conversation"])
    for name, field in (
        ("extendedTextMessage", "text"),
        ("imageMessage", "caption"),
        ("videoMessage", "caption"),
        ("documentMessage", "caption"),
        ("documentMessage", "fileName"),
    ):
        inner = message.get(name)
        if isinstance(inner, dict) and isinstance(inner.get(field), str) and inner[field]:
            return _clean(inner[field])
    return ""


def _caption(body: dict[str, Any]) -> str:
    return _clean(_str(body, "caption"))[:MAX_TEXT_CHARS]


def _contacts_text(cards: list[dict[str, Any]]) -> str:
    lines = []
    for card in cards[:20]:
        name = _clean(_str(card, "displayName"))[:200]
        phones = _vcard_phones(_str(card, "vcard"))
        lines.append(f"{name or 'sem nome'}" + (f" ({', '.join(phones)})" if phones else ""))
    return ("Cartão de contato: " if len(lines) == 1 else "Cartões de contato: ") + "; ".join(lines)


def _vcard_phones(vcard: str) -> list[str]:
    phones: list[str] = []
    for line in vcard.splitlines():
        match = _TEL.match(line.strip())
        if not match:
            continue
        waid = _WAID.search(match["params"])
        raw = f"+{waid[1]}" if waid else match["value"].strip()
        try:
            phones.append(normalize_phone(raw))
        except InvalidPhone:
            if raw:
                phones.append(_clean(raw)[:40])
    return phones[:5]


def _timestamp(value: Any) -> datetime | None:
    """`messageTimestamp`: Unix seconds as a number, a decimal string, or a Long `{low, high}`."""
    seconds: float | None = None
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        seconds = float(value)
    elif isinstance(value, str) and value.strip().isdigit():
        seconds = float(value.strip())
    elif isinstance(value, dict) and isinstance(value.get("low"), int):
        high = value.get("high") if isinstance(value.get("high"), int) else 0
        seconds = float((high << 32) + (value["low"] & 0xFFFFFFFF))
    if seconds is None or seconds <= 0:
        return None
    if seconds > 1e11:  # milliseconds
        seconds /= 1000
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _str(container: Any, name: str) -> str:
    value = container.get(name) if isinstance(container, dict) else None
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return max(0, min(value, 2**31 - 1))
    if isinstance(value, str) and value.isdigit():
        return min(int(value), 2**31 - 1)
    if isinstance(value, dict) and isinstance(value.get("low"), int):
        return max(0, min(value["low"], 2**31 - 1))
    return 0


def _float(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _clean(text: str) -> str:
    """Drop NULs, which PostgreSQL text cannot hold; everything else is kept as the customer wrote it."""
    return text.replace("\x00", "") if "\x00" in text else text
