"""Sending a turn's parts through its channel, at most once each, recorded in the send ledger.

Before a part goes to the channel its ledger row is written (`sending`), under the contact's
claim (the fence: a replica that lost the claim writes nothing). A part the ledger already has
is never sent again, whatever its status: a retried turn gets "already sent". A crash between
the ledger row and the channel's answer leaves the row `sending`; the part is then treated as
sent, because sending it twice is worse than a doubt the Central item about a failed turn would
not resolve either. Temporary channel errors are retried `send_attempts` times; a permanent
one marks the part `failed` and stops the parts after it.

Transactions: the first one locks the contact (the claim's fence), runs the caller's `before`
writes (the turn's stage), reads the ledger and reserves the first part; each part's outcome is
recorded in the transaction that reserves the next one; the last one also runs the caller's
`after` writes (the watermark). One part costs two transactions around the channel's call.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from uuid import UUID

from opentelemetry import trace
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from services.gateway import records, repository
from services.gateway.outbound import ChannelRegistry, OutboundChannel, Recipient, SendError
from services.gateway.records import Claim, Conversation, Part

log = logging.getLogger(__name__)

Writes = Callable[[AsyncConnection], Awaitable[None]]
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
        self,
        claim: Claim,
        turn_id: UUID,
        conversation: Conversation,
        kind: str,
        texts: Sequence[str],
        *,
        before: Writes | None = None,
        after: Callable[[AsyncConnection, SendResult], Awaitable[None]] | None = None,
    ) -> SendResult:
        """Send the parts the ledger does not have yet; `before` runs in the first transaction (under
        the claim's lock, before any part is reserved) and `after` in the last one, with the result."""
        channel = self._channels.for_conversation(conversation.channel)
        recipient = Recipient(
            conversation.organization_id,
            conversation.contact_id,
            conversation.channel_instance,
            conversation.reply_to,
            conversation.phone,
        )
        org = conversation.organization_id
        sender = channel.sender(conversation.channel_instance)
        result = SendResult()
        # What the next transaction records: the previous part's outcome, then the next reservation.
        outcome: tuple[int, str, int, str, str] | None = None
        first = True
        index = 0
        while True:
            reserved: Part | None = None
            stop = False
            async with repository.tenant(self._engine, org) as conn:
                await repository.hold_claim(conn, claim)
                if first:
                    if before is not None:
                        await before(conn)
                    ledger = {p.part_index: p for p in await repository.parts_of_turn(conn, org, turn_id)}
                    result.already_sent = len(ledger)
                    index = self._skip_ledger(result, ledger, texts, turn_id)
                    stop = index < 0
                    first = False
                if outcome is not None:
                    done_index, status, attempts, provider_id, error = outcome
                    result.parts.append(
                        await repository.finish_part(
                            conn,
                            org,
                            turn_id,
                            done_index,
                            status=status,
                            attempts=attempts,
                            provider_message_id=provider_id,
                            error=error,
                        )
                    )
                    outcome = None
                    if status == records.PART_FAILED:
                        result.error = error
                        stop = True
                if not stop and 0 <= index < len(texts):
                    reserved = await repository.reserve_part(
                        conn,
                        org,
                        turn_id,
                        index,
                        contact_id=conversation.contact_id,
                        kind=kind,
                        channel=conversation.channel,
                        channel_instance=conversation.channel_instance,
                        sender=sender,
                        recipient=conversation.reply_to,
                        body=texts[index],
                    )
                    # None: another holder of a stale claim got there first.
                if reserved is None and after is not None:
                    await after(conn, result)
            if reserved is None:
                return result
            with tracer.start_as_current_span("send.part", attributes={"part": index, "channel": channel.name}):
                outcome = await self._deliver(channel, recipient, turn_id, index, texts[index])
            index += 1

    @staticmethod
    def _skip_ledger(result: SendResult, ledger: dict[int, Part], texts: Sequence[str], turn_id: UUID) -> int:
        """Take the parts the ledger already has; the index of the first one to send (-1: none, a part failed)."""
        for index, text in enumerate(texts):
            existing = ledger.get(index)
            if existing is None:
                return index
            if existing.body_sha256 != repository.body_hash(text):
                log.warning(
                    "a retried turn wanted to send a different part; the ledger's stands",
                    extra={"turn_id": str(turn_id), "part": index},
                )
            result.parts.append(existing)
            if existing.status == records.PART_FAILED:
                return -1
        return len(texts)

    async def _deliver(
        self, channel: OutboundChannel, recipient: Recipient, turn_id: UUID, index: int, text: str
    ) -> tuple[int, str, int, str, str]:
        """One part through the channel, retried on temporary errors: (index, status, attempts, id, error)."""
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
        return index, status, attempts, provider_id, error
