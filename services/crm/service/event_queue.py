"""EventQueueService: `event_log` as an outbox and an at-least-once work queue (rules in queue.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.crm.v1 import event_queue_pb2_grpc
from services.crm import (
    ids,
    paging,
    queue,
)
from services.crm import messages as m
from services.crm.clock import Clock
from services.crm.errors import InvalidArgument, NotFound
from services.crm.notifications import Notifications
from services.crm.repository import Store
from services.crm.repository import events as events_repo
from services.crm.service.status import Servicer, duration_of, kinds_of, org_of, streaming, unary

MIN_POLL_SECONDS = 0.05


class EventQueue(Servicer, event_queue_pb2_grpc.EventQueueServiceServicer):
    """The outbox and work queue (`event_log`); see queue.py for the rules."""

    def __init__(self, store: Store, clock: Clock, policy: queue.QueuePolicy, notifications: Notifications) -> None:
        super().__init__(store, clock, policy)
        self._notifications = notifications

    @unary
    async def Publish(self, request: eq.PublishRequest, context: Any) -> Any:
        org = org_of(request)
        item = queue.Publication(
            kind=ids.event_kind(request.kind), contact=ids.optional_uuid(request.contact_id, "contact_id"),
            payload=m.struct_to_dict(request.payload), dedup_key=request.dedup_key or None,
            available_at=m.when(request, "available_at"), max_attempts=request.max_attempts,
            traceparent=request.traceparent,
        )
        async with self._store.tenant(org) as conn:
            row, duplicate = await queue.publish(conn, org, item, self._policy, self._clock())
        return eq.PublishResponse(event=m.event(row), deduplicated=duplicate)

    @unary
    async def Claim(self, request: eq.ClaimRequest, context: Any) -> Any:
        org = ids.optional_uuid(request.organization_id, "organization_id")
        consumer = ids.required_text(request.consumer, "consumer", max_length=200)
        kinds = kinds_of(request.kinds, required=True)
        if not 0 <= request.batch_size <= queue.MAX_BATCH:
            raise InvalidArgument(f"batch_size must be between 0 and {queue.MAX_BATCH}")
        lease = duration_of(request, "lease_duration", self._policy.lease)
        rows = await queue.claim(self._store, org=org, kinds=kinds, consumer=consumer,
                                 batch=request.batch_size or 10, lease=lease, now=self._clock())
        return eq.ClaimResponse(events=[m.event(row) for row in rows])

    @unary
    async def Complete(self, request: eq.CompleteRequest, context: Any) -> Any:
        org, event = org_of(request), ids.required_uuid(request.event_id, "event_id")
        token = ids.required_uuid(request.lease_token, "lease_token")
        async with self._store.tenant(org) as conn:
            outcome = await queue.complete(conn, org, event, token, self._clock())
        return eq.CompleteResponse(outcome=outcome)

    @unary
    async def CompleteBatch(self, request: eq.CompleteBatchRequest, context: Any) -> Any:
        if len(request.completions) > queue.MAX_BATCH:
            raise InvalidArgument(f"at most {queue.MAX_BATCH} completions per call")
        completions = [
            (ids.required_uuid(c.organization_id, f"completions[{i}].organization_id"),
             ids.required_uuid(c.event_id, f"completions[{i}].event_id"),
             ids.required_uuid(c.lease_token, f"completions[{i}].lease_token"))
            for i, c in enumerate(request.completions)
        ]
        if len({(org, event) for org, event, _ in completions}) != len(completions):
            raise InvalidArgument("an event appears twice in completions")
        outcomes = await queue.complete_batch(self._store, completions, self._clock())
        return eq.CompleteBatchResponse(outcomes=outcomes)

    @unary
    async def Fail(self, request: eq.FailRequest, context: Any) -> Any:
        org, event = org_of(request), ids.required_uuid(request.event_id, "event_id")
        token = ids.required_uuid(request.lease_token, "lease_token")
        retry_after = duration_of(request, "retry_after", None) if request.HasField("retry_after") else None
        async with self._store.tenant(org) as conn:
            result = await queue.fail(conn, org, event, token, error=request.error[:4000],
                                      retryable=request.retryable, retry_after=retry_after, policy=self._policy,
                                      now=self._clock())
        return eq.FailResponse(
            outcome=result.outcome, next_attempt_at=m.ts(result.next_attempt_at),
            central_item_id=str(result.central_item_id) if result.central_item_id else "",
        )

    @unary
    async def ExtendLease(self, request: eq.ExtendLeaseRequest, context: Any) -> Any:
        org, event = org_of(request), ids.required_uuid(request.event_id, "event_id")
        token = ids.required_uuid(request.lease_token, "lease_token")
        if not request.HasField("extension"):
            raise InvalidArgument("extension is required")
        extension = duration_of(request, "extension", None)
        async with self._store.tenant(org) as conn:
            expires = await queue.extend(conn, org, event, token, extension, self._clock())
        if expires is None:
            return eq.ExtendLeaseResponse(outcome=eq.LEASE_OUTCOME_LEASE_LOST)
        return eq.ExtendLeaseResponse(outcome=eq.LEASE_OUTCOME_EXTENDED, lease_expires_at=m.ts(expires))

    @streaming
    async def Subscribe(self, request: eq.SubscribeRequest, context: Any) -> AsyncIterator[eq.SubscribeResponse]:
        org = ids.optional_uuid(request.organization_id, "organization_id")
        kinds = frozenset(kinds_of(request.kinds, required=False))
        interval = duration_of(request, "poll_interval", self._policy.poll_interval).total_seconds()
        if interval < MIN_POLL_SECONDS:
            raise InvalidArgument(f"poll_interval must be at least {MIN_POLL_SECONDS} s")
        # Registered before the first message, so nothing published after it is missed.
        with self._notifications.subscribe(str(org) if org else None, kinds) as subscriber:
            yield eq.SubscribeResponse(reason=eq.WAKE_REASON_INITIAL, sent_at=m.ts(self._clock()))
            while True:
                try:
                    wake = await subscriber.next(interval)
                except StopAsyncIteration:
                    return
                if wake is None:
                    yield eq.SubscribeResponse(reason=eq.WAKE_REASON_POLL, sent_at=m.ts(self._clock()))
                else:
                    yield eq.SubscribeResponse(reason=eq.WAKE_REASON_NOTIFY, kind=wake.kind,
                                               organization_id=wake.organization_id, sent_at=m.ts(self._clock()))

    @unary
    async def GetEvent(self, request: eq.GetEventRequest, context: Any) -> Any:
        org, event = org_of(request), ids.required_uuid(request.event_id, "event_id")
        async with self._store.tenant(org) as conn:
            row = await events_repo.get(conn, org, event)
        if row is None:
            raise NotFound(f"event {event} not found in organization {org}")
        return eq.GetEventResponse(event=m.event(row))

    @unary
    async def ListEvents(self, request: eq.ListEventsRequest, context: Any) -> Any:
        org = org_of(request)
        contact = ids.optional_uuid(request.contact_id, "contact_id")
        page = paging.page(request.page_size, request.page_token, default=50)
        async with self._store.tenant(org) as conn:
            rows = await events_repo.list_page(
                conn, org, statuses=m.EVENT_STATUS.words(request.statuses),
                kinds=kinds_of(request.kinds, required=False), contact=contact, limit=page.fetch, offset=page.offset,
            )
        return eq.ListEventsResponse(
            events=[m.event(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
        )

    @unary
    async def RequeueEvent(self, request: eq.RequeueEventRequest, context: Any) -> Any:
        org, event = org_of(request), ids.required_uuid(request.event_id, "event_id")
        async with self._store.tenant(org) as conn:
            row = await queue.requeue(conn, org, event, self._clock())
        return eq.RequeueEventResponse(event=m.event(row))

    @unary
    async def GetQueueStats(self, request: eq.GetQueueStatsRequest, context: Any) -> Any:
        org = ids.optional_uuid(request.organization_id, "organization_id")
        scope = self._store.tenant(org) if org is not None else self._store.all_tenants()
        async with scope as conn:
            rows = await events_repo.stats(conn, org)
        return eq.GetQueueStatsResponse(counts=[m.queue_count(row) for row in rows])
