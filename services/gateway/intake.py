"""What the Gateway RPCs do with the runtime: accept a message, start a proactive turn, report a turn.

`accept` stores the message before answering (seed 003 §3.1): a redelivery is recognised by its
(organisation, channel instance, sender, message id) and answered "duplicate" with nothing else
done. `start_proactive` records a turn with a trigger, idempotent by key. `turn_result` reads a
turn (by id or by an inbound message it answered), waiting for it to finish when asked.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway import execution as ex
from services.gateway import inbound, records, repository
from services.gateway.configuration import ConfigCache
from services.gateway.peers import Peers, call
from services.gateway.records import Turn

_CRM_CHANNEL = {"whatsapp": r.CHANNEL_WHATSAPP, "web": r.CHANNEL_WEB, "test": r.CHANNEL_TEST}
_CHANNEL_OF_CONTACT = {r.CHANNEL_WHATSAPP: "whatsapp", r.CHANNEL_WEB: "web", r.CHANNEL_TEST: "test"}
TRIGGER_KINDS = {
    gw.TRIGGER_KIND_FOLLOWUP_DUE: "followup_due",
    gw.TRIGGER_KIND_OBLIGATION_FULFILLED: "obligation_fulfilled",
    gw.TRIGGER_KIND_OBLIGATION_FAILED: "obligation_failed",
    gw.TRIGGER_KIND_SCHEDULED: "scheduled",
}
DEFAULT_HUMAN_PAUSE_MINUTES = 30
MAX_WAIT_SECONDS = 30.0


class NotFound(LookupError):
    """An id names nothing in this organisation."""


class InvalidRequest(ValueError):
    """The request cannot be served as sent; the text names the field."""


@dataclass(frozen=True)
class Accepted:
    status: int  # gw.SubmitStatus
    inbound_id: UUID
    contact_id: UUID


class TurnWatch:
    """Wakes GetTurn callers waiting in this process when a turn of their contact finishes here.

    `finished` counts the turns finished so far: a caller notes it before reading, and when it
    moved by the time the caller is ready to wait, the caller reads again instead of waiting for a
    notification it may have missed.
    """

    def __init__(self) -> None:
        self._waiters: dict[UUID, set[asyncio.Future[None]]] = {}
        self.finished = 0

    def notify(self, turn: Turn | None = None) -> None:
        self.finished += 1
        keys = [turn.contact_id] if turn is not None else list(self._waiters)
        for key in keys:
            for waiter in self._waiters.pop(key, ()):
                if not waiter.done():
                    waiter.set_result(None)

    async def wait(self, contact_id: UUID, timeout: float) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiters = self._waiters.setdefault(contact_id, set())
        waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            pass
        finally:
            waiters.discard(waiter)
            if not waiters and self._waiters.get(contact_id) is waiters:
                del self._waiters[contact_id]


class Intake:
    def __init__(
        self,
        *,
        engine: Any,
        peers: Peers,
        configs: ConfigCache,
        wake: Callable[[], None],
        watch: TurnWatch,
        default_debounce_ms: int,
        default_debounce_cap_ms: int,
        default_human_pause_minutes: int = DEFAULT_HUMAN_PAUSE_MINUTES,
        replica: str = "",
    ) -> None:
        self._engine = engine
        self._peers = peers
        self._configs = configs
        self._wake = wake
        self._watch = watch
        self._debounce = (default_debounce_ms, default_debounce_cap_ms)
        self._human_pause = default_human_pause_minutes
        # This replica's name: the notification that wakes the other replicas' workers carries it.
        self._replica = replica

    # -----------------------------------------------------------------------------------------
    # SubmitInbound
    # -----------------------------------------------------------------------------------------

    async def accept(self, request: gw.SubmitInboundRequest, *, auto_reply_pt: str = "") -> Accepted:
        """Store one message. `auto_reply_pt` (from the HTTP edge, in process): a fixed pt-BR reply
        for content the agent cannot take; the turn sends it, reviewed, instead of drafting."""
        message = inbound.normalise(request)  # InvalidInbound: nothing stored
        if auto_reply_pt.strip() and not message.from_business:
            message.details["auto_reply_pt"] = auto_reply_pt.strip()
        org = message.organization_id
        config = await self._configs.get(org)  # UnknownOrganization: nothing stored
        async with repository.tenant(self._engine, org) as conn:
            known = await repository.find_delivery(
                conn, org, message.channel_instance, message.sender_key, message.message_id
            )
        if known is not None:
            return Accepted(gw.SUBMIT_STATUS_DUPLICATE, known[0], known[1])
        contact = await self._contact(message)
        contact_id = UUID(contact.contact_id)
        debounce, cap = config.debounce_seconds(*self._debounce)
        try:
            async with repository.tenant(self._engine, org) as conn:
                stored = await repository.accept_inbound(
                    conn,
                    message,
                    contact_id,
                    answerable=not message.from_business,
                    debounce_seconds=debounce,
                    cap_seconds=cap,
                    replica=self._replica,
                )
        except repository.AlreadyStored:  # a concurrent redelivery won the race; nothing changed
            async with repository.tenant(self._engine, org) as conn:
                known = await repository.find_delivery(
                    conn, org, message.channel_instance, message.sender_key, message.message_id
                )
            assert known is not None
            return Accepted(gw.SUBMIT_STATUS_DUPLICATE, known[0], known[1])
        if message.from_business:
            await self._pause_for_person(config.settings.runtime.human_reply_pause_minutes, org, contact_id)
            return Accepted(gw.SUBMIT_STATUS_RECORDED, stored[0], contact_id)
        self._wake()
        return Accepted(gw.SUBMIT_STATUS_ACCEPTED, stored[0], contact_id)

    async def _contact(self, message: inbound.NewInbound) -> r.Contact:
        # One call: the contact wrote first (the legal basis to answer) and the push name only fill
        # what the contact does not have yet; a name the business recorded stays.
        request = cw.UpsertContactRequest(
            organization_id=str(message.organization_id),
            phone=message.phone,
            whatsapp_jid=message.jid,
            web_profile_id=message.sender_key.removeprefix("profile:") if not message.phone else "",
            channel=_CRM_CHANNEL[message.channel],  # type: ignore[arg-type]
            name=message.sender_name,
            legal_basis=r.LEGAL_BASIS_CONTACT_INITIATED,
            fill_empty_only=True,
            idempotency_key=f"inbound:{message.channel_instance}:{message.sender_key}:{message.message_id}",
        )
        response = await call("crm", self._peers.crm_write.UpsertContact, request, timeout=self._peers.timeout)
        return response.contact

    async def _pause_for_person(self, minutes: int, org: UUID, contact_id: UUID) -> None:
        until = datetime.now(UTC) + timedelta(minutes=minutes or self._human_pause)
        request = cw.SetHumanControlRequest(
            organization_id=str(org),
            contact_id=str(contact_id),
            human_in_control=True,
            reason="respondido pelo celular da empresa",
            actor=r.Actor(kind=r.ACTOR_KIND_PERSON),
        )
        request.until.CopyFrom(ex.ts(until))
        await call("crm", self._peers.crm_write.SetHumanControl, request, timeout=self._peers.timeout)

    # -----------------------------------------------------------------------------------------
    # StartProactiveTurn
    # -----------------------------------------------------------------------------------------

    async def start_proactive(
        self, organization_id: str, contact_id: str, trigger: gw.ProactiveTrigger, idempotency_key: str
    ) -> tuple[Turn, bool]:
        org = inbound.parse_uuid(organization_id, "organization_id")
        contact_uuid = inbound.parse_uuid(contact_id, "contact_id")
        kind = TRIGGER_KINDS.get(trigger.kind)
        if kind is None:
            raise InvalidRequest("trigger.kind is required")
        if not idempotency_key.strip():
            raise InvalidRequest("idempotency_key is required")
        await self._configs.get(org)
        contact = (
            await call(
                "crm",
                self._peers.crm_read.GetContact,
                cr.GetContactRequest(organization_id=str(org), contact_id=str(contact_uuid)),
                timeout=self._peers.timeout,
            )
        ).contact
        detail = {
            "kind": kind,
            "reason_pt": trigger.reason_pt,
            "fixed_text": trigger.fixed_text,
            "source_event_id": trigger.source_event_id,
            "followup_id": trigger.followup_id,
            "obligation_id": trigger.obligation_id,
        }
        channel = _CHANNEL_OF_CONTACT.get(contact.channel, "whatsapp")
        async with repository.tenant(self._engine, org) as conn:
            await repository.ensure_conversation(
                conn,
                org,
                contact_uuid,
                channel=channel,
                channel_instance="",
                reply_to=(contact.whatsapp_jids[0] if contact.whatsapp_jids else contact.phone_e164),
                phone=contact.phone_e164,
            )
            turn, duplicate = await repository.insert_turn(
                conn,
                org,
                contact_uuid,
                trigger="proactive",
                status=records.QUEUED,
                trigger_detail={k: v for k, v in detail.items() if v},
                idempotency_key=idempotency_key.strip(),
            )
            if not duplicate:
                await repository.make_due(conn, org, contact_uuid)
                await repository.notify_due(conn, self._replica)
        if not duplicate:
            self._wake()
        return turn, duplicate

    # -----------------------------------------------------------------------------------------
    # GetTurn
    # -----------------------------------------------------------------------------------------

    async def turn_result(self, request: gw.GetTurnRequest) -> gw.TurnResult:
        org = inbound.parse_uuid(request.organization_id, "organization_id")
        if not request.turn_id and not request.inbound_id:
            raise InvalidRequest("turn_id or inbound_id is required")
        turn_id = inbound.parse_uuid(request.turn_id, "turn_id") if request.turn_id else None
        inbound_id = inbound.parse_uuid(request.inbound_id, "inbound_id") if request.inbound_id else None
        wait = min(request.wait.ToTimedelta().total_seconds(), MAX_WAIT_SECONDS) if request.HasField("wait") else 0
        deadline = time.monotonic() + max(0.0, wait)
        while True:
            seen = self._watch.finished
            remaining = deadline - time.monotonic()
            result, finished, contact_id = await self._read(org, turn_id, inbound_id, whole=remaining <= 0)
            if finished or remaining <= 0:
                return result
            if self._watch.finished == seen:
                # Turns finished by another replica are seen by the next read, at most 0.25 s later.
                await self._watch.wait(contact_id, min(deadline - time.monotonic(), 0.25))

    async def _read(
        self, org: UUID, turn_id: UUID | None, inbound_id: UUID | None, *, whole: bool = True
    ) -> tuple[gw.TurnResult, bool, UUID]:
        """The turn's result, whether it finished, and its contact. Without `whole`, an unfinished
        turn's result is its status only (the caller waits and reads again)."""
        async with repository.tenant(self._engine, org) as conn:
            turn, contact_id, inbound_ids = await repository.turn_for_result(
                conn, org, turn_id=turn_id, inbound_id=inbound_id
            )
            if turn is None:
                if turn_id is not None:
                    raise NotFound(f"turn {turn_id} not found")
                if contact_id is None:
                    raise NotFound(f"inbound message {inbound_id} not found")
                return (
                    gw.TurnResult(
                        contact_id=str(contact_id), status=gw.TURN_STATUS_QUEUED, inbound_ids=[str(inbound_id)]
                    ),
                    False,
                    contact_id,
                )
            if not turn.finished and not whole:
                return ex.turn_result(turn, [], []), False, turn.contact_id
            parts = await repository.parts_of_turn(conn, org, turn.turn_id)
        return ex.turn_result(turn, parts, [str(i) for i in inbound_ids]), turn.finished, turn.contact_id
