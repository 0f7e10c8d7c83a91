"""Follow-ups: scheduled returns to a contact, each with its `followup_due` event."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import contacts, organizations, queue, refusals, timeline
from services.crm.errors import InvalidArgument, NotFound
from services.crm.leads import AUTOMATIC
from services.crm.messages import FOLLOW_UP_STATUS, actor_doc
from services.crm.repository import events
from services.crm.repository import followups as repo
from services.crm.repository import obligations as obligations_repo
from services.crm.repository._sql import Row

_STATUS_PT = {"sent": "já foi enviado", "skipped": "foi pulado", "failed": "falhou", "cancelled": "foi cancelado"}
FINAL = frozenset({r.FOLLOW_UP_STATUS_SENT, r.FOLLOW_UP_STATUS_SKIPPED, r.FOLLOW_UP_STATUS_FAILED})


@dataclass(frozen=True)
class Scheduling:
    contact: UUID
    due_at: datetime | None
    reason: str
    callback: bool
    fixed_text: str
    obligation: UUID | None
    source_turn_id: str
    scheduled_by: r.Actor


@dataclass(frozen=True)
class Result:
    follow_up: Row | None
    refusal: r.CrmRefusal | None
    event_id: str = ""


async def schedule(conn: AsyncConnection, org: UUID, item: Scheduling, policy: queue.QueuePolicy,
                   now: datetime, *, follow_up_id: UUID | None = None) -> Result:
    """`follow_up_id` is given by a batched registration (derived from its idempotency key); new otherwise."""
    if item.due_at is None:
        raise InvalidArgument("due_at is required")
    person = await contacts.require(conn, org, item.contact, lock=True)
    if item.obligation is not None and await obligations_repo.get(conn, org, item.obligation) is None:
        raise NotFound(f"obligation {item.obligation} not found in organization {org}")
    settings = await organizations.settings_of(conn, org)
    until = person["human_control_until"]
    if person["anonymized"]:
        return Result(None, refusals.contact_anonymized())
    if person["opted_out"]:
        return Result(None, refusals.contact_opted_out())
    if item.callback and not settings.followup.callback_enabled:
        return Result(None, refusals.callbacks_disabled())
    if item.scheduled_by.kind in AUTOMATIC and person["human_in_control"] and (until is None or until > now):
        return Result(None, refusals.human_in_control())
    if item.due_at <= now:
        return Result(None, refusals.due_in_the_past())
    follow_up_id = follow_up_id or uuid.uuid4()
    event, _ = await queue.publish(
        conn, org,
        queue.Publication(kind="followup_due", contact=item.contact,
                          payload={"follow_up_id": str(follow_up_id), "contact_id": str(item.contact)},
                          dedup_key=str(follow_up_id), available_at=item.due_at, max_attempts=0, traceparent=""),
        policy, now,
    )
    row = await repo.insert(
        conn, org, follow_up_id, item.contact, scheduled_by=actor_doc(item.scheduled_by), now=now,
        due_at=item.due_at, reason=item.reason.strip(), callback=item.callback, fixed_text=item.fixed_text,
        obligation=item.obligation, source_turn_id=item.source_turn_id, event=event["event_id"],
    )
    await timeline.record(conn, org, item.contact, r.ACTIVITY_KIND_FOLLOW_UP_SCHEDULED,
                          ("Retorno prometido agendado" if item.callback else "Retorno agendado")
                          + (f": {item.reason.strip()}" if item.reason.strip() else ""),
                          now, actor=item.scheduled_by, turn_id=item.source_turn_id,
                          details={"follow_up_id": str(follow_up_id), "due_at": item.due_at.isoformat()})
    return Result(row, None, str(event["event_id"]))


async def cancel(conn: AsyncConnection, org: UUID, follow_up: UUID, *, reason: str, actor: r.Actor,
                 now: datetime) -> Result:
    row = await require(conn, org, follow_up, lock=True)
    if row["status"] != "pending":
        return Result(None, refusals.follow_up_not_pending(_STATUS_PT.get(row["status"], row["status"])))
    row = await repo.finish(conn, org, follow_up, status="cancelled", detail=reason.strip(),
                            turn_id=row["executed_turn_id"], now=now)
    if row["event_id"] is not None:
        await events.finish_pending(conn, org, row["event_id"], "follow-up cancelled", now)
    await timeline.record(conn, org, row["contact_id"], r.ACTIVITY_KIND_FOLLOW_UP_CANCELLED,
                          "Retorno cancelado" + (f": {reason.strip()}" if reason.strip() else ""), now, actor=actor,
                          details={"follow_up_id": str(follow_up)})
    return Result(row, None)


async def record_outcome(conn: AsyncConnection, org: UUID, follow_up: UUID, *, status: int, detail: str,
                         turn_id: str, now: datetime) -> Result:
    if status not in FINAL:
        raise InvalidArgument("status must be SENT, SKIPPED or FAILED")
    row = await require(conn, org, follow_up, lock=True)
    if row["status"] != "pending":
        return Result(None, refusals.follow_up_not_pending(_STATUS_PT.get(row["status"], row["status"])))
    word = FOLLOW_UP_STATUS.word(status)
    row = await repo.finish(conn, org, follow_up, status=word, detail=detail.strip(), turn_id=turn_id, now=now)
    summary = {"sent": "Retorno enviado", "skipped": "Retorno não enviado", "failed": "Falha ao enviar o retorno"}[word]
    await timeline.record(conn, org, row["contact_id"], r.ACTIVITY_KIND_OTHER,
                          summary + (f": {detail.strip()}" if detail.strip() else ""), now, turn_id=turn_id,
                          details={"follow_up_id": str(follow_up), "status": word})
    return Result(row, None)


async def require(conn: AsyncConnection, org: UUID, follow_up: UUID, *, lock: bool = False) -> Row:
    row = await repo.get(conn, org, follow_up, lock=lock)
    if row is None:
        raise NotFound(f"follow-up {follow_up} not found in organization {org}")
    return row
