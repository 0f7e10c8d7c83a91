"""The Central inbox, who owns a conversation, executions and metrics, as the owner sees them."""

from __future__ import annotations

import uuid

import grpc

from balcao.gateway.v1 import gateway_pb2 as gw
from tests.gateway import support
from tests.gateway.admin.conftest import refused
from tests.gateway.conftest import Scripted
from tests.gateway.scripted import draft
from tests.support.mesh import RunningMesh


async def _open_items(admin: support.Client, org: support.Org) -> list[gw.CentralItem]:
    page = await admin.stub.ListCentralItems(
        gw.ListCentralItemsRequest(organization_id=org.organization_id), metadata=admin.md
    )
    return list(page.items)


async def test_a_hand_off_is_in_the_central_inbox_until_resolved(mesh: RunningMesh, admin: support.Client) -> None:
    org = await support.create_org(mesh)
    turn = await admin.say(org, support.new_phone(), "quero falar com um atendente")
    assert turn.outcome == gw.TURN_OUTCOME_HANDOFF

    items = [i for i in await _open_items(admin, org) if i.contact_id == turn.contact_id]
    assert [i.kind for i in items] == ["handoff"] and items[0].status == gw.CENTRAL_ITEM_STATUS_OPEN
    assert items[0].title_pt and items[0].HasField("created_at")

    resolved = await admin.stub.ResolveCentralItem(
        gw.ResolveCentralItemRequest(
            organization_id=org.organization_id, central_item_id=items[0].central_item_id, note="liguei para a cliente"
        ),
        metadata=admin.md,
    )
    assert resolved.item.status == gw.CENTRAL_ITEM_STATUS_RESOLVED
    assert resolved.item.resolution_note == "liguei para a cliente"
    assert items[0].central_item_id not in {i.central_item_id for i in await _open_items(admin, org)}
    done = await admin.stub.ListCentralItems(
        gw.ListCentralItemsRequest(organization_id=org.organization_id, status=gw.CENTRAL_ITEM_STATUS_RESOLVED),
        metadata=admin.md,
    )
    assert items[0].central_item_id in {i.central_item_id for i in done.items}

    again = await admin.stub.ResolveCentralItem(
        gw.ResolveCentralItemRequest(
            organization_id=org.organization_id, central_item_id=items[0].central_item_id, note="outra nota"
        ),
        metadata=admin.md,
    )
    assert again.item.resolution_note == "liguei para a cliente" and again.item.resolved_at == resolved.item.resolved_at

    for item_id, code in (("xyz", grpc.StatusCode.INVALID_ARGUMENT), (str(uuid.uuid4()), grpc.StatusCode.NOT_FOUND)):
        error = await refused(
            admin.stub.ResolveCentralItem(
                gw.ResolveCentralItemRequest(organization_id=org.organization_id, central_item_id=item_id),
                metadata=admin.md,
            )
        )
        assert error.code() == code


async def test_a_conversation_handed_to_a_person_silences_the_agent_until_given_back(
    mesh: RunningMesh, admin: support.Client
) -> None:
    org = await support.create_org(mesh)
    phone = support.new_phone()
    first = await admin.say(org, phone, "bom dia, vocês abrem sábado?")
    assert first.outcome == gw.TURN_OUTCOME_REPLIED

    taken = await admin.stub.SetConversationOwner(
        gw.SetConversationOwnerRequest(
            organization_id=org.organization_id,
            contact_id=first.contact_id,
            owner=gw.CONVERSATION_OWNER_PERSON,
            note="a recepção vai responder",
        ),
        metadata=admin.md,
    )
    assert taken.owner == gw.CONVERSATION_OWNER_PERSON and "não responde" in taken.consequence_pt
    silent = await admin.say(org, phone, "e domingo?")
    assert silent.outcome == gw.TURN_OUTCOME_SILENT and not silent.reply_parts

    back = await admin.stub.SetConversationOwner(
        gw.SetConversationOwnerRequest(
            organization_id=org.organization_id, contact_id=first.contact_id, owner=gw.CONVERSATION_OWNER_AGENT
        ),
        metadata=admin.md,
    )
    assert "volta a responder" in back.consequence_pt
    answered = await admin.say(org, phone, "quais os horários de atendimento?")
    assert answered.outcome == gw.TURN_OUTCOME_REPLIED and answered.reply_parts

    error = await refused(
        admin.stub.SetConversationOwner(
            gw.SetConversationOwnerRequest(organization_id=org.organization_id, contact_id=first.contact_id),
            metadata=admin.md,
        )
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "owner" in (error.details() or "")


async def test_executions_show_the_turn_with_its_attempts_and_trace(mesh: RunningMesh, admin: support.Client) -> None:
    org = await support.create_org(mesh)
    turn = await admin.say(org, support.new_phone(), "quais os horários de atendimento?")

    listed = await admin.stub.ListExecutions(
        gw.ListExecutionsRequest(organization_id=org.organization_id), metadata=admin.md
    )
    assert [e.turn_id for e in listed.executions] == [turn.turn_id]
    summary = listed.executions[0]
    assert summary.trace_id == turn.trace_id and len(turn.trace_id) == 32
    assert summary.outcome == turn.outcome and summary.status == gw.TURN_STATUS_DONE
    assert summary.sent_preview and turn.reply_parts[0].text.startswith(summary.sent_preview[:20])

    record = (
        await admin.stub.GetExecution(
            gw.GetExecutionRequest(organization_id=org.organization_id, turn_id=turn.turn_id), metadata=admin.md
        )
    ).execution
    assert record.turn.trace_id == turn.trace_id and record.turn.reply_parts == turn.reply_parts
    assert list(record.inbound_texts) == ["quais os horários de atendimento?"]
    assert record.attempts and record.attempts[0].attempt == 1 and record.attempts[0].message
    assert record.attempts[0].review.decision == "approved" and record.attempts[0].review.trace
    assert record.screening.verdict == "clean"

    other = await admin.stub.ListExecutions(
        gw.ListExecutionsRequest(organization_id=org.organization_id, outcome=gw.TURN_OUTCOME_HANDOFF),
        metadata=admin.md,
    )
    assert list(other.executions) == []
    error = await refused(
        admin.stub.GetExecution(
            gw.GetExecutionRequest(organization_id=org.organization_id, turn_id=str(uuid.uuid4())), metadata=admin.md
        )
    )
    assert error.code() == grpc.StatusCode.NOT_FOUND


async def test_metrics_count_the_turns_and_the_vetoes(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Métricas")
    org = await support.create_org(mesh, name=name)
    empty = await private_client.stub.GetMetrics(
        gw.GetMetricsRequest(organization_id=org.organization_id), metadata=private_client.md
    )
    assert empty.turns.finished == 0 and not empty.turns.vetoes_by_gate

    scripted.model.script(name, lambda call: draft("A consulta custa só R$ 50,00 à vista."))
    turn = await private_client.say(org, support.new_phone(), "quanto custa a consulta?")
    assert turn.outcome == gw.TURN_OUTCOME_HOLDING_REPLY

    metrics = await private_client.stub.GetMetrics(
        gw.GetMetricsRequest(organization_id=org.organization_id), metadata=private_client.md
    )
    assert metrics.turns.finished == 1 and dict(metrics.turns.by_outcome) == {"holding_reply": 1}
    assert metrics.turns.vetoes_by_gate["commercial_promise"] == len(turn.vetoes)
    assert metrics.turns.revisions_per_turn > 0
    assert metrics.HasField("since") and metrics.operador.events_dead == 0

    # The execution shows each attempt's vetoes numbered as the turn shows them.
    record = (
        await private_client.stub.GetExecution(
            gw.GetExecutionRequest(organization_id=org.organization_id, turn_id=turn.turn_id),
            metadata=private_client.md,
        )
    ).execution
    vetoes = [(v.attempt, v.gate) for a in record.attempts for v in a.review.vetoes]
    assert vetoes == [(v.attempt, v.gate) for v in turn.vetoes] and record.attempts[0].review.decision == "vetoed"

    error = await refused(
        private_client.stub.GetMetrics(gw.GetMetricsRequest(organization_id="1234"), metadata=private_client.md)
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_a_failed_send_raises_a_central_item(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Envio")
    org = await support.create_org(mesh, name=name)
    scripted.model.script(name, lambda call: draft("Abrimos de segunda a sexta, das 8h às 18h."))
    private.channel.fail_next, private.channel.fail_permanently = 1, True
    try:
        turn = await private_client.say(org, support.new_phone(), "que horas vocês abrem?")
    finally:
        private.channel.fail_next, private.channel.fail_permanently = 0, False
    assert turn.outcome == gw.TURN_OUTCOME_NOT_DELIVERED

    items = await _open_items(private_client, org)
    assert [(i.kind, i.contact_id, i.turn_id) for i in items] == [("send_failed", turn.contact_id, turn.turn_id)]
    assert items[0].severity in (gw.CENTRAL_ITEM_SEVERITY_WARNING, gw.CENTRAL_ITEM_SEVERITY_CRITICAL)
    only_critical = await private_client.stub.ListCentralItems(
        gw.ListCentralItemsRequest(organization_id=org.organization_id, min_severity=gw.CENTRAL_ITEM_SEVERITY_CRITICAL),
        metadata=private_client.md,
    )
    assert len(only_critical.items) == (1 if items[0].severity == gw.CENTRAL_ITEM_SEVERITY_CRITICAL else 0)
