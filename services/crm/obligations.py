"""Obligations: every declared promise, fulfilled or failed with a recorded reason."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import central, queue, refusals, timeline
from services.crm.errors import InvalidArgument, NotFound
from services.crm.messages import OBLIGATION_STATUS, actor_doc
from services.crm.repository import obligations as repo
from services.crm.repository._sql import Row


@dataclass(frozen=True)
class Resolution:
    outcome: int
    resolution: str
    evidence: list[r.EvidenceRef]
    request_proactive_turn: bool
    resolved_by: r.Actor


@dataclass(frozen=True)
class Resolved:
    obligation: Row | None
    refusal: r.CrmRefusal | None
    proactive_event_id: str = ""


async def resolve(conn: AsyncConnection, org: UUID, obligation: UUID, item: Resolution, policy: queue.QueuePolicy,
                  now: datetime) -> Resolved:
    if item.outcome not in (r.OBLIGATION_STATUS_FULFILLED, r.OBLIGATION_STATUS_FAILED):
        raise InvalidArgument("outcome must be FULFILLED or FAILED")
    if item.outcome == r.OBLIGATION_STATUS_FAILED and not item.resolution.strip():
        raise InvalidArgument("resolution is required for a FAILED obligation: say why it could not be fulfilled")
    row = await repo.get(conn, org, obligation, lock=True)
    if row is None:
        raise NotFound(f"obligation {obligation} not found in organization {org}")
    status = OBLIGATION_STATUS.word(item.outcome)
    if row["status"] != "open":
        if row["status"] == status:
            return Resolved(row, None)
        return Resolved(None, refusals.obligation_already_resolved())
    row = await repo.resolve(
        conn, org, obligation, status=status, resolution=item.resolution.strip(),
        evidence=[{"kind": e.kind, "id": e.id} for e in item.evidence], resolved_by=actor_doc(item.resolved_by),
        now=now,
    )
    fulfilled = item.outcome == r.OBLIGATION_STATUS_FULFILLED
    # What happened, in the owner's words: the timeline's line and, for a proactive turn, the news
    # the Conversador tells the customer (a failure carries its consequence, e.g. the free times).
    told = ((f"Promessa cumprida: {row['o_que']}" if fulfilled else f"Promessa não cumprida: {row['o_que']}")
            + (f" — {item.resolution.strip()}" if item.resolution.strip() else ""))
    await timeline.record(
        conn, org, row["contact_id"],
        r.ACTIVITY_KIND_OBLIGATION_FULFILLED if fulfilled else r.ACTIVITY_KIND_OBLIGATION_FAILED,
        told,
        now, actor=item.resolved_by, turn_id=row["turn_id"], details={"obligation_id": str(obligation)},
    )
    if not fulfilled:
        await central.raise_item(
            conn, org, kind=r.CENTRAL_ITEM_KIND_OBLIGATION_FAILED, severity=r.CENTRAL_ITEM_SEVERITY_WARNING,
            title_pt="Uma promessa feita ao cliente não foi cumprida",
            body_pt=f"Prometido: “{row['o_que']}”. Motivo: {item.resolution.strip()}",
            code="obligation_failed", contact=row["contact_id"], turn_id=row["turn_id"],
            raised_by=item.resolved_by, dedup_key=f"obligation:{obligation}", now=now,
        )
    event_id = ""
    if item.request_proactive_turn:
        event, _ = await queue.publish(
            conn, org,
            queue.Publication(kind="proactive_turn_requested", contact=row["contact_id"],
                              payload={"contact_id": str(row["contact_id"]), "reason": told,
                                       "obligation_id": str(obligation),
                                       "outcome": "fulfilled" if fulfilled else "failed"},
                              dedup_key=f"obligation:{obligation}", available_at=None, max_attempts=0,
                              traceparent=""),
            policy, now,
        )
        event_id = str(event["event_id"])
    return Resolved(row, None, event_id)
