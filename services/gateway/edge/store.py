"""SQL of the edge's tables (gateway_0004), and nothing else: deliveries and shared rate counters.

Every function takes a connection inside a transaction that sees every tenant
(`repository.all_tenants`): the edge learns the organisation from the instance name. Times come
from the database clock, so replicas agree on windows and leases.

The webhook's group commit (`group_transaction`, `record_deliveries`, `undo_deliveries`) is the
one place that speaks to asyncpg's connection directly (taken from the SQLAlchemy pool, so the role and
the pool are the engine's, and held by the inbox while groups keep coming): it runs once per group on
every webhook's path, and SQLAlchemy's per-statement work cost more CPU than the statement itself
(bench/ingest.py). BEGIN and the tenant scope travel in one round trip (with the previous group's COMMIT
while groups keep coming), the statement is prepared once per connection.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

# Counters count per fixed window of `window_seconds` (60 in production), aligned on the epoch.
# ORG_KEY is the organisation's own counter; a contact's is keyed by its sender key (never empty).
ORG_KEY = ""


@dataclass(frozen=True, slots=True)
class DeliveryRow:
    organization_id: str
    channel_instance: str
    sender_key: str
    message_id: str
    from_business: bool
    body: bytes

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.organization_id, self.channel_instance, self.sender_key, self.message_id)


# One statement per group: insert the new deliveries, count them in this window's counters.
_RECORD = """
    WITH input AS (
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[],
                             $4::text[], $5::boolean[], $6::bytea[])
            AS t(organization_id, channel_instance, sender_key, message_id, from_business, body)
        ORDER BY 1, 2, 3, 4
    ),
    new AS (
        INSERT INTO gateway.edge_deliveries
            (organization_id, channel_instance, sender_key, message_id, from_business, body)
        SELECT * FROM input
        ON CONFLICT DO NOTHING
        RETURNING organization_id, channel_instance, sender_key, message_id, from_business
    ),
    hits AS (
        SELECT organization_id, sender_key AS key, count(*)::int AS n FROM new
        WHERE $7::boolean AND NOT from_business GROUP BY 1, 2
        UNION ALL
        SELECT organization_id, '', count(*)::int FROM new WHERE $8::boolean AND NOT from_business GROUP BY 1
    ),
    counted AS (
        INSERT INTO gateway.edge_rate_counters AS c (organization_id, key, window_start, hits)
        SELECT organization_id, key, to_timestamp(floor(extract(epoch FROM now()) / $9::float8) * $9::float8), n
        FROM hits ORDER BY 1, 2
        ON CONFLICT (organization_id, key, window_start) DO UPDATE SET hits = c.hits + EXCLUDED.hits
        RETURNING organization_id, key, hits
    )
    SELECT true AS delivery, organization_id, channel_instance, sender_key AS key, message_id, 0 AS hits FROM new
    UNION ALL
    SELECT false, organization_id, '', key, '', hits FROM counted
    """


_BEGIN = "BEGIN; SELECT set_config('balcao.scope', 'all', true)"


class HeldConnection:
    """A pool connection the inbox holds between groups, and whether a transaction is open on it.

    When the next group is already forming at COMMIT, the next transaction (with its tenant scope)
    is begun in the same round trip (`COMMIT; BEGIN; …`): a group then costs two round trips, its
    statement and that COMMIT. `close` rolls such a transaction back before giving the connection
    back to the pool.
    """

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn = conn
        self.in_transaction = False

    @property
    def closed(self) -> bool:
        return self.conn.closed or self.conn.invalidated

    async def close(self) -> None:
        if self.in_transaction and not self.closed:
            self.in_transaction = False
            try:
                raw = (await self.conn.get_raw_connection()).driver_connection
                await raw.execute("ROLLBACK")
            except Exception:  # noqa: BLE001 - a connection in an unknown state is discarded
                await self.conn.invalidate()
        await self.conn.close()


@asynccontextmanager
async def group_transaction(held: HeldConnection, begin_next: Callable[[], bool]) -> AsyncIterator[Any]:
    """`held`'s asyncpg connection inside a transaction that sees every tenant.

    Committed when the block ends (beginning the next transaction in the same round trip when
    `begin_next()` says another group is forming), rolled back when it raises; a connection whose
    state is unknown after a failure is invalidated (the caller closes it; the pool opens a fresh
    one next time).
    """
    raw = (await held.conn.get_raw_connection()).driver_connection
    if not held.in_transaction:
        await raw.execute(_BEGIN)
        held.in_transaction = True
    try:
        yield raw
    except BaseException:
        held.in_transaction = False
        try:
            await raw.execute("ROLLBACK")
        except Exception:  # noqa: BLE001 - the original error matters; this connection does not
            await held.conn.invalidate()
        raise
    held.in_transaction = False
    chained = begin_next()
    try:
        await raw.execute(f"COMMIT; {_BEGIN}" if chained else "COMMIT")
    except BaseException:
        await held.conn.invalidate()  # COMMIT's outcome is unknown: the caller answers 503
        raise
    held.in_transaction = chained


async def record_deliveries(
    raw: Any, rows: list[DeliveryRow], *, per_contact: bool, per_org: bool, window_seconds: float = 60.0
) -> tuple[set[tuple[str, str, str, str]], dict[tuple[str, str], int]]:
    """Insert the deliveries not stored yet and count them in this window's counters, in one statement.

    `raw` is a `group_transaction` connection. Returns the keys inserted now (the others were
    stored before: redeliveries) and, for every counter touched, its total in the window after
    this statement. Messages typed on the business's phone are stored but not counted.
    """
    result = await raw.fetch(
        _RECORD,
        [r.organization_id for r in rows],
        [r.channel_instance for r in rows],
        [r.sender_key for r in rows],
        [r.message_id for r in rows],
        [r.from_business for r in rows],
        [r.body for r in rows],
        per_contact,
        per_org,
        float(window_seconds),
    )
    new: set[tuple[str, str, str, str]] = set()
    counts: dict[tuple[str, str], int] = {}
    for delivery, org, instance, key, message_id, hits in result:
        if delivery:
            new.add((str(org), instance, key, message_id))
        else:
            counts[(str(org), key)] = hits
    return new, counts


async def undo_deliveries(
    raw: Any,
    keys: list[tuple[str, str, str, str]],
    hits: dict[tuple[str, str], int],
    window_seconds: float = 60.0,
) -> None:
    """Take back deliveries refused by the rate limit, and their hits, in the same transaction."""
    if keys:
        await raw.execute(
            """
            DELETE FROM gateway.edge_deliveries d
            USING unnest($1::uuid[], $2::text[], $3::text[], $4::text[])
                AS t(organization_id, channel_instance, sender_key, message_id)
            WHERE (d.organization_id, d.channel_instance, d.sender_key, d.message_id)
                = (t.organization_id, t.channel_instance, t.sender_key, t.message_id)
            """,
            [k[0] for k in keys],
            [k[1] for k in keys],
            [k[2] for k in keys],
            [k[3] for k in keys],
        )
    if hits:
        ordered = sorted(hits.items())
        await raw.execute(
            """
            UPDATE gateway.edge_rate_counters c SET hits = c.hits - t.n
            FROM unnest($1::uuid[], $2::text[], $3::int[]) AS t(organization_id, key, n)
            WHERE c.organization_id = t.organization_id AND c.key = t.key
              AND c.window_start = to_timestamp(floor(extract(epoch FROM now()) / $4::float8) * $4::float8)
            """,
            [k[0] for k, _ in ordered],
            [k[1] for k, _ in ordered],
            [n for _, n in ordered],
            float(window_seconds),
        )


async def count_hits(
    conn: AsyncConnection, hits: dict[tuple[str, str], int], window_seconds: float = 60.0
) -> dict[tuple[str, str], int]:
    """Add hits to this minute's counters; each counter's total after it (the web channel's check)."""
    ordered = sorted(hits.items())
    result = await conn.execute(
        sa.text(
            """
            INSERT INTO gateway.edge_rate_counters AS c (organization_id, key, window_start, hits)
            SELECT t.organization_id, t.key, to_timestamp(floor(extract(epoch FROM now()) / :window) * :window), t.n
            FROM unnest(CAST(:orgs AS uuid[]), CAST(:keys AS text[]), CAST(:ns AS int[])) AS t(organization_id, key, n)
            ON CONFLICT (organization_id, key, window_start) DO UPDATE SET hits = c.hits + EXCLUDED.hits
            RETURNING organization_id, key, hits
            """
        ),
        {
            "orgs": [k[0] for k, _ in ordered],
            "keys": [k[1] for k, _ in ordered],
            "ns": [n for _, n in ordered],
            "window": float(window_seconds),
        },
    )
    return {(str(org), key): total for org, key, total in result}


# ---------------------------------------------------------------------------------------------
# The drain
# ---------------------------------------------------------------------------------------------


async def claim_deliveries(conn: AsyncConnection, lease_seconds: float, limit: int) -> list[dict[str, Any]]:
    """Lease pending deliveries that are due, at most one per sender: each sender's oldest pending.

    A sender's later messages wait until the earlier one is taken, so the runtime receives a
    contact's messages in the order they arrived, whichever replica drains them.
    """
    rows = await conn.execute(
        sa.text(
            """
            WITH candidates AS (
                SELECT d.organization_id, d.channel_instance, d.sender_key, d.message_id
                FROM gateway.edge_deliveries d
                WHERE d.state = 'pending' AND d.next_attempt_at <= now()
                  AND (d.claimed_until IS NULL OR d.claimed_until < now())
                  AND NOT EXISTS (
                      SELECT 1 FROM gateway.edge_deliveries e
                      WHERE e.state = 'pending' AND e.organization_id = d.organization_id
                        AND e.sender_key = d.sender_key AND e.received_at < d.received_at)
                ORDER BY d.received_at
                LIMIT :limit
                FOR UPDATE OF d SKIP LOCKED
            )
            UPDATE gateway.edge_deliveries d
            SET claimed_until = now() + make_interval(secs => :lease), attempts = d.attempts + 1
            FROM candidates c
            WHERE (d.organization_id, d.channel_instance, d.sender_key, d.message_id)
                = (c.organization_id, c.channel_instance, c.sender_key, c.message_id)
            RETURNING d.organization_id, d.channel_instance, d.sender_key, d.message_id, d.body, d.attempts
            """
        ),
        {"lease": float(lease_seconds), "limit": limit},
    )
    return [dict(r) for r in rows.mappings()]


def _key_params(key: tuple[Any, str, str, str]) -> dict[str, Any]:
    return {"org": key[0], "instance": key[1], "sender": key[2], "message_id": key[3]}


_WHERE_KEY = (
    "organization_id = :org AND channel_instance = :instance AND sender_key = :sender AND message_id = :message_id"
)


async def finish_delivery(conn: AsyncConnection, key: tuple[Any, str, str, str], state: str, error: str = "") -> None:
    """The runtime took it ('done') or refused it ('rejected'), or it failed for good ('failed').

    A failed delivery keeps its body (a customer's message nobody has answered) until the
    retention prunes the row; the others drop it."""
    await conn.execute(
        sa.text(
            "UPDATE gateway.edge_deliveries SET state = :state, "
            "body = CASE WHEN :state = 'failed' THEN body END, claimed_until = NULL, "
            f"finished_at = now(), last_error = :error WHERE {_WHERE_KEY}"
        ),
        {"state": state, "error": error[:500], **_key_params(key)},
    )


async def retry_delivery(conn: AsyncConnection, key: tuple[Any, str, str, str], delay: float, error: str) -> None:
    await conn.execute(
        sa.text(
            "UPDATE gateway.edge_deliveries SET claimed_until = NULL, last_error = :error, "
            f"next_attempt_at = now() + make_interval(secs => :delay) WHERE {_WHERE_KEY}"
        ),
        {"delay": float(delay), "error": error[:500], **_key_params(key)},
    )


async def next_pending_in(conn: AsyncConnection) -> float | None:
    """Seconds until the earliest pending delivery is due (0 when one is), None when none is pending.

    (Clamped here, not with SQL's `greatest(0, …)`: that ignores a NULL and would turn "nothing
    pending" into "due now", and the drain would ask a hundred times a second.)
    """
    value = (
        await conn.execute(
            sa.text(
                "SELECT extract(epoch FROM min(greatest(next_attempt_at, coalesce(claimed_until, "
                "next_attempt_at))) - now()) FROM gateway.edge_deliveries WHERE state = 'pending'"
            )
        )
    ).scalar_one()
    return None if value is None else max(0.0, float(value))


async def prune(conn: AsyncConnection, retention_seconds: float, window_seconds: float = 60.0) -> tuple[int, int]:
    """Forget finished deliveries past the retention, and rate windows that ended a window ago."""
    deliveries = await conn.execute(
        sa.text(
            "DELETE FROM gateway.edge_deliveries WHERE state <> 'pending' "
            "AND finished_at < now() - make_interval(secs => :retention)"
        ),
        {"retention": float(retention_seconds)},
    )
    windows = await conn.execute(
        sa.text(
            "DELETE FROM gateway.edge_rate_counters WHERE window_start < now() - make_interval(secs => 2 * :window)"
        ),
        {"window": float(window_seconds)},
    )
    return deliveries.rowcount, windows.rowcount  # type: ignore[attr-defined]
