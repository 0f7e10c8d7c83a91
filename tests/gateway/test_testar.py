""" "Testar" (RunTestTurn): the real runtime on the test channel; it vetoes what production vetoes.

The Conversador is the scripted one (a real conversador process on the local Messages API
server), so production and the test get the same draft; Segurança is the mesh's.
"""

from __future__ import annotations

import uuid

import grpc
import pytest

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.gateway.conftest import Scripted
from tests.gateway.scripted import draft, echo
from tests.support.mesh import RunningMesh

HOLDING = "Obrigado pela paciência! Vou pedir para alguém da equipe continuar com você."
UNAUTHORISED = "A consulta custa só R$ 50,00 à vista."


def _vetoes(turn: gw.TurnResult) -> list[tuple[str, int]]:
    return sorted((v.gate, v.attempt) for v in turn.vetoes)


async def test_testar_vetoes_exactly_what_production_vetoes(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Testar")
    org = await support.create_org(
        mesh, name=name, settings=r.OrganizationSettings(reply_catalog={"holding_reply": HOLDING})
    )
    scripted.model.script(name, lambda call: draft(UNAUTHORISED))
    question = "quanto custa a consulta?"

    production = await private_client.say(org, support.new_phone(), question)
    tested = await private_client.stub.RunTestTurn(
        gw.RunTestTurnRequest(organization_id=org.organization_id, messages=[question]), metadata=private_client.md
    )

    assert production.outcome == gw.TURN_OUTCOME_HOLDING_REPLY
    assert tested.turn.outcome == production.outcome
    assert _vetoes(tested.turn) == _vetoes(production) and ("commercial_promise", 1) in _vetoes(production)
    assert [p.text for p in tested.turn.reply_parts] == [p.text for p in production.reply_parts]
    assert all("R$ 50" not in p.text for p in tested.turn.reply_parts)
    record = await support.execution(mesh, org, tested.turn.turn_id)
    assert record.test and not (await support.execution(mesh, org, production.turn_id)).test


async def test_testar_answers_with_what_would_be_sent_and_writes_no_memory(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Testar OK")
    org = await support.create_org(mesh, name=name)
    scripted.model.script(name, echo)
    tested = await private_client.stub.RunTestTurn(
        gw.RunTestTurnRequest(organization_id=org.organization_id, messages=["vocês abrem sábado?"]),
        metadata=private_client.md,
    )
    turn = tested.turn
    assert turn.status == gw.TURN_STATUS_DONE and turn.outcome == gw.TURN_OUTCOME_REPLIED
    assert turn.reply_parts and "vocês abrem sábado?" in turn.reply_parts[-1].text
    assert turn.HasField("declaracao") and turn.trace_id
    record = await support.execution(mesh, org, turn.turn_id)
    assert record.test and record.checkpoint_seq == 0  # no memory written, no turn_closed for the Operador
    # Recorded by the test channel only (a phone reserved for fiction), never sent to anyone.
    sent = private.channel.texts_to(uuid.UUID(turn.contact_id))
    assert sent == [p.text for p in turn.reply_parts]


@pytest.mark.parametrize(
    "request_",
    [
        gw.RunTestTurnRequest(messages=[]),
        gw.RunTestTurnRequest(messages=["oi", "  "]),
        gw.RunTestTurnRequest(messages=["oi"], config=7),  # type: ignore[arg-type]
        gw.RunTestTurnRequest(messages=["oi" * 10_001]),
    ],
    ids=["no-messages", "blank-message", "unknown-config", "too-long"],
)
async def test_testar_refuses_what_it_cannot_do_honestly(
    mesh: RunningMesh, private_client: support.Client, request_: gw.RunTestTurnRequest
) -> None:
    org = await support.create_org(mesh)
    request_.organization_id = org.organization_id
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await private_client.stub.RunTestTurn(request_, metadata=private_client.md)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
