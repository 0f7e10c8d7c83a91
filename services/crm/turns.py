"""Closing a turn, and the record of every turn.

CloseTurn persists a closed turn in ONE transaction (DESIGN §2 step 11): the checkpoint with the
contact's next `seq`, one obligation per declared promise, the execution record and a
`turn_closed` event for the Operador. `seq` comes from a per-contact counter row incremented
under its row lock, so concurrent closes of one contact line up and no `seq` is used twice.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.common.v1 import declaracao_pb2
from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import contacts, queue
from services.crm.errors import AlreadyExists, InvalidArgument, NotFound
from services.crm.messages import (
    AGENDA_REREAD,
    OPERADOR_STATUS,
    TURN_OUTCOME,
    TURN_TRIGGER,
    to_json,
    turn_execution,
    when,
)
from services.crm.repository import events, leads
from services.crm.repository import obligations as obligations_repo
from services.crm.repository import turns as repo
from services.crm.repository._sql import Row

PREVIEW_CHARS = 140
MAX_TURN_ID = 200


def validate_turn_id(value: str) -> str:
    if not value.strip():
        raise InvalidArgument("turn_id is required")
    if len(value) > MAX_TURN_ID:
        raise InvalidArgument(f"turn_id is longer than {MAX_TURN_ID} characters")
    return value


def validate_declaracao(declaracao: declaracao_pb2.DeclaracaoDoTurno, where: str = "checkpoint.declaracao") -> None:
    """The contract of seed 002 §5: `nada_a_declarar` is true exactly when both lists are empty."""
    empty = not declaracao.intencoes and not declaracao.promessas
    if declaracao.nada_a_declarar != empty:
        raise InvalidArgument(
            f"{where}.nada_a_declarar must be true exactly when intencoes and promessas are both empty "
            f"(got nada_a_declarar={declaracao.nada_a_declarar} with {len(declaracao.intencoes)} intencoes and "
            f"{len(declaracao.promessas)} promessas)"
        )
    for index, promessa in enumerate(declaracao.promessas):
        if not promessa.o_que.strip():
            raise InvalidArgument(f"{where}.promessas[{index}].o_que is required")
    for index, intencao in enumerate(declaracao.intencoes):
        if not intencao.o_que.strip():
            raise InvalidArgument(f"{where}.intencoes[{index}].o_que is required")


@dataclass
class Closed:
    seq: int
    obligation_ids: list[str] = field(default_factory=list)
    event_id: str = ""
    replayed: bool = False


@dataclass(frozen=True)
class Closing:
    contact: UUID
    turn_id: str
    unit_id: str
    content: r.CheckpointContent
    execution: r.TurnExecution
    traceparent: str


async def close_turn(conn: AsyncConnection, org: UUID, closing: Closing, policy: queue.QueuePolicy,
                     now: datetime) -> Closed:
    # The contact and an earlier close of the turn, in one statement.
    first_look = await leads.contact_and_turn_checkpoint(conn, org, closing.contact, closing.turn_id)
    if not first_look["contact_exists"]:
        raise NotFound(f"contact {closing.contact} not found in organization {org}")
    if first_look["seq"] is not None:
        return await _earlier_close(conn, org, closing, first_look)
    seq = await leads.next_seq(conn, org, closing.contact)
    # A close of the same turn under another key may have committed while we waited for the
    # counter's lock: answer with it (this seq then stays unused, a gap, never a reuse).
    if (earlier := await _closed_before(conn, org, closing)) is not None:
        return earlier
    content = closing.content
    await leads.insert_checkpoint(
        conn, org, closing.contact, seq, now=now,
        turn_id=closing.turn_id, unit_id=closing.unit_id,
        rolling_summary=content.rolling_summary, commitments=list(content.commitments),
        objections=list(content.objections), next_action=content.next_action,
        declaracao=to_json(content.declaracao), agenda_reread=AGENDA_REREAD.word(content.agenda_reread),
    )
    obligation_ids = []
    for index, promessa in enumerate(content.declaracao.promessas):
        row = await obligations_repo.insert(
            conn, org, uuid.uuid4(), closing.contact, turn_id=closing.turn_id, seq=seq, index=index,
            o_que=promessa.o_que, prazo=when(promessa, "prazo"), now=now,
        )
        obligation_ids.append(str(row["obligation_id"]))
    record = r.TurnExecution()
    record.CopyFrom(closing.execution)
    record.closing.CopyFrom(content)
    record.checkpoint_seq = seq
    record.unit_id = record.unit_id or closing.unit_id
    await _put_record(conn, org, closing.turn_id, closing.contact, record, now)
    event, _ = await queue.publish(
        conn, org,
        queue.Publication(
            kind="turn_closed", contact=closing.contact,
            payload={"turn_id": closing.turn_id, "contact_id": str(closing.contact), "seq": seq,
                     "unit_id": closing.unit_id},
            dedup_key=closing.turn_id, available_at=None, max_attempts=0, traceparent=closing.traceparent,
        ),
        policy, now, contact_checked=True,
    )
    return Closed(seq, obligation_ids, str(event["event_id"]))


async def _closed_before(conn: AsyncConnection, org: UUID, closing: Closing) -> Closed | None:
    checkpoint = await leads.checkpoint_by_turn(conn, org, closing.turn_id)
    if checkpoint is None:
        return None
    return await _earlier_close(conn, org, closing, checkpoint)


async def _earlier_close(conn: AsyncConnection, org: UUID, closing: Closing, checkpoint: Row) -> Closed:
    """The answer for a turn already closed (`checkpoint`: its `seq` and `contact_id`)."""
    if checkpoint["contact_id"] != closing.contact:
        raise AlreadyExists(f"turn {closing.turn_id} was already closed for another contact")
    event = await events.by_dedup_key(conn, org, "turn_closed", closing.turn_id)
    return Closed(
        seq=checkpoint["seq"],
        obligation_ids=[str(o["obligation_id"]) for o in await obligations_repo.of_turn(conn, org, closing.turn_id)],
        event_id=str(event["event_id"]) if event else "",
        replayed=True,
    )


async def record_execution(conn: AsyncConnection, org: UUID, record: r.TurnExecution, now: datetime) -> Row:
    contact = uuid.UUID(record.contact_id)
    await contacts.require(conn, org, contact)
    existing = await repo.get(conn, org, record.turn_id)
    if existing is not None and existing["contact_id"] != contact:
        raise AlreadyExists(f"turn {record.turn_id} is recorded for another contact")
    return await _put_record(conn, org, record.turn_id, contact, record, now)


async def _put_record(conn: AsyncConnection, org: UUID, turn_id: str, contact: UUID, record: r.TurnExecution,
                      now: datetime) -> Row:
    record.turn_id = turn_id
    record.organization_id = str(org)
    record.contact_id = str(contact)
    stored = r.TurnExecution()
    stored.CopyFrom(record)
    stored.ClearField("operador")  # kept in its own column, written by RecordOperadorOutcome
    return await repo.put(conn, org, turn_id, contact, record=to_json(stored), now=now, **_columns(record))


def _columns(record: r.TurnExecution) -> dict[str, Any]:
    usage = [*record.usage, *record.operador.usage]
    return {
        "unit_id": record.unit_id,
        "trigger": TURN_TRIGGER.word(record.trigger),
        "outcome": TURN_OUTCOME.word(record.outcome),
        "test": record.test,
        "trace_id": record.trace_id,
        "checkpoint_seq": record.checkpoint_seq,
        "inbound_preview": record.inbound[0].text[:PREVIEW_CHARS] if record.inbound else "",
        "sent_preview": record.sent[0].text[:PREVIEW_CHARS] if record.sent else "",
        "draft_count": len(record.drafts),
        "veto_count": sum(len(d.review.vetoes) for d in record.drafts),
        "input_tokens": sum(u.input_tokens for u in usage),
        "output_tokens": sum(u.output_tokens for u in usage),
        "cache_read_tokens": sum(u.cache_read_tokens for u in usage),
        "cache_write_tokens": sum(u.cache_write_tokens for u in usage),
        "model_duration_ms": sum(u.duration_ms for u in usage),
        "started_at": when(record, "started_at"),
        "finished_at": when(record, "finished_at"),
    }


async def record_operador_outcome(conn: AsyncConnection, org: UUID, turn_id: str, outcome: r.OperadorOutcome,
                                  now: datetime) -> Row:
    existing = await repo.get(conn, org, turn_id)
    if existing is None:
        raise NotFound(f"turn {turn_id} has no execution record in organization {org}")
    record = turn_execution(existing)
    record.operador.CopyFrom(outcome)
    if not record.operador.HasField("finished_at"):
        record.operador.finished_at.FromDatetime(now)
    row = await repo.set_operador(
        conn, org, turn_id, operador=to_json(record.operador), status=OPERADOR_STATUS.word(outcome.status),
        actions=len(outcome.actions), now=now,
    )
    # Token totals include the Operador's calls.
    await repo.put(conn, org, turn_id, existing["contact_id"], record=dict(existing["record"]), now=now,
                   **_columns(record))
    assert row is not None
    return row


def stats(totals: Row, by_outcome: list[Row], vetoes: list[Row]) -> r.TurnStats:
    return r.TurnStats(
        finished=totals["finished"],
        by_outcome=[r.TurnOutcomeCount(outcome=TURN_OUTCOME.number(o["outcome"]), count=o["count"])
                    for o in by_outcome],
        vetoes_by_gate=[r.GateVetoCount(gate=v["gate"] or "", count=v["count"]) for v in vetoes],
        revisions_per_turn=float(totals["revisions_per_turn"]),
        failed=totals["failed"],
        operador_actions_per_turn=float(totals["operador_actions_per_turn"]),
        operador_could_not_act=totals["operador_could_not_act"],
        tokens=r.ModelUsage(
            input_tokens=totals["input_tokens"], output_tokens=totals["output_tokens"],
            cache_read_tokens=totals["cache_read_tokens"], cache_write_tokens=totals["cache_write_tokens"],
            duration_ms=totals["model_duration_ms"],
        ),
    )
