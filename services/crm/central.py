"""The Central inbox: what a person must see. Nothing the machine cannot handle fails silently."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm.messages import CENTRAL_KIND, CENTRAL_SEVERITY, actor_doc
from services.crm.repository import central as repo
from services.crm.repository._sql import Row

SYSTEM = r.Actor(kind=r.ACTOR_KIND_SYSTEM, name="crm")


async def raise_item(
    conn: AsyncConnection,
    org: UUID,
    *,
    kind: int,
    severity: int,
    title_pt: str,
    now: datetime,
    body_pt: str = "",
    code: str = "",
    contact: UUID | None = None,
    turn_id: str = "",
    event_id: str = "",
    details: dict[str, Any] | None = None,
    raised_by: r.Actor | None = None,
    dedup_key: str = "",
) -> tuple[Row, bool]:
    """The item (new, or the open one with the same dedup key, counted again) and whether it was new."""
    row = await repo.raise_item(
        conn, org, uuid.uuid4(),
        kind=CENTRAL_KIND.word(kind), severity=CENTRAL_SEVERITY.word(severity or r.CENTRAL_ITEM_SEVERITY_WARNING),
        title_pt=title_pt, body_pt=body_pt, code=code, contact=contact, turn_id=turn_id, event_id=event_id,
        details=details, raised_by=actor_doc(raised_by if raised_by is not None and raised_by.kind else SYSTEM),
        dedup_key=dedup_key or None, now=now,
    )
    return row, bool(row["inserted"])


async def job_dead(conn: AsyncConnection, event: Row, error: str, now: datetime) -> Row:
    """The critical item for an event that exhausted its attempts (written with the `dead` status)."""
    row, _ = await raise_item(
        conn, event["organization_id"],
        kind=r.CENTRAL_ITEM_KIND_JOB_DEAD,
        severity=r.CENTRAL_ITEM_SEVERITY_CRITICAL,
        title_pt="Uma tarefa automática parou de vez",
        body_pt=(
            f"A tarefa “{event['kind']}” falhou {event['attempts']} vez(es) e não será mais tentada sozinha. "
            "Veja o último erro, corrija a causa e reenfileire a tarefa."
        ),
        code="job_dead",
        contact=event["contact_id"],
        event_id=str(event["event_id"]),
        details={"kind": event["kind"], "attempts": event["attempts"], "last_error": error},
        dedup_key=f"job_dead:{event['event_id']}",
        now=now,
    )
    return row


async def resolve_job_dead(conn: AsyncConnection, org: UUID, event: UUID, now: datetime) -> None:
    """The dead job was put back in the queue: its item is resolved."""
    await repo.resolve_by_key(
        conn, org, f"job_dead:{event}", resolution="Tarefa reenfileirada para nova tentativa.",
        resolved_by=actor_doc(SYSTEM), now=now,
    )
