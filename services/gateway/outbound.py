"""The channel interface the runtime sends through, and the recording channel.

A channel sends one text part to one recipient and returns the provider's message id, or raises
`SendError` (temporary: retried; permanent: the part is not delivered and a Central item is
raised). The runtime never calls a channel for a part the send ledger already has.

`RecordingChannel` serves the test channel and the web channel (whose reply the web request reads
from the turn): it records every part instead of reaching anyone, so tests and `balcao chat` see
exactly what a customer would have received. WhatsApp goes through the edge's `EvolutionChannel`,
put in the registry by `app.GatewayApp.build`; with WhatsApp switched off a WhatsApp send is a
permanent failure (`NotConnectedChannel`), said plainly, never a silent success.
"""

from __future__ import annotations

import asyncio
import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import UTC, datetime
from uuid import UUID


class SendError(Exception):
    """The channel did not deliver the part."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


@dataclass(frozen=True, slots=True)
class Recipient:
    organization_id: UUID
    contact_id: UUID
    channel_instance: str
    reply_to: str
    phone: str


@dataclass(frozen=True, slots=True)
class SentRecord:
    recipient: Recipient
    text: str
    provider_message_id: str
    idempotency_key: str
    at: datetime


class OutboundChannel(ABC):
    """One way messages leave. Facts about it go to Segurança's `ChannelFacts`."""

    # The channel's name in Segurança's trace ("whatsapp_evolution", "web", "test").
    name: str = ""
    # True for channels with a 24-hour customer-service window.
    has_service_window: bool = False
    # The longest text part the channel accepts; 0 means no limit.
    max_text_chars: int = 0
    # Attempts of one send by the runtime; 0 means the gateway's `send_attempts`. A channel whose
    # client already retries (Evolution) sets 1.
    send_attempts: int = 0

    def sender(self, channel_instance: str) -> str:
        """The sending identity `pacing` and `repetition` count per."""
        return f"{self.name}:{channel_instance}" if channel_instance else self.name

    @abstractmethod
    async def send(self, recipient: Recipient, text: str, *, idempotency_key: str) -> str:
        """Deliver one part; return the provider's message id, or raise `SendError`."""


class RecordingChannel(OutboundChannel):
    """Records what would have been sent. `fail_next` makes the next sends fail (for tests)."""

    def __init__(self, name: str = "test", *, max_text_chars: int = 4096) -> None:
        self.name = name
        self.max_text_chars = max_text_chars
        self.sent: list[SentRecord] = []
        self.fail_next = 0
        self.fail_permanently = False
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()

    async def send(self, recipient: Recipient, text: str, *, idempotency_key: str) -> str:
        async with self._lock:
            if self.fail_next > 0:
                self.fail_next -= 1
                raise SendError("falha simulada do canal de teste", permanent=self.fail_permanently)
            provider_id = f"{self.name}-{next(self._ids)}"
            self.sent.append(SentRecord(recipient, text, provider_id, idempotency_key, datetime.now(UTC)))
            return provider_id

    def texts_to(self, contact_id: UUID) -> list[str]:
        return [r.text for r in self.sent if r.recipient.contact_id == contact_id]


class NotConnectedChannel(OutboundChannel):
    """A channel whose adapter is not connected in this process: every send fails for good."""

    def __init__(self, name: str, reason_pt: str, *, max_text_chars: int = 4096) -> None:
        self.name = name
        self.max_text_chars = max_text_chars
        self.reason_pt = reason_pt

    async def send(self, recipient: Recipient, text: str, *, idempotency_key: str) -> str:
        raise SendError(self.reason_pt, permanent=True)


@dataclass
class ChannelRegistry:
    """The channel for each kind of conversation (`test`, `web`, `whatsapp`)."""

    channels: dict[str, OutboundChannel] = field(default_factory=dict)

    @classmethod
    def default(cls) -> ChannelRegistry:
        return cls(
            {
                "test": RecordingChannel("test"),
                "web": RecordingChannel("web", max_text_chars=0),
                "whatsapp": NotConnectedChannel(
                    "whatsapp_evolution",
                    "o WhatsApp (Evolution) ainda não está conectado a este Balcão",
                ),
            }
        )

    def for_conversation(self, channel: str) -> OutboundChannel:
        found = self.channels.get(channel)
        if found is None:
            return NotConnectedChannel(channel or "desconhecido", f"o canal {channel or 'desconhecido'} não existe")
        return found
