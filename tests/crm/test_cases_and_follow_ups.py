"""Human cases, follow-ups, obligations and the Central inbox."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from google.protobuf import timestamp_pb2

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.crm.v1 import event_queue_pb2 as eq
from tests.crm.conftest import Crm
from tests.crm.test_close_turn import close_request, closing

MODEL = r.Actor(kind=r.ACTOR_KIND_OPERADOR_MODEL)


def in_days(days: float) -> timestamp_pb2.Timestamp:
    value = timestamp_pb2.Timestamp()
    value.FromDatetime(datetime.now(UTC) + timedelta(days=days))
    return value


async def test_a_case_opens_once_raises_a_handoff_item_and_can_take_the_conversation(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org, name="Ana")
    request = wr.OpenHumanCaseRequest(organization_id=org, contact_id=contact,
                                      reason=r.HUMAN_CASE_REASON_CUSTOMER_ASKED, reason_text="pediu a doutora",
                                      summary="Quer falar sobre o resultado do exame.", take_conversation=True,
                                      opened_by=MODEL)
    opened = await crm.write.OpenHumanCase(request, metadata=crm.metadata)
    assert not opened.already_open and opened.central_item_id
    again = await crm.write.OpenHumanCase(request, metadata=crm.metadata)
    assert again.already_open and again.human_case.case_id == opened.human_case.case_id
    item = await crm.read.GetCentralItem(rd.GetCentralItemRequest(organization_id=org,
                                                                  central_item_id=opened.central_item_id),
                                         metadata=crm.metadata)
    assert item.item.kind == r.CENTRAL_ITEM_KIND_HANDOFF and "Ana" in item.item.title_pt
    person = await crm.read.GetContact(rd.GetContactRequest(organization_id=org, contact_id=contact),
                                       metadata=crm.metadata)
    assert person.contact.human_in_control

    case_id = opened.human_case.case_id
    updated = await crm.write.ProvideCaseUpdate(
        wr.ProvideCaseUpdateRequest(organization_id=org, case_id=case_id, text="A doutora liga amanhã às 10h.",
                                    customer_facing=True, new_status=r.HUMAN_CASE_STATUS_WAITING_CUSTOMER),
        metadata=crm.metadata,
    )
    assert updated.human_case.status == r.HUMAN_CASE_STATUS_WAITING_CUSTOMER
    assert [u.text for u in updated.human_case.updates] == ["A doutora liga amanhã às 10h."]
    closed = await crm.write.CloseHumanCase(
        wr.CloseHumanCaseRequest(organization_id=org, case_id=case_id, resolution="resolvido por telefone",
                                 return_conversation=True), metadata=crm.metadata)
    assert closed.human_case.status == r.HUMAN_CASE_STATUS_CLOSED and closed.human_case.HasField("closed_at")
    person = await crm.read.GetContact(rd.GetContactRequest(organization_id=org, contact_id=contact),
                                       metadata=crm.metadata)
    assert not person.contact.human_in_control
    item = await crm.read.GetCentralItem(rd.GetCentralItemRequest(organization_id=org,
                                                                  central_item_id=opened.central_item_id),
                                         metadata=crm.metadata)
    assert item.item.status == r.CENTRAL_ITEM_STATUS_RESOLVED
    refused = await crm.write.ProvideCaseUpdate(
        wr.ProvideCaseUpdateRequest(organization_id=org, case_id=case_id, text="mais uma"), metadata=crm.metadata)
    assert refused.refusal.code == r.CRM_REFUSAL_CODE_CASE_CLOSED
    open_cases = await crm.read.ListHumanCases(rd.ListHumanCasesRequest(organization_id=org), metadata=crm.metadata)
    assert list(open_cases.cases) == []


async def test_a_follow_up_enqueues_its_due_event_and_cancelling_retires_it(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    scheduled = await crm.write.ScheduleFollowUp(
        wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact, due_at=in_days(1), callback=True,
                                   reason="retornar com o orçamento", scheduled_by=MODEL), metadata=crm.metadata)
    event = (await crm.queue.GetEvent(eq.GetEventRequest(organization_id=org, event_id=scheduled.event_id),
                                      metadata=crm.metadata)).event
    assert event.kind == "followup_due"
    assert event.available_at == scheduled.follow_up.due_at
    assert event.payload["follow_up_id"] == scheduled.follow_up.follow_up_id
    due = await crm.read.ListFollowUps(rd.ListFollowUpsRequest(organization_id=org, due_before=in_days(2),
                                                               callbacks_only=True), metadata=crm.metadata)
    assert [f.follow_up_id for f in due.follow_ups] == [scheduled.follow_up.follow_up_id]

    cancelled = await crm.write.CancelFollowUp(
        wr.CancelFollowUpRequest(organization_id=org, follow_up_id=scheduled.follow_up.follow_up_id,
                                 reason="cliente já marcou"), metadata=crm.metadata)
    assert cancelled.follow_up.status == r.FOLLOW_UP_STATUS_CANCELLED
    event = (await crm.queue.GetEvent(eq.GetEventRequest(organization_id=org, event_id=scheduled.event_id),
                                      metadata=crm.metadata)).event
    assert event.status == r.EVENT_STATUS_DONE
    again = await crm.write.CancelFollowUp(
        wr.CancelFollowUpRequest(organization_id=org, follow_up_id=scheduled.follow_up.follow_up_id),
        metadata=crm.metadata)
    assert again.refusal.code == r.CRM_REFUSAL_CODE_FOLLOW_UP_NOT_PENDING


async def test_follow_ups_refused_for_opted_out_contacts_and_past_times(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    past = await crm.write.ScheduleFollowUp(
        wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact, due_at=in_days(-1)), metadata=crm.metadata)
    assert past.refusal.code == r.CRM_REFUSAL_CODE_DUE_IN_THE_PAST
    await crm.write.SetContactOptOut(wr.SetContactOptOutRequest(organization_id=org, contact_id=contact,
                                                                opted_out=True), metadata=crm.metadata)
    opted_out = await crm.write.ScheduleFollowUp(
        wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact, due_at=in_days(1)), metadata=crm.metadata)
    assert opted_out.refusal.code == r.CRM_REFUSAL_CODE_CONTACT_OPTED_OUT


async def test_a_follow_up_outcome_is_recorded_once(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    scheduled = await crm.write.ScheduleFollowUp(
        wr.ScheduleFollowUpRequest(organization_id=org, contact_id=contact, due_at=in_days(1)), metadata=crm.metadata)
    follow_up = scheduled.follow_up.follow_up_id
    sent = await crm.write.RecordFollowUpOutcome(
        wr.RecordFollowUpOutcomeRequest(organization_id=org, follow_up_id=follow_up, status=r.FOLLOW_UP_STATUS_SENT,
                                        turn_id="turn-77"), metadata=crm.metadata)
    assert sent.follow_up.status == r.FOLLOW_UP_STATUS_SENT and sent.follow_up.executed_turn_id == "turn-77"
    again = await crm.write.RecordFollowUpOutcome(
        wr.RecordFollowUpOutcomeRequest(organization_id=org, follow_up_id=follow_up, status=r.FOLLOW_UP_STATUS_FAILED),
        metadata=crm.metadata)
    assert again.refusal.code == r.CRM_REFUSAL_CODE_FOLLOW_UP_NOT_PENDING


async def test_obligations_are_fulfilled_with_evidence_or_failed_with_a_reason(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    closed = await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing(promises=2)),
                                       metadata=crm.metadata)
    first, second = closed.obligation_ids
    fulfilled = await crm.write.ResolveObligation(
        wr.ResolveObligationRequest(organization_id=org, obligation_id=first, outcome=r.OBLIGATION_STATUS_FULFILLED,
                                    resolution="consulta marcada para terça às 14h",
                                    evidence=[r.EvidenceRef(kind="appointment", id="appt-1")], resolved_by=MODEL),
        metadata=crm.metadata)
    assert fulfilled.obligation.status == r.OBLIGATION_STATUS_FULFILLED
    assert [(e.kind, e.id) for e in fulfilled.obligation.evidence] == [("appointment", "appt-1")]
    assert fulfilled.proactive_event_id == ""

    failed = await crm.write.ResolveObligation(
        wr.ResolveObligationRequest(organization_id=org, obligation_id=second, outcome=r.OBLIGATION_STATUS_FAILED,
                                    resolution="o horário já estava ocupado"), metadata=crm.metadata)
    assert failed.obligation.status == r.OBLIGATION_STATUS_FAILED
    items = await crm.read.ListCentralItems(
        rd.ListCentralItemsRequest(organization_id=org, kinds=[r.CENTRAL_ITEM_KIND_OBLIGATION_FAILED]),
        metadata=crm.metadata)
    assert len(items.items) == 1 and "ocupado" in items.items[0].body_pt
    differently = await crm.write.ResolveObligation(
        wr.ResolveObligationRequest(organization_id=org, obligation_id=second,
                                    outcome=r.OBLIGATION_STATUS_FULFILLED), metadata=crm.metadata)
    assert differently.refusal.code == r.CRM_REFUSAL_CODE_OBLIGATION_ALREADY_RESOLVED
    stats = await crm.read.GetObligationStats(rd.GetObligationStatsRequest(organization_id=org),
                                              metadata=crm.metadata)
    assert (stats.stats.declared, stats.stats.open, stats.stats.fulfilled, stats.stats.failed) == (2, 0, 1, 1)
    timeline = await crm.read.ListActivities(
        rd.ListActivitiesRequest(organization_id=org, contact_id=contact,
                                 kinds=[r.ACTIVITY_KIND_OBLIGATION_FULFILLED, r.ACTIVITY_KIND_OBLIGATION_FAILED]),
        metadata=crm.metadata)
    assert len(timeline.activities) == 2


async def test_a_fulfilled_obligation_can_ask_for_a_proactive_turn_to_tell_the_customer(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    closed = await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing(promises=1)),
                                       metadata=crm.metadata)
    [obligation] = closed.obligation_ids
    fulfilled = await crm.write.ResolveObligation(
        wr.ResolveObligationRequest(organization_id=org, obligation_id=obligation,
                                    outcome=r.OBLIGATION_STATUS_FULFILLED, request_proactive_turn=True),
        metadata=crm.metadata)
    proactive = (await crm.queue.GetEvent(eq.GetEventRequest(organization_id=org,
                                                             event_id=fulfilled.proactive_event_id),
                                          metadata=crm.metadata)).event
    assert proactive.kind == "proactive_turn_requested"
    assert proactive.contact_id == contact
    assert proactive.payload["obligation_id"] == obligation
    assert proactive.payload["outcome"] == "fulfilled"
    assert proactive.payload["reason"].startswith("Promessa cumprida: ")


async def test_a_failed_obligation_asks_for_a_proactive_turn_that_knows_it_failed_and_why(crm: Crm) -> None:
    org = await crm.org()
    contact = await crm.quiet_contact(org)
    closed = await crm.write.CloseTurn(close_request(org, contact, checkpoint=closing(promises=1)),
                                       metadata=crm.metadata)
    [obligation] = closed.obligation_ids
    failed = await crm.write.ResolveObligation(
        wr.ResolveObligationRequest(organization_id=org, obligation_id=obligation, outcome=r.OBLIGATION_STATUS_FAILED,
                                    resolution="horário ocupado; livres: quinta 10:30, sexta 09:00",
                                    request_proactive_turn=True),
        metadata=crm.metadata)
    proactive = (await crm.queue.GetEvent(eq.GetEventRequest(organization_id=org,
                                                             event_id=failed.proactive_event_id),
                                          metadata=crm.metadata)).event
    # The runtime tells the Conversador what to say from these: a failure is not news of success.
    assert proactive.payload["outcome"] == "failed"
    assert proactive.payload["reason"].startswith("Promessa não cumprida: ")
    assert proactive.payload["reason"].endswith("horário ocupado; livres: quinta 10:30, sexta 09:00")


async def test_the_same_open_problem_is_counted_not_repeated(crm: Crm) -> None:
    org = await crm.org()
    request = wr.RaiseCentralItemRequest(organization_id=org, kind=r.CENTRAL_ITEM_KIND_SEND_FAILED,
                                         severity=r.CENTRAL_ITEM_SEVERITY_WARNING, title_pt="Mensagem não entregue",
                                         code="number_not_on_whatsapp", dedup_key="send_failed:+5511987654321")
    first = await crm.write.RaiseCentralItem(request, metadata=crm.metadata)
    second = await crm.write.RaiseCentralItem(request, metadata=crm.metadata)
    assert not first.deduplicated and second.deduplicated
    assert second.item.central_item_id == first.item.central_item_id
    assert second.item.occurrences == 2
    resolved = await crm.write.ResolveCentralItem(
        wr.ResolveCentralItemRequest(organization_id=org, central_item_id=first.item.central_item_id,
                                     status=r.CENTRAL_ITEM_STATUS_RESOLVED, resolution="número corrigido"),
        metadata=crm.metadata)
    assert resolved.item.status == r.CENTRAL_ITEM_STATUS_RESOLVED and resolved.item.HasField("resolved_at")
    after = await crm.write.RaiseCentralItem(request, metadata=crm.metadata)  # a new occurrence after resolution
    assert not after.deduplicated and after.item.central_item_id != first.item.central_item_id
    inbox = await crm.read.ListCentralItems(rd.ListCentralItemsRequest(organization_id=org), metadata=crm.metadata)
    assert [i.central_item_id for i in inbox.items] == [after.item.central_item_id]
