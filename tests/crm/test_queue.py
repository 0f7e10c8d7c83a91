"""The event queue: leases, SKIP LOCKED, backoff, `dead` + `job_dead`, wake-ups.

Leases and backoff are judged by the crm's clock, so these tests run an in-process crm whose
clock they move (`local`); Subscribe runs against the mesh's real crm process.
"""

from __future__ import annotations

import asyncio
import uuid

import grpc
import pytest
from google.protobuf import duration_pb2
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from tests.crm.conftest import Crm, LocalCrm, row_counts

WAIT = 15.0  # generous bound for a wake-up to arrive; a stuck stream fails, a slow one does not


def seconds(value: float) -> duration_pb2.Duration:
    duration = duration_pb2.Duration()
    duration.FromMilliseconds(int(value * 1000))
    return duration


def a_kind() -> str:
    """A kind of event no other test (nor the mesh's own workers) claims."""
    return f"test_{uuid.uuid4().hex[:12]}"


async def publish(crm: Crm, org: str, kind: str, n: int = 1, **fields: object) -> list[str]:
    ids = []
    for i in range(n):
        response = await crm.queue.Publish(
            eq.PublishRequest(organization_id=org, kind=kind, payload={"i": i}, **fields),  # type: ignore[arg-type]
            metadata=crm.metadata,
        )
        ids.append(response.event.event_id)
    return ids


async def claim(crm: Crm, org: str | None, kind: str, consumer: str, batch: int = 10,
                lease: float | None = None) -> list[r.Event]:
    request = eq.ClaimRequest(organization_id=org or "", consumer=consumer, kinds=[kind], batch_size=batch)
    if lease is not None:
        request.lease_duration.CopyFrom(seconds(lease))
    return list((await crm.queue.Claim(request, metadata=crm.metadata)).events)


async def test_two_consumers_never_claim_the_same_event(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    published = set(await publish(crm, org, kind, 60))

    async def consumer(name: str) -> list[str]:
        got: list[str] = []
        while batch := await claim(crm, org, kind, name, batch=4):
            got.extend(e.event_id for e in batch)
        return got

    first, second = await asyncio.gather(consumer("worker-a"), consumer("worker-b"))
    assert not set(first) & set(second)
    assert len(first) + len(second) == 60
    assert set(first) | set(second) == published


async def test_a_claim_carries_the_lease_and_counts_the_attempt(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    [event_id] = await publish(crm, org, kind)
    [event] = await claim(crm, org, kind, "worker-a", lease=30)
    assert event.event_id == event_id and event.organization_id == org
    assert event.status == r.EVENT_STATUS_LEASED
    assert event.attempts == 1
    assert event.lease.consumer == "worker-a" and event.lease.token
    assert event.lease.expires_at.ToDatetime().timestamp() == pytest.approx(local.clock().timestamp() + 30, abs=1)
    assert await claim(crm, org, kind, "worker-b") == []  # leased: nobody else gets it


async def test_a_consumer_that_dies_after_claiming_lets_the_event_be_claimed_after_the_lease(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    await publish(crm, org, kind)
    [dying] = await claim(crm, org, kind, "worker-that-dies", lease=10)
    local.clock.advance(9)
    assert await claim(crm, org, kind, "worker-b") == []  # the lease still holds
    local.clock.advance(2)
    [again] = await claim(crm, org, kind, "worker-b")
    assert again.event_id == dying.event_id
    assert again.attempts == 2
    assert again.lease.token != dying.lease.token
    # The dead consumer's token no longer holds the event; the new one completes it.
    late = await crm.queue.Complete(
        eq.CompleteRequest(organization_id=org, event_id=dying.event_id, lease_token=dying.lease.token),
        metadata=crm.metadata,
    )
    assert late.outcome == eq.LEASE_OUTCOME_LEASE_LOST
    done = await crm.queue.Complete(
        eq.CompleteRequest(organization_id=org, event_id=again.event_id, lease_token=again.lease.token),
        metadata=crm.metadata,
    )
    assert done.outcome == eq.LEASE_OUTCOME_COMPLETED
    retried = await crm.queue.Complete(
        eq.CompleteRequest(organization_id=org, event_id=again.event_id, lease_token=again.lease.token),
        metadata=crm.metadata,
    )
    assert retried.outcome == eq.LEASE_OUTCOME_ALREADY_COMPLETED


async def test_extending_the_lease_keeps_the_event(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    await publish(crm, org, kind)
    [event] = await claim(crm, org, kind, "slow-worker", lease=10)
    local.clock.advance(8)
    extended = await crm.queue.ExtendLease(
        eq.ExtendLeaseRequest(organization_id=org, event_id=event.event_id, lease_token=event.lease.token,
                              extension=seconds(20)),
        metadata=crm.metadata,
    )
    assert extended.outcome == eq.LEASE_OUTCOME_EXTENDED
    local.clock.advance(15)
    assert await claim(crm, org, kind, "worker-b") == []


async def test_failures_back_off_exponentially_then_the_event_is_dead_with_a_critical_job_dead_item(
    local: LocalCrm,
) -> None:
    crm = local.crm  # 3 attempts, backoff base 2 s
    org = await crm.org()
    kind = a_kind()
    [event_id] = await publish(crm, org, kind)
    waits = []
    for attempt in (1, 2):
        [event] = await claim(crm, org, kind, "worker")
        assert event.attempts == attempt
        failed = await crm.queue.Fail(
            eq.FailRequest(organization_id=org, event_id=event_id, lease_token=event.lease.token,
                           error=f"agenda indisponível ({attempt})", retryable=True),
            metadata=crm.metadata,
        )
        assert failed.outcome == eq.LEASE_OUTCOME_RETRY_SCHEDULED
        wait = failed.next_attempt_at.ToDatetime().timestamp() - local.clock().timestamp()
        waits.append(round(wait))
        local.clock.advance(wait - 0.5)
        assert await claim(crm, org, kind, "worker") == []  # not before the backoff
        local.clock.advance(0.5)
    assert waits == [2, 4]

    [last] = await claim(crm, org, kind, "worker")
    assert last.attempts == 3
    dead = await crm.queue.Fail(
        eq.FailRequest(organization_id=org, event_id=event_id, lease_token=last.lease.token,
                       error="agenda indisponível (3)", retryable=True),
        metadata=crm.metadata,
    )
    assert dead.outcome == eq.LEASE_OUTCOME_DEAD
    stored = (await crm.queue.GetEvent(eq.GetEventRequest(organization_id=org, event_id=event_id),
                                       metadata=crm.metadata)).event
    assert stored.status == r.EVENT_STATUS_DEAD
    assert stored.last_error == "agenda indisponível (3)"
    item = (await crm.read.GetCentralItem(rd.GetCentralItemRequest(organization_id=org,
                                                                   central_item_id=dead.central_item_id),
                                          metadata=crm.metadata)).item
    assert item.kind == r.CENTRAL_ITEM_KIND_JOB_DEAD
    assert item.severity == r.CENTRAL_ITEM_SEVERITY_CRITICAL
    assert item.status == r.CENTRAL_ITEM_STATUS_OPEN
    assert item.event_id == event_id
    assert item.details["last_error"] == "agenda indisponível (3)"
    local.clock.advance(3600)
    assert await claim(crm, org, kind, "worker") == []  # dead stays dead

    requeued = await crm.queue.RequeueEvent(eq.RequeueEventRequest(organization_id=org, event_id=event_id),
                                            metadata=crm.metadata)
    assert requeued.event.status == r.EVENT_STATUS_PENDING and requeued.event.attempts == 0
    [revived] = await claim(crm, org, kind, "worker")
    assert revived.event_id == event_id
    item = (await crm.read.GetCentralItem(rd.GetCentralItemRequest(organization_id=org,
                                                                   central_item_id=dead.central_item_id),
                                          metadata=crm.metadata)).item
    assert item.status == r.CENTRAL_ITEM_STATUS_RESOLVED


async def test_a_failure_that_cannot_be_retried_is_dead_at_once(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    [event_id] = await publish(crm, org, kind)
    [event] = await claim(crm, org, kind, "worker")
    dead = await crm.queue.Fail(
        eq.FailRequest(organization_id=org, event_id=event_id, lease_token=event.lease.token,
                       error="payload sem contact_id", retryable=False),
        metadata=crm.metadata,
    )
    assert dead.outcome == eq.LEASE_OUTCOME_DEAD and dead.central_item_id


async def test_a_lease_that_expires_on_the_last_attempt_makes_the_event_dead(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    [event_id] = await publish(crm, org, kind, max_attempts=1)
    await claim(crm, org, kind, "worker-that-dies", lease=10)
    local.clock.advance(11)
    assert await claim(crm, org, kind, "worker-b") == []
    stored = (await crm.queue.GetEvent(eq.GetEventRequest(organization_id=org, event_id=event_id),
                                       metadata=crm.metadata)).event
    assert stored.status == r.EVENT_STATUS_DEAD
    items = await crm.read.ListCentralItems(
        rd.ListCentralItemsRequest(organization_id=org, kinds=[r.CENTRAL_ITEM_KIND_JOB_DEAD]), metadata=crm.metadata
    )
    assert [i.event_id for i in items.items] == [event_id]


async def test_a_retry_after_wins_over_the_backoff(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    [event_id] = await publish(crm, org, kind)
    [event] = await claim(crm, org, kind, "worker")
    failed = await crm.queue.Fail(
        eq.FailRequest(organization_id=org, event_id=event_id, lease_token=event.lease.token, error="429",
                       retryable=True, retry_after=seconds(30)),
        metadata=crm.metadata,
    )
    assert failed.next_attempt_at.ToDatetime().timestamp() == pytest.approx(local.clock().timestamp() + 30, abs=1)


async def test_a_delayed_event_waits_for_its_time_and_claims_go_oldest_first(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    later = local.clock.now.timestamp() + 60
    delayed = await crm.queue.Publish(
        eq.PublishRequest(organization_id=org, kind=kind, available_at={"seconds": int(later)}),
        metadata=crm.metadata,
    )
    first, second = await publish(crm, org, kind, 2)
    assert [e.event_id for e in await claim(crm, org, kind, "worker", lease=600)] == [first, second]
    local.clock.advance(61)
    assert [e.event_id for e in await claim(crm, org, kind, "worker")] == [delayed.event.event_id]


async def test_a_claim_without_organisation_serves_every_tenant(local: LocalCrm) -> None:
    crm = local.crm
    kind = a_kind()
    orgs = [await crm.org(f"Tenant {i}") for i in range(3)]
    for org in orgs:
        await publish(crm, org, kind, 2)
    events = await claim(crm, None, kind, "worker", batch=50)
    assert sorted(e.organization_id for e in events) == sorted(orgs * 2)
    stats = await crm.queue.GetQueueStats(eq.GetQueueStatsRequest(), metadata=crm.metadata)
    leased = [c for c in stats.counts if c.kind == kind]
    assert [(c.status, c.count) for c in leased] == [(r.EVENT_STATUS_LEASED, 6)]


async def test_publish_deduplicates_by_the_producers_key(local: LocalCrm, owner_engine: AsyncEngine) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    first = await crm.queue.Publish(eq.PublishRequest(organization_id=org, kind=kind, dedup_key="turn-1"),
                                    metadata=crm.metadata)
    before = await row_counts(owner_engine, org)
    second = await crm.queue.Publish(eq.PublishRequest(organization_id=org, kind=kind, dedup_key="turn-1"),
                                     metadata=crm.metadata)
    assert second.deduplicated and second.event.event_id == first.event.event_id
    assert await row_counts(owner_engine, org) == before


@pytest.mark.parametrize(
    ("request_", "problem"),
    [
        (eq.ClaimRequest(consumer="w"), "kinds is required"),
        (eq.ClaimRequest(consumer="w", kinds=["Turn Closed"]), "snake_case"),
        (eq.ClaimRequest(kinds=["turn_closed"]), "consumer is required"),
        (eq.ClaimRequest(consumer="w", kinds=["turn_closed"], lease_duration=seconds(-1)), "must be positive"),
    ],
)
async def test_a_malformed_claim_is_refused(local: LocalCrm, request_: eq.ClaimRequest, problem: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await local.crm.queue.Claim(request_, metadata=local.crm.metadata)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert problem in caught.value.details()


async def test_requeueing_an_event_that_is_not_dead_is_a_failed_precondition(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    [event_id] = await publish(crm, org, a_kind())
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.queue.RequeueEvent(eq.RequeueEventRequest(organization_id=org, event_id=event_id),
                                     metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


async def test_subscribe_wakes_on_publish_through_notify(crm: Crm) -> None:
    org = await crm.org()
    kind = a_kind()
    stream = crm.queue.Subscribe(
        eq.SubscribeRequest(organization_id=org, consumer="test", kinds=[kind], poll_interval=seconds(120)),
        metadata=crm.metadata,
    )
    try:
        initial = await asyncio.wait_for(stream.read(), WAIT)
        assert initial.reason == eq.WAKE_REASON_INITIAL
        await publish(crm, org, "some_other_kind_nobody_waits_for")
        await publish(crm, org, kind)
        woken = await asyncio.wait_for(stream.read(), WAIT)
        assert (woken.reason, woken.kind, woken.organization_id) == (eq.WAKE_REASON_NOTIFY, kind, org)
    finally:
        stream.cancel()


async def test_subscribe_falls_back_to_polling_ticks(crm: Crm) -> None:
    stream = crm.queue.Subscribe(
        eq.SubscribeRequest(consumer="test", kinds=[a_kind()], poll_interval=seconds(0.1)), metadata=crm.metadata
    )
    try:
        reasons = [(await asyncio.wait_for(stream.read(), WAIT)).reason for _ in range(3)]
    finally:
        stream.cancel()
    assert reasons == [eq.WAKE_REASON_INITIAL, eq.WAKE_REASON_POLL, eq.WAKE_REASON_POLL]


async def test_events_list_newest_first_and_filter_by_status(local: LocalCrm) -> None:
    crm = local.crm
    org = await crm.org()
    kind = a_kind()
    ids = await publish(crm, org, kind, 3)
    local.clock.advance(1)
    await claim(crm, org, kind, "worker", batch=1)
    listed = await crm.queue.ListEvents(eq.ListEventsRequest(organization_id=org, kinds=[kind]),
                                        metadata=crm.metadata)
    assert [e.event_id for e in listed.events] == ids[::-1]
    leased = await crm.queue.ListEvents(
        eq.ListEventsRequest(organization_id=org, statuses=[r.EVENT_STATUS_LEASED]), metadata=crm.metadata
    )
    assert [e.event_id for e in leased.events] == ids[:1]


async def test_a_batch_of_completions_is_judged_one_by_one(local: LocalCrm) -> None:
    crm = local.crm
    kind = a_kind()
    orgs = [await crm.org(), await crm.org()]
    for org in orgs:
        await publish(crm, org, kind, 2)
    events = await claim(crm, None, kind, "worker", batch=10, lease=10)
    assert len(events) == 4
    first = events[0]
    await crm.queue.Complete(eq.CompleteRequest(organization_id=first.organization_id, event_id=first.event_id,
                                                lease_token=first.lease.token), metadata=crm.metadata)
    stale = eq.CompleteRequest(organization_id=events[1].organization_id, event_id=events[1].event_id,
                               lease_token=str(uuid.uuid4()))
    batch = eq.CompleteBatchRequest(completions=[
        *(eq.CompleteRequest(organization_id=e.organization_id, event_id=e.event_id, lease_token=e.lease.token)
          for e in (events[0], events[2], events[3])),
        stale,
        eq.CompleteRequest(organization_id=orgs[0], event_id=str(uuid.uuid4()), lease_token=str(uuid.uuid4())),
    ])
    response = await crm.queue.CompleteBatch(batch, metadata=crm.metadata)
    assert list(response.outcomes) == [
        eq.LEASE_OUTCOME_ALREADY_COMPLETED, eq.LEASE_OUTCOME_COMPLETED, eq.LEASE_OUTCOME_COMPLETED,
        eq.LEASE_OUTCOME_LEASE_LOST, eq.LEASE_OUTCOME_LEASE_LOST,
    ]
    local.clock.advance(11)
    [again] = await claim(crm, None, kind, "worker")  # only the one whose token was wrong comes back
    assert again.event_id == events[1].event_id
