"""The turn's execution record (crm's `TurnExecution`) and what GetTurn answers (`TurnResult`).

The record is built step by step while the turn runs, so that a person can see why a message
was or was not sent: the inbound messages, the screening, the controller's route, every draft
with Segurança's review, what was sent, the closing and every model call's usage.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

from google.protobuf import json_format
from google.protobuf.message import Message as ProtoMessage
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.common.v1 import declaracao_pb2
from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.seguranca.v1 import seguranca_pb2 as sg
from services.gateway import records
from services.gateway.records import Inbound, Part, Turn

P = TypeVar("P", bound=ProtoMessage)

CRM_OUTCOME = {
    records.REPLIED: r.TURN_OUTCOME_REPLIED,
    records.HOLDING_REPLY: r.TURN_OUTCOME_HELD_FOR_HUMAN,
    records.FIXED_REPLY: r.TURN_OUTCOME_FIXED_REPLY,
    records.PLAN_EXPIRED: r.TURN_OUTCOME_PLAN_EXPIRED,
    records.HANDOFF: r.TURN_OUTCOME_HANDED_OFF,
    records.OPT_OUT_CONFIRMED: r.TURN_OUTCOME_OPTED_OUT,
    records.SAFE_REPLY: r.TURN_OUTCOME_SCREENED,
    records.SILENT: r.TURN_OUTCOME_SILENCED,
    records.NOT_DELIVERED: r.TURN_OUTCOME_NOT_DELIVERED,
}
GATEWAY_OUTCOME = {
    records.REPLIED: gw.TURN_OUTCOME_REPLIED,
    records.HOLDING_REPLY: gw.TURN_OUTCOME_HOLDING_REPLY,
    records.FIXED_REPLY: gw.TURN_OUTCOME_FIXED_REPLY,
    records.PLAN_EXPIRED: gw.TURN_OUTCOME_PLAN_EXPIRED,
    records.HANDOFF: gw.TURN_OUTCOME_HANDOFF,
    records.OPT_OUT_CONFIRMED: gw.TURN_OUTCOME_OPT_OUT_CONFIRMED,
    records.SAFE_REPLY: gw.TURN_OUTCOME_SAFE_REPLY,
    records.SILENT: gw.TURN_OUTCOME_SILENT,
    records.NOT_DELIVERED: gw.TURN_OUTCOME_NOT_DELIVERED,
}
GATEWAY_STATUS = {
    records.QUEUED: gw.TURN_STATUS_QUEUED,
    records.RUNNING: gw.TURN_STATUS_RUNNING,
    records.WAITING: gw.TURN_STATUS_WAITING,
    records.RETRYING: gw.TURN_STATUS_RETRYING,
    records.DONE: gw.TURN_STATUS_DONE,
    records.FAILED: gw.TURN_STATUS_FAILED,
}
USAGE_PURPOSE = {
    cv.MODEL_CALL_PURPOSE_DRAFT: "draft",
    cv.MODEL_CALL_PURPOSE_DECLARACAO_REPAIR: "draft",
    cv.MODEL_CALL_PURPOSE_REVISION: "revise",
    cv.MODEL_CALL_PURPOSE_CLOSING: "close",
    cv.MODEL_CALL_PURPOSE_CLOSING_CORRECTION: "close",
    cv.MODEL_CALL_PURPOSE_SUMMARY_CONDENSATION: "condense_summary",
}
GATE_STATUS = {
    sg.GATE_STATUS_PASSED: "passed",
    sg.GATE_STATUS_VETOED: "vetoed",
    sg.GATE_STATUS_SKIPPED_NOT_APPLICABLE: "skipped:not_applicable",
    sg.GATE_STATUS_SKIPPED_DISABLED: "skipped:disabled",
    sg.GATE_STATUS_WAITED: "waited",
    sg.GATE_STATUS_REVIEWER_FAILED: "reviewer_failed",
}


def gate_name(gate: int) -> str:
    return sg.Gate.Name(gate).removeprefix("GATE_").lower() if gate in sg.Gate.values() else str(gate)


def ts(moment: datetime | None) -> Timestamp | None:
    if moment is None:
        return None
    stamp = Timestamp()
    stamp.FromDatetime(moment.astimezone(UTC))
    return stamp


def now_ts() -> Timestamp:
    stamp = Timestamp()
    stamp.GetCurrentTime()
    return stamp


def pack(message: ProtoMessage) -> str:
    return base64.b64encode(message.SerializeToString()).decode()


def unpack(kind: type[P], data: str | None) -> P:
    message = kind()
    if data:
        message.ParseFromString(base64.b64decode(data))
    return message


def new_execution(
    turn: Turn, *, agent_version_id: str, trigger: int, trigger_ref: str, messages: Sequence[Inbound]
) -> r.TurnExecution:
    execution = r.TurnExecution(
        turn_id=str(turn.turn_id),
        organization_id=str(turn.organization_id),
        contact_id=str(turn.contact_id),
        agent_version_id=agent_version_id,
        trigger=trigger,  # type: ignore[arg-type]
        trigger_ref=trigger_ref,
        trace_id=turn.trace_id,
    )
    started = ts(turn.started_at or turn.created_at)
    if started is not None:
        execution.started_at.CopyFrom(started)
    set_inbound(execution, messages)
    return execution


def set_inbound(execution: r.TurnExecution, messages: Sequence[Inbound]) -> None:
    del execution.inbound[:]
    for m in messages:
        ref = execution.inbound.add(inbound_message_id=str(m.inbound_id), text=message_text(m))
        received = ts(m.received_at)
        if received is not None:
            ref.received_at.CopyFrom(received)


def message_text(m: Inbound) -> str:
    if m.text and m.attachment_note:
        return f"{m.text} [{m.attachment_note}]"
    return m.text or (f"[{m.attachment_note}]" if m.attachment_note else "")


@contextmanager
def step(execution: r.TurnExecution, name: str) -> Any:
    """Record one step of the sequence with its timing; an exception marks it failed."""
    started = time.monotonic()
    entry = execution.steps.add(name=name, status="ok")
    entry.started_at.CopyFrom(now_ts())
    try:
        yield entry
    except BaseException as exc:
        entry.status = "failed"
        entry.detail = str(exc)[:500]
        raise
    finally:
        entry.duration_ms = int((time.monotonic() - started) * 1000)


def skipped(execution: r.TurnExecution, name: str, detail: str) -> None:
    entry = execution.steps.add(name=name, status="skipped", detail=detail)
    entry.started_at.CopyFrom(now_ts())


def review_record(response: sg.ReviewOutboundResponse) -> r.ReviewRecord:
    decision = response.WhichOneof("decision")
    record = r.ReviewRecord(
        verdict={"approved": "approved", "wait": "wait", "vetoed": "vetoed"}.get(decision or "", "vetoed"),
        chain_version=str(response.chain_version),
    )
    for line in response.trace:
        record.gates.add(gate=gate_name(line.gate), result=GATE_STATUS.get(line.status, "unknown"))
    if decision == "vetoed":
        for veto in response.vetoed.vetoes:
            record.vetoes.add(gate=gate_name(veto.gate), code=veto.code, guidance=veto.guidance_pt)
    if decision == "wait":
        until = response.wait.until.ToDatetime(tzinfo=UTC)
        record.wait_seconds = max(0, int((until - datetime.now(UTC)).total_seconds()))
    return record


def add_attempt(
    execution: r.TurnExecution,
    *,
    attempt: int,
    text: str,
    declaracao: declaracao_pb2.DeclaracaoDoTurno | None,
    review: sg.ReviewOutboundResponse | None,
) -> r.DraftAttempt:
    """One draft (attempt 0), revision (1, 2) or fixed text (attempt 0) with its review."""
    entry = execution.drafts.add(attempt=attempt, text=text)
    if declaracao is not None:
        entry.declaracao.CopyFrom(declaracao)
    if review is not None:
        entry.review.CopyFrom(review_record(review))
    return entry


def add_usage(execution: r.TurnExecution, usage: Iterable[cv.ModelUsage]) -> None:
    for u in usage:
        execution.usage.add(
            purpose=USAGE_PURPOSE.get(u.purpose, "draft"),
            provider=u.provider,
            model=u.model,
            input_tokens=u.input_tokens,
            output_tokens=u.output_tokens,
            cache_read_tokens=u.cache_read_tokens,
            cache_write_tokens=u.cache_write_tokens,
        )


def set_sent(execution: r.TurnExecution, parts: Sequence[Part]) -> None:
    del execution.sent[:]
    for p in parts:
        if p.status != records.PART_SENT:
            continue
        entry = execution.sent.add(part_index=p.part_index, text=p.body, provider_message_id=p.provider_message_id)
        sent = ts(p.sent_at)
        if sent is not None:
            entry.sent_at.CopyFrom(sent)


def finish(execution: r.TurnExecution, outcome: str, error: str = "") -> r.TurnExecution:
    execution.outcome = CRM_OUTCOME.get(outcome, r.TURN_OUTCOME_FAILED)  # type: ignore[assignment]
    if error:
        execution.error = error[:2000]
    execution.finished_at.CopyFrom(now_ts())
    return execution


def vetoes_of(execution: r.TurnExecution) -> list[dict[str, Any]]:
    return [
        {"attempt": d.attempt + 1, "gate": v.gate, "code": v.code, "guidance_pt": v.guidance}
        for d in execution.drafts
        for v in d.review.vetoes
    ]


def result_document(
    *,
    declaracao: declaracao_pb2.DeclaracaoDoTurno | None,
    execution: r.TurnExecution,
    route_pt: str = "",
) -> dict[str, Any]:
    """What the turn row keeps for GetTurn once the turn finished."""
    document: dict[str, Any] = {"vetoes": vetoes_of(execution), "route_pt": route_pt}
    if declaracao is not None:
        document["declaracao"] = json_format.MessageToDict(declaracao)
    return document


def turn_result(turn: Turn, parts: Sequence[Part], inbound_ids: Sequence[str]) -> gw.TurnResult:
    result = gw.TurnResult(
        turn_id=str(turn.turn_id),
        contact_id=str(turn.contact_id),
        status=GATEWAY_STATUS.get(turn.status, gw.TURN_STATUS_UNSPECIFIED),  # type: ignore[arg-type]
        outcome=GATEWAY_OUTCOME.get(turn.outcome, gw.TURN_OUTCOME_UNSPECIFIED),  # type: ignore[arg-type]
        trace_id=turn.trace_id,
        inbound_ids=list(inbound_ids),
        detail_pt=turn.detail_pt,
    )
    for p in parts:
        part = result.reply_parts.add(text=p.body, provider_message_id=p.provider_message_id)
        if p.status == records.PART_SENT and p.sent_at is not None:
            part.sent_at.CopyFrom(ts(p.sent_at))
    declaracao = turn.result.get("declaracao")
    if declaracao is not None:
        json_format.ParseDict(declaracao, result.declaracao, ignore_unknown_fields=True)
    for v in turn.result.get("vetoes", []):
        result.vetoes.add(attempt=v["attempt"], gate=v["gate"], code=v["code"], guidance_pt=v["guidance_pt"])
    for name, moment in (
        ("started_at", turn.started_at),
        ("finished_at", turn.finished_at),
        ("waiting_until", turn.waiting_until),
    ):
        stamp = ts(moment)
        if stamp is not None:
            getattr(result, name).CopyFrom(stamp)
    return result
