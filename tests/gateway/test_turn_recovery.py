"""A turn that fails half-way is retried and answered exactly once; one that keeps failing raises a
Central item; a reply already sent is never sent again."""

from __future__ import annotations

import asyncio
import uuid

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway import repository
from tests.gateway import support
from tests.gateway.conftest import Scripted
from tests.gateway.scripted import Call, Gate, echo
from tests.support.mesh import RunningMesh, free_port


async def test_killing_the_conversador_mid_turn_answers_exactly_once_after_it_returns(
    mesh: RunningMesh, scripted: Scripted
) -> None:
    gateway = await support.start_gateway(
        mesh,
        peers={"conversador": scripted.conversador.addr},
        model=scripted.chooser,
        turn_max_attempts=20,
        turn_retry_base_seconds=0.5,
        turn_retry_max_seconds=2.0,
    )
    client = support.Client(mesh, gateway.addr)
    name = support.org_name("Clínica Queda")
    gate = Gate()

    def behaviour(call: Call) -> str:
        if not gate.reached.is_set():
            gate.hold()  # the model is "writing" when the process dies
        return echo(call)

    try:
        org = await support.create_org(mesh, name=name)
        scripted.model.script(name, behaviour)
        accepted = await client.submit(org, support.new_phone(), "preciso remarcar minha consulta")
        await asyncio.to_thread(gate.reached.wait, 30)
        scripted.conversador.kill()
        gate.release()
        await asyncio.sleep(1.0)  # let at least one retry meet the dead process
        scripted.conversador.start()
        await scripted.conversador.wait_serving()

        turn = await client.turn(org, inbound_id=accepted.inbound_id, wait=60)

        assert turn.status == gw.TURN_STATUS_DONE and turn.outcome == gw.TURN_OUTCOME_REPLIED
        assert list(turn.inbound_ids) == [accepted.inbound_id]
        sent = gateway.channel.texts_to(uuid.UUID(turn.contact_id))
        assert len(sent) == 1 and "Recebi: preciso remarcar minha consulta" in sent[0]
        async with repository.tenant(gateway.engine, uuid.UUID(org.organization_id)) as conn:
            row = await repository.get_turn(conn, uuid.UUID(org.organization_id), uuid.UUID(turn.turn_id))
        assert row is not None and row.attempts >= 2  # it failed, then it was retried
    finally:
        if scripted.conversador.process is None or scripted.conversador.process.poll() is not None:
            scripted.conversador.start()
            await scripted.conversador.wait_serving()
        await client.close()
        await gateway.stop()


async def test_a_turn_that_keeps_failing_raises_a_central_item_and_its_message_waits(
    mesh: RunningMesh, scripted: Scripted
) -> None:
    nobody = f"127.0.0.1:{free_port()}"  # a Conversador that never answers
    gateway = await support.start_gateway(
        mesh,
        peers={"conversador": nobody},
        model=scripted.chooser,
        turn_max_attempts=2,
        turn_retry_base_seconds=0.1,
        conversador_timeout_seconds=2.0,
    )
    client = support.Client(mesh, gateway.addr)
    try:
        org = await support.create_org(mesh)
        turn = await client.say(org, support.new_phone(), "bom dia, vocês atendem hoje?")

        assert turn.status == gw.TURN_STATUS_FAILED and not turn.reply_parts
        assert not gateway.channel.texts_to(uuid.UUID(turn.contact_id))
        # The turn is marked failed first, then the item raised: the owner sees it moments later.
        failed: list[r.CentralItem] = []
        channel, read = await support.crm_read(mesh)
        async with channel:
            for _ in range(50):
                items = await read.ListCentralItems(
                    cr.ListCentralItemsRequest(organization_id=org.organization_id, contact_id=turn.contact_id),
                    metadata=support.metadata(mesh, "gateway"),
                )
                failed = [i for i in items.items if i.kind == r.CENTRAL_ITEM_KIND_TURN_FAILED]
                if failed:
                    break
                await asyncio.sleep(0.2)
        assert len(failed) == 1 and failed[0].severity == r.CENTRAL_ITEM_SEVERITY_CRITICAL
        assert failed[0].turn_id == turn.turn_id
        async with repository.tenant(gateway.engine, uuid.UUID(org.organization_id)) as conn:
            conversation = await repository.get_conversation(
                conn, uuid.UUID(org.organization_id), uuid.UUID(turn.contact_id)
            )
        assert conversation is not None and conversation.watermark == 0  # unanswered: the next turn takes it
    finally:
        await client.close()
        await gateway.stop()
