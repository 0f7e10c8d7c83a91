"""The webhook's durable intake on PostgreSQL: two edge replicas, one database.

Each replica is an edge app of its own (its own engine, its own group-commit inbox); what they
share is the database, as two gateway pods do. The database is a fresh one (the mesh's gateway
drains the mesh's database), and each drain test takes its own, so nothing else is pending. The
limits, the deduplication and the drain are checked in the rows they leave
(`gateway.edge_deliveries`, `gateway.edge_rate_counters`).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import grpc
import httpx2
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2_grpc
from balcao.kit import db
from balcao.kit.channels import MeshChannel
from balcao.kit.identity import TokenCache
from services.gateway import repository
from services.gateway.channel_directory import DatabaseDirectory
from services.gateway.edge import store
from services.gateway.edge.directory import EvolutionInstance, StaticDirectory, WebChannelKey
from services.gateway.edge.http import Edge, create_edge_router
from services.gateway.edge.inbound import SinkOutcome
from services.gateway.edge.inbox import DeliveryDrain, DeliveryInbox, LostDelivery, RateLimited
from services.gateway.edge.ratelimit import SharedRateLimiter
from services.gateway.edge.store import DeliveryRow
from services.gateway.sink import LostDeliveries
from tests.gateway import support
from tests.gateway.edge.evolution_fixtures import load_fixture
from tests.gateway.edge.runtime_double import RuntimeSinkDouble
from tests.support.mesh import RunningMesh

TOKEN = "B5F4E3A2-1C0D-4E9F-8A7B-6C5D4E3F2A1B"
SECRET = "segredo-do-webhook-0123456789"
# Windows of a day, so no window ends in the middle of a test (production: a minute).
DAY = 86400.0
HEADERS = {"x-balcao-webhook-secret": SECRET, "content-type": "application/json"}


@dataclass
class Replica:
    http: httpx2.AsyncClient
    edge: Edge
    engine: AsyncEngine

    async def webhook(self, body: Any) -> httpx2.Response:
        return await self.http.post("/webhooks/evolution", content=json.dumps(body), headers=HEADERS)


@dataclass
class Pair:
    org: str
    instance: str
    a: Replica
    b: Replica
    sink: RuntimeSinkDouble
    sql: AsyncEngine

    def event(self, phone: str, text: str = "Oi", message_id: str | None = None) -> dict[str, Any]:
        body = load_fixture("01")
        body["instance"] = self.instance
        body["data"]["key"]["remoteJid"] = f"{phone}@s.whatsapp.net"
        body["data"]["key"]["id"] = message_id or uuid.uuid4().hex[:20].upper()
        body["data"]["message"]["conversation"] = text
        return body

    async def deliveries(self, message_id: str | None = None) -> list[Any]:
        async with self.sql.connect() as conn:
            rows = await conn.execute(
                sa.text(
                    "SELECT message_id, sender_key, state, body IS NULL AS dropped, attempts, last_error "
                    "FROM gateway.edge_deliveries WHERE organization_id = :org "
                    "AND (CAST(:id AS text) IS NULL OR message_id = :id) ORDER BY received_at"
                ),
                {"org": self.org, "id": message_id},
            )
            return list(rows.mappings())

    async def hits(self, key: str) -> int:
        async with self.sql.connect() as conn:
            total = await conn.execute(
                sa.text(
                    "SELECT coalesce(sum(hits), 0) FROM gateway.edge_rate_counters "
                    "WHERE organization_id = :org AND key = :key"
                ),
                {"org": self.org, "key": key},
            )
            return int(total.scalar_one())


@asynccontextmanager
async def replicas(url: str, *, contact: int, org: int, organization: str | None = None) -> AsyncIterator[Pair]:
    organization = organization or str(uuid.uuid4())
    instance = f"inbox-{organization[:8]}"
    directory = StaticDirectory(
        [EvolutionInstance(instance, organization, "http://127.0.0.1:9", TOKEN, webhook_secret=SECRET)],
        [(f"bk_{organization}", WebChannelKey(organization, "k1"))],
    )
    sink = RuntimeSinkDouble()
    made: list[Replica] = []
    for _ in range(2):
        engine = db.create_engine(url, pool_size=4)
        inbox = DeliveryInbox(engine, contact_per_minute=contact, organization_per_minute=org, rate_window_seconds=DAY)
        limiter = SharedRateLimiter(engine, contact_per_minute=contact, organization_per_minute=org, window_seconds=DAY)
        edge = Edge(directory, sink, rate_limiter=limiter, inbox=inbox)
        app = FastAPI()
        app.include_router(create_edge_router(edge))
        made.append(
            Replica(httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://gw"), edge, engine)
        )
    sql = db.create_engine(url, app_role=False)
    try:
        yield Pair(organization, instance, made[0], made[1], sink, sql)
    finally:
        for replica in made:
            await replica.http.aclose()
            await replica.engine.dispose()
        await sql.dispose()


@pytest.fixture(scope="module")
async def database(mesh: RunningMesh) -> str:
    """A database of this module's own (the mesh's gateway drains the mesh's database)."""
    return await support.fresh_database(mesh)


def phone() -> str:
    return f"55119{uuid.uuid4().int % 10**8:08d}"


async def test_two_replicas_share_one_contacts_limit(database: str) -> None:
    async with replicas(database, contact=3, org=0) as pair:
        ana = phone()
        first = pair.event(ana, "um")
        answers = [
            await pair.a.webhook(first),
            await pair.b.webhook(pair.event(ana, "dois")),
            await pair.a.webhook(pair.event(ana, "três")),
        ]
        assert [a.json()["accepted"] for a in answers] == [1, 1, 1]
        fourth = pair.event(ana, "quatro")
        refused = await pair.b.webhook(fourth)
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited" and refused.json()["message"]
        assert 1 <= int(refused.headers["retry-after"]) <= DAY
        assert await pair.deliveries(fourth["data"]["key"]["id"]) == []  # nothing stored
        # A redelivery is recognised, answered 2xx and counts nothing, on either replica.
        again = await pair.b.webhook(first)
        assert again.status_code == 200 and again.json()["duplicates"] == 1
        assert await pair.hits("+" + ana) == 3
        # Another contact of the same organisation is not held back by Ana's limit.
        assert (await pair.a.webhook(pair.event(phone()))).json()["accepted"] == 1


async def test_two_replicas_share_one_organisations_limit(database: str) -> None:
    async with replicas(database, contact=0, org=4) as pair:
        statuses = []
        for index in range(6):
            replica = pair.a if index % 2 == 0 else pair.b
            statuses.append((await replica.webhook(pair.event(phone()))).status_code)
        assert statuses == [200, 200, 200, 200, 429, 429]
        assert len(await pair.deliveries()) == 4 and await pair.hits("") == 4


async def test_a_body_over_the_limit_is_refused_whole(database: str) -> None:
    async with replicas(database, contact=2, org=0) as pair:
        bia = phone()
        first = pair.event(bia)
        assert (await pair.a.webhook(first)).status_code == 200
        both = [pair.event(bia, "dois"), pair.event(bia, "três")]  # one would fit, two do not
        assert (await pair.b.webhook(both)).status_code == 429
        assert [d["message_id"] for d in await pair.deliveries()] == [first["data"]["key"]["id"]]
        assert await pair.hits("+" + bia) == 1


async def test_concurrent_deliveries_on_two_replicas_are_each_stored_once(database: str) -> None:
    async with replicas(database, contact=0, org=0) as pair:
        bodies = [pair.event(phone(), f"mensagem {i}") for i in range(25)]
        sends = [pair.a.webhook(b) for b in bodies] + [pair.b.webhook(b) for b in reversed(bodies)]
        answers = await asyncio.gather(*sends)
        assert all(a.status_code == 200 for a in answers)
        assert sum(a.json()["accepted"] for a in answers) == 25
        assert sum(a.json()["duplicates"] for a in answers) == 25
        stored = await pair.deliveries()
        assert sorted(d["message_id"] for d in stored) == sorted(b["data"]["key"]["id"] for b in bodies)


async def test_the_drain_hands_each_delivery_to_the_runtime_in_arrival_order(mesh: RunningMesh) -> None:
    async with replicas(await support.fresh_database(mesh), contact=0, org=0) as pair:
        carla = phone()
        sent = [pair.event(carla, f"parte {i}") for i in range(3)]
        for body in sent:
            await pair.a.webhook(body)
        drains = [
            DeliveryDrain(replica.engine, replica.edge.take_delivery, concurrency=4, retry_base_seconds=0)
            for replica in (pair.a, pair.b)
        ]
        while await drains[0].drain_once() + await drains[1].drain_once():
            pass
        assert [m.text for _, m in pair.sink.stored] == ["parte 0", "parte 1", "parte 2"]
        assert pair.sink.outcomes == [SinkOutcome.ACCEPTED] * 3
        assert [(d["state"], d["dropped"]) for d in await pair.deliveries()] == [("done", True)] * 3


async def test_an_idle_drain_waits_for_work_instead_of_asking_again_at_once(mesh: RunningMesh) -> None:
    async with replicas(await support.fresh_database(mesh), contact=0, org=0) as pair:

        async def next_due() -> float | None:
            async with repository.all_tenants(pair.a.engine) as conn:
                return await store.next_pending_in(conn)

        assert await next_due() is None  # nothing stored: the drain sleeps until woken or polled
        await pair.a.webhook(pair.event(phone(), "oi"))
        assert await next_due() == 0.0  # stored and due: take it now
        drain = DeliveryDrain(pair.a.engine, pair.a.edge.take_delivery, retry_base_seconds=0)
        while await drain.drain_once():
            pass
        assert await next_due() is None  # taken: nothing pending again


async def test_a_failing_runtime_is_retried_and_a_refusal_is_kept_with_its_reason(mesh: RunningMesh) -> None:
    async with replicas(await support.fresh_database(mesh), contact=0, org=0) as pair:
        down, refused = pair.event(phone(), "o banco caiu"), pair.event(phone(), "inválida")
        pair.sink.reject_phone = "+" + refused["data"]["key"]["remoteJid"].split("@")[0]
        for body in (down, refused):
            await pair.a.webhook(body)
        drain = DeliveryDrain(pair.a.engine, pair.a.edge.take_delivery, retry_base_seconds=0, retry_max_seconds=0)
        pair.sink.fail_next = 1  # the first hand-over finds the store down
        assert await drain.drain_once() == 2
        pending = [d for d in await pair.deliveries() if d["state"] == "pending"]
        assert len(pending) == 1 and "store is down" in pending[0]["last_error"] and not pending[0]["dropped"]
        while await drain.drain_once():
            pass
        states = {d["message_id"]: d for d in await pair.deliveries()}
        assert states[down["data"]["key"]["id"]]["state"] == "done"
        rejected = states[refused["data"]["key"]["id"]]
        assert rejected["state"] == "rejected" and rejected["last_error"]
        assert [m.text for _, m in pair.sink.stored] == ["o banco caiu"]


async def test_a_delivery_that_fails_for_good_keeps_the_message_and_tells_the_business(mesh: RunningMesh) -> None:
    org = await support.create_org(mesh)
    crm = MeshChannel(grpc.aio.insecure_channel(mesh.addr("crm")), TokenCache(mesh.secret, "gateway"))
    async with replicas(await support.fresh_database(mesh), contact=0, org=0, organization=org.organization_id) as pair:
        ana = phone()
        lost = pair.event(ana, "quero remarcar para sexta")
        await pair.a.webhook(lost)
        reporter = LostDeliveries(crm_write_pb2_grpc.CrmWriteServiceStub(crm), pair.a.edge, timeout=10.0)
        drain = DeliveryDrain(
            pair.a.engine, pair.a.edge.take_delivery, max_attempts=3, retry_base_seconds=0, retry_max_seconds=0,
            on_lost=reporter.report,
        )
        pair.sink.fail_next = 1_000  # the runtime never takes it
        while await drain.drain_once():
            pass
        await drain.drain_once()  # nothing left to claim: the item is raised once

        [row] = await pair.deliveries()
        assert (row["state"], row["attempts"], row["dropped"]) == ("failed", 3, False)  # the message is kept
        assert "store is down" in row["last_error"] and pair.sink.stored == []
        channel, read = await support.crm_read(mesh)
        async with channel:
            items = (
                await read.ListCentralItems(
                    cr.ListCentralItemsRequest(organization_id=org.organization_id),
                    metadata=support.metadata(mesh, "gateway"),
                )
            ).items
    await crm.close()
    [item] = [i for i in items if i.code == "delivery_failed"]
    assert item.severity == r.CENTRAL_ITEM_SEVERITY_CRITICAL and item.kind == r.CENTRAL_ITEM_KIND_JOB_DEAD
    assert f"+{ana}" in item.body_pt and "quero remarcar para sexta" in item.body_pt and "sem resposta" in item.body_pt


async def test_a_report_that_fails_still_records_the_delivery_as_failed(mesh: RunningMesh) -> None:
    async with replicas(await support.fresh_database(mesh), contact=0, org=0) as pair:
        await pair.a.webhook(pair.event(phone(), "oi"))
        heard: list[LostDelivery] = []

        async def crm_down(lost: LostDelivery) -> None:
            heard.append(lost)
            raise ConnectionError("crm is down")

        drain = DeliveryDrain(
            pair.a.engine, pair.a.edge.take_delivery, max_attempts=1, retry_base_seconds=0, on_lost=crm_down
        )
        pair.sink.fail_next = 1
        assert await drain.drain_once() == 1
        [row] = await pair.deliveries()
        assert row["state"] == "failed" and not row["dropped"]
        assert [lost.message_id for lost in heard] == [row["message_id"]] and heard[0].body


async def test_the_web_channels_limit_is_shared_and_a_refusal_counts_nothing(database: str) -> None:
    async with replicas(database, contact=1, org=0) as pair:
        key = {"x-api-key": f"bk_{pair.org}"}
        first = await pair.a.http.post(
            "/v1/web/messages", json={"message": "oi", "phone": "+5511933334444"}, headers=key
        )
        second = await pair.b.http.post(
            "/v1/web/messages", json={"message": "oi", "phone": "+5511933334444"}, headers=key
        )
        assert (first.status_code, second.status_code) == (200, 429)
        assert second.json()["code"] == "rate_limited"
        assert await pair.hits("+5511933334444") == 1
        assert len(pair.sink.stored) == 1


async def test_concurrent_lookups_of_one_instance_share_one_query(database: str) -> None:
    organization = str(uuid.uuid4())
    name = f"lookup-{organization[:8]}"
    owner = db.create_engine(database, app_role=False)
    async with repository.all_tenants(owner) as conn:
        values = {
            "name": name,
            "base_url": "http://127.0.0.1:9",
            "api_key": TOKEN,
            "secret": SECRET,
            "secret_header": "x-balcao-webhook-secret",
            "jwt_key": "",
            "sender_number": "",
            "allow_groups": True,
            "allow_broadcasts": False,
            "allow_newsletters": False,
        }
        await repository.upsert_channel_instance(conn, uuid.UUID(organization), values)
    await owner.dispose()
    engine = db.create_engine(database, pool_size=2)
    reads: list[str] = []
    sa.event.listen(
        engine.sync_engine,
        "before_cursor_execute",
        lambda _c, _cur, statement, *_: reads.append(statement) if "channel_instances" in statement else None,
    )
    directory = DatabaseDirectory(engine, cache_seconds=60)
    found = await asyncio.gather(*(directory.evolution_instance(name) for _ in range(20)))
    await engine.dispose()
    assert len(reads) == 1
    assert {(i.organization_id, i.allow_groups) for i in found if i is not None} == {(organization, True)}
    assert all(i is not None for i in found)


async def test_in_one_group_a_refused_request_leaves_only_what_a_later_one_took(database: str) -> None:
    async with replicas(database, contact=1, org=0) as pair:
        inbox = pair.a.edge.inbox
        assert inbox is not None
        dora = "+" + phone()
        first, second = (
            DeliveryRow(pair.org, pair.instance, dora, message_id, False, b"{}") for message_id in ("D1", "D2")
        )
        # Both requests join one group: two messages over a limit of one are refused together,
        # then the request carrying only the first one fits.
        both, alone = await asyncio.gather(inbox.store([first, second]), inbox.store([first]), return_exceptions=True)
        assert isinstance(both, RateLimited) and alone == [True]
        assert [d["message_id"] for d in await pair.deliveries()] == ["D1"]
        assert await pair.hits(dora) == 1


async def test_groups_in_a_row_share_held_connections_and_none_stays_in_a_transaction(database: str) -> None:
    async with replicas(database, contact=2, org=0) as pair:
        inbox = pair.a.edge.inbox
        assert inbox is not None
        # Groups of three, one commit at a time: each wave is four groups in a row, the next one
        # forming while the previous commits (its transaction begun with that COMMIT).
        inbox.max_flushes, inbox.max_batch = 1, 3
        senders = ["+" + phone() for _ in range(12)]
        waves = []
        for wave in range(3):  # three messages per sender: the third is over the limit of two
            rows = [
                DeliveryRow(pair.org, pair.instance, s, f"W{wave}-{n}", False, b"{}") for n, s in enumerate(senders)
            ]
            waves.append(await asyncio.gather(*(inbox.store([r]) for r in rows), return_exceptions=True))
        assert [sum(a == [True] for a in answers) for answers in waves] == [12, 12, 0]
        assert all(isinstance(a, RateLimited) for a in waves[2])
        assert len(await pair.deliveries()) == 24 and [await pair.hits(s) for s in senders] == [2] * 12
        # The load stopped: the connections go back to the pool, none left inside a transaction.
        for _ in range(100):
            async with pair.sql.connect() as conn:
                waiting = await conn.scalar(
                    sa.text(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                        "AND state LIKE 'idle in transaction%'"
                    )
                )
            if not waiting:
                break
            await asyncio.sleep(0.05)
        assert waiting == 0
        assert inbox._idle == []
