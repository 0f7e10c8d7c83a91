"""SubmitInbound on the mesh's own gateway: stored before the answer, deduplicated, each message
answered exactly once (the mesh's Conversador runs the offline model)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import grpc
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.kit import db
from tests.gateway import support
from tests.support.mesh import RunningMesh


@pytest.fixture(scope="module")
async def mesh_db(mesh: RunningMesh) -> AsyncIterator[AsyncEngine]:
    """The mesh's database as its owner sees it, to check what the gateway stored."""
    engine = create_async_engine(db.to_async_url(mesh.database_url))
    yield engine
    await engine.dispose()


async def _count(engine: AsyncEngine, sql: str, **params: object) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(sa.text(sql), params)).scalar_one())


async def test_bad_input_is_refused_and_nothing_is_stored(
    mesh: RunningMesh, client: support.Client, mesh_db: AsyncEngine
) -> None:
    org = await support.create_org(mesh)
    marker = uuid.uuid4().hex
    bad = support.message(org, "+5511987650000", "oi", message_id=marker)
    bad.message.phone = "não é telefone"
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.stub.SubmitInbound(bad, metadata=client.md)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "message.phone" in (
        refused.value.details() or ""
    )

    unknown = support.message(support.Org(str(uuid.uuid4())), support.new_phone(), "oi", message_id=marker)
    with pytest.raises(grpc.aio.AioRpcError) as missing:
        await client.stub.SubmitInbound(unknown, metadata=client.md)
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    assert await _count(mesh_db, "SELECT count(*) FROM gateway.inbound_messages WHERE message_id = :m", m=marker) == 0


async def test_a_number_crm_would_refuse_is_refused_here_naming_the_field_and_nothing_is_stored(
    mesh: RunningMesh, client: support.Client, mesh_db: AsyncEngine
) -> None:
    # A possible number with no real area code (20): it used to pass here and fail in crm's
    # UpsertContact, answered as crm's internal call instead of as the customer's number.
    org = await support.create_org(mesh)
    marker = uuid.uuid4().hex
    bad = support.message(org, "+55 20 98765-4321", "oi", message_id=marker)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.stub.SubmitInbound(bad, metadata=client.md)
    details = refused.value.details() or ""
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert details.startswith("message.phone '+55 20 98765-4321' is not a valid phone number"), details
    assert "crm" not in details and "UpsertContact" not in details
    assert await _count(mesh_db, "SELECT count(*) FROM gateway.inbound_messages WHERE message_id = :m", m=marker) == 0
    assert await _count(
        mesh_db, "SELECT count(*) FROM crm.contacts WHERE organization_id = :o", o=uuid.UUID(org.organization_id)
    ) == 0

    # The same customer written every way crm reads it is one contact, under one stored number.
    ids = set()
    for spelling in ("(11) 8765-4321", "5511987654321", "+55 11 98765-4321"):
        accepted = await client.stub.SubmitInbound(
            support.message(org, spelling, "oi", message_id=uuid.uuid4().hex), metadata=client.md
        )
        ids.add(accepted.contact_id)
    (contact_id,) = ids
    async with mesh_db.connect() as conn:
        stored = await conn.execute(
            sa.text("SELECT phone_e164 FROM crm.contacts WHERE contact_id = :c"), {"c": uuid.UUID(contact_id)}
        )
        assert stored.scalar_one() == "+5511987654321"


async def test_only_a_person_with_the_admin_identity_submits(mesh: RunningMesh, client: support.Client) -> None:
    org = await support.create_org(mesh)
    with pytest.raises(grpc.aio.AioRpcError) as denied:
        await client.stub.SubmitInbound(
            support.message(org, support.new_phone(), "oi"), metadata=support.metadata(mesh, "conversador")
        )
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_the_same_message_ten_times_is_one_turn(
    mesh: RunningMesh, client: support.Client, mesh_db: AsyncEngine
) -> None:
    org = await support.create_org(mesh)
    phone, message_id = support.new_phone(), f"wamid.{uuid.uuid4().hex}"

    answers = await asyncio.gather(*(client.submit(org, phone, "oi, bom dia", message_id) for _ in range(10)))

    statuses = sorted(a.status for a in answers)
    assert statuses == [gw.SUBMIT_STATUS_ACCEPTED] + [gw.SUBMIT_STATUS_DUPLICATE] * 9
    assert len({a.inbound_id for a in answers}) == 1
    turn = await client.turn(org, inbound_id=answers[0].inbound_id)
    assert turn.status == gw.TURN_STATUS_DONE and len(turn.reply_parts) >= 1
    turns = await _count(
        mesh_db, "SELECT count(*) FROM gateway.turns WHERE organization_id = :org", org=org.organization_id
    )
    sent = await _count(
        mesh_db,
        "SELECT count(DISTINCT turn_id) FROM gateway.outbound_parts WHERE organization_id = :org",
        org=org.organization_id,
    )
    assert (turns, sent) == (1, 1)


async def test_five_messages_at_once_each_belong_to_exactly_one_answered_turn(
    mesh: RunningMesh, client: support.Client, mesh_db: AsyncEngine
) -> None:
    org = await support.create_org(mesh)
    phone = support.new_phone()
    texts = ["oi", "bom dia", "vocês abrem sábado?", "qual o endereço?", "obrigado"]

    accepted = await asyncio.gather(*(client.submit(org, phone, text) for text in texts))
    turns = [await client.turn(org, inbound_id=a.inbound_id) for a in accepted]

    assert all(t.status == gw.TURN_STATUS_DONE and t.reply_parts for t in turns)
    by_turn: dict[str, set[str]] = {}
    for turn in turns:
        by_turn.setdefault(turn.turn_id, set()).update(turn.inbound_ids)
    answered = [i for ids in by_turn.values() for i in ids]
    assert sorted(answered) == sorted(a.inbound_id for a in accepted)  # each exactly once, none left out
    async with mesh_db.connect() as conn:
        rows = (
            await conn.execute(
                sa.text(
                    "SELECT turn_id, count(*) FROM gateway.outbound_parts WHERE organization_id = :org GROUP BY turn_id"
                ),
                {"org": org.organization_id},
            )
        ).all()
        watermark, last = (
            await conn.execute(
                sa.text("SELECT watermark, last_seq FROM gateway.conversations WHERE organization_id = :org"),
                {"org": org.organization_id},
            )
        ).one()
    assert {str(r[0]) for r in rows} == set(by_turn)  # one reply per turn, no turn without its reply
    assert all(count == len(next(t for t in turns if t.turn_id == str(turn_id)).reply_parts) for turn_id, count in rows)
    assert watermark == last == len(texts)


async def test_a_first_message_records_who_wrote_without_overwriting_the_business_records(
    mesh: RunningMesh, client: support.Client
) -> None:
    org = await support.create_org(mesh)
    phone = support.new_phone()
    first = support.message(org, phone, "oi")
    first.message.sender_name = "Eva"
    await client.stub.SubmitInbound(first, metadata=client.md)
    channel = grpc.aio.insecure_channel(mesh.addr("crm"))
    async with channel:
        read = crm_read_pb2_grpc.CrmReadServiceStub(channel)
        write = crm_write_pb2_grpc.CrmWriteServiceStub(channel)
        md = support.metadata(mesh, "gateway")
        found = await read.FindContactByPhone(
            cr.FindContactByPhoneRequest(organization_id=org.organization_id, phone=phone), metadata=md
        )
        assert found.contact.name == "Eva"  # the push name fills an empty name
        assert found.contact.legal_basis == r.LEGAL_BASIS_CONTACT_INITIATED  # the contact wrote first
        await write.UpsertContact(
            cw.UpsertContactRequest(
                organization_id=org.organization_id, phone=phone, name="Eva Lima", legal_basis=r.LEGAL_BASIS_CONSENT
            ),
            metadata=md,
        )
        again = support.message(org, phone, "tudo bem?")
        again.message.sender_name = "Evinha"
        await client.stub.SubmitInbound(again, metadata=client.md)
        kept = await read.FindContactByPhone(
            cr.FindContactByPhoneRequest(organization_id=org.organization_id, phone=phone), metadata=md
        )
    assert kept.contact.name == "Eva Lima"  # the name the business recorded stays
    assert kept.contact.legal_basis == r.LEGAL_BASIS_CONSENT
