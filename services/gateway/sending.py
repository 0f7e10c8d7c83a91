"""Sending a turn's parts through its channel, at most once each, recorded in the send ledger.

Before a part goes to the channel its ledger row is written (`sending`), under the contact's
claim (the fence: a replica that lost the claim writes nothing). A part the ledger already has
is never sent again, whatever its status: a retried turn gets "already sent". A crash between
the ledger row and the channel's answer leaves the row `sending`; the part is then treated as
sent, because sending it twice is worse than a doubt the Central item about a failed turn would
not resolve either. Temporary channel errors are retried `send_attempts` times; a permanent
one marks the part `failed` and stops the parts after it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

from opentelemetry import trace
from sqlalchemy.ext.asyncio import AsyncEngine

from services.gateway import records, repository
from services.gateway.outbound import ChannelRegistry, Recipient, SendError
from services.gateway.records import Claim, Conversation, Part

log = logging.getLogger(__name__)
tracer = trace.get_tracer(__name__)


@dataclass
class SendResult:
    parts: list[Part] = field(default_factory=list)
    # Parts the ledger already had before this call (a retried turn).
    already_sent: int = 0
    error: str = ""

    @property
    def delivered(self) -> bool:
        return bool(self.parts) and all(p.status != records.PART_FAILED for p in self.parts)

    @property
    def text(self) -> str:
        return "\n\n".join(p.body for p in self.parts if p.status != records.PART_FAILED)


class Sender:
    def __init__(self, engine: AsyncEngine, channels: ChannelRegistry, *, attempts: int, retry_seconds: float) -> None:
        self._engine = engine
        self._channels = channels
        self._attempts = attempts
        self._retry = retry_seconds

    async def send(
        self, claim: Claim, turn_id: UUID, conversation: Conversation, kind: str, texts: Sequence[str]
    ) -> SendResult:
        channel = self._channels.for_conversation(conversation.channel)
        recipient = Recipient(
            conversation.organization_id,
            conversation.contact_id,
            conversation.channel_instance,
            conversation.reply_to,
            conversation.phone,
        )
        org = conversation.organization_id
        async with repository.tenant(self._engine, org) as conn:
            ledger = {p.part_index: p for p in await repository.parts_of_turn(conn, org, turn_id)}
        result = SendResult(already_sent=len(ledger))
        for index, text in enumerate(texts):
            existing = ledger.get(index)
            if existing is not None:
                if existing.body_sha256 != repository.body_hash(text):
                    log.warning(
                        "a retried turn wanted to send a different part; the ledger's stands",
                        extra={"turn_id": str(turn_id), "part": index},
                    )
                result.parts.append(existing)
                if existing.status == records.PART_FAILED:
                    break
                continue
            with tracer.start_as_current_span("send.part", attributes={"part": index, "channel": channel.name}):
                async with repository.tenant(self._engine, org) as conn:
                    await repository.lock_conversation(conn, claim)
                    reserved = await repository.reserve_part(
                        conn,
                        org,
                        turn_id,
                        index,
                        contact_id=conversation.contact_id,
                        kind=kind,
                        channel=conversation.channel,
                        channel_instance=conversation.channel_instance,
                        sender=channel.sender(conversation.channel_instance),
                        recipient=conversation.reply_to,
                        body=text,
                    )
                if reserved is None:  # another holder of a stale claim got there first
                    break
                provider_id, error, attempts = "", "", 0
                limit = channel.send_attempts or self._attempts
                for attempts in range(1, limit + 1):
                    try:
                        provider_id = await channel.send(recipient, text, idempotency_key=f"{turn_id}:{index}")
                        break
                    except SendError as exc:
                        error = str(exc)
                        log.warning("send failed", extra={"turn_id": str(turn_id), "attempt": attempts, "error": error})
                        if exc.permanent:
                            break
                        if attempts < limit:
                            await asyncio.sleep(self._retry * attempts)
                status = records.PART_SENT if provider_id else records.PART_FAILED
                async with repository.tenant(self._engine, org) as conn:
                    await repository.finish_part(
                        conn,
                        org,
                        turn_id,
                        index,
                        status=status,
                        attempts=attempts,
                        provider_message_id=provider_id,
                        error=error,
                    )
                    stored = await repository.parts_of_turn(conn, org, turn_id)
                result.parts.append(next(p for p in stored if p.part_index == index))
                if not provider_id:
                    result.error = error
                    break
        return result
