"""One write, at most once per idempotency key, and nothing at all when refused.

`write` runs an RPC's work in one tenant transaction. With a key, the first call stores its
response in the same transaction as its effect; a later call with the same key (within the
organisation and the RPC) gets that response back with `replayed = true` and writes nothing.
A response carrying a `refusal` rolls the whole transaction back, key included: a refusal
writes nothing, and a retry is judged afresh.

The key and the response are written by ONE statement at the end of the transaction (insert,
do nothing on conflict). When it finds the key taken, the transaction rolls back (its work is
undone) and the stored response is answered. A concurrent call with the same key waits on the
unique index until the first one ends, then replays it (committed) or writes itself (rolled
back). When the work refuses or fails instead, the key is probed the same way (an insert that
waits, then rolled back): a key stored meanwhile or before still answers with its response, as
if the key had been looked at first. Side effects of the undone work do not outlive its
transaction (pg_notify is delivered on commit only); a sequence may skip a value.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar
from uuid import UUID

from google.protobuf.message import Message
from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.clock import Clock
from services.crm.errors import InvalidArgument
from services.crm.repository import Store
from services.crm.repository import idempotency as keys

R = TypeVar("R", bound=Message)
MAX_KEY_LENGTH = 200


class _Refused(Exception):
    def __init__(self, response: Message) -> None:
        super().__init__("refused")
        self.response = response


class _Taken(Exception):
    """The key was stored by another transaction: roll this one back and replay."""


class _RollBack(Exception):
    """Ends the probe's transaction without committing it."""


def is_refusal(response: Message) -> bool:
    return "refusal" in response.DESCRIPTOR.fields_by_name and response.HasField("refusal")  # type: ignore[arg-type]


async def write(
    store: Store,
    clock: Clock,
    org: UUID,
    rpc: str,
    key: str,
    response_type: type[R],
    work: Callable[[AsyncConnection], Awaitable[R]],
) -> R:
    if len(key) > MAX_KEY_LENGTH:
        raise InvalidArgument(f"idempotency_key is longer than {MAX_KEY_LENGTH} characters")
    try:
        async with store.tenant(org) as conn:
            response = await work(conn)
            if is_refusal(response):
                raise _Refused(response)
            if key and not await keys.store(conn, org, rpc, key, response.SerializeToString(), clock()):
                raise _Taken()
            return response
    except _Taken:
        replay = await _replay(store, clock, org, rpc, key, response_type)
        assert replay is not None  # the transaction that took the key committed
        return replay
    except _Refused as refused:
        if key and (replay := await _replay(store, clock, org, rpc, key, response_type)) is not None:
            return replay
        return refused.response  # type: ignore[return-value]
    except Exception:
        if key and (replay := await _replay(store, clock, org, rpc, key, response_type)) is not None:
            return replay
        raise


async def _replay(store: Store, clock: Clock, org: UUID, rpc: str, key: str, response_type: type[R]) -> R | None:
    """The stored response of `key` marked as replayed, or None when no committed call has the key.

    The probe inserts the key (waiting for a transaction that holds it uncommitted) and is always
    rolled back, so it never keeps the key."""
    stored = None
    try:
        async with store.tenant(org) as conn:
            if not await keys.claim(conn, org, rpc, key, clock()):
                stored = await keys.stored_response(conn, org, rpc, key)
            raise _RollBack()
    except _RollBack:
        pass
    if stored is None:
        return None
    replay = response_type.FromString(stored)
    if "replayed" in replay.DESCRIPTOR.fields_by_name:
        replay.replayed = True  # type: ignore[attr-defined]
    return replay
