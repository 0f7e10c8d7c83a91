"""Two boundaries of the role: it works from the closed turn's own checkpoint (not the contact's latest),
and the Conversador cannot reach it."""

from __future__ import annotations

import uuid

import grpc
import pytest
from google.protobuf import struct_pb2

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.models.scripted import ScriptedProvider
from balcao.operador.v1 import operador_pb2 as pb
from balcao.operador.v1 import operador_pb2_grpc as pb_grpc
from services.operador import batch
from services.operador.processing import Processor
from tests.operador.conftest import Env, declaracao, later, until
from tests.support.mesh import RunningMesh


def _event(org: str, turn: str, contact: str) -> r.Event:
    payload = struct_pb2.Struct()
    payload.update({"turn_id": turn, "contact_id": contact})
    return r.Event(event_id=str(uuid.uuid4()), organization_id=org, kind="turn_closed", payload=payload)


@pytest.mark.parametrize("way", ["single", "batched"])
async def test_an_earlier_turn_is_run_with_its_own_declaracao_after_a_later_turn_closed(env: Env, way: str) -> None:
    biz = await env.business(role_on=False)
    earlier, latest = str(uuid.uuid4()), str(uuid.uuid4())
    await biz.close(declaracao(prazo=later(3)), turn_id=earlier)  # quer remarcar + a promise
    await biz.close(dc.DeclaracaoDoTurno(nada_a_declarar=True), turn_id=latest)  # the contact's latest: nothing
    for turn in (earlier, latest):
        await until(lambda t=turn: biz.execution(t), lambda e: e.operador.status != 0, what="the fleet's run")

    # The earlier turn's event runs now (as after a backlog or a retry), when the latest checkpoint says nothing.
    event = _event(biz.org, earlier, biz.contact)
    peers = env.peers()
    try:
        processor = Processor(peers, ScriptedProvider())
        if way == "single":
            response = await processor.process(event)
        else:
            result = await batch.run(processor, [event])
            assert not result.single
            response = result.responses[event.event_id]
    finally:
        await peers.close()
    assert response.outcome == pb.EVENT_RUN_OUTCOME_ACTED
    assert "update_lead_state" in [a.capability for a in response.actions]
    # Its own promise, already kept by the fleet's run, is reported as it stands.
    assert [(o.o_que, o.status) for o in response.obligations] == [
        ("vou remarcar para quinta às 10h e te confirmo", pb.OBLIGATION_STATUS_FULFILLED)]
    [decision] = [a for a in await biz.activities(earlier) if a.event_id == event.event_id]
    assert decision.kind == r.ACTIVITY_KIND_OTHER and "etapa" in decision.summary_pt


async def test_the_conversador_cannot_call_the_operador(mesh: RunningMesh) -> None:
    async with grpc.aio.insecure_channel(mesh.addr("operador")) as channel:
        stub = pb_grpc.OperadorServiceStub(channel)
        for caller, allowed in (("conversador", False), ("projection", False), ("gateway", True)):
            metadata = (("authorization", f"Bearer {mesh.token(caller)}"),)
            try:
                await stub.ListCapabilities(pb.ListCapabilitiesRequest(organization_id=str(uuid.uuid4())),
                                            metadata=metadata)
                code = grpc.StatusCode.OK
            except grpc.aio.AioRpcError as error:
                code = error.code()
            if allowed:
                assert code == grpc.StatusCode.NOT_FOUND, caller  # let in; the organisation does not exist
            else:
                assert code == grpc.StatusCode.PERMISSION_DENIED, caller
