"""Two gateway replicas on one database: each contact's turn runs on one of them at a time, and
every message is answered exactly once, whichever replica accepted it."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.support.mesh import RunningMesh


async def test_two_replicas_answer_every_message_exactly_once(mesh: RunningMesh) -> None:
    a = await support.start_gateway(mesh)
    b = await support.start_gateway(mesh, url=a.url)
    clients = [support.Client(mesh, a.addr), support.Client(mesh, b.addr)]
    try:
        org = await support.create_org(mesh)
        phones = [support.new_phone() for _ in range(4)]
        texts = ["oi", "vocês abrem no sábado?", "qual o endereço?"]
        jobs = [
            clients[(i + j) % 2].submit(org, phone, text)
            for i, phone in enumerate(phones)
            for j, text in enumerate(texts)
        ]
        accepted = await asyncio.gather(*jobs)
        turns = [await clients[0].turn(org, inbound_id=x.inbound_id) for x in accepted]

        assert all(t.status == gw.TURN_STATUS_DONE and t.reply_parts for t in turns)
        owners = Counter(i for t in {t.turn_id: t for t in turns}.values() for i in t.inbound_ids)
        assert set(owners) == {x.inbound_id for x in accepted} and set(owners.values()) == {1}
        sent = [*a.channel.sent, *b.channel.sent]
        by_turn = Counter(record.idempotency_key.split(":")[0] for record in sent)
        assert set(by_turn) == {t.turn_id for t in turns}  # each turn sent by one replica, once per part
        assert all(
            count == len(next(t for t in turns if t.turn_id == turn).reply_parts) for turn, count in by_turn.items()
        )
        assert {uuid.UUID(t.contact_id) for t in turns} == {r.recipient.contact_id for r in sent}
    finally:
        for client in clients:
            await client.close()
        await a.stop()
        await b.stop()
