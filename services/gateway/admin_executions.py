"""Executions and metrics: why a message was or was not sent, and how the agent is doing.

crm keeps one execution record per turn (written by the runtime as the turn goes, completed by
the Operador's outcome); the gateway's own turn row gives the status, what was sent and the trace
id exactly as GetTurn shows them. Metrics add up crm's turn statistics, its obligation statistics
and the event queue's dead events for the organisation.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from google.protobuf.timestamp_pb2 import Timestamp

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway import execution as ex
from services.gateway.admin_central import contact_names
from services.gateway.admin_common import copy_stamp, crm_organization, optional_id, org_id, page_size
from services.gateway.inbound import parse_uuid
from services.gateway.intake import Intake, InvalidRequest, NotFound
from services.gateway.peers import Peers, call

# crm's outcome → the gateway's (both written by the runtime from its own outcome names).
OUTCOME = {crm: ex.GATEWAY_OUTCOME[name] for name, crm in ex.CRM_OUTCOME.items()}
OUTCOME_TO_CRM = {gateway: crm for crm, gateway in OUTCOME.items()}
_OPERADOR = {
    r.OPERADOR_OUTCOME_STATUS_ACTED: "acted",
    r.OPERADOR_OUTCOME_STATUS_NOTHING_TO_DO: "nothing_to_do",
    r.OPERADOR_OUTCOME_STATUS_SKIPPED_HUMAN_IN_CONTROL: "human_owns",
    r.OPERADOR_OUTCOME_STATUS_COULD_NOT_ACT: "could_not_act",
    r.OPERADOR_OUTCOME_STATUS_FAILED: "failed",
    r.OPERADOR_OUTCOME_STATUS_DEAD: "failed",
}
_REREAD = {
    r.AGENDA_REREAD_STATUS_NOT_NEEDED: "not_needed",
    r.AGENDA_REREAD_STATUS_READ: "known",
    r.AGENDA_REREAD_STATUS_UNKNOWN: "unknown",
}
_ROUTES_PT = {
    "plan_expired": "plano vencido: resposta fixa",
    "screened": "mensagem barrada na triagem: resposta segura",
    "auto_reply": "conteúdo que o assistente não abre: resposta fixa",
}
PREVIEW_CHARS = 120
METRICS_WINDOW = timedelta(hours=24)


def outcome_name(outcome: int) -> str:
    """ "replied", "silent", …; crm's FAILED (no gateway outcome) is "failed"."""
    if outcome == r.TURN_OUTCOME_FAILED:
        return "failed"
    gateway = OUTCOME.get(outcome, gw.TURN_OUTCOME_UNSPECIFIED)
    return gw.TurnOutcome.Name(gateway).removeprefix("TURN_OUTCOME_").lower()


def route_pt(reason: str) -> str:
    """The controller's decision as the owner reads it."""
    return _ROUTES_PT.get(reason, reason)


def operador_outcome(outcome: r.OperadorOutcome) -> gw.OperadorOutcome:
    return gw.OperadorOutcome(
        outcome=_OPERADOR.get(outcome.status, ""), summary_pt=outcome.summary_pt, actions_pt=list(outcome.actions)
    )


def _status(summary: r.TurnExecutionSummary | r.TurnExecution) -> int:
    if summary.outcome == r.TURN_OUTCOME_FAILED:
        return gw.TURN_STATUS_FAILED
    return gw.TURN_STATUS_DONE if summary.HasField("finished_at") else gw.TURN_STATUS_RUNNING


def _verdict(level: str) -> str:
    if level in ("", "none"):
        return "clean"
    return "injection" if level == "high" else "suspicious"


def to_record(execution: r.TurnExecution, turn: gw.TurnResult) -> gw.ExecutionRecord:
    record = gw.ExecutionRecord(
        turn=turn,
        inbound_texts=[m.text for m in execution.inbound],
        route_pt=route_pt(execution.route.reason),
    )
    if execution.trigger in (r.TURN_TRIGGER_FOLLOW_UP, r.TURN_TRIGGER_PROACTIVE):
        record.trigger.kind = (
            gw.TRIGGER_KIND_FOLLOWUP_DUE
            if execution.trigger == r.TURN_TRIGGER_FOLLOW_UP
            else gw.TRIGGER_KIND_UNSPECIFIED
        )
    if execution.HasField("screening"):
        s = execution.screening
        record.screening.CopyFrom(
            gw.ScreeningRecord(
                verdict=_verdict(s.level), level=s.level, matched_rule=s.rule, classifier_ran=s.classifier_used
            )
        )
    for draft in execution.drafts:
        # crm counts the draft as attempt 0; the owner reads 1 for the draft, 2 and 3 for revisions.
        number = draft.attempt + 1
        attempt = record.attempts.add(attempt=number, message=draft.text)
        if draft.HasField("declaracao"):
            attempt.declaracao.CopyFrom(draft.declaracao)
        review = draft.review
        attempt.review.decision = review.verdict
        attempt.review.chain_version = int(review.chain_version) if review.chain_version.isdigit() else 0
        for position, line in enumerate(review.gates, start=1):
            attempt.review.trace.add(position=position, gate=line.gate, status=line.result)
        for veto in review.vetoes:
            attempt.review.vetoes.add(attempt=number, gate=veto.gate, code=veto.code, guidance_pt=veto.guidance)
        if review.wait_seconds and turn.HasField("started_at"):
            wait = Timestamp()
            wait.FromDatetime(turn.started_at.ToDatetime(tzinfo=UTC) + timedelta(seconds=review.wait_seconds))
            attempt.review.wait_until.CopyFrom(wait)
    closing = execution.closing
    record.closing.CopyFrom(
        gw.ClosingRecord(
            checkpoint_seq=execution.checkpoint_seq,
            rolling_summary=closing.rolling_summary,
            commitments=list(closing.commitments),
            objections=list(closing.objections),
            next_action=closing.next_action,
            agenda_reread=_REREAD.get(closing.agenda_reread, ""),
            failure=execution.error,
        )
    )
    for usage in execution.usage:
        record.usage.add(
            purpose=usage.purpose,
            provider=usage.provider,
            model=usage.model,
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens,
        )
    if execution.HasField("operador"):
        record.operador.CopyFrom(operador_outcome(execution.operador))
    return record


def _turn_from_record(execution: r.TurnExecution) -> gw.TurnResult:
    """The turn as crm recorded it, for a turn the gateway no longer keeps."""
    turn = gw.TurnResult(
        turn_id=execution.turn_id,
        contact_id=execution.contact_id,
        status=_status(execution),  # type: ignore[arg-type]
        outcome=OUTCOME.get(execution.outcome, gw.TURN_OUTCOME_UNSPECIFIED),  # type: ignore[arg-type]
        trace_id=execution.trace_id,
        inbound_ids=[m.inbound_message_id for m in execution.inbound],
    )
    for part in execution.sent:
        added = turn.reply_parts.add(text=part.text, provider_message_id=part.provider_message_id)
        copy_stamp(added, "sent_at", part)
    for draft in execution.drafts:
        for veto in draft.review.vetoes:
            turn.vetoes.add(attempt=draft.attempt + 1, gate=veto.gate, code=veto.code, guidance_pt=veto.guidance)
    copy_stamp(turn, "started_at", execution)
    copy_stamp(turn, "finished_at", execution)
    return turn


class Executions:
    def __init__(self, peers: Peers, intake: Intake) -> None:
        self._peers = peers
        self._intake = intake

    async def list(self, request: gw.ListExecutionsRequest) -> gw.ListExecutionsResponse:
        org = org_id(request.organization_id)
        contact = optional_id(request.contact_id, "contact_id")
        size = page_size(request.page_size)
        outcomes = []
        if request.outcome != gw.TURN_OUTCOME_UNSPECIFIED:
            if request.outcome not in OUTCOME_TO_CRM:
                raise InvalidRequest("outcome is not a known turn outcome")
            outcomes = [OUTCOME_TO_CRM[request.outcome]]
        await crm_organization(self._peers, org)
        page = await call(
            "crm",
            self._peers.crm_read.ListTurnExecutions,
            cr.ListTurnExecutionsRequest(
                organization_id=org,
                contact_id=contact,
                outcomes=outcomes,  # type: ignore[arg-type]
                page_size=size,
                page_token=request.page_token,
            ),
            timeout=self._peers.timeout,
        )
        names = await contact_names(self._peers, org, (e.contact_id for e in page.executions))
        response = gw.ListExecutionsResponse(next_page_token=page.next_page_token)
        for e in page.executions:
            summary = response.executions.add(
                turn_id=e.turn_id,
                contact_id=e.contact_id,
                contact_name=names.get(e.contact_id, ""),
                status=_status(e),  # type: ignore[arg-type]
                outcome=OUTCOME.get(e.outcome, gw.TURN_OUTCOME_UNSPECIFIED),  # type: ignore[arg-type]
                veto_count=e.veto_count,
                sent_preview=e.sent_preview[:PREVIEW_CHARS],
                trace_id=e.trace_id,
            )
            copy_stamp(summary, "started_at", e)
        return response

    async def get(self, organization_id: str, turn_id: str) -> gw.ExecutionRecord:
        org = org_id(organization_id)
        turn = str(parse_uuid(turn_id, "turn_id"))
        response = await call(
            "crm",
            self._peers.crm_read.GetTurnExecution,
            cr.GetTurnExecutionRequest(organization_id=org, turn_id=turn),
            timeout=self._peers.timeout,
        )
        try:
            result = await self._intake.turn_result(gw.GetTurnRequest(organization_id=org, turn_id=turn))
        except NotFound:
            result = _turn_from_record(response.execution)
        return to_record(response.execution, result)

    async def metrics(self, request: gw.GetMetricsRequest) -> gw.GetMetricsResponse:
        org = org_id(request.organization_id)
        if request.HasField("since"):
            since = request.since
        else:
            since = Timestamp()
            since.FromDatetime(datetime.now(UTC) - METRICS_WINDOW)
        await crm_organization(self._peers, org)
        turns, obligations, queue = await asyncio.gather(
            call(
                "crm",
                self._peers.crm_read.GetTurnStats,
                cr.GetTurnStatsRequest(organization_id=org, since=since),
                timeout=self._peers.timeout,
            ),
            call(
                "crm",
                self._peers.crm_read.GetObligationStats,
                cr.GetObligationStatsRequest(organization_id=org, since=since),
                timeout=self._peers.timeout,
            ),
            call(
                "crm",
                self._peers.events.GetQueueStats,
                eq.GetQueueStatsRequest(organization_id=org),
                timeout=self._peers.timeout,
            ),
        )
        stats, promises = turns.stats, obligations.stats
        response = gw.GetMetricsResponse(since=since)
        t = response.turns
        t.finished = stats.finished
        t.failed = stats.failed
        t.revisions_per_turn = stats.revisions_per_turn
        for count in stats.by_outcome:
            name = outcome_name(count.outcome)
            t.by_outcome[name] = t.by_outcome[name] + count.count
        for veto in stats.vetoes_by_gate:
            t.vetoes_by_gate[veto.gate] = t.vetoes_by_gate[veto.gate] + veto.count
        o = response.operador
        o.actions_per_turn = stats.operador_actions_per_turn
        o.turns_could_not_act = stats.operador_could_not_act
        o.promises_declared = promises.declared
        o.promises_fulfilled = promises.fulfilled
        o.promises_failed = promises.failed
        o.events_dead = sum(c.count for c in queue.counts if c.status == r.EVENT_STATUS_DEAD)
        k = response.tokens
        k.input_tokens = stats.tokens.input_tokens
        k.output_tokens = stats.tokens.output_tokens
        k.cache_read_tokens = stats.tokens.cache_read_tokens
        k.cache_write_tokens = stats.tokens.cache_write_tokens
        return response
