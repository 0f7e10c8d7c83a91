"""Rate limits of the HTTP edge, per contact and per organisation.

`SharedRateLimiter` (what the gateway runs): fixed one-minute windows counted in PostgreSQL
(`gateway.edge_rate_counters`), so every replica sees the same counts. The webhook's counting
happens inside the inbox's group commit (`edge/inbox.py`); this class serves the web channel:
one transaction adds the request's hits and, when a counter would pass its limit, rolls back.

`RateLimiter`: token buckets in this process, for an edge without a database (the router's unit
tests). Its notes follow.

Each key (`contact:<org>:<sender>`, `org:<org>`) has a bucket of `per_minute` tokens refilled
continuously. A request takes one token from every key of every message it carries, all or none:
when any bucket is short, nothing is taken and the caller gets the seconds until it would pass
(answered 429 with `Retry-After`, nothing stored). Evolution retries a refused webhook, so a
burst is slowed, not lost, as long as it stays within Evolution's retries.

The buckets live in one replica's memory: N replicas allow up to N times the limit, and a
restart forgets them. That bounds a flood from one number or one organisation, which is what
they are for; billing-grade quotas would live in PostgreSQL.
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from services.gateway import repository
from services.gateway.edge import store
from services.gateway.edge.inbox import seconds_to_next_window

MAX_KEYS = 100_000


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    def __init__(
        self,
        *,
        contact_per_minute: int,
        organization_per_minute: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rates = {"contact": contact_per_minute, "org": organization_per_minute}
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    @staticmethod
    def keys(organization_id: str, senders: Iterable[str]) -> list[str]:
        """One organisation token and one contact token per message (one sender per message)."""
        keys: list[str] = []
        for sender in senders:
            keys += [f"org:{organization_id}", f"contact:{organization_id}:{sender}"]
        return keys

    async def check(self, organization_id: str, senders: list[str]) -> float:
        return self.acquire(self.keys(organization_id, senders))

    def acquire(self, keys: Iterable[str]) -> float:
        """Take one token per key (a key listed twice takes two); 0 when taken, else seconds to wait."""
        now = self._clock()
        wanted: dict[str, int] = {}
        for key in keys:
            if self._rate(key) > 0:
                wanted[key] = wanted.get(key, 0) + 1
        wait = 0.0
        for key, count in wanted.items():
            rate = self._rate(key)
            bucket = self._refilled(key, rate, now)
            if bucket.tokens < count:
                wait = max(wait, (count - bucket.tokens) * 60.0 / rate)
        if wait > 0:
            return wait
        for key, count in wanted.items():
            self._buckets[key].tokens -= count
        return 0.0

    def _rate(self, key: str) -> int:
        return self._rates[key.split(":", 1)[0]]

    def _refilled(self, key: str, rate: int, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(rate), now)
            if len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)  # the least recently used key starts full again
        else:
            bucket.tokens = min(float(rate), bucket.tokens + (now - bucket.at) * rate / 60.0)
            bucket.at = now
            self._buckets.move_to_end(key)
        return bucket


class _OverLimit(Exception):
    pass


class SharedRateLimiter:
    def __init__(
        self,
        engine: AsyncEngine,
        *,
        contact_per_minute: int,
        organization_per_minute: int,
        window_seconds: float = 60.0,
    ) -> None:
        self._engine = engine
        self._window = window_seconds
        self.contact_per_minute = contact_per_minute
        self.organization_per_minute = organization_per_minute

    async def check(self, organization_id: str, senders: list[str]) -> float:
        """Count one message per sender; 0 when within the limits, else seconds to the next window."""
        hits: Counter[tuple[str, str]] = Counter()
        for sender in senders:
            if self.contact_per_minute > 0:
                hits[(organization_id, sender)] += 1
            if self.organization_per_minute > 0:
                hits[(organization_id, store.ORG_KEY)] += 1
        if not hits:
            return 0.0
        try:
            async with repository.all_tenants(self._engine) as conn:
                totals = await store.count_hits(conn, dict(hits), self._window)
                for counter, total in totals.items():
                    limit = self.organization_per_minute if counter[1] == store.ORG_KEY else self.contact_per_minute
                    if total > limit:
                        raise _OverLimit  # rolls the hits back
        except _OverLimit:
            return seconds_to_next_window(self._window)
        return 0.0
