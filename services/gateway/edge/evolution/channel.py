"""WhatsApp through Evolution as the runtime's outbound channel (`services.gateway.outbound`).

Replies go to the exact JID the customer wrote from (`Recipient.reply_to`; reference §6, §8),
or to the phone's digits when there is none. The instance's base URL and API key come from the
`EdgeDirectory`. Evolution failures become `SendError`: permanent ones carry the pt-BR reason
for the Central item; retryable ones were already retried by the client.
"""

from __future__ import annotations

from services.gateway.edge.directory import EdgeDirectory
from services.gateway.edge.evolution.client import EvolutionClient, EvolutionError
from services.gateway.outbound import OutboundChannel, Recipient, SendError

# WhatsApp shows up to 65,536 characters, but long texts read badly; the runtime splits at this.
WHATSAPP_MAX_TEXT_CHARS = 4096


class EvolutionChannel(OutboundChannel):
    name = "whatsapp_evolution"
    has_service_window = False  # Evolution drives WhatsApp Web: no 24-hour window applies
    max_text_chars = WHATSAPP_MAX_TEXT_CHARS
    send_attempts = 1  # the Evolution client retries 5xx and timeouts itself, with backoff

    def __init__(self, directory: EdgeDirectory, client: EvolutionClient) -> None:
        self._directory = directory
        self._client = client

    async def send(self, recipient: Recipient, text: str, *, idempotency_key: str) -> str:
        instance = await self._directory.evolution_instance(recipient.channel_instance)
        if instance is None or instance.organization_id != str(recipient.organization_id):
            raise SendError(
                f"a instância de WhatsApp {recipient.channel_instance!r} não está configurada para esta empresa",
                permanent=True,
            )
        number = recipient.reply_to or recipient.phone.lstrip("+")
        try:
            sent = await self._client.send_text(instance, number, text)
        except EvolutionError as exc:
            raise SendError(exc.reason_pt, permanent=exc.permanent) from exc
        # The runtime reads an empty id as "not sent"; a 2xx without an id was still sent.
        return sent.provider_message_id or f"evolution-no-id:{idempotency_key}"
