"""The scheduler: which contact's turn runs now, on which replica, one at a time per contact.

The loop claims contacts whose `due_at` has come (the debounce elapsed, a retry's backoff ended,
a pacing wait is over, a proactive turn was asked for) with `FOR UPDATE SKIP LOCKED`, so two
replicas never take the same contact, and holds each claim as a renewed lease while it works.
For a claimed contact it runs, oldest first, the unfinished turns (a retry resumes its turn),
then a new turn for the messages that wait, until nothing is due; then it gives the contact back
with its next due time. A replica that dies loses its leases; another one picks the contacts up.

A message accepted by this replica wakes the loop at once; one accepted by another replica wakes
it through PostgreSQL (the accepting transaction NOTIFYs `balcao_gateway_due`, every replica
LISTENs). The scan also runs at least every `worker_poll_seconds` (a lost notification, a retry's
time) and sleeps until the next due time otherwise. A finished contact rescans only when it is
due again or the last scan stopped at the concurrency limit.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket

from sqlalchemy.ext.asyncio import AsyncEngine

from services.gateway import repository
from services.gateway.records import Claim
from services.gateway.runtime import DUE_AGAIN, RAN, TurnRunner

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
        self._listen_task: asyncio.Task[None] | None = None
        self._stopping = False
        # The last scan claimed as many contacts as it could take: a finished task rescans.
        self._starved = False
        # Contacts given back still due (a retry's time, a debounce): the loop rescans for them.
        self._due_again: set[Claim] = set()

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._loop_task = asyncio.create_task(self._loop(), name="gateway-worker")
        self._listen_task = asyncio.create_task(self._listen(), name="gateway-worker-listen")

    async def _listen(self) -> None:
        """Wake the loop when another replica accepts work (PostgreSQL LISTEN on `DUE_CHANNEL`).

        One connection of the pool is held for it; when it breaks, the loop's periodic scan covers
        the gap and the listener connects again after `worker_poll_seconds`.
        """

        def heard(_connection: object, _pid: int, _channel: str, payload: str) -> None:
            sender = payload.partition(" ")[0]
            if sender != self.replica:
                self._wake.set()

        while not self._stopping:
            try:
                async with self._engine.connect() as conn:
                    raw = (await conn.get_raw_connection()).driver_connection
                    assert raw is not None
                    await raw.add_listener(repository.DUE_CHANNEL, heard)
                    self._wake.set()  # anything announced while we were not listening is found by a scan
                    try:
                        while not self._stopping and not raw.is_closed():
                            await asyncio.sleep(self._poll)
                    finally:
                        if not raw.is_closed():
                            await raw.remove_listener(repository.DUE_CHANNEL, heard)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database went away for a moment: listen again
                log.warning("worker listener failed", extra={"error": str(exc)})
            await asyncio.sleep(self._poll)

    async def stop(self, grace_seconds: float = 10.0) -> None:
        """Claim nothing more, let running turns finish for up to `grace_seconds`, then cancel them.

        A turn cancelled mid-way keeps its claim until the lease expires and is then resumed by
        another replica; letting it finish first avoids leaving a part reserved but not sent.
        """
        self._stopping = True
        self._wake.set()
        for background in (self._loop_task, self._listen_task):
            if background is not None:
                background.cancel()
                await asyncio.gather(background, return_exceptions=True)
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
                self._starved = free <= 0
                if free > 0:
                    due_in = None
                    async with repository.all_tenants(self._engine) as conn:
                        claims = await repository.claim_due(conn, self.replica, self._lease, free)
                        if len(claims) < free:
                            due_in = await repository.next_due_in(conn)
                    for claim in claims:
                        task = asyncio.create_task(self._serve(claim), name=f"contact-{claim.contact_id}")
                        self._tasks.add(task)
                        task.add_done_callback(self._done)
                    self._starved = len(claims) == free
                    if self._starved:
                        continue  # there may be more due right now
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
        if self._starved:
            self._wake.set()  # the last scan stopped at the concurrency limit: look again now

    async def _serve(self, claim: Claim) -> None:
        lost = asyncio.Event()
        heartbeat = asyncio.create_task(self._heartbeat(claim, lost))
        released = False
        try:
            while not lost.is_set() and not self._stopping:
                # The contact's next attempt (an unfinished turn first, else one for the messages
                # that wait); with nothing to run now the claim is given back, due again when the
                # contact still has work (a retry's time, the debounce's).
                done = await self._runner.run_next(claim)
                if done != RAN:
                    released = True
                    if done == DUE_AGAIN:
                        self._due_again.add(claim)
                    break
        except repository.ClaimLost:
            pass
        finally:
            if not released or claim in self._due_again:
                self._due_again.discard(claim)
                self._wake.set()  # the contact is due again (a retry, a message that came meanwhile)
            heartbeat.cancel()
            await asyncio.gather(heartbeat, return_exceptions=True)
            if not released:
                try:
                    async with repository.tenant(self._engine, claim.organization_id) as conn:
                        await repository.release_claim(conn, claim)
                except Exception as exc:  # noqa: BLE001 - the lease will expire by itself
                    log.warning("could not release a claim", extra={"error": str(exc)})

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
