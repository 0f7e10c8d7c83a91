"""One write, at most once per idempotency key, and nothing at all when refused.

`write` runs an RPC's work in one tenant transaction. With a key, the first call stores its
response in the same transaction as its effect; a later call with the same key (within the
organisation and the RPC) gets that response back with `replayed = true` and writes nothing.
A response carrying a `refusal` rolls the whole transaction back, key included: a refusal
writes nothing, and a retry is judged afresh.
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
            if key and not await keys.claim(conn, org, rpc, key, clock()):
                replay = response_type.FromString(await keys.stored_response(conn, org, rpc, key))
                if "replayed" in replay.DESCRIPTOR.fields_by_name:
                    replay.replayed = True  # type: ignore[attr-defined]
                return replay
            response = await work(conn)
            if is_refusal(response):
                raise _Refused(response)
            if key:
                await keys.save_response(conn, org, rpc, key, response.SerializeToString())
            return response
    except _Refused as refused:
        return refused.response  # type: ignore[return-value]
