"""SQL of GetLeadSnapshot: the contact and five parts of its lead's memory in ONE statement.

The statement is built (`_sql.fuse`) from the single reads' own statements — GetContact's,
GetLeadState's, LatestCheckpoint's, ListHumanCases', ListFollowUps' and ListActivities' — so each
part filters, orders and limits exactly as its single RPC does; the servicer builds each part's
message with the same function as that RPC. A fused table's row travels as a composite value, which
asyncpg decodes in binary only: every column type of these tables needs a binary codec (a
`tsvector` column has none, which is why the knowledge articles stay a statement of their own).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository import cases, contacts, followups, leads
from services.crm.repository._sql import Row, fuse, fused_params, one

_SNAPSHOT = fuse({
    "contact": (contacts.GET, False),
    "lead_state": (leads.GET_STATE, False),
    "latest_checkpoint": (leads.LATEST, False),
    "human_cases": (cases.LIST, True),
    "follow_ups": (followups.LIST, True),
    "activities": (leads.LIST_ACTIVITIES, True),
})


async def read(conn: AsyncConnection, org: UUID, contact: UUID, *, case_statuses: list[str], cases_limit: int,
               follow_up_statuses: list[str], follow_ups_limit: int, activities_limit: int) -> Row:
    """The columns `contact`, `lead_state`, `latest_checkpoint` (a row or None) and `human_cases`,
    `follow_ups`, `activities` (lists of rows), for the contact and first pages asked."""
    own: dict[str, Any] = {"org": org, "contact": contact}
    none: datetime | None = None
    row = await one(conn, _SNAPSHOT, **fused_params({
        "contact": own,
        "lead_state": own,
        "latest_checkpoint": own,
        "human_cases": {**own, "statuses": case_statuses, "limit": cases_limit, "offset": 0},
        "follow_ups": {**own, "statuses": follow_up_statuses, "due_before": none, "callbacks_only": False,
                       "limit": follow_ups_limit, "offset": 0},
        "activities": {**own, "kinds": [], "turn_id": "", "since": none, "limit": activities_limit, "offset": 0},
    }))
    assert row is not None
    return row
