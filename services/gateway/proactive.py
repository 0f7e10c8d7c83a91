"""The consumer of crm's queue that turns events into proactive turns.

Kinds: `followup_due` ({follow_up_id, contact_id}, available at the due time) and
`proactive_turn_requested` ({contact_id, reason, obligation_id?, outcome?}, enqueued by the
Operador when it fulfilled or failed something the customer waits for). Each event becomes one
proactive turn, idempotent by the event id, then is completed; the turn itself runs through the
worker like any other (plan gate and Segurança included). A follow-up that is no longer pending
completes the event without a turn. Wake-ups come from `EventQueue.Subscribe`; a broken stream
is reopened with backoff.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import grpc
from google.protobuf import duration_pb2, json_format

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.intake import Intake
from services.gateway.peers import PeerFailure, Peers, call

log = logging.getLogger(__name__)

KINDS = ("followup_due", "proactive_turn_requested")


class ProactiveConsumer:
    def __init__(self, peers: Peers, intake: Intake, *, consumer: str, poll_seconds: float = 5.0) -> None:
        self._peers = peers
        self._intake = intake
        self._consumer = consumer
        self._poll = poll_seconds
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="gateway-proactive")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        delay = 1.0
        while True:
            try:
                stream = self._peers.events.Subscribe(
                    eq.SubscribeRequest(
                        consumer=self._consumer,
                        kinds=list(KINDS),
                        poll_interval=duration_pb2.Duration(seconds=int(self._poll)),
                    )
                )
                async for _wake in stream:
                    await self.drain()
                    delay = 1.0
            except asyncio.CancelledError:
                raise
            except grpc.aio.AioRpcError as exc:
                log.info("event subscription interrupted", extra={"code": exc.code().name, "retry_in": delay})
            except Exception as exc:  # noqa: BLE001 - the consumer must outlive any single failure
                log.warning("proactive consumer failed", extra={"error": str(exc), "retry_in": delay})
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30.0)

    async def drain(self) -> int:
        """Claim and handle available events until none is left; the number handled."""
        handled = 0
        while True:
            claimed = await call(
                "crm",
                self._peers.events.Claim,
                eq.ClaimRequest(consumer=self._consumer, kinds=list(KINDS), batch_size=10),
                timeout=self._peers.timeout,
            )
            if not claimed.events:
                return handled
            for event in claimed.events:
                await self._handle(event)
                handled += 1

    async def _handle(self, event: r.Event) -> None:
        payload: dict[str, Any] = json_format.MessageToDict(event.payload)
        try:
            trigger = await self._trigger(event, payload)
            if trigger is not None:
                contact = event.contact_id or str(payload.get("contact_id", ""))
                await self._intake.start_proactive(event.organization_id, contact, trigger, f"event:{event.event_id}")
            await call(
                "crm",
                self._peers.events.Complete,
                eq.CompleteRequest(
                    organization_id=event.organization_id, event_id=event.event_id, lease_token=event.lease.token
                ),
                timeout=self._peers.timeout,
            )
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the queue as a Fail
            retryable = not isinstance(exc, ValueError)
            log.warning("proactive event failed", extra={"event_id": event.event_id, "error": str(exc)})
            try:
                await call(
                    "crm",
                    self._peers.events.Fail,
                    eq.FailRequest(
                        organization_id=event.organization_id,
                        event_id=event.event_id,
                        lease_token=event.lease.token,
                        error=str(exc)[:1000],
                        retryable=retryable,
                    ),
                    timeout=self._peers.timeout,
                )
            except PeerFailure as failure:
                log.warning("could not report a failed event", extra={"error": str(failure)})

    async def _trigger(self, event: r.Event, payload: dict[str, Any]) -> gw.ProactiveTrigger | None:
        if event.kind == "followup_due":
            followup_id = str(payload.get("follow_up_id") or payload.get("followUpId") or "")
            if not followup_id:
                raise ValueError("followup_due event without follow_up_id")
            followup = (
                await call(
                    "crm",
                    self._peers.crm_read.GetFollowUp,
                    cr.GetFollowUpRequest(organization_id=event.organization_id, follow_up_id=followup_id),
                    timeout=self._peers.timeout,
                )
            ).follow_up
            if followup.status != r.FOLLOW_UP_STATUS_PENDING:
                return None
            return gw.ProactiveTrigger(
                kind=gw.TRIGGER_KIND_FOLLOWUP_DUE,
                reason_pt=followup.reason,
                fixed_text=followup.fixed_text,
                source_event_id=event.event_id,
                followup_id=followup_id,
            )
        failed = str(payload.get("outcome", "")).lower() in ("failed", "obligation_failed")
        return gw.ProactiveTrigger(
            kind=gw.TRIGGER_KIND_OBLIGATION_FAILED if failed else gw.TRIGGER_KIND_OBLIGATION_FULFILLED,
            reason_pt=str(payload.get("reason", "")),
            source_event_id=event.event_id,
            obligation_id=str(payload.get("obligation_id") or payload.get("obligationId") or ""),
        )
