"""SQL of the `gateway` schema, and nothing else: no gRPC, no decisions.

Every function takes a connection inside a transaction opened by `tenant` (which sets the
transaction-local `balcao.organization_id` row-level security compares with) or, for the
worker's scan across organisations, by `all_tenants`. Times come from the database clock
(`now()`), so replicas with drifting clocks agree on what is due.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from balcao.kit import db
from services.gateway.records import (
    PART_SENDING,
    UNFINISHED,
    Claim,
    Conversation,
    HistoryEntry,
    Inbound,
    NewInbound,
    Part,
    SendingStats,
    Turn,
)


@functools.lru_cache(maxsize=256)
def _q(statement: str) -> sa.TextClause:
    """The statement's one `TextClause`: built once, so SQLAlchemy's compiled cache key is memoised on it."""
    return sa.text(statement)


_PARAMETER = re.compile(r"(?<![:\w\\]):(\w+)(?!:)")


@functools.lru_cache(maxsize=256)
def _positional(statement: str) -> tuple[str, tuple[str, ...]]:
    """`:name` parameters as asyncpg's `$n` (one number per name), and the names in that order."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _PARAMETER.sub(number, statement), tuple(names)


class _Rows:
    """The rows of a statement run on asyncpg (`_run`), read the way SQLAlchemy's results are."""

    __slots__ = ("_rows",)

    def __init__(self, rows: list[asyncpg.Record]) -> None:
        self._rows = rows

    def mappings(self) -> _Rows:
        return self

    def __iter__(self) -> Iterator[asyncpg.Record]:
        return iter(self._rows)

    def all(self) -> list[asyncpg.Record]:
        return self._rows

    def first(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None

    def one(self) -> asyncpg.Record:
        if len(self._rows) != 1:
            raise sa.exc.NoResultFound("expected exactly one row") if not self._rows else sa.exc.MultipleResultsFound()
        return self._rows[0]

    def scalar_one(self) -> Any:
        return self.one()[0]

    def scalar_one_or_none(self) -> Any:
        row = self.first()
        return None if row is None else row[0]


async def _run(conn: AsyncConnection, statement: sa.TextClause, params: dict[str, Any] | None = None) -> _Rows:
    """Run one statement of the turn's hot path on the asyncpg connection under `conn`, inside its
    transaction (`db.driver_in_transaction`: same session, same row-level security setting). The
    SQL is the same text; SQLAlchemy's own work per statement (about 0.2 ms of CPU here) is not."""
    sql, names = _positional(statement.text)
    raw = await db.driver_in_transaction(conn)
    values = params or {}
    return _Rows(await raw.fetch(sql, *[values[name] for name in names]))


# The LISTEN/NOTIFY channel on which a replica tells the others that a contact has work now.
DUE_CHANNEL = "balcao_gateway_due"


class AlreadyStored(Exception):
    """The message was stored before (a redelivery); the transaction must be rolled back."""


class ClaimLost(Exception):
    """This replica no longer holds the contact's claim (its lease expired and another took it)."""


@asynccontextmanager
async def tenant(engine: AsyncEngine, organization_id: UUID) -> AsyncIterator[AsyncConnection]:
    """A transaction that sees one organisation's rows only."""
    async with db.tenant(engine, organization_id) as conn:
        yield conn


@asynccontextmanager
async def all_tenants(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A transaction for the worker's scan, which looks at every organisation's due contacts."""
    async with db.all_tenants(engine) as conn:
        yield conn


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()


# ---------------------------------------------------------------------------------------------
# Inbound messages
# ---------------------------------------------------------------------------------------------

_INBOUND_COLUMNS = (
    "inbound_id, contact_id, seq, channel, text, attachment_note, message_type, from_business, sent_at, "
    "received_at, turn_id, details"
)


def _auto_reply(details: Any) -> str:
    if isinstance(details, str):
        details = json.loads(details)
    return str((details or {}).get("auto_reply_pt") or "")


def _inbound(row: Any) -> Inbound:
    return Inbound(
        inbound_id=row["inbound_id"],
        contact_id=row["contact_id"],
        seq=row["seq"],
        channel=row["channel"],
        text=row["text"],
        attachment_note=row["attachment_note"],
        message_type=row["message_type"],
        from_business=row["from_business"],
        sent_at=row["sent_at"],
        received_at=row["received_at"],
        turn_id=row["turn_id"],
        auto_reply_pt=_auto_reply(row["details"]),
    )


async def find_delivery(
    conn: AsyncConnection, organization_id: UUID, channel_instance: str, sender_key: str, message_id: str
) -> tuple[UUID, UUID] | None:
    """The (inbound id, contact id) already stored for this delivery, if any."""
    row = (
        await _run(
            conn,
            _q(
                "SELECT inbound_id, contact_id FROM gateway.inbound_messages WHERE organization_id = :org "
                "AND channel_instance = :instance AND sender_key = :sender AND message_id = :message_id"
            ),
            {"org": organization_id, "instance": channel_instance, "sender": sender_key, "message_id": message_id},
        )
    ).first()
    return (row[0], row[1]) if row else None


async def accept_inbound(
    conn: AsyncConnection,
    message: NewInbound,
    contact_id: UUID,
    *,
    answerable: bool,
    debounce_seconds: float,
    cap_seconds: float,
    replica: str = "",
) -> tuple[UUID, int]:
    """Store one message and re-arm its contact's debounce; `AlreadyStored` when it was stored before.

    The conversation row is upserted first: its row lock orders the contact's messages, so the
    `seq` given here commits in order with respect to any turn taking messages. A message typed
    on the business's phone (`answerable` false) is stored without re-arming anything.
    """
    seq = (
        await _run(
            conn,
            _q(
                """
                INSERT INTO gateway.conversations AS c
                    (organization_id, contact_id, channel, channel_instance, reply_to, phone, last_seq,
                     due_at, burst_started_at, last_inbound_at)
                VALUES (:org, :contact, :channel, :instance, :reply_to, :phone, 1,
                        CASE WHEN :answerable THEN now() + make_interval(secs => :debounce) END,
                        CASE WHEN :answerable THEN now() END,
                        CASE WHEN :answerable THEN now() END)
                ON CONFLICT (organization_id, contact_id) DO UPDATE SET
                    last_seq = c.last_seq + 1,
                    channel = EXCLUDED.channel,
                    channel_instance = EXCLUDED.channel_instance,
                    reply_to = CASE WHEN EXCLUDED.reply_to <> '' THEN EXCLUDED.reply_to ELSE c.reply_to END,
                    phone = CASE WHEN EXCLUDED.phone <> '' THEN EXCLUDED.phone ELSE c.phone END,
                    burst_started_at = CASE WHEN :answerable THEN coalesce(c.burst_started_at, now())
                                            ELSE c.burst_started_at END,
                    due_at = CASE WHEN :answerable THEN least(
                                    now() + make_interval(secs => :debounce),
                                    coalesce(c.burst_started_at, now()) + make_interval(secs => :cap))
                                  ELSE c.due_at END,
                    last_inbound_at = CASE WHEN :answerable THEN now() ELSE c.last_inbound_at END,
                    updated_at = now()
                RETURNING c.last_seq
                """
            ),
            {
                "org": message.organization_id,
                "contact": contact_id,
                "channel": message.channel,
                "instance": message.channel_instance,
                "reply_to": message.reply_to,
                "phone": message.phone,
                "answerable": answerable,
                "debounce": float(debounce_seconds),
                "cap": float(cap_seconds),
            },
        )
    ).scalar_one()
    row = (
        await _run(
            conn,
            _q(
                """
                INSERT INTO gateway.inbound_messages
                    (organization_id, inbound_id, contact_id, seq, channel, channel_instance, sender_key,
                     message_id, jid, message_type, text, attachment_note, details, sender_name,
                     from_business, answerable, sent_at)
                VALUES (:org, :inbound_id, :contact, :seq, :channel, :instance, :sender, :message_id, :jid,
                        :type, :text, :note, CAST(:details AS jsonb), :sender_name, :from_business,
                        :answerable, :sent_at)
                ON CONFLICT ON CONSTRAINT uq_inbound_messages_delivery DO NOTHING
                RETURNING inbound_id, pg_notify(:due_channel, :replica) IS NULL AS notified
                """
            ),
            {
                "org": message.organization_id,
                "inbound_id": uuid4(),
                "contact": contact_id,
                "seq": seq,
                "channel": message.channel,
                "instance": message.channel_instance,
                "sender": message.sender_key,
                "message_id": message.message_id,
                "jid": message.jid,
                "type": message.message_type,
                "text": message.text,
                "note": message.attachment_note,
                "details": _json(message.details),
                "sender_name": message.sender_name,
                "from_business": message.from_business,
                "answerable": answerable,
                "sent_at": message.sent_at,
                # Other replicas' workers wake when this commits (LISTEN/NOTIFY), not at their next scan.
                "due_channel": DUE_CHANNEL,
                "replica": f"{replica} {contact_id}",
            },
        )
    ).first()
    if row is None:
        # A concurrent redelivery stored it first: undo the conversation's re-arming too.
        raise AlreadyStored(message.message_id)
    return row[0], seq


async def get_inbound(conn: AsyncConnection, organization_id: UUID, inbound_id: UUID) -> Inbound | None:
    row = (
        (
            await _run(
                conn,
                _q(
                    f"SELECT {_INBOUND_COLUMNS} FROM gateway.inbound_messages "
                    "WHERE organization_id = :org AND inbound_id = :id"
                ),
                {"org": organization_id, "id": inbound_id},
            )
        )
        .mappings()
        .first()
    )
    return _inbound(row) if row else None


async def inbound_of_turn(conn: AsyncConnection, organization_id: UUID, turn_id: UUID) -> list[Inbound]:
    rows = (
        await _run(
            conn,
            _q(
                f"SELECT {_INBOUND_COLUMNS} FROM gateway.inbound_messages "
                "WHERE organization_id = :org AND turn_id = :turn ORDER BY seq"
            ),
            {"org": organization_id, "turn": turn_id},
        )
    ).mappings()
    return [_inbound(r) for r in rows]


async def take_inbound(
    conn: AsyncConnection, organization_id: UUID, contact_id: UUID, turn_id: UUID, above_seq: int
) -> list[Inbound]:
    """Give the turn every answerable message above `above_seq` (and above the watermark).

    One statement: the turn's `inbound_upto` moves to the newest message taken, and the burst
    becomes this turn (the next message starts a new debounce window).
    """
    columns = ", ".join(c.strip() for c in _INBOUND_COLUMNS.split(","))
    rows = (
        await _run(
            conn,
            _q(
                f"""
                WITH taken AS (
                    UPDATE gateway.inbound_messages m SET turn_id = :turn
                    FROM gateway.conversations c
                    WHERE m.organization_id = :org AND m.contact_id = :contact
                      AND c.organization_id = m.organization_id AND c.contact_id = m.contact_id
                      AND m.seq > greatest(c.watermark, :above) AND m.answerable
                    RETURNING {", ".join("m." + c.strip() for c in _INBOUND_COLUMNS.split(","))}
                ), upto AS (SELECT max(seq) AS seq FROM taken), turn AS (
                    UPDATE gateway.turns SET inbound_upto = greatest(inbound_upto, upto.seq) FROM upto
                    WHERE organization_id = :org AND turn_id = :turn AND upto.seq IS NOT NULL
                ), burst AS (
                    UPDATE gateway.conversations SET burst_started_at = NULL, due_at = NULL, updated_at = now()
                    FROM upto
                    WHERE organization_id = :org AND contact_id = :contact AND upto.seq IS NOT NULL
                      AND last_seq <= upto.seq
                )
                SELECT {columns} FROM taken ORDER BY seq
                """
            ),
            {"org": organization_id, "contact": contact_id, "turn": turn_id, "above": above_seq},
        )
    ).mappings()
    return [_inbound(r) for r in rows]


async def untaken_inbound(conn: AsyncConnection, organization_id: UUID, contact_id: UUID) -> bool:
    """True when an answerable message above the watermark waits for a turn."""
    return bool(
        (
            await _run(
                conn,
                _q(
                    """
                    SELECT EXISTS (
                        SELECT 1 FROM gateway.inbound_messages m JOIN gateway.conversations c
                          ON c.organization_id = m.organization_id AND c.contact_id = m.contact_id
                        WHERE m.organization_id = :org AND m.contact_id = :contact AND m.answerable
                          AND m.seq > c.watermark AND m.turn_id IS NULL)
                    """
                ),
                {"org": organization_id, "contact": contact_id},
            )
        ).scalar_one()
    )


async def history(
    conn: AsyncConnection, organization_id: UUID, contact_id: UUID, exclude_turn: UUID, limit: int
) -> list[HistoryEntry]:
    """The conversation before this turn, oldest first: the customer's and the business's messages."""
    if limit <= 0:
        return []
    rows = (
        await _run(
            conn,
            _q(
                """
                SELECT author, text, note, at FROM (
                    SELECT CASE WHEN from_business THEN 'team' ELSE 'customer' END AS author, text,
                           attachment_note AS note, coalesce(sent_at, received_at) AS at, received_at AS ord
                    FROM gateway.inbound_messages
                    WHERE organization_id = :org AND contact_id = :contact
                      AND (turn_id IS DISTINCT FROM :turn)
                    UNION ALL
                    SELECT 'agent', body, '', sent_at, created_at
                    FROM gateway.outbound_parts
                    WHERE organization_id = :org AND contact_id = :contact AND status = 'sent'
                      AND turn_id <> :turn
                    ORDER BY ord DESC LIMIT :limit
                ) recent ORDER BY at NULLS FIRST
                """
            ),
            {"org": organization_id, "contact": contact_id, "turn": exclude_turn, "limit": limit},
        )
    ).all()
    return [HistoryEntry(r[0], r[1], r[2], r[3]) for r in rows]


# ---------------------------------------------------------------------------------------------
# Conversations and claims
# ---------------------------------------------------------------------------------------------

_CONVERSATION_COLUMNS = (
    "organization_id, contact_id, channel, channel_instance, reply_to, phone, route, reply_key, requirements, "
    "pending, payload, transient, last_seq, watermark, due_at, opt_out_confirmed_at, last_inbound_at"
)


def _conversation(row: Any) -> Conversation:
    return Conversation(**{k: row[k] for k in _CONVERSATION_COLUMNS.replace(" ", "").split(",")})


async def get_conversation(conn: AsyncConnection, organization_id: UUID, contact_id: UUID) -> Conversation | None:
    row = (
        (
            await _run(
                conn,
                _q(
                    f"SELECT {_CONVERSATION_COLUMNS} FROM gateway.conversations "
                    "WHERE organization_id = :org AND contact_id = :contact"
                ),
                {"org": organization_id, "contact": contact_id},
            )
        )
        .mappings()
        .first()
    )
    return _conversation(row) if row else None


async def lock_conversation(conn: AsyncConnection, claim: Claim) -> Conversation:
    """Lock the contact's row and check the claim still holds (the fence of every write)."""
    row = (
        (
            await _run(
                conn,
                _q(
                    f"SELECT {_CONVERSATION_COLUMNS}, claim_token FROM gateway.conversations "
                    "WHERE organization_id = :org AND contact_id = :contact FOR UPDATE"
                ),
                {"org": claim.organization_id, "contact": claim.contact_id},
            )
        )
        .mappings()
        .first()
    )
    if row is None or row["claim_token"] != claim.token:
        raise ClaimLost(f"the claim on contact {claim.contact_id} is no longer held")
    return _conversation(row)


async def hold_claim(conn: AsyncConnection, claim: Claim) -> None:
    """`lock_conversation` for a transaction that needs only the fence, not the row: lock the
    contact's row and check the claim still holds (`ClaimLost` otherwise)."""
    row = (
        await _run(
            conn,
            _q(
                "SELECT claim_token FROM gateway.conversations "
                "WHERE organization_id = :org AND contact_id = :contact FOR UPDATE"
            ),
            {"org": claim.organization_id, "contact": claim.contact_id},
        )
    ).first()
    if row is None or row[0] != claim.token:
        raise ClaimLost(f"the claim on contact {claim.contact_id} is no longer held")


async def ensure_conversation(
    conn: AsyncConnection,
    organization_id: UUID,
    contact_id: UUID,
    *,
    channel: str,
    channel_instance: str,
    reply_to: str,
    phone: str,
) -> None:
    """Create the contact's conversation row when the business speaks first."""
    await _run(
        conn,
        _q(
            """
            INSERT INTO gateway.conversations (organization_id, contact_id, channel, channel_instance, reply_to, phone)
            VALUES (:org, :contact, :channel, :instance, :reply_to, :phone)
            ON CONFLICT (organization_id, contact_id) DO NOTHING
            """
        ),
        {
            "org": organization_id,
            "contact": contact_id,
            "channel": channel,
            "instance": channel_instance,
            "reply_to": reply_to,
            "phone": phone,
        },
    )


async def notify_due(conn: AsyncConnection, replica: str) -> None:
    """Wake the other replicas' workers when this transaction commits. The payload is
    `<replica>[ <contact id>]`: who asks (so it ignores its own notification) and, for a stored
    message, whose it is (a running turn of that contact then takes it before sending)."""
    await _run(conn, _q("SELECT pg_notify(:channel, :replica)"), {"channel": DUE_CHANNEL, "replica": replica})


async def make_due(conn: AsyncConnection, organization_id: UUID, contact_id: UUID, at: datetime | None = None) -> None:
    """The contact has work at `at` (now when absent), unless it already had earlier."""
    await _run(
        conn,
        _q(
            "UPDATE gateway.conversations SET due_at = least(coalesce(due_at, 'infinity'), coalesce(:at, now())), "
            "updated_at = now() WHERE organization_id = :org AND contact_id = :contact"
        ),
        {"org": organization_id, "contact": contact_id, "at": at},
    )


_SAVE_STATE = """
    UPDATE gateway.conversations SET route = :route, reply_key = :reply_key,
        requirements = CAST(:requirements AS jsonb), pending = CAST(:pending AS jsonb),
        payload = CAST(:payload AS jsonb), transient = CAST(:transient AS jsonb), updated_at = now()
    WHERE organization_id = :org AND contact_id = :contact
"""


def _state_params(conversation: Conversation) -> dict[str, Any]:
    return {
        "org": conversation.organization_id,
        "contact": conversation.contact_id,
        "route": conversation.route,
        "reply_key": conversation.reply_key,
        "requirements": _json(conversation.requirements),
        "pending": None if conversation.pending is None else _json(conversation.pending),
        "payload": _json(conversation.payload),
        "transient": _json(conversation.transient),
    }


async def save_controller_state(conn: AsyncConnection, conversation: Conversation) -> None:
    await _run(conn, _q(_SAVE_STATE), _state_params(conversation))


async def mark_opt_out_confirmed(conn: AsyncConnection, organization_id: UUID, contact_id: UUID) -> None:
    await _run(
        conn,
        _q(
            "UPDATE gateway.conversations SET opt_out_confirmed_at = coalesce(opt_out_confirmed_at, now()) "
            "WHERE organization_id = :org AND contact_id = :contact"
        ),
        {"org": organization_id, "contact": contact_id},
    )


async def clear_opt_out_confirmation(conn: AsyncConnection, organization_id: UUID, contact_id: UUID) -> None:
    await _run(
        conn,
        _q(
            "UPDATE gateway.conversations SET opt_out_confirmed_at = NULL "
            "WHERE organization_id = :org AND contact_id = :contact"
        ),
        {"org": organization_id, "contact": contact_id},
    )


async def advance_watermark(conn: AsyncConnection, organization_id: UUID, contact_id: UUID, upto: int) -> None:
    """Mark the contact's messages up to `upto` handled; the watermark never moves back."""
    await _run(
        conn,
        _q(
            "UPDATE gateway.conversations SET watermark = greatest(watermark, :upto), updated_at = now() "
            "WHERE organization_id = :org AND contact_id = :contact"
        ),
        {"org": organization_id, "contact": contact_id, "upto": upto},
    )


async def claim_due(conn: AsyncConnection, replica: str, lease_seconds: float, limit: int) -> list[Claim]:
    """Claim up to `limit` contacts whose work is due and whose claim is free or expired.

    `FOR UPDATE SKIP LOCKED` keeps two replicas scanning at once from taking the same contact;
    the claim itself is a lease in the row, so a replica that dies loses it when it expires.
    """
    rows = await _run(
        conn,
        _q(
            """
            WITH due AS (
                SELECT organization_id, contact_id FROM gateway.conversations
                WHERE due_at <= now() AND (claim_expires_at IS NULL OR claim_expires_at < now())
                ORDER BY due_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            UPDATE gateway.conversations c
               SET claimed_by = :replica, claim_token = gen_random_uuid(),
                   claim_expires_at = now() + make_interval(secs => :lease)
            FROM due WHERE c.organization_id = due.organization_id AND c.contact_id = due.contact_id
            RETURNING c.organization_id, c.contact_id, c.claim_token
            """
        ),
        {"replica": replica, "lease": float(lease_seconds), "limit": limit},
    )
    return [Claim(r[0], r[1], r[2]) for r in rows]


async def next_due_in(conn: AsyncConnection) -> float | None:
    """Seconds until the earliest due contact whose claim is free (0 when one is due now)."""
    value = (
        await _run(
            conn,
            _q(
                "SELECT extract(epoch FROM min(greatest(due_at, coalesce(claim_expires_at, due_at))) - now()) "
                "FROM gateway.conversations WHERE due_at IS NOT NULL"
            ),
        )
    ).scalar_one()
    return None if value is None else max(0.0, float(value))


async def extend_claim(conn: AsyncConnection, claim: Claim, lease_seconds: float) -> bool:
    result = await conn.execute(
        _q(
            "UPDATE gateway.conversations SET claim_expires_at = now() + make_interval(secs => :lease) "
            "WHERE organization_id = :org AND contact_id = :contact AND claim_token = :token"
        ),
        {"org": claim.organization_id, "contact": claim.contact_id, "token": claim.token, "lease": lease_seconds},
    )
    return bool(result.rowcount)


async def release_claim(conn: AsyncConnection, claim: Claim) -> None:
    """Give the contact back, due again when it still has work (a retry, a waiting message)."""
    try:
        await hold_claim(conn, claim)
    except ClaimLost:
        return
    pending = await next_unfinished_turn(conn, claim.organization_id, claim.contact_id)
    waiting = await untaken_inbound(conn, claim.organization_id, claim.contact_id)
    await give_back(conn, claim, pending=pending, waiting=waiting)


async def give_back(conn: AsyncConnection, claim: Claim, *, pending: Turn | None, waiting: bool) -> None:
    """Release a claim whose conversation this transaction locked, knowing what work is left."""
    await _run(
        conn,
        _q(
            """
            UPDATE gateway.conversations SET claimed_by = NULL, claim_token = NULL, claim_expires_at = NULL,
                due_at = CASE WHEN :pending THEN coalesce(:retry_at, now())
                              WHEN :waiting THEN coalesce(due_at, now())
                              ELSE NULL END,
                updated_at = now()
            WHERE organization_id = :org AND contact_id = :contact AND claim_token = :token
            """
        ),
        {
            "org": claim.organization_id,
            "contact": claim.contact_id,
            "token": claim.token,
            "pending": pending is not None,
            "retry_at": pending.next_attempt_at if pending else None,
            "waiting": waiting,
        },
    )


async def release_if_idle(conn: AsyncConnection, claim: Claim) -> bool | None:
    """Give the claim back when the contact has nothing to run now (`next_work` then `give_back`,
    in one statement, on a conversation this transaction locked): None when it still has (an
    unfinished turn, or messages waiting whose debounce elapsed), else whether messages wait (the
    contact is then due again at their debounce)."""
    row = (
        await _run(
            conn,
            _q(
                """
                UPDATE gateway.conversations c SET claimed_by = NULL, claim_token = NULL, claim_expires_at = NULL,
                    due_at = CASE WHEN w.waiting THEN coalesce(c.due_at, now()) ELSE NULL END,
                    updated_at = now()
                FROM (
                    SELECT EXISTS (
                               SELECT 1 FROM gateway.inbound_messages m
                               WHERE m.organization_id = x.organization_id AND m.contact_id = x.contact_id
                                 AND m.answerable AND m.seq > x.watermark AND m.turn_id IS NULL) AS waiting,
                           coalesce(x.due_at <= now(), true) AS due
                    FROM gateway.conversations x WHERE x.organization_id = :org AND x.contact_id = :contact
                ) w
                WHERE c.organization_id = :org AND c.contact_id = :contact AND c.claim_token = :token
                  AND NOT (w.waiting AND w.due)
                  AND NOT EXISTS (
                      SELECT 1 FROM gateway.turns t WHERE t.organization_id = :org AND t.contact_id = :contact
                        AND t.status = ANY(:open))
                RETURNING w.waiting
                """
            ),
            {"org": claim.organization_id, "contact": claim.contact_id, "token": claim.token, "open": list(UNFINISHED)},
        )
    ).first()
    return None if row is None else bool(row[0])


async def debounce_elapsed(conn: AsyncConnection, organization_id: UUID, contact_id: UUID) -> bool:
    return bool(
        (
            await _run(
                conn,
                _q(
                    "SELECT coalesce(due_at <= now(), true) FROM gateway.conversations "
                    "WHERE organization_id = :org AND contact_id = :contact"
                ),
                {"org": organization_id, "contact": contact_id},
            )
        ).scalar_one_or_none()
    )


# ---------------------------------------------------------------------------------------------
# Turns
# ---------------------------------------------------------------------------------------------

_TURN_COLUMNS = (
    "organization_id, turn_id, contact_id, trigger, trigger_detail, idempotency_key, status, outcome, stage, "
    "attempts, next_attempt_at, last_error, trace_id, unit_id, inbound_upto, waiting_until, detail_pt, result, "
    "progress, created_at, started_at, finished_at"
)


def _turn(row: Any) -> Turn:
    return Turn(**{k: row[k] for k in _TURN_COLUMNS.replace(" ", "").split(",")})


async def insert_turn(
    conn: AsyncConnection,
    organization_id: UUID,
    contact_id: UUID,
    *,
    trigger: str,
    status: str,
    trigger_detail: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
) -> tuple[Turn, bool]:
    """A new turn; with an idempotency key already used, the existing turn and True."""
    row = (
        (
            await _run(
                conn,
                _q(
                    f"""
                    INSERT INTO gateway.turns (organization_id, turn_id, contact_id, trigger, trigger_detail,
                                               idempotency_key, status)
                    VALUES (:org, :turn, :contact, :trigger, CAST(:detail AS jsonb), :key, :status)
                    ON CONFLICT ON CONSTRAINT uq_turns_idempotency_key DO NOTHING
                    RETURNING {_TURN_COLUMNS}
                    """
                ),
                {
                    "org": organization_id,
                    "turn": uuid4(),
                    "contact": contact_id,
                    "trigger": trigger,
                    "detail": _json(trigger_detail or {}),
                    "key": idempotency_key,
                    "status": status,
                },
            )
        )
        .mappings()
        .first()
    )
    if row is not None:
        return _turn(row), False
    existing = (
        (
            await _run(
                conn,
                _q(
                    f"SELECT {_TURN_COLUMNS} FROM gateway.turns WHERE organization_id = :org AND idempotency_key = :key"
                ),
                {"org": organization_id, "key": idempotency_key},
            )
        )
        .mappings()
        .one()
    )
    return _turn(existing), True


async def get_turn(conn: AsyncConnection, organization_id: UUID, turn_id: UUID) -> Turn | None:
    row = (
        (
            await _run(
                conn,
                _q(f"SELECT {_TURN_COLUMNS} FROM gateway.turns WHERE organization_id = :org AND turn_id = :turn"),
                {"org": organization_id, "turn": turn_id},
            )
        )
        .mappings()
        .first()
    )
    return _turn(row) if row else None


async def next_unfinished_turn(conn: AsyncConnection, organization_id: UUID, contact_id: UUID) -> Turn | None:
    """The contact's oldest turn not finished yet (one turn per contact at a time)."""
    row = (
        (
            await _run(
                conn,
                _q(
                    f"SELECT {_TURN_COLUMNS} FROM gateway.turns WHERE organization_id = :org AND contact_id = :contact "
                    "AND status = ANY(:open) ORDER BY created_at, turn_id LIMIT 1"
                ),
                {"org": organization_id, "contact": contact_id, "open": list(UNFINISHED)},
            )
        )
        .mappings()
        .first()
    )
    return _turn(row) if row else None


async def next_work(conn: AsyncConnection, organization_id: UUID, contact_id: UUID) -> tuple[Turn | None, bool, bool]:
    """What the contact has to do now, in one read of a locked conversation: its oldest unfinished
    turn (`next_unfinished_turn`) and (a message waits for a turn, the debounce has elapsed)
    (`waiting_and_due`)."""
    row = (
        (
            await _run(
                conn,
                _q(
                    f"""
                    SELECT {", ".join("t." + c.strip() for c in _TURN_COLUMNS.split(","))},
                           t.turn_id IS NOT NULL AS has_turn, w.waiting, w.due
                    FROM (
                        SELECT EXISTS (
                                   SELECT 1 FROM gateway.inbound_messages m
                                   WHERE m.organization_id = c.organization_id AND m.contact_id = c.contact_id
                                     AND m.answerable AND m.seq > c.watermark AND m.turn_id IS NULL) AS waiting,
                               coalesce(c.due_at <= now(), true) AS due
                        FROM gateway.conversations c WHERE c.organization_id = :org AND c.contact_id = :contact
                    ) w
                    LEFT JOIN LATERAL (
                        SELECT * FROM gateway.turns WHERE organization_id = :org AND contact_id = :contact
                          AND status = ANY(:open) ORDER BY created_at, turn_id LIMIT 1
                    ) t ON true
                    """
                ),
                {"org": organization_id, "contact": contact_id, "open": list(UNFINISHED)},
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        return None, False, True
    return (_turn(row) if row["has_turn"] else None), bool(row["waiting"]), bool(row["due"])


async def start_turn(
    conn: AsyncConnection, organization_id: UUID, contact_id: UUID, turn_id: UUID, trace_id: str
) -> Turn:
    """A new inbound turn whose first attempt begins now (`insert_turn` then `begin_attempt`, in one statement)."""
    row = (
        (
            await _run(
                conn,
                _q(
                    f"""
                    INSERT INTO gateway.turns
                        (organization_id, turn_id, contact_id, trigger, status, attempts, started_at, trace_id)
                    VALUES (:org, :turn, :contact, 'inbound', 'running', 1, now(), :trace)
                    RETURNING {_TURN_COLUMNS}
                    """
                ),
                {"org": organization_id, "turn": turn_id, "contact": contact_id, "trace": trace_id},
            )
        )
        .mappings()
        .one()
    )
    return _turn(row)


_TURN_UPDATABLE = frozenset(
    {
        "status",
        "outcome",
        "stage",
        "attempts",
        "next_attempt_at",
        "last_error",
        "trace_id",
        "unit_id",
        "waiting_until",
        "detail_pt",
        "result",
        "progress",
        "started_at",
        "finished_at",
    }
)
_JSON_COLUMNS = frozenset({"result", "progress"})


def _turn_update(turn_id: UUID, values: dict[str, Any], params: dict[str, Any]) -> str:
    """The UPDATE of a turn's `values` (their parameters added to `params`, beside `:org`)."""
    unknown = set(values) - _TURN_UPDATABLE
    if unknown:
        raise ValueError(f"not updatable: {sorted(unknown)}")
    assignments = []
    params["turn"] = turn_id
    for name, value in values.items():
        if name in _JSON_COLUMNS:
            assignments.append(f"{name} = CAST(:{name} AS jsonb)")
            params[name] = _json(value)
        elif value == "now()":
            assignments.append(f"{name} = now()")
        else:
            assignments.append(f"{name} = :{name}")
            params[name] = value
    return f"UPDATE gateway.turns SET {', '.join(assignments)} WHERE organization_id = :org AND turn_id = :turn"


async def update_turn(conn: AsyncConnection, organization_id: UUID, turn_id: UUID, **values: Any) -> None:
    params: dict[str, Any] = {"org": organization_id}
    await _run(conn, _q(_turn_update(turn_id, values, params)), params)


async def update_turn_and_state(
    conn: AsyncConnection, conversation: Conversation, turn_id: UUID, **values: Any
) -> None:
    """`save_controller_state` and `update_turn` in one statement (the turn is the conversation's)."""
    params = _state_params(conversation)
    update = _turn_update(turn_id, values, params)
    await _run(conn, _q(f"WITH state AS ({_SAVE_STATE}) {update}"), params)


async def begin_attempt(conn: AsyncConnection, organization_id: UUID, turn_id: UUID, trace_id: str = "") -> Turn:
    """Count one more attempt; the turn keeps the trace id of its first attempt."""
    row = (
        (
            await _run(
                conn,
                _q(
                    f"""
                    UPDATE gateway.turns SET status = 'running', attempts = attempts + 1, next_attempt_at = NULL,
                        waiting_until = NULL, started_at = coalesce(started_at, now()),
                        trace_id = CASE WHEN trace_id = '' THEN :trace ELSE trace_id END
                    WHERE organization_id = :org AND turn_id = :turn RETURNING {_TURN_COLUMNS}
                    """
                ),
                {"org": organization_id, "turn": turn_id, "trace": trace_id},
            )
        )
        .mappings()
        .one()
    )
    return _turn(row)


async def turn_for_result(
    conn: AsyncConnection, organization_id: UUID, *, turn_id: UUID | None = None, inbound_id: UUID | None = None
) -> tuple[Turn | None, UUID | None, list[UUID]]:
    """What GetTurn reports, in one read: the turn (by its id, or the one that took `inbound_id`),
    the contact of the message asked about (None when there is no such message, or no such turn
    asked by id), and the ids of the turn's messages in order."""
    columns = ", ".join("t." + c.strip() for c in _TURN_COLUMNS.split(","))
    ids = (
        "ARRAY(SELECT i.inbound_id FROM gateway.inbound_messages i "
        "WHERE i.organization_id = :org AND i.turn_id = t.turn_id ORDER BY i.seq) AS inbound_ids"
    )
    if turn_id is not None:
        statement = _q(
            f"SELECT {columns}, true AS has_turn, t.contact_id AS message_contact, {ids} "
            "FROM gateway.turns t WHERE t.organization_id = :org AND t.turn_id = :turn"
        )
        params: dict[str, Any] = {"org": organization_id, "turn": turn_id}
    else:
        statement = _q(
            f"SELECT {columns}, t.turn_id IS NOT NULL AS has_turn, m.contact_id AS message_contact, {ids} "
            "FROM gateway.inbound_messages m LEFT JOIN gateway.turns t "
            "ON t.organization_id = m.organization_id AND t.turn_id = m.turn_id "
            "WHERE m.organization_id = :org AND m.inbound_id = :inbound"
        )
        params = {"org": organization_id, "inbound": inbound_id}
    row = (await _run(conn, statement, params)).first()
    if row is None:
        return None, None, []
    turn = _turn(row) if row["has_turn"] else None
    return turn, row["message_contact"], list(row["inbound_ids"] or [])


# ---------------------------------------------------------------------------------------------
# The send ledger
# ---------------------------------------------------------------------------------------------

_PART_COLUMNS = (
    "turn_id, part_index, kind, body, body_sha256, status, attempts, provider_message_id, sent_at, created_at"
)


def _part(row: Any) -> Part:
    return Part(**{k: row[k] for k in _PART_COLUMNS.replace(" ", "").split(",")})


async def parts_of_turn(conn: AsyncConnection, organization_id: UUID, turn_id: UUID) -> list[Part]:
    rows = (
        await _run(
            conn,
            _q(
                f"SELECT {_PART_COLUMNS} FROM gateway.outbound_parts WHERE organization_id = :org "
                "AND turn_id = :turn ORDER BY part_index"
            ),
            {"org": organization_id, "turn": turn_id},
        )
    ).mappings()
    return [_part(r) for r in rows]


async def reserve_part(
    conn: AsyncConnection,
    organization_id: UUID,
    turn_id: UUID,
    part_index: int,
    *,
    contact_id: UUID,
    kind: str,
    channel: str,
    channel_instance: str,
    sender: str,
    recipient: str,
    body: str,
) -> Part | None:
    """Record that the part is about to be sent; None when the ledger already has it."""
    row = (
        (
            await _run(
                conn,
                _q(
                    f"""
                    INSERT INTO gateway.outbound_parts (organization_id, turn_id, part_index, contact_id, kind,
                        channel, channel_instance, sender, recipient, body, body_sha256, status)
                    VALUES (:org, :turn, :index, :contact, :kind, :channel, :instance, :sender, :recipient, :body,
                            :hash, '{PART_SENDING}')
                    ON CONFLICT (organization_id, turn_id, part_index) DO NOTHING
                    RETURNING {_PART_COLUMNS}
                    """
                ),
                {
                    "org": organization_id,
                    "turn": turn_id,
                    "index": part_index,
                    "contact": contact_id,
                    "kind": kind,
                    "channel": channel,
                    "instance": channel_instance,
                    "sender": sender,
                    "recipient": recipient,
                    "body": body,
                    "hash": body_hash(body),
                },
            )
        )
        .mappings()
        .first()
    )
    return _part(row) if row else None


async def finish_part(
    conn: AsyncConnection,
    organization_id: UUID,
    turn_id: UUID,
    part_index: int,
    *,
    status: str,
    attempts: int,
    provider_message_id: str = "",
    error: str = "",
) -> Part:
    row = (
        (
            await _run(
                conn,
                _q(
                    f"""
                    UPDATE gateway.outbound_parts SET status = :status, attempts = :attempts,
                        provider_message_id = :provider_id, last_error = :error,
                        sent_at = CASE WHEN :status = 'sent' THEN now() ELSE sent_at END
                    WHERE organization_id = :org AND turn_id = :turn AND part_index = :index
                    RETURNING {_PART_COLUMNS}
                    """
                ),
                {
                    "org": organization_id,
                    "turn": turn_id,
                    "index": part_index,
                    "status": status,
                    "attempts": attempts,
                    "provider_id": provider_message_id,
                    "error": error[:2000],
                },
            )
        )
        .mappings()
        .one()
    )
    return _part(row)


async def sending_stats(
    conn: AsyncConnection, organization_id: UUID, contact_id: UUID, sender: str, time_zone: str
) -> SendingStats:
    """Recent sends of the sending number and to this contact (for `pacing` and `repetition`), in one read."""
    rows = (
        await _run(
            conn,
            _q(
                """
                (SELECT 'sender' AS list, body, coalesce(sent_at, created_at) AS at, 0 AS today
                 FROM gateway.outbound_parts WHERE organization_id = :org AND sender = :sender AND status = 'sent'
                 ORDER BY created_at DESC LIMIT 20)
                UNION ALL
                (SELECT 'contact', body, coalesce(sent_at, created_at), 0
                 FROM gateway.outbound_parts WHERE organization_id = :org AND contact_id = :contact
                   AND status IN ('sent', 'sending')
                 ORDER BY created_at DESC LIMIT 20)
                UNION ALL
                (SELECT 'totals', '', min(sent_at),
                        count(*) FILTER (WHERE (sent_at AT TIME ZONE :tz)::date = (now() AT TIME ZONE :tz)::date)
                 FROM gateway.outbound_parts WHERE organization_id = :org AND sender = :sender AND status = 'sent')
                """
            ),
            {"org": organization_id, "sender": sender, "contact": contact_id, "tz": time_zone},
        )
    ).all()
    from_sender = [(r[1], r[2]) for r in rows if r[0] == "sender"]
    to_contact = [(r[1], r[2]) for r in rows if r[0] == "contact"]
    totals = next(r for r in rows if r[0] == "totals")
    return SendingStats(
        from_sender=from_sender,
        to_contact=to_contact,
        sent_today_from_sender=int(totals[3] or 0),
        sender_active_since=totals[2],
        ever_sent_to_contact=bool(to_contact),
    )


async def contacts_with_unfinished_turns(conn: AsyncConnection, organization_id: UUID) -> Sequence[UUID]:
    rows = await conn.execute(
        _q("SELECT DISTINCT contact_id FROM gateway.turns WHERE organization_id = :org AND status = ANY(:open)"),
        {"org": organization_id, "open": list(UNFINISHED)},
    )
    return [r[0] for r in rows]


# ---------------------------------------------------------------------------------------------
# The edge's configuration: channel instances and web channel keys
# ---------------------------------------------------------------------------------------------

_INSTANCE_COLUMNS = (
    "organization_id, instance_name, channel, base_url, api_key, webhook_secret, webhook_secret_header, jwt_key, "
    "sender_number, allow_groups, allow_broadcasts, allow_newsletters, created_at, updated_at"
)
_KEY_COLUMNS = "organization_id, key_id, label, prefix, created_at, last_used_at, revoked_at"


class InstanceNameTaken(Exception):
    """Another organisation already uses this instance name."""


async def channel_instance(conn: AsyncConnection, instance_name: str) -> dict[str, Any] | None:
    """One instance by name (the connection must see every tenant: the name is how the org is found)."""
    row = (
        (
            await conn.execute(
                _q(f"SELECT {_INSTANCE_COLUMNS} FROM gateway.channel_instances WHERE instance_name = :name"),
                {"name": instance_name},
            )
        )
        .mappings()
        .first()
    )
    return dict(row) if row is not None else None


async def channel_instances(conn: AsyncConnection, organization_id: UUID) -> list[dict[str, Any]]:
    rows = await conn.execute(
        _q(
            f"SELECT {_INSTANCE_COLUMNS} FROM gateway.channel_instances WHERE organization_id = :org "
            "ORDER BY instance_name"
        ),
        {"org": organization_id},
    )
    return [dict(r) for r in rows.mappings()]


async def upsert_channel_instance(
    conn: AsyncConnection, organization_id: UUID, values: dict[str, Any]
) -> dict[str, Any]:
    """Create or replace an instance of this organisation; empty secrets keep the stored ones.

    The JWT key follows the webhook secret unless one of its own is given: a new instance without
    `jwt_key` verifies JWTs with its webhook secret, and a stored key equal to the old secret
    moves with it when the secret changes. Raises `InstanceNameTaken` when the name belongs to
    another organisation (nothing written).
    """
    row = (
        (
            await conn.execute(
                _q(
                    f"""
                    INSERT INTO gateway.channel_instances AS i
                        (organization_id, instance_name, base_url, api_key, webhook_secret, webhook_secret_header,
                         jwt_key, sender_number, allow_groups, allow_broadcasts, allow_newsletters)
                    VALUES (:org, :name, :base_url, :api_key, :secret, :secret_header,
                            CASE WHEN :jwt_key <> '' THEN :jwt_key ELSE :secret END,
                            :sender_number, :allow_groups, :allow_broadcasts, :allow_newsletters)
                    ON CONFLICT (instance_name) DO UPDATE SET
                        base_url = EXCLUDED.base_url,
                        api_key = CASE WHEN EXCLUDED.api_key <> '' THEN EXCLUDED.api_key ELSE i.api_key END,
                        webhook_secret = CASE WHEN EXCLUDED.webhook_secret <> '' THEN EXCLUDED.webhook_secret
                                              ELSE i.webhook_secret END,
                        webhook_secret_header = EXCLUDED.webhook_secret_header,
                        jwt_key = CASE WHEN :jwt_key <> '' THEN :jwt_key
                                       WHEN EXCLUDED.webhook_secret <> '' AND i.jwt_key = i.webhook_secret
                                           THEN EXCLUDED.webhook_secret
                                       ELSE i.jwt_key END,
                        sender_number = EXCLUDED.sender_number,
                        allow_groups = EXCLUDED.allow_groups,
                        allow_broadcasts = EXCLUDED.allow_broadcasts,
                        allow_newsletters = EXCLUDED.allow_newsletters,
                        updated_at = now()
                    WHERE i.organization_id = EXCLUDED.organization_id
                    RETURNING {_INSTANCE_COLUMNS}
                    """
                ),
                {"org": organization_id, **values},
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        raise InstanceNameTaken(values["name"])
    return dict(row)


async def insert_web_key(
    conn: AsyncConnection, organization_id: UUID, *, label: str, prefix: str, secret_sha256: str
) -> dict[str, Any]:
    row = (
        (
            await conn.execute(
                _q(
                    f"""
                    INSERT INTO gateway.web_channel_keys (organization_id, key_id, label, prefix, secret_sha256)
                    VALUES (:org, :key_id, :label, :prefix, :digest)
                    RETURNING {_KEY_COLUMNS}
                    """
                ),
                {"org": organization_id, "key_id": uuid4(), "label": label, "prefix": prefix, "digest": secret_sha256},
            )
        )
        .mappings()
        .one()
    )
    return dict(row)


async def web_keys(conn: AsyncConnection, organization_id: UUID) -> list[dict[str, Any]]:
    rows = await conn.execute(
        _q(f"SELECT {_KEY_COLUMNS} FROM gateway.web_channel_keys WHERE organization_id = :org ORDER BY created_at"),
        {"org": organization_id},
    )
    return [dict(r) for r in rows.mappings()]


async def revoke_web_key(conn: AsyncConnection, organization_id: UUID, key_id: UUID) -> dict[str, Any] | None:
    row = (
        (
            await conn.execute(
                _q(
                    f"""
                    UPDATE gateway.web_channel_keys SET revoked_at = coalesce(revoked_at, now())
                    WHERE organization_id = :org AND key_id = :key_id
                    RETURNING {_KEY_COLUMNS}
                    """
                ),
                {"org": organization_id, "key_id": key_id},
            )
        )
        .mappings()
        .first()
    )
    return dict(row) if row is not None else None


async def use_web_key(conn: AsyncConnection, secret_sha256: str) -> tuple[UUID, UUID] | None:
    """The (organisation, key id) of a valid key by its digest, marking it used (cross-tenant connection)."""
    row = (
        await conn.execute(
            _q(
                """
                UPDATE gateway.web_channel_keys SET last_used_at = now()
                WHERE secret_sha256 = :digest AND revoked_at IS NULL
                RETURNING organization_id, key_id
                """
            ),
            {"digest": secret_sha256},
        )
    ).first()
    return (row[0], row[1]) if row is not None else None
