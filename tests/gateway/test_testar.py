""" "Testar" (RunTestTurn): the real runtime on the test channel; it vetoes what production vetoes.

The Conversador is the scripted one (a real conversador process on the local Messages API
server), so production and the test get the same draft; Segurança is the mesh's.
"""

from __future__ import annotations

import uuid

import grpc
import pytest

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
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


async def test_testar_with_the_draft_offers_the_draft_units_professionals(
    mesh: RunningMesh, client: support.Client
) -> None:
    """The owner moved the unit to Dra. Ana only, in the draft: "Testar" with the draft offers her
    times and no one else's, while production still offers everyone the published unit has."""
    org = await support.create_org(mesh)
    ana, service = await support.agenda_for(mesh, org)
    await support.add_professional(mesh, org, "Dr. Bruno Reis", service)
    md = support.metadata(mesh, "gateway")
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        crm = crm_write_pb2_grpc.CrmWriteServiceStub(channel)
        read = crm_read_pb2_grpc.CrmReadServiceStub(channel)
        published = await read.GetAgentConfiguration(
            cr.GetAgentConfigurationRequest(
                organization_id=org.organization_id, which=r.AGENT_VERSION_STATUS_PUBLISHED
            ),
            metadata=md,
        )
        configuration = r.AgentConfiguration()
        configuration.CopyFrom(published.version.configuration)
        configuration.units[0].resource_ids[:] = [ana]  # the published unit offers every professional
        await crm.SaveAgentDraft(
            cw.SaveAgentDraftRequest(organization_id=org.organization_id, configuration=configuration), metadata=md
        )

    async def offered(config: int) -> str:
        tested = await client.stub.RunTestTurn(
            gw.RunTestTurnRequest(
                organization_id=org.organization_id,
                messages=["Tem horário amanhã de manhã para uma consulta de avaliação?"],
                config=config,  # type: ignore[arg-type]
                new_conversation=True,
            ),
            metadata=client.md,
        )
        assert tested.turn.outcome == gw.TURN_OUTCOME_REPLIED, tested.turn
        return " ".join(p.text for p in tested.turn.reply_parts)

    draft_reply = await offered(gw.CONFIG_VERSION_DRAFT)
    assert "Dra. Ana Souza" in draft_reply and "Bruno" not in draft_reply
    assert "Dr. Bruno Reis" in await offered(gw.CONFIG_VERSION_PUBLISHED)
