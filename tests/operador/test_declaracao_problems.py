"""A closed turn whose stored declaração is absent or breaks the contract (a checkpoint written before the
contract existed, or damaged): the Operador does not trust it, runs the model with the contact's history
instead, and says so on the timeline."""

from __future__ import annotations

import json
import uuid

import asyncpg
import pytest
from google.protobuf import struct_pb2

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.models.scripted import ScriptedProvider
from balcao.models.scripted import text as text_reply
from balcao.operador.v1 import operador_pb2 as pb
from services.operador.processing import Processor
from tests.operador.conftest import Env, declaracao, until
from tests.support.mesh import RunningMesh

EARLIER = "Marina perguntou o preço do clareamento."
LATEST = "Marina quer trocar a consulta de quinta para a semana que vem."


@pytest.mark.parametrize(("stored", "problem"), [
    ({}, "nada_a_declarar não bate com as listas de intenções e promessas"),
    ({"intencoes": [{"oQue": "  ", "categoria": "CATEGORIA_QUER_REMARCAR"}]}, "intenção ou promessa sem texto"),
], ids=["absent", "invalid"])
async def test_a_turn_without_a_trustworthy_declaracao_runs_the_model_with_the_history(
        env: Env, mesh: RunningMesh, stored: dict[str, object], problem: str) -> None:
    biz = await env.business(role_on=True)
    biz.script({"text": "Nada a registrar."}, {"text": "Nada a registrar."})  # the mesh's own runs of these turns
    earlier, turn = str(uuid.uuid4()), str(uuid.uuid4())
    await biz.close(declaracao(promessa=None), turn_id=earlier, summary=EARLIER)
    await biz.close(declaracao(promessa=None), turn_id=turn, summary=LATEST)
    for closed in (earlier, turn):
        await until(lambda t=closed: biz.execution(t), lambda e: e.operador.status != 0, what="the mesh's run")

    connection = await asyncpg.connect(mesh.database_url)
    try:
        await connection.execute("UPDATE crm.lead_checkpoints SET declaracao = $1::text::jsonb "
                                 "WHERE organization_id = $2 AND turn_id = $3", json.dumps(stored), uuid.UUID(biz.org),
                                 turn)
    finally:
        await connection.close()

    payload = struct_pb2.Struct()
    payload.update({"turn_id": turn, "contact_id": biz.contact})
    event = r.Event(event_id=str(uuid.uuid4()), organization_id=biz.org, kind="turn_closed", payload=payload)
    model = ScriptedProvider([text_reply("Sem declaração confiável; o histórico não pede nenhuma ação.")])
    peers = env.peers()
    try:
        response = await Processor(peers, model).process(event)
    finally:
        await peers.close()

    # The model ran, and what it was shown is the contact's history, not the untrusted declaração.
    assert response.mode == pb.ROLE_MODE_MODEL
    [request] = model.requests
    shown = json.loads(request.messages[0].parts[0].text)
    assert shown["declaracao"] == {"ausente_ou_invalida": problem}
    assert shown["historico"][:2] == [LATEST, EARLIER]
    # Nothing was moved on the strength of the broken declaração (its intention would have set the stage).
    assert not any(a.capability == "update_lead_state" for a in response.actions)
    # The decision is on the timeline, with why the declaração was set aside.
    [decision] = [a for a in await biz.activities(turn) if a.event_id == event.event_id]
    assert decision.details["declaracao"] == problem
    assert decision.details["modo"] == "modelo" and decision.details["chamadas_ao_modelo"] == 1
    assert decision.kind == r.ACTIVITY_KIND_NOTHING_TO_DO
