"""A TEST DOUBLE of the runtime's inbound store, for the edge router's unit tests only.

The real `InboundSink` is the gateway runtime (`Intake.accept`, PostgreSQL, unique on channel
instance + phone + message id); it is wired in when issue 7 lands. This double keeps the same
contract in memory so the router's tests can see exactly what would have been stored: the
first message per deduplication key is ACCEPTED (RECORDED when typed by the business), every
redelivery is a DUPLICATE and changes nothing.
"""

from __future__ import annotations

import asyncio
import itertools

from services.gateway.edge.inbound import NormalizedInbound, Receipt, SinkOutcome, SinkRejected


class RuntimeSinkDouble:
    def __init__(self) -> None:
        self.stored: list[tuple[str, NormalizedInbound]] = []
        self.outcomes: list[SinkOutcome] = []
        self._keys: dict[tuple[str, str, str, str], str] = {}
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()
        self.fail_next = 0  # the next accepts raise (the store is down)
        self.reject_phone = ""  # accepts for this phone are refused as invalid

    async def accept(self, organization_id: str, message: NormalizedInbound) -> Receipt:
        async with self._lock:
            if self.fail_next > 0:
                self.fail_next -= 1
                raise ConnectionError("the store is down")
            if self.reject_phone and message.phone == self.reject_phone:
                raise SinkRejected("message.phone is not accepted")
            key = (organization_id, *message.dedup_key)
            if key in self._keys:
                self.outcomes.append(SinkOutcome.DUPLICATE)
                return Receipt(SinkOutcome.DUPLICATE, self._keys[key])
            inbound_id = f"inbound-{next(self._ids)}"
            self._keys[key] = inbound_id
            self.stored.append((organization_id, message))
            outcome = SinkOutcome.RECORDED if message.from_business else SinkOutcome.ACCEPTED
            self.outcomes.append(outcome)
            return Receipt(outcome, inbound_id)

    def messages(self) -> list[NormalizedInbound]:
        return [m for _, m in self.stored]
