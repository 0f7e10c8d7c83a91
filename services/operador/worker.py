"""The event worker: claims `turn_closed` events through crm's EventQueue and processes them.

Woken by the Subscribe stream (INITIAL, NOTIFY, POLL; it falls back to its own polling when the
stream drops), it claims batches under a lease (crm's SKIP LOCKED: replicas never get the same
event), registers the role-off ones with one batched read and one batched write to crm (`batch.py`),
processes the others concurrently one by one, acknowledges those successes with one CompleteBatch (the
batched ones are completed by RegisterTurnBasics itself, in the transaction of their writes) and
reports each failure with Fail (retried with backoff; a malformed event is dead at once, which
raises the critical `job_dead` Central item). A worker that dies mid-event leaves its lease to
expire; the event is claimed again and replayed with the same idempotency keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

import grpc
from google.protobuf import duration_pb2

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.operador.v1 import operador_pb2 as pb
from services.operador import batch
from services.operador.context import MalformedEvent
from services.operador.processing import Processor

log = logging.getLogger(__name__)

KINDS = ("turn_closed",)


@dataclass
class _Claimed:
    events: list[r.Event]
    prepared: batch.Prepared | None  # None: every event the single way


def _seconds(value: float) -> duration_pb2.Duration:
    d = duration_pb2.Duration()
    d.FromNanoseconds(int(value * 1e9))
    return d


class Worker:
    def __init__(self, processor: Processor, *, batch_size: int = 50, lease_seconds: float = 60.0,
                 concurrency: int = 16, poll_seconds: float = 5.0, consumer: str = "", batched: bool = True) -> None:
        self.processor = processor
        self.peers = processor.peers
        self.batch_size = batch_size
        self.lease_seconds = lease_seconds
        self.concurrency = concurrency
        self.poll_seconds = poll_seconds
        self.batched = batched  # role-off turns through RegisterTurnBasics (False: every event the single way)
        self.replica = socket.gethostname()
        self.consumer = consumer or f"operador-{self.replica}-{uuid.uuid4().hex[:6]}"
        self.state = pb.WORKER_STATE_STARTING
        self.started_at = datetime.now(UTC)
        self.last_claim_at: datetime | None = None
        self.last_completed_at: datetime | None = None
        self.subscribed = False
        self.in_flight = 0
        self.processed: list[str] = []  # event ids this worker completed (tests, metrics)
        # Tests' crash simulation: process the claimed events, then stop without completing them.
        self.crash_before_complete = False
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._subscribe()), asyncio.create_task(self._loop())]

    async def stop(self) -> None:
        self.state = pb.WORKER_STATE_DRAINING
        self._stopping.set()
        self._wake.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def status(self) -> pb.WorkerStatus:
        status = pb.WorkerStatus(state=self.state, replica=self.replica, events_in_flight=self.in_flight,  # type: ignore[arg-type]
                                 subscribed=self.subscribed)
        status.started_at.FromDatetime(self.started_at)
        if self.last_claim_at:
            status.last_claim_at.FromDatetime(self.last_claim_at)
        if self.last_completed_at:
            status.last_completed_at.FromDatetime(self.last_completed_at)
        return status

    async def _subscribe(self) -> None:
        backoff = 0.5
        while not self._stopping.is_set():
            try:
                stream = self.peers.queue.Subscribe(eq.SubscribeRequest(
                    consumer=self.consumer, kinds=list(KINDS), poll_interval=_seconds(self.poll_seconds)))
                async for _ in stream:
                    self.subscribed = True
                    backoff = 0.5
                    self._wake.set()
            except asyncio.CancelledError:
                raise
            except grpc.aio.AioRpcError as error:
                # UNAVAILABLE is also crm ageing the connection out (every few minutes, by design).
                level = logging.INFO if error.code() == grpc.StatusCode.UNAVAILABLE else logging.WARNING
                log.log(level, "subscription dropped", extra={"error": error.code().name})
            except Exception as error:  # noqa: BLE001 - the stream drops; poll meanwhile and reconnect
                log.warning("subscription dropped", extra={"error": str(error)})
            self.subscribed = False
            self._wake.set()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 10.0)

    async def _loop(self) -> None:
        backoff = 0.5
        while not self._stopping.is_set():
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll_seconds)
            except TimeoutError:
                pass
            self._wake.clear()
            try:
                await self.drain()
                self.state = pb.WORKER_STATE_RUNNING
                backoff = 0.5
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - crm unreachable: degraded, retry with backoff
                self.state = pb.WORKER_STATE_DEGRADED
                log.warning("claim failed", extra={"error": str(error)})
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 15.0)
                self._wake.set()

    async def drain(self, organization_id: str = "") -> int:
        """Claim and process batches until a Claim comes back empty; returns how many events were claimed.

        Pipelined: while one batch is being registered (crm and PostgreSQL busy), the next one is
        claimed, read and planned (this process busy); batches are still registered one at a time, in
        the order they were claimed."""
        total = 0
        ahead: asyncio.Task[_Claimed | None] | None = asyncio.ensure_future(self._claim(organization_id))
        try:
            while ahead is not None:
                claimed = await ahead
                ahead = None
                if claimed is None:
                    break
                total += len(claimed.events)
                if not self._stopping.is_set():
                    ahead = asyncio.ensure_future(self._claim(organization_id))
                await self._finish(claimed)
        finally:
            if ahead is not None:  # stopped or failed meanwhile: its leases expire and the events run again
                ahead.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    left = await ahead
                    if left is not None:
                        self.in_flight -= len(left.events)
        return total

    async def drain_once(self, organization_id: str = "") -> int:
        """Claim one batch and process it; returns how many events were claimed."""
        claimed = await self._claim(organization_id)
        if claimed is None:
            return 0
        await self._finish(claimed)
        return len(claimed.events)

    async def _claim(self, organization_id: str) -> _Claimed | None:
        """Claim a batch and, for its role-off turns, read and plan them (nothing is written yet)."""
        reply = await self.peers.queue.Claim(eq.ClaimRequest(
            organization_id=organization_id, consumer=self.consumer, kinds=list(KINDS), batch_size=self.batch_size,
            lease_duration=_seconds(self.lease_seconds)), timeout=self.peers.timeout)
        events = list(reply.events)
        if not events:
            return None
        self.last_claim_at = datetime.now(UTC)
        self.in_flight += len(events)
        try:
            prepared = await batch.prepare(self.processor, events) if self.batched else None
        except BaseException:
            self.in_flight -= len(events)
            raise
        return _Claimed(events, prepared)

    async def _finish(self, claimed: _Claimed) -> None:
        """Register the planned turns (which completes their events), run the rest one by one, complete those."""
        events = claimed.events
        gate = asyncio.Semaphore(self.concurrency)
        try:
            # Role-off turns: one read and one write for the whole batch; the rest, one by one.
            if claimed.prepared is not None:
                batched = await batch.register(self.processor, claimed.prepared)
            else:
                batched = batch.BatchResult(single=events)
            results = await asyncio.gather(*(self._one(e, gate) for e in batched.single))
        finally:
            self.in_flight -= len(events)
        if batched.completed:
            self.processed += [e.event_id for e in batched.completed]
            self.last_completed_at = datetime.now(UTC)
        if self.crash_before_complete:
            self._stopping.set()
            raise asyncio.CancelledError("simulated crash before completion")
        done = batched.done + [e for e, ok in zip(batched.single, results, strict=True) if ok]
        if done:
            reply = await self.peers.queue.CompleteBatch(eq.CompleteBatchRequest(completions=[
                eq.CompleteRequest(organization_id=e.organization_id, event_id=e.event_id, lease_token=e.lease.token)
                for e in done]), timeout=self.peers.timeout)
            for e, outcome in zip(done, reply.outcomes, strict=True):
                if outcome in (eq.LEASE_OUTCOME_COMPLETED, eq.LEASE_OUTCOME_ALREADY_COMPLETED):
                    self.processed.append(e.event_id)
            self.last_completed_at = datetime.now(UTC)

    async def _one(self, event: r.Event, gate: asyncio.Semaphore) -> bool:
        async with gate:
            try:
                await self.processor.process(event)
                return True
            except Exception as error:  # noqa: BLE001 - every failure is reported to the queue
                retryable = not isinstance(error, MalformedEvent)
                if isinstance(error, grpc.aio.AioRpcError) and error.code() in (
                        grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND):
                    retryable = False
                log.warning("event failed", extra={"event_id": event.event_id, "error": str(error)})
                with contextlib.suppress(Exception):
                    reply = await self.peers.queue.Fail(eq.FailRequest(
                        organization_id=event.organization_id, event_id=event.event_id, lease_token=event.lease.token,
                        error=str(error)[:500], retryable=retryable), timeout=self.peers.timeout)
                    if reply.outcome == eq.LEASE_OUTCOME_DEAD:
                        self.processor.metrics.add(event.organization_id, events_dead=1)
                return False
