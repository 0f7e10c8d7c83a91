"""The gateway's tables on a real PostgreSQL: delivery dedup, debounce, claims, watermark, ledger."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from uuid import UUID

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.kit import db
from services.gateway import repository as repo
from services.gateway.outbound import ChannelRegistry, RecordingChannel
from services.gateway.records import NewInbound
from services.gateway.sending import Sender
from tests.gateway import support
from tests.support.mesh import RunningMesh


@pytest.fixture(scope="module")
async def engine(mesh: RunningMesh) -> AsyncIterator[AsyncEngine]:
    url = await support.fresh_database(mesh)
    engine = db.create_engine(url, pool_size=5)  # the application role: row-level security applies
    yield engine
    await engine.dispose()


def _message(org: UUID, text: str, message_id: str | None = None, phone: str = "+5511912345678") -> NewInbound:
    return NewInbound(
        org, "test", "test", phone, phone, message_id or uuid.uuid4().hex, "", "text", text, "", {}, "", False, None
    )


async def _accept(
    engine: AsyncEngine, org: UUID, contact: UUID, message: NewInbound, *, debounce: float = 0.0, cap: float = 30.0
) -> tuple[UUID, int]:
    async with repo.tenant(engine, org) as conn:
        return await repo.accept_inbound(
            conn, message, contact, answerable=True, debounce_seconds=debounce, cap_seconds=cap
        )


async def _timing(engine: AsyncEngine, org: UUID, contact: UUID) -> tuple[float, float, int]:
    """(seconds from the burst's first message to due, seconds from now to due, last seq)."""
    async with repo.tenant(engine, org) as conn:
        row = (
            await conn.execute(
                sa.text(
                    "SELECT extract(epoch FROM due_at - burst_started_at), extract(epoch FROM due_at - now()), "
                    "last_seq FROM gateway.conversations WHERE organization_id = :org AND contact_id = :contact"
                ),
                {"org": org, "contact": contact},
            )
        ).one()
    return float(row[0]), float(row[1]), int(row[2])


async def test_a_redelivery_is_refused_and_changes_nothing(engine: AsyncEngine) -> None:
    org, contact = uuid.uuid4(), uuid.uuid4()
    message = _message(org, "oi", "wamid.1")
    await _accept(engine, org, contact, message, debounce=5)
    before = await _timing(engine, org, contact)
    with pytest.raises(repo.AlreadyStored):
        await _accept(engine, org, contact, _message(org, "oi de novo", "wamid.1"), debounce=60)
    after = await _timing(engine, org, contact)
    assert after[2] == before[2] == 1 and after[0] == before[0]  # no new seq, the debounce not re-armed


async def test_each_message_re_arms_the_debounce_up_to_the_cap(engine: AsyncEngine) -> None:
    org, contact = uuid.uuid4(), uuid.uuid4()
    await _accept(engine, org, contact, _message(org, "oi"), debounce=10, cap=30)
    first = await _timing(engine, org, contact)
    await asyncio.sleep(0.05)
    await _accept(engine, org, contact, _message(org, "tudo bem?"), debounce=10, cap=30)
    second = await _timing(engine, org, contact)
    assert first[0] == pytest.approx(10, abs=0.01) and second[0] > first[0]  # re-armed from the new message

    capped_contact = uuid.uuid4()
    for text in ("a", "b", "c"):
        await _accept(engine, org, capped_contact, _message(org, text), debounce=10, cap=1)
    capped = await _timing(engine, org, capped_contact)
    assert capped[0] == pytest.approx(1, abs=0.01)  # never later than the cap from the burst's start


async def test_rows_of_another_organisation_are_invisible(engine: AsyncEngine) -> None:
    org, other, contact = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    inbound, _ = await _accept(engine, org, contact, _message(org, "oi"))
    async with repo.tenant(engine, other) as conn:
        assert await repo.get_inbound(conn, org, inbound) is None
        assert await repo.get_conversation(conn, org, contact) is None


async def test_two_replicas_never_claim_the_same_contact(engine: AsyncEngine) -> None:
    org = uuid.uuid4()
    contacts = [uuid.uuid4() for _ in range(20)]
    for contact in contacts:
        await _accept(engine, org, contact, _message(org, "oi", phone=f"+55119{contact.int % 10**8:08d}"))

    async def scan(replica: str) -> list[repo.Claim]:
        async with repo.all_tenants(engine) as conn:
            return await repo.claim_due(conn, replica, 30, 100)

    a, b = await asyncio.gather(scan("replica-a"), scan("replica-b"))
    ours = [c.contact_id for c in [*a, *b] if c.organization_id == org]
    assert sorted(ours) == sorted(contacts)  # every due contact claimed, none twice
    for claim in [*a, *b]:
        async with repo.tenant(engine, claim.organization_id) as conn:
            await repo.release_claim(conn, claim)


async def test_an_expired_claim_passes_to_another_replica_and_fences_the_old_holder(engine: AsyncEngine) -> None:
    org, contact = uuid.uuid4(), uuid.uuid4()
    await _accept(engine, org, contact, _message(org, "oi"))
    async with repo.all_tenants(engine) as conn:
        [old] = [c for c in await repo.claim_due(conn, "dying", 0.05, 100) if c.contact_id == contact]
    await asyncio.sleep(0.3)  # the dying replica stops renewing its lease
    async with repo.all_tenants(engine) as conn:
        [new] = [c for c in await repo.claim_due(conn, "healthy", 30, 100) if c.contact_id == contact]
    assert new.token != old.token
    with pytest.raises(repo.ClaimLost):
        async with repo.tenant(engine, org) as conn:
            await repo.lock_conversation(conn, old)
    async with repo.tenant(engine, org) as conn:
        assert not await repo.extend_claim(conn, old, 30)
        await repo.lock_conversation(conn, new)
        await repo.release_claim(conn, new)


async def test_the_watermark_only_moves_forward(engine: AsyncEngine) -> None:
    org, contact = uuid.uuid4(), uuid.uuid4()
    for text in ("um", "dois", "três"):
        await _accept(engine, org, contact, _message(org, text))
    async with repo.tenant(engine, org) as conn:
        await repo.advance_watermark(conn, org, contact, 3)
        await repo.advance_watermark(conn, org, contact, 1)
        conversation = await repo.get_conversation(conn, org, contact)
    assert conversation is not None and conversation.watermark == 3


async def test_the_ledger_never_sends_a_part_twice(engine: AsyncEngine) -> None:
    org, contact = uuid.uuid4(), uuid.uuid4()
    await _accept(engine, org, contact, _message(org, "oi"))
    async with repo.all_tenants(engine) as conn:
        [claim] = [c for c in await repo.claim_due(conn, "r", 30, 100) if c.contact_id == contact]
    async with repo.tenant(engine, org) as conn:
        conversation = await repo.lock_conversation(conn, claim)
        turn, _ = await repo.insert_turn(conn, org, contact, trigger="inbound", status="running")
    channel = RecordingChannel("test")
    sender = Sender(engine, ChannelRegistry({"test": channel}), attempts=3, retry_seconds=0)

    first = await sender.send(claim, turn.turn_id, conversation, "reply", ["Olá!", "Como posso ajudar?"])
    again = await sender.send(claim, turn.turn_id, conversation, "reply", ["Olá!", "Outro texto"])

    assert [r.text for r in channel.sent] == ["Olá!", "Como posso ajudar?"]
    assert first.delivered and first.already_sent == 0
    assert again.already_sent == 2 and [p.body for p in again.parts] == ["Olá!", "Como posso ajudar?"]


async def test_a_permanent_send_failure_is_recorded_and_not_retried_by_a_later_attempt(engine: AsyncEngine) -> None:
    org, contact = uuid.uuid4(), uuid.uuid4()
    await _accept(engine, org, contact, _message(org, "oi"))
    async with repo.all_tenants(engine) as conn:
        [claim] = [c for c in await repo.claim_due(conn, "r", 30, 100) if c.contact_id == contact]
    async with repo.tenant(engine, org) as conn:
        conversation = await repo.lock_conversation(conn, claim)
        turn, _ = await repo.insert_turn(conn, org, contact, trigger="inbound", status="running")
    channel = RecordingChannel("test")
    channel.fail_next, channel.fail_permanently = 1, True
    sender = Sender(engine, ChannelRegistry({"test": channel}), attempts=3, retry_seconds=0)

    failed = await sender.send(claim, turn.turn_id, conversation, "reply", ["Olá!"])
    later = await sender.send(claim, turn.turn_id, conversation, "reply", ["Olá!"])

    assert not failed.delivered and failed.error and not channel.sent
    assert not later.delivered and not channel.sent


async def test_temporary_send_failures_are_retried(engine: AsyncEngine) -> None:
    org, contact = uuid.uuid4(), uuid.uuid4()
    await _accept(engine, org, contact, _message(org, "oi"))
    async with repo.all_tenants(engine) as conn:
        [claim] = [c for c in await repo.claim_due(conn, "r", 30, 100) if c.contact_id == contact]
    async with repo.tenant(engine, org) as conn:
        conversation = await repo.lock_conversation(conn, claim)
        turn, _ = await repo.insert_turn(conn, org, contact, trigger="inbound", status="running")
    channel = RecordingChannel("test")
    channel.fail_next = 2
    sender = Sender(engine, ChannelRegistry({"test": channel}), attempts=3, retry_seconds=0)

    result = await sender.send(claim, turn.turn_id, conversation, "reply", ["Olá!"])

    assert result.delivered and [r.text for r in channel.sent] == ["Olá!"] and result.parts[0].attempts == 3
