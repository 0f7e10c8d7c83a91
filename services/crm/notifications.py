"""Wake-ups for Subscribe streams: one LISTEN connection per process, fanned out in memory.

Publishing transactions call `pg_notify` (repository/events.py), so a wake-up is heard only
once the event is committed. The listener is a dedicated asyncpg connection (LISTEN cannot
live on a pooled connection that other transactions borrow); when it drops, it reconnects with
a growing pause, and meanwhile every stream still gets its polling ticks, so a missed NOTIFY
costs at most one poll interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import asyncpg
from sqlalchemy.engine import URL

from services.crm.repository.events import CHANNEL

log = logging.getLogger(__name__)

# A subscriber needs to know only that something may be waiting; a few queued wake-ups are
# plenty, more are dropped (the consumer claims everything available anyway).
_QUEUE_DEPTH = 8


@dataclass(frozen=True)
class Wake:
    organization_id: str
    kind: str


_CLOSED = Wake("", "")


class Subscriber:
    def __init__(self, organization_id: str | None, kinds: frozenset[str]) -> None:
        self._organization_id = organization_id
        self._kinds = kinds
        self._queue: asyncio.Queue[Wake] = asyncio.Queue(_QUEUE_DEPTH)

    def offer(self, wake: Wake) -> None:
        if wake is not _CLOSED:
            if self._organization_id and wake.organization_id != self._organization_id:
                return
            if self._kinds and wake.kind not in self._kinds:
                return
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(wake)

    def close(self) -> None:
        while not self._queue.empty():
            self._queue.get_nowait()
        self._queue.put_nowait(_CLOSED)

    async def next(self, timeout: float) -> Wake | None:
        """The next wake-up; None when `timeout` passed first. Raises StopAsyncIteration when closed."""
        try:
            wake = await asyncio.wait_for(self._queue.get(), timeout)
        except TimeoutError:
            return None
        if wake is _CLOSED:
            raise StopAsyncIteration
        return wake


def listener_dsn(url: URL) -> str:
    """A plain libpq-style DSN for asyncpg from the engine's SQLAlchemy URL."""
    query = dict(url.query)
    if "ssl" in query and "sslmode" not in query:
        query["sslmode"] = query.pop("ssl")
    return url.set(drivername="postgresql", query=query).render_as_string(hide_password=False)


class Notifications:
    def __init__(self, dsn: Callable[[], str]) -> None:
        self._dsn = dsn
        self._subscribers: set[Subscriber] = set()
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self.listening = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen_forever(), name="crm-notifications")

    async def stop(self) -> None:
        self._stopping.set()
        for subscriber in list(self._subscribers):
            subscriber.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @contextlib.contextmanager
    def subscribe(self, organization_id: str | None, kinds: frozenset[str]) -> Iterator[Subscriber]:
        subscriber = Subscriber(organization_id, kinds)
        self._subscribers.add(subscriber)
        if self._stopping.is_set():
            subscriber.close()
        try:
            yield subscriber
        finally:
            self._subscribers.discard(subscriber)

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            data = json.loads(payload)
            wake = Wake(str(data.get("organization_id", "")), str(data.get("kind", "")))
        except (ValueError, AttributeError):
            log.warning("ignored a malformed notification", extra={"payload": payload[:200]})
            return
        for subscriber in list(self._subscribers):
            subscriber.offer(wake)

    async def _listen_forever(self) -> None:
        pause = 0.5
        while not self._stopping.is_set():
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(self._dsn())
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                await conn.add_listener(CHANNEL, self._on_notify)
                self.listening.set()
                pause = 0.5
                log.info("listening for queue notifications", extra={"channel": CHANNEL})
                await lost.wait()
                log.warning("the notification connection dropped; streams fall back to polling meanwhile")
            except asyncio.CancelledError:
                raise
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("cannot listen for notifications; retrying", extra={"error": str(exc), "pause": pause})
            finally:
                self.listening.clear()
                if conn is not None and not conn.is_closed():
                    with contextlib.suppress(OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                        await asyncio.shield(conn.close(timeout=2))
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)
