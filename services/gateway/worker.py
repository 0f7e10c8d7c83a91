"""The scheduler: which contact's turn runs now, on which replica, one at a time per contact.

The loop claims contacts whose `due_at` has come (the debounce elapsed, a retry's backoff ended,
a pacing wait is over, a proactive turn was asked for) with `FOR UPDATE SKIP LOCKED`, so two
replicas never take the same contact, and holds each claim as a renewed lease while it works.
For a claimed contact it runs, oldest first, the unfinished turns (a retry resumes its turn),
then a new turn for the messages that wait, until nothing is due; then it gives the contact back
with its next due time. A replica that dies loses its leases; another one picks the contacts up.

A message accepted by this replica wakes the loop at once; others are found by the scan, which
runs at least every `worker_poll_seconds` and sleeps until the next due time otherwise.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from services.gateway import records, repository
from services.gateway.records import Claim, Turn
from services.gateway.runtime import TurnRunner

log = logging.getLogger(__name__)


def replica_name() -> str:
    return f"gateway-{socket.gethostname()}-{os.getpid()}"


class Worker:
    def __init__(
        self,
        engine: AsyncEngine,
        runner: TurnRunner,
        *,
        concurrency: int,
        lease_seconds: float,
        poll_seconds: float,
        replica: str | None = None,
    ) -> None:
        self._engine = engine
        self._runner = runner
        self._concurrency = concurrency
        self._lease = lease_seconds
        self._poll = poll_seconds
        self.replica = replica or replica_name()
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._stopping = False

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._loop_task = asyncio.create_task(self._loop(), name="gateway-worker")

    async def stop(self, grace_seconds: float = 10.0) -> None:
        """Claim nothing more, let running turns finish for up to `grace_seconds`, then cancel them.

        A turn cancelled mid-way keeps its claim until the lease expires and is then resumed by
        another replica; letting it finish first avoids leaving a part reserved but not sent.
        """
        self._stopping = True
        self._wake.set()
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=grace_seconds)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _loop(self) -> None:
        while not self._stopping:
            self._wake.clear()
            timeout = self._poll
            try:
                free = self._concurrency - len(self._tasks)
                if free > 0:
                    async with repository.all_tenants(self._engine) as conn:
                        claims = await repository.claim_due(conn, self.replica, self._lease, free)
                    for claim in claims:
                        task = asyncio.create_task(self._serve(claim), name=f"contact-{claim.contact_id}")
                        self._tasks.add(task)
                        task.add_done_callback(self._done)
                    if len(claims) == free:
                        continue  # there may be more due right now
                    async with repository.all_tenants(self._engine) as conn:
                        due_in = await repository.next_due_in(conn)
                    if due_in is not None:
                        timeout = min(timeout, max(due_in, 0.005))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database went away for a moment: keep trying
                log.warning("worker scan failed", extra={"error": str(exc)})
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except TimeoutError:
                pass

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("contact task crashed", extra={"error": str(task.exception())})
        self._wake.set()

    async def _serve(self, claim: Claim) -> None:
        lost = asyncio.Event()
        heartbeat = asyncio.create_task(self._heartbeat(claim, lost))
        try:
            while not lost.is_set() and not self._stopping:
                turn = await self._next_turn(claim)
                if turn is None:
                    break
                await self._runner.run(claim, turn)
        except repository.ClaimLost:
            pass
        finally:
            heartbeat.cancel()
            await asyncio.gather(heartbeat, return_exceptions=True)
            try:
                async with repository.tenant(self._engine, claim.organization_id) as conn:
                    await repository.release_claim(conn, claim)
            except Exception as exc:  # noqa: BLE001 - the lease will expire by itself
                log.warning("could not release a claim", extra={"error": str(exc)})

    async def _next_turn(self, claim: Claim) -> Turn | None:
        """The contact's next turn to run now: an unfinished one, else one for waiting messages."""
        org, contact = claim.organization_id, claim.contact_id
        async with repository.tenant(self._engine, org) as conn:
            await repository.lock_conversation(conn, claim)
            turn = await repository.next_unfinished_turn(conn, org, contact)
            if turn is not None:
                if turn.next_attempt_at is not None and turn.next_attempt_at > datetime.now(UTC):
                    return None
                return turn
            if not await repository.untaken_inbound(conn, org, contact):
                return None
            if not await repository.debounce_elapsed(conn, org, contact):
                return None
            turn, _ = await repository.insert_turn(conn, org, contact, trigger="inbound", status=records.QUEUED)
            await repository.take_inbound(conn, org, contact, turn.turn_id, 0)
            return await repository.get_turn(conn, org, turn.turn_id)

    async def _heartbeat(self, claim: Claim, lost: asyncio.Event) -> None:
        while True:
            await asyncio.sleep(self._lease / 3)
            try:
                async with repository.tenant(self._engine, claim.organization_id) as conn:
                    held = await repository.extend_claim(conn, claim, self._lease)
            except Exception as exc:  # noqa: BLE001 - the next beat tries again
                log.warning("could not renew a claim", extra={"error": str(exc)})
                continue
            if not held:
                lost.set()
                return
