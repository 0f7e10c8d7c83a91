"""The normalised inbound message the edge hands to the runtime, and the sink it hands it to.

`NormalizedInbound` mirrors gateway.proto's `InboundMessage` field for field (`to_proto()` builds
it), plus what the edge learned while normalising that the proto has no field for yet: the place
a location was reverse geocoded to, the text of a PDF, whether an audio still needs a transcript,
the id of the button or list row chosen, and a fixed pt-BR reply for content the agent cannot
take (an audio with no transcription provider, an unsupported message type). The runtime gets
the dataclass itself in process, so nothing is lost before the proto grows those fields;
`to_proto()` folds what it can into the existing fields.

`InboundSink` is what the runtime implements: store the message (unique on channel instance +
phone + message id) before the edge answers, and say whether it was new.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from google.protobuf.timestamp_pb2 import Timestamp

from balcao.gateway.v1 import gateway_pb2 as gw

# The longest extracted document text folded into `text` by `to_proto()`: the runtime refuses
# texts over 20,000 characters, and the caption comes first.
FOLDED_DOCUMENT_CHARS = 12_000


class Channel(StrEnum):
    WHATSAPP = "whatsapp"
    WEB = "web"
    TEST = "test"


class MessageType(StrEnum):
    TEXT = "text"
    IMAGE = "image"
    AUDIO = "audio"
    VIDEO = "video"
    DOCUMENT = "document"
    LOCATION = "location"
    REACTION = "reaction"
    STICKER = "sticker"
    CONTACT = "contact"
    BUTTON_REPLY = "button_reply"
    LIST_REPLY = "list_reply"
    OTHER = "other"


_PROTO_CHANNEL = {Channel.WHATSAPP: gw.CHANNEL_WHATSAPP, Channel.WEB: gw.CHANNEL_WEB, Channel.TEST: gw.CHANNEL_TEST}
_PROTO_TYPE = {
    MessageType.TEXT: gw.MESSAGE_TYPE_TEXT,
    MessageType.IMAGE: gw.MESSAGE_TYPE_IMAGE,
    MessageType.AUDIO: gw.MESSAGE_TYPE_AUDIO,
    MessageType.VIDEO: gw.MESSAGE_TYPE_VIDEO,
    MessageType.DOCUMENT: gw.MESSAGE_TYPE_DOCUMENT,
    MessageType.LOCATION: gw.MESSAGE_TYPE_LOCATION,
    MessageType.REACTION: gw.MESSAGE_TYPE_REACTION,
    MessageType.STICKER: gw.MESSAGE_TYPE_STICKER,
    MessageType.CONTACT: gw.MESSAGE_TYPE_CONTACT,
    MessageType.BUTTON_REPLY: gw.MESSAGE_TYPE_BUTTON_REPLY,
    MessageType.LIST_REPLY: gw.MESSAGE_TYPE_LIST_REPLY,
    MessageType.OTHER: gw.MESSAGE_TYPE_OTHER,
}


@dataclass(frozen=True, slots=True)
class Media:
    mime_type: str = ""
    # The file, when it arrived inline (Evolution's `message.base64`, the web channel) or was
    # fetched while normalising.
    content: bytes = field(default=b"", repr=False)
    # True when the file is not here and must be fetched from the provider by message id.
    fetch_from_provider: bool = False
    file_name: str = ""
    duration_seconds: int = 0
    voice_note: bool = False


@dataclass(frozen=True, slots=True)
class Location:
    latitude: float
    longitude: float
    name: str = ""
    address: str = ""


@dataclass(frozen=True, slots=True)
class Place:
    """Where a pair of coordinates falls, from the offline geocoder."""

    city: str
    state: str  # the state's name in Portuguese for Brazil ("São Paulo", "Distrito Federal")
    state_code: str  # the two-letter UF for Brazil ("SP"); empty elsewhere
    country_code: str  # ISO 3166 alpha-2 ("BR")
    distance_km: float  # from the coordinates to the city's reference point

    def describe_pt(self) -> str:
        region = self.state_code or self.state
        where = f"{self.city} - {region}" if region else self.city
        return where if self.country_code == "BR" else f"{where} ({self.country_code})"


@dataclass(frozen=True, slots=True)
class NormalizedInbound:
    """One customer message, normalised from any channel (gateway.proto `InboundMessage`)."""

    channel: Channel
    channel_instance: str
    # E.164 with the Brazilian ninth digit; empty only for a web message known by profile id.
    phone: str
    # The exact WhatsApp JID received, to reply to; empty for other channels.
    jid: str
    message_id: str
    type: MessageType
    text: str = ""
    media: Media | None = None
    location: Location | None = None
    sent_at: datetime | None = None
    sender_name: str = ""
    quoted_text: str = ""
    # Typed by a person on the business's own phone: stored, pauses the agent, never answered.
    from_business: bool = False
    profile_id: str = ""
    # --- what the edge learned that gateway.proto has no field for yet ---
    place: Place | None = None
    # The text of a PDF the customer sent (pypdf), capped; empty when none or unreadable.
    document_text: str = ""
    # What an image shows, in the model's words (pt-BR); empty when no model that sees images is
    # configured, the image could not be read, or the call failed (the caption alone then).
    image_description: str = ""
    # An audio whose words are not known yet (no transcription provider, or it failed).
    needs_transcription: bool = False
    # True when `text` is a transcript of the audio (a provider's or Evolution's `speechToText`).
    transcribed: bool = False
    # The id behind the button or list row the customer chose (`text` is what they saw).
    selected_id: str = ""
    # For a reaction: the message reacted to.
    reacted_message_id: str = ""
    # A fixed pt-BR reply for content the agent cannot take, sent without a model (the message
    # is kept all the same).
    auto_reply_pt: str = ""
    # Short English notes for the execution record ("pdf_unreadable", "media_fetch_failed: …").
    notes: tuple[str, ...] = ()

    @property
    def sender_key(self) -> str:
        return self.phone or f"profile:{self.profile_id}"

    @property
    def dedup_key(self) -> tuple[str, str, str]:
        """Channel instance + sender + provider message id: one stored row per key."""
        return (self.channel_instance, self.sender_key, self.message_id)

    def to_proto(self) -> gw.InboundMessage:
        message = gw.InboundMessage(
            channel=_PROTO_CHANNEL[self.channel],
            channel_instance=self.channel_instance,
            phone=self.phone,
            jid=self.jid,
            message_id=self.message_id,
            type=_PROTO_TYPE[self.type],
            text=self._folded_text(),
            sender_name=self.sender_name,
            quoted_text=self.quoted_text,
            from_business=self.from_business,
            profile_id=self.profile_id,
        )
        if self.media is not None:
            message.media.CopyFrom(
                gw.Media(
                    mime_type=self.media.mime_type,
                    content=self.media.content,
                    fetch_from_provider=self.media.fetch_from_provider,
                    file_name=self.media.file_name,
                    duration_seconds=self.media.duration_seconds,
                    voice_note=self.media.voice_note,
                )
            )
        if self.location is not None:
            address = self.location.address or (self.place.describe_pt() if self.place else "")
            message.location.CopyFrom(
                gw.Location(
                    latitude=self.location.latitude,
                    longitude=self.location.longitude,
                    name=self.location.name,
                    address=address,
                )
            )
        if self.sent_at is not None:
            stamp = Timestamp()
            stamp.FromDatetime(self.sent_at)
            message.sent_at.CopyFrom(stamp)
        return message

    def _folded_text(self) -> str:
        if self.type == MessageType.IMAGE:
            return self._image_text()
        if not self.document_text:
            return self.text
        name = self.media.file_name if self.media and self.media.file_name else "documento"
        body = self.document_text[:FOLDED_DOCUMENT_CHARS]
        folded = f"[Texto do documento {name}]\n{body}"
        return f"{self.text}\n\n{folded}" if self.text else folded


    def _image_text(self) -> str:
        """The caption, and what the image shows as the Conversador should read it, in pt-BR."""
        if self.image_description:
            seen = f"[O cliente enviou uma imagem que mostra: {self.image_description}]"
            return f"{seen}\nLegenda do cliente: {self.text}" if self.text else seen
        if self.text:
            return self.text
        return IMAGE_UNSEEN_PT


# An image with no caption that no model described: what the Conversador reads instead.
IMAGE_UNSEEN_PT = (
    "[O cliente enviou uma imagem sem legenda e não foi possível ver o que ela mostra. "
    "Se for preciso, peça com gentileza que ele conte por escrito do que se trata.]"
)


class IgnoreReason(StrEnum):
    """Why an event produced no message to answer. Each is answered 2xx: Evolution must not retry."""

    NOT_AN_OBJECT = "not_an_object"  # an element of the body that is not a JSON object
    OTHER_EVENT = "other_event"  # messages.update, send.message, connection.update, …
    NO_KEY = "no_key"  # a messages.upsert without data.key
    NO_MESSAGE_ID = "no_message_id"
    FROM_ME = "from_me"  # typed on the connected phone (or the instance's own auto-reply)
    GROUP = "group"
    BROADCAST = "broadcast"
    STATUS = "status"  # status@broadcast (WhatsApp Status posts)
    NEWSLETTER = "newsletter"
    LID_WITHOUT_PHONE = "lid_without_phone"  # a hidden-number sender with no phone anywhere
    NO_SENDER = "no_sender"
    INVALID_PHONE = "invalid_phone"
    NO_CONTENT = "no_content"
    PROTOCOL_MESSAGE = "protocol_message"  # edits, deletions, ephemeral settings
    REACTION_REMOVED = "reaction_removed"


@dataclass(frozen=True, slots=True)
class Ignored:
    reason: IgnoreReason
    detail: str
    event: str = ""
    instance: str = ""
    message_id: str = ""
    # For FROM_ME: the message as typed by the business, `from_business=True`, so the runtime can
    # store it and pause the agent for that contact ("a person answered by hand").
    typed_by_business: NormalizedInbound | None = None


class SinkOutcome(StrEnum):
    ACCEPTED = "accepted"  # new: stored, its contact's turn scheduled
    DUPLICATE = "duplicate"  # a redelivery: nothing else was done
    RECORDED = "recorded"  # stored, not to be answered (typed by the business); the agent pauses


@dataclass(frozen=True, slots=True)
class Receipt:
    outcome: SinkOutcome
    inbound_id: str = ""
    contact_id: str = ""


class SinkRejected(ValueError):
    """The runtime refused the message as sent (the text names the field); nothing was stored."""


class InboundSink(Protocol):
    """Implemented by the runtime: store before the edge answers; a redelivery is a DUPLICATE."""

    async def accept(self, organization_id: str, message: NormalizedInbound) -> Receipt: ...


class WebTurns(Protocol):
    """Implemented by the runtime for the web channel: the turn answering an accepted message."""

    async def turn_for(self, organization_id: str, receipt: Receipt, wait_seconds: float) -> gw.TurnResult | None: ...
