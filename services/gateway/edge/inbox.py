"""The webhook's durable intake: deliveries stored (group commit) before the 2xx, then drained into the runtime.

`DeliveryInbox.store` is what a webhook request awaits. Requests arriving within a short window
(2 ms by default, or until a batch is full) share one transaction: one statement inserts their
deliveries (`ON CONFLICT DO NOTHING`: a key already there is a redelivery) and adds the new
ones to this minute's rate counters of their contacts and organisations, shared by every replica
(`store.record_deliveries`). The request is answered only after COMMIT, so what it acknowledged
is durable. Then, in arrival order, each request either fits within its counters' limits or is
refused as a whole: its deliveries and hits are taken back in the same transaction (one more
statement, only when something was refused), and it answers 429 with nothing stored.

`DeliveryDrain` hands stored deliveries to the runtime (`Edge.take_delivery`: normalise again,
read the media, `InboundSink.accept`: crm's contact, the inbound message, the debounce) outside
the request, so the acknowledgement costs one shared transaction and never a crm call or a model.
It leases each sender's oldest pending delivery (so a contact's messages reach the runtime in
arrival order, on any replica), retries failures with backoff, records refusals, drops bodies once
taken and prunes old keys and windows. A delivery that still fails after its last attempt is a
customer left without an answer: its body is kept (until the retention prunes it) and `on_lost`
hears of it (the gateway raises a Central item for the business).
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from services.gateway import repository
from services.gateway.edge import store
from services.gateway.edge.inbound import SinkRejected
from services.gateway.edge.store import ORG_KEY, DeliveryRow

log = logging.getLogger(__name__)

Key = tuple[str, str, str, str]


class RateLimited(Exception):
    """The request would take a contact or an organisation over its rate; nothing was stored."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limited; retry in {retry_after:.0f} s")
        self.retry_after = retry_after


def _sqlstate(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None) or "")


def seconds_to_next_window(window_seconds: float = 60.0, now: float | None = None) -> float:
    """Fixed windows: a refused request may pass when the next window starts."""
    now = time.time() if now is None else now
    return max(1.0, math.ceil(window_seconds - now % window_seconds))


@dataclass
class _Ticket:
    rows: list[DeliveryRow]
    future: asyncio.Future[list[bool]]


@dataclass
class DeliveryInbox:
    engine: AsyncEngine
    contact_per_minute: int = 0
    organization_per_minute: int = 0
    # The limits are per window of this length (tests lengthen it so no window ends mid-test).
    rate_window_seconds: float = 60.0
    # How long the first request of a group waits for others to share its commit.
    window_seconds: float = 0.002
    max_batch: int = 256
    # Commits in flight at once. Two: one group forms while the other waits for its WAL flush
    # (bench/ingest.py, durable commits: ~2x the webhooks/s of one at the same CPU per webhook;
    # four cost ~50 % more CPU per webhook, the groups being smaller).
    max_flushes: int = 2
    # Called after each commit that stored something new (wakes this replica's drain).
    on_stored: Callable[[], None] | None = None
    _pending: list[_Ticket] = field(default_factory=list, init=False)
    _pending_rows: int = field(default=0, init=False)
    _timer: asyncio.TimerHandle | None = field(default=None, init=False)
    _inflight: int = field(default=0, init=False)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set, init=False)
    # Pool connections held between groups while requests keep coming (no checkout per group).
    _idle: list[store.HeldConnection] = field(default_factory=list, init=False)

    async def store(self, rows: list[DeliveryRow]) -> list[bool]:
        """Store the request's deliveries durably; for each, True when new, False when a redelivery.

        Raises `RateLimited` (nothing stored) or the database's error (nothing acknowledged).
        """
        if not rows:
            return []
        future: asyncio.Future[list[bool]] = asyncio.get_running_loop().create_future()
        self._pending.append(_Ticket(rows, future))
        self._pending_rows += len(rows)
        if self._pending_rows >= self.max_batch:
            self._flush()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.window_seconds, self._flush)
        return await future

    def _flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._pending or self._inflight >= self.max_flushes:
            return  # a commit in flight flushes the rest when it ends
        batch: list[_Ticket] = []
        size = 0
        while self._pending and (not batch or size + len(self._pending[0].rows) <= self.max_batch):
            ticket = self._pending.pop(0)
            batch.append(ticket)
            size += len(ticket.rows)
        self._pending_rows -= size
        self._inflight += 1
        task = asyncio.get_running_loop().create_task(self._commit(batch))
        self._tasks.add(task)
        task.add_done_callback(self._committed)

    def _committed(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._inflight -= 1
        if self._pending:
            if self._pending_rows >= self.max_batch or self._timer is None:
                self._flush()

    async def _commit(self, batch: list[_Ticket]) -> None:
        unique: dict[Key, DeliveryRow] = {}
        for ticket in batch:
            for row in ticket.rows:
                unique.setdefault(row.key, row)
        rows = sorted(unique.values(), key=lambda r: r.key)  # one lock order for every replica
        try:
            for attempt in (1, 2):
                try:
                    answers = await self._transaction(batch, rows)
                    break
                except Exception as exc:  # a deadlock or serialisation failure is worth one retry
                    if attempt == 2 or _sqlstate(exc) not in ("40P01", "40001"):
                        raise
        except Exception as exc:  # noqa: BLE001 - every waiting request answers 503, none is lost
            for ticket in batch:
                if not ticket.future.done():
                    ticket.future.set_exception(exc)
            if not self._pending and self._inflight <= 1:
                await self.release()
            return
        stored_new = False
        for ticket, answer in zip(batch, answers, strict=True):
            if ticket.future.done():
                continue
            if isinstance(answer, RateLimited):
                ticket.future.set_exception(answer)
            else:
                stored_new = stored_new or any(answer)
                ticket.future.set_result(answer)
        if stored_new and self.on_stored is not None:
            self.on_stored()
        if not self._pending and self._inflight <= 1:  # the load stopped: hold no connection
            await self.release()

    async def _transaction(self, batch: list[_Ticket], rows: list[DeliveryRow]) -> list[list[bool] | RateLimited]:
        per_contact = self.contact_per_minute > 0
        per_org = self.organization_per_minute > 0
        held = self._idle.pop() if self._idle else store.HeldConnection(await self.engine.connect())
        try:
            answers = await self._statements(held, batch, rows, per_contact, per_org)
        except BaseException:
            await held.close()  # back to the pool (or discarded when invalidated)
            raise
        self._idle.append(held)  # for the next group; given back once no request waits (`_commit`)
        return answers

    async def release(self) -> None:
        """Give the connections held between groups back to the pool (also done whenever the load stops)."""
        while self._idle:
            await self._idle.pop().close()

    async def _statements(
        self,
        held: store.HeldConnection,
        batch: list[_Ticket],
        rows: list[DeliveryRow],
        per_contact: bool,
        per_org: bool,
    ) -> list[list[bool] | RateLimited]:
        async with store.group_transaction(held, lambda: bool(self._pending)) as conn:
            new, totals = await store.record_deliveries(
                conn, rows, per_contact=per_contact, per_org=per_org, window_seconds=self.rate_window_seconds
            )
            # What this statement added to each counter; the totals before it follow.
            added: Counter[tuple[str, str]] = Counter()
            for row in rows:
                if row.key in new and not row.from_business:
                    added.update(self._counters(row))
            running = {k: totals.get(k, 0) - added[k] for k in added}
            taken: set[Key] = set()
            refused: dict[Key, DeliveryRow] = {}
            answers: list[list[bool] | RateLimited] = []
            for ticket in batch:
                mine: list[DeliveryRow] = []
                seen: set[Key] = set()
                for row in ticket.rows:
                    if row.key in new and row.key not in taken and row.key not in seen:
                        mine.append(row)
                        seen.add(row.key)
                need: Counter[tuple[str, str]] = Counter()
                for row in mine:
                    if not row.from_business:
                        need.update(self._counters(row))
                if all(running[k] + n <= self._limit(k) for k, n in need.items()):
                    for k, n in need.items():
                        running[k] += n
                    taken.update(seen)
                    firsts: set[Key] = set()
                    answer = []
                    for row in ticket.rows:
                        answer.append(row.key in seen and row.key not in firsts)
                        firsts.add(row.key)
                    answers.append(answer)
                else:
                    refused.update((row.key, row) for row in mine)
                    answers.append(RateLimited(seconds_to_next_window(self.rate_window_seconds)))
            # A key refused for one request and not taken by a later one is deleted with its hits
            # (the statement counted each new key once).
            undo = [row for key, row in refused.items() if key not in taken]
            if undo:
                hits: Counter[tuple[str, str]] = Counter()
                for row in undo:
                    if not row.from_business:
                        hits.update(self._counters(row))
                await store.undo_deliveries(conn, [r.key for r in undo], dict(hits), self.rate_window_seconds)
        return answers

    def _counters(self, row: DeliveryRow) -> list[tuple[str, str]]:
        counters = []
        if self.contact_per_minute > 0:
            counters.append((row.organization_id, row.sender_key))
        if self.organization_per_minute > 0:
            counters.append((row.organization_id, ORG_KEY))
        return counters

    def _limit(self, counter: tuple[str, str]) -> int:
        return self.organization_per_minute if counter[1] == ORG_KEY else self.contact_per_minute


# ---------------------------------------------------------------------------------------------
# The drain
# ---------------------------------------------------------------------------------------------

TakeDelivery = Callable[[str, str, str, str, bytes], Awaitable[Any]]


@dataclass(frozen=True)
class LostDelivery:
    """A stored customer message the runtime never took, after every attempt."""

    organization_id: str
    channel_instance: str
    sender_key: str
    message_id: str
    body: bytes
    attempts: int
    error: str


OnLost = Callable[[LostDelivery], Awaitable[None]]


class DeliveryDrain:
    def __init__(
        self,
        engine: AsyncEngine,
        take: TakeDelivery,
        *,
        concurrency: int = 8,
        lease_seconds: float = 120.0,
        poll_seconds: float = 1.0,
        max_attempts: int = 10,
        retry_base_seconds: float = 1.0,
        retry_max_seconds: float = 300.0,
        retention_seconds: float = 2 * 86400.0,
        prune_every_seconds: float = 60.0,
        rate_window_seconds: float = 60.0,
        on_lost: OnLost | None = None,
    ) -> None:
        self._rate_window = rate_window_seconds
        self._on_lost = on_lost
        self._engine = engine
        self._take = take
        self._concurrency = concurrency
        self._lease = lease_seconds
        self._poll = poll_seconds
        self._max_attempts = max_attempts
        self._retry = (retry_base_seconds, retry_max_seconds)
        self._retention = retention_seconds
        self._prune_every = prune_every_seconds
        self._wake = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self, grace_seconds: float = 5.0) -> None:
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), grace_seconds)
            except TimeoutError:
                self._task.cancel()
                await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def drain_once(self) -> int:
        """Claim and take one round of due deliveries; how many were claimed (tests use it)."""
        async with repository.all_tenants(self._engine) as conn:
            claimed = await store.claim_deliveries(conn, self._lease, self._concurrency)
        await asyncio.gather(*(self._one(row) for row in claimed))
        return len(claimed)

    async def _run(self) -> None:
        pruned_at = 0.0
        while not self._stopping:
            try:
                if time.monotonic() - pruned_at > self._prune_every:
                    pruned_at = time.monotonic()
                    async with repository.all_tenants(self._engine) as conn:
                        await store.prune(conn, self._retention, self._rate_window)
                self._wake.clear()
                if await self.drain_once():
                    continue
                async with repository.all_tenants(self._engine) as conn:
                    due = await store.next_pending_in(conn)
                wait = self._poll if due is None else min(self._poll, max(0.01, due))
            except Exception:
                log.exception("the delivery drain failed a round; trying again")
                wait = self._poll
            try:
                await asyncio.wait_for(self._wake.wait(), wait)
            except TimeoutError:
                pass

    async def _one(self, row: dict[str, Any]) -> None:
        key = (row["organization_id"], row["channel_instance"], row["sender_key"], row["message_id"])
        try:
            await self._take(str(key[0]), key[1], key[2], key[3], bytes(row["body"] or b""))
        except SinkRejected as exc:
            log.warning("the runtime refused a stored delivery", extra={"message_id": key[3], "error": str(exc)})
            await self._finish(key, "rejected", str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - any failure is retried with backoff, then recorded
            attempts = int(row["attempts"])
            error = f"{type(exc).__name__}: {exc}"
            if attempts >= self._max_attempts:
                log.error("a stored delivery failed for good", extra={"message_id": key[3], "error": error})
                await self._finish(key, "failed", error)
                await self._lost(LostDelivery(str(key[0]), *key[1:], bytes(row["body"] or b""), attempts, error))
                return
            base, cap = self._retry
            delay = min(cap, base * 2 ** (attempts - 1)) * random.uniform(0.8, 1.2)
            log.warning("a stored delivery failed; retrying", extra={"message_id": key[3], "error": error})
            async with repository.all_tenants(self._engine) as conn:
                await store.retry_delivery(conn, key, delay, error)
            return
        await self._finish(key, "done")

    async def _lost(self, lost: LostDelivery) -> None:
        if self._on_lost is None:
            return
        try:
            await self._on_lost(lost)
        except Exception:  # the delivery is recorded as failed either way; the log keeps the rest
            log.exception("could not report a delivery that failed for good", extra={"message_id": lost.message_id})

    async def _finish(self, key: tuple[Any, str, str, str], state: str, error: str = "") -> None:
        async with repository.all_tenants(self._engine) as conn:
            await store.finish_delivery(conn, key, state, error)
