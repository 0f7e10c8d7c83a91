"""The contact's timeline (`crm_lead_activities`): every write about a contact appends its line
in the same transaction, so the timeline never misses a change."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm.messages import ACTIVITY_KIND, actor_doc
from services.crm.repository import leads
from services.crm.repository._sql import Row

SYSTEM = r.Actor(kind=r.ACTOR_KIND_SYSTEM)


async def record(
    conn: AsyncConnection,
    org: UUID,
    contact: UUID,
    kind: int,
    summary_pt: str,
    now: datetime,
    *,
    actor: r.Actor | None = None,
    turn_id: str = "",
    event_id: str = "",
    details: dict[str, Any] | None = None,
    occurred_at: datetime | None = None,
) -> Row:
    return await leads.insert_activity(
        conn, org, uuid.uuid4(), contact,
        kind=ACTIVITY_KIND.word(kind),
        actor=actor_doc(actor if actor is not None and actor.kind else SYSTEM),
        summary_pt=summary_pt, turn_id=turn_id, event_id=event_id, details=details,
        occurred_at=occurred_at or now, now=now,
    )
