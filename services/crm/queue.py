"""The event queue's rules: leases, exponential backoff, and `dead` with its `job_dead` item.

At-least-once: a consumer that dies keeps its events only until the lease expires; then they
are claimed again, with the attempt counter going up. A failure backs off exponentially
(`base · 2^(attempt-1)`, capped); the last failed attempt (or a non-retryable failure) makes
the event `dead` and raises a critical `job_dead` Central item in the same transaction. A
lease that expires on an event's last attempt is treated like a failed last attempt.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import event_queue_pb2 as eq
from services.crm import central, contacts, organizations
from services.crm.errors import FailedPrecondition, InvalidArgument, NotFound
from services.crm.repository import Store
from services.crm.repository import events as repo
from services.crm.repository._sql import Row

MAX_BATCH = 500
LEASE_LOST_ERROR = "the lease expired on the last attempt (the consumer stopped answering)"


@dataclass(frozen=True)
class QueuePolicy:
    lease: timedelta
    max_attempts: int
    backoff_base: timedelta
    backoff_max: timedelta
    poll_interval: timedelta

    def backoff(self, attempt: int) -> timedelta:
        """The wait after the `attempt`-th failed attempt (1-based)."""
        factor = 2 ** min(max(attempt - 1, 0), 30)
        return min(self.backoff_base * factor, self.backoff_max)


@dataclass(frozen=True)
class Publication:
    kind: str
    contact: UUID | None
    payload: dict[str, Any]
    dedup_key: str | None
    available_at: datetime | None
    max_attempts: int
    traceparent: str


async def publish(conn: AsyncConnection, org: UUID, item: Publication, policy: QueuePolicy,
                  now: datetime, *, contact_checked: bool = False) -> tuple[Row, bool]:
    """The event enqueued (or the earlier one with the same dedup key) and whether it was a duplicate.

    `contact_checked`: the caller found `item.contact` in this transaction already (so the
    organisation exists too: a contact's row refers to it), and the two lookups are skipped."""
    if item.max_attempts < 0:
        raise InvalidArgument("max_attempts must not be negative")
    if not (contact_checked and item.contact is not None):
        await organizations.require_exists(conn, org)
        if item.contact is not None:
            await contacts.require(conn, org, item.contact)
    available_at = item.available_at or now
    # Available now: subscribers are woken (on commit) by the insert's own statement.
    row = await repo.insert(
        conn, org, uuid.uuid4(), kind=item.kind, contact=item.contact, payload=item.payload,
        dedup_key=item.dedup_key, max_attempts=item.max_attempts or policy.max_attempts,
        available_at=available_at, traceparent=item.traceparent, now=now, notify=available_at <= now,
    )
    if row is None:
        assert item.dedup_key is not None
        existing = await repo.by_dedup_key(conn, org, item.kind, item.dedup_key)
        assert existing is not None
        return existing, True
    return row, False


async def claim(store: Store, *, org: UUID | None, kinds: list[str], consumer: str, batch: int,
                lease: timedelta, now: datetime) -> list[Row]:
    """Claim a batch; then declare dead what exhausted its attempts under an expired lease."""
    async with _scope(store, org) as conn:
        exhausted = await repo.exhausted_leases(conn, org=org, kinds=kinds, now=now)
        claimed = await repo.claim(conn, org=org, kinds=kinds, consumer=consumer, limit=batch, now=now,
                                   expires_at=now + lease)
    for candidate in exhausted:
        await _bury(store, candidate["organization_id"], candidate["event_id"], now)
    return claimed


def _scope(store: Store, org: UUID | None) -> Any:
    return store.tenant(org) if org is not None else store.all_tenants()


async def _bury(store: Store, org: UUID, event_id: UUID, now: datetime) -> None:
    """Dead + `job_dead`, in the event's own tenant transaction, unless it was settled meanwhile."""
    async with store.tenant(org) as conn:
        event = await repo.get(conn, org, event_id, lock=True)
        if (
            event is None
            or event["status"] != "leased"
            or event["lease_expires_at"] > now
            or event["attempts"] < event["max_attempts"]
        ):
            return
        await repo.dead(conn, org, event_id, error=LEASE_LOST_ERROR, now=now)
        await central.job_dead(conn, event, LEASE_LOST_ERROR, now)


async def _leased(conn: AsyncConnection, org: UUID, event: UUID) -> Row:
    row = await repo.get(conn, org, event, lock=True)
    if row is None:
        raise NotFound(f"event {event} not found in organization {org}")
    return row


async def complete(conn: AsyncConnection, org: UUID, event: UUID, token: UUID, now: datetime) -> int:
    if await repo.complete(conn, org, event, token, now):
        return eq.LEASE_OUTCOME_COMPLETED
    row = await _leased(conn, org, event)
    if row["status"] == "done" and row["lease_token"] == token:
        return eq.LEASE_OUTCOME_ALREADY_COMPLETED
    return eq.LEASE_OUTCOME_LEASE_LOST


async def complete_batch(store: Store, completions: list[tuple[UUID, UUID, UUID]], now: datetime) -> list[int]:
    """Complete (organisation, event, token) triples in one transaction; one outcome per triple, in order.

    Like Claim, it is a worker's operation across organisations, so it runs in the cross-tenant
    scope that `event_log` opens to the queue; each row is still matched on its organisation."""
    async with store.all_tenants() as conn:
        done = await repo.complete_many(conn, completions, now)
        rest = [(org, event) for org, event, _ in completions if (org, event) not in done]
        known = await repo.states(conn, rest) if rest else {}
    outcomes = []
    for org, event, token in completions:
        row = known.get((org, event))
        if (org, event) in done:
            outcomes.append(eq.LEASE_OUTCOME_COMPLETED)
        elif row is not None and row["status"] == "done" and row["lease_token"] == token:
            outcomes.append(eq.LEASE_OUTCOME_ALREADY_COMPLETED)
        else:
            outcomes.append(eq.LEASE_OUTCOME_LEASE_LOST)
    return outcomes


@dataclass(frozen=True)
class FailOutcome:
    outcome: int
    next_attempt_at: datetime | None = None
    central_item_id: UUID | None = None


async def fail(conn: AsyncConnection, org: UUID, event: UUID, token: UUID, *, error: str, retryable: bool,
               retry_after: timedelta | None, policy: QueuePolicy, now: datetime) -> FailOutcome:
    row = await _leased(conn, org, event)
    if row["status"] != "leased" or row["lease_token"] != token:
        return FailOutcome(eq.LEASE_OUTCOME_LEASE_LOST)
    error = error.strip() or "(no error message given)"
    if not retryable or row["attempts"] >= row["max_attempts"]:
        dead = await repo.dead(conn, org, event, error=error, now=now)
        item = await central.job_dead(conn, dead, error, now)
        return FailOutcome(eq.LEASE_OUTCOME_DEAD, central_item_id=item["central_item_id"])
    delay = retry_after if retry_after is not None else policy.backoff(row["attempts"])
    retried = await repo.retry(conn, org, event, error=error, available_at=now + delay)
    if delay <= timedelta(0):
        await repo.notify(conn, org, row["kind"])
    return FailOutcome(eq.LEASE_OUTCOME_RETRY_SCHEDULED, next_attempt_at=retried["available_at"])


async def extend(conn: AsyncConnection, org: UUID, event: UUID, token: UUID, extension: timedelta,
                 now: datetime) -> datetime | None:
    expires = await repo.extend(conn, org, event, token, now + extension)
    if expires is None:
        await _leased(conn, org, event)  # NOT_FOUND for an unknown event; otherwise the lease is lost
    return expires


async def requeue(conn: AsyncConnection, org: UUID, event: UUID, now: datetime) -> Row:
    row = await _leased(conn, org, event)
    if row["status"] != "dead":
        raise FailedPrecondition(f"event {event} is {row['status']}, not dead; only dead events can be requeued")
    requeued = await repo.requeue(conn, org, event, now)
    await central.resolve_job_dead(conn, org, event, now)
    await repo.notify(conn, org, row["kind"])
    return requeued

