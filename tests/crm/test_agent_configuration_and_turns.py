"""The versioned agent configuration, and the turn records with their aggregates."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import grpc
import pytest
from google.protobuf import timestamp_pb2

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from tests.crm.conftest import Crm


def minutes_ago(minutes: float) -> timestamp_pb2.Timestamp:
    value = timestamp_pb2.Timestamp()
    value.FromDatetime(datetime.now(UTC) - timedelta(minutes=minutes))
    return value


async def test_a_draft_is_published_and_a_new_publication_supersedes_it(crm: Crm) -> None:
    org = await crm.org()
    configuration = r.AgentConfiguration(units=[r.UnitConfig(name="SDR da clínica"), r.UnitConfig(name="Financeiro")])
    draft = await crm.write.SaveAgentDraft(wr.SaveAgentDraftRequest(organization_id=org, configuration=configuration,
                                                                    note="primeira versão"), metadata=crm.metadata)
    units = draft.version.configuration.units
    assert all(unit.unit_id for unit in units) and units[0].unit_id != units[1].unit_id
    assert draft.version.configuration.default_unit_id == units[0].unit_id
    assert draft.version.status == r.AGENT_VERSION_STATUS_DRAFT and draft.version.number == 1
    nothing = await crm.read.GetAgentConfiguration(rd.GetAgentConfigurationRequest(organization_id=org),
                                                   metadata=crm.metadata)
    assert not nothing.found  # nothing published yet

    first = await crm.write.PublishAgentVersion(
        wr.PublishAgentVersionRequest(organization_id=org, version_id=draft.version.version_id), metadata=crm.metadata)
    assert first.version.status == r.AGENT_VERSION_STATUS_PUBLISHED and not first.superseded_version_id
    edited = r.AgentConfiguration()
    edited.CopyFrom(draft.version.configuration)
    edited.units[0].conversador.voice = "acolhedora, objetiva"
    second_draft = await crm.write.SaveAgentDraft(wr.SaveAgentDraftRequest(organization_id=org,
                                                                           configuration=edited),
                                                  metadata=crm.metadata)
    assert second_draft.version.number == 2
    assert second_draft.version.configuration.units[0].unit_id == units[0].unit_id  # stable across versions
    second = await crm.write.PublishAgentVersion(
        wr.PublishAgentVersionRequest(organization_id=org, version_id=second_draft.version.version_id),
        metadata=crm.metadata)
    assert second.superseded_version_id == draft.version.version_id
    production = await crm.read.GetAgentConfiguration(rd.GetAgentConfigurationRequest(organization_id=org),
                                                      metadata=crm.metadata)
    assert production.version.configuration.units[0].conversador.voice == "acolhedora, objetiva"
    versions = await crm.read.ListAgentVersions(rd.ListAgentVersionsRequest(organization_id=org),
                                                metadata=crm.metadata)
    assert [(v.number, v.status) for v in versions.versions] == [
        (2, r.AGENT_VERSION_STATUS_PUBLISHED), (1, r.AGENT_VERSION_STATUS_SUPERSEDED)
    ]


async def test_saving_over_a_draft_someone_else_replaced_is_aborted(crm: Crm) -> None:
    org = await crm.org()
    configuration = r.AgentConfiguration(units=[r.UnitConfig(name="SDR")])
    first = await crm.write.SaveAgentDraft(wr.SaveAgentDraftRequest(organization_id=org, configuration=configuration),
                                           metadata=crm.metadata)
    await crm.write.SaveAgentDraft(wr.SaveAgentDraftRequest(organization_id=org, configuration=configuration,
                                                            base_version_id=first.version.version_id),
                                   metadata=crm.metadata)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.SaveAgentDraft(wr.SaveAgentDraftRequest(organization_id=org, configuration=configuration,
                                                                base_version_id=first.version.version_id),
                                       metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.ABORTED


@pytest.mark.parametrize(
    ("configuration", "problem"),
    [
        (r.AgentConfiguration(units=[r.UnitConfig(unit_id="a", name="A"), r.UnitConfig(unit_id="a", name="B")]),
         "used by another unit"),
        (r.AgentConfiguration(units=[r.UnitConfig(name="A")], default_unit_id="nope"), "default_unit_id"),
        (r.AgentConfiguration(units=[r.UnitConfig(name="A", operador=r.OperadorConfig(
            extra_capabilities=[f"cap_{i}" for i in range(26)]))]), "at most 25"),
    ],
)
async def test_an_invalid_configuration_names_its_problem(crm: Crm, configuration: r.AgentConfiguration,
                                                          problem: str) -> None:
    org = await crm.org()
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.SaveAgentDraft(wr.SaveAgentDraftRequest(organization_id=org, configuration=configuration),
                                       metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert problem in caught.value.details()


async def test_turn_records_the_operador_outcome_and_the_stats(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    replied = str(uuid.uuid4())
    # Recorded without a closing, so no `turn_closed` event brings the mesh's Operador in.
    execution = r.TurnExecution(
        turn_id=replied, contact_id=contact, trigger=r.TURN_TRIGGER_INBOUND, outcome=r.TURN_OUTCOME_REPLIED,
        inbound=[r.InboundRef(text="Oi, queria marcar")], sent=[r.SentPart(text="Claro! Tenho terça às 14h.")],
        started_at=minutes_ago(3), finished_at=minutes_ago(2),
    )
    execution.drafts.add(attempt=0, text="Consulta é de graça!",
                         review=r.ReviewRecord(verdict="vetoed", vetoes=[
                             r.VetoRecord(gate="commercial_promise", code="gratuity",
                                          guidance="não prometa gratuidade")]))
    execution.drafts.add(attempt=1, text="Posso te passar os valores.", review=r.ReviewRecord(verdict="approved"))
    execution.usage.add(purpose="draft", input_tokens=1000, output_tokens=200)
    await crm.write.RecordTurnExecution(wr.RecordTurnExecutionRequest(organization_id=org, execution=execution),
                                        metadata=crm.metadata)
    await crm.write.RecordOperadorOutcome(
        wr.RecordOperadorOutcomeRequest(organization_id=org, turn_id=replied, outcome=r.OperadorOutcome(
            status=r.OPERADOR_OUTCOME_STATUS_ACTED, used_model=True, actions=["update_lead_state", "save_lead_note"],
            summary_pt="Etapa atualizada e preferência anotada",
            usage=[r.ModelUsage(purpose="operador", input_tokens=500, output_tokens=50)])),
        metadata=crm.metadata)
    held = str(uuid.uuid4())
    await crm.write.RecordTurnExecution(
        wr.RecordTurnExecutionRequest(organization_id=org, execution=r.TurnExecution(
            turn_id=held, contact_id=contact, outcome=r.TURN_OUTCOME_FAILED, trigger=r.TURN_TRIGGER_INBOUND,
            started_at=minutes_ago(1), finished_at=minutes_ago(0.5), error="projection indisponível")),
        metadata=crm.metadata)
    await crm.write.RecordTurnExecution(
        wr.RecordTurnExecutionRequest(organization_id=org, execution=r.TurnExecution(
            turn_id=str(uuid.uuid4()), contact_id=contact, outcome=r.TURN_OUTCOME_REPLIED, test=True,
            started_at=minutes_ago(1), finished_at=minutes_ago(0.5))),
        metadata=crm.metadata)

    record = (await crm.read.GetTurnExecution(rd.GetTurnExecutionRequest(organization_id=org, turn_id=replied),
                                              metadata=crm.metadata)).execution
    assert record.operador.status == r.OPERADOR_OUTCOME_STATUS_ACTED
    assert list(record.operador.actions) == ["update_lead_state", "save_lead_note"]
    listed = await crm.read.ListTurnExecutions(rd.ListTurnExecutionsRequest(organization_id=org, contact_id=contact),
                                               metadata=crm.metadata)
    assert [t.turn_id for t in listed.executions] == [held, replied]  # newest first, "Testar" runs left out
    assert listed.executions[1].veto_count == 1
    assert listed.executions[1].inbound_preview == "Oi, queria marcar"

    stats = (await crm.read.GetTurnStats(rd.GetTurnStatsRequest(organization_id=org), metadata=crm.metadata)).stats
    assert stats.finished == 2 and stats.failed == 1
    assert {(o.outcome, o.count) for o in stats.by_outcome} == {(r.TURN_OUTCOME_REPLIED, 1),
                                                                (r.TURN_OUTCOME_FAILED, 1)}
    assert [(v.gate, v.count) for v in stats.vetoes_by_gate] == [("commercial_promise", 1)]
    assert stats.revisions_per_turn == pytest.approx(0.5)
    assert stats.operador_actions_per_turn == pytest.approx(2.0)
    assert (stats.tokens.input_tokens, stats.tokens.output_tokens) == (1500, 250)


async def test_an_outcome_for_an_unknown_turn_is_not_found(crm: Crm) -> None:
    org = await crm.org()
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.write.RecordOperadorOutcome(
            wr.RecordOperadorOutcomeRequest(organization_id=org, turn_id="never-ran", outcome=r.OperadorOutcome()),
            metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
