"""SQL of GetOperadorStats: the Operador's recorded outcomes over a window, for one organisation."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, one, q, scalar

# An outcome is on the turn's execution record (operador_status, operador_actions, operador jsonb);
# "could not act" also counts a turn whose outcome says ACTED but for which the Operador raised an
# inbox item (a promise it could not keep, a tool refused).
_OUTCOMES = q(
    """
    SELECT count(*) AS turns_processed,
           coalesce(sum(operador_actions), 0) AS actions_taken,
           count(*) FILTER (WHERE operador_status = 'nothing_to_do') AS turns_nothing_to_do,
           count(*) FILTER (WHERE operador_status = 'could_not_act' OR EXISTS (
               SELECT 1 FROM crm.central_items ci
               WHERE ci.organization_id = te.organization_id AND ci.turn_id = te.turn_id AND ci.turn_id <> ''
                 AND ci.kind IN ('operador_blocked', 'obligation_failed'))) AS turns_could_not_act,
           count(*) FILTER (WHERE operador_status = 'skipped_human_in_control') AS turns_human_owned,
           count(*) FILTER (WHERE coalesce((operador ->> 'usedModel')::boolean, false)) AS turns_with_model,
           count(*) FILTER (WHERE NOT coalesce((operador ->> 'usedModel')::boolean, false)
                              AND operador_status <> 'skipped_human_in_control') AS turns_basic
    FROM crm.turn_executions te
    WHERE organization_id = :org AND NOT test AND operador_status <> 'unspecified'
      AND coalesce(finished_at, recorded_at) >= :since
    """
)
_DEAD = q(
    "SELECT count(*) FROM crm.event_log WHERE organization_id = :org AND kind = 'turn_closed' AND status = 'dead' "
    "AND created_at >= :since"
)


async def outcomes(conn: AsyncConnection, org: UUID, since: datetime) -> Row:
    row = await one(conn, _OUTCOMES, org=org, since=since)
    assert row is not None
    return row


async def dead_events(conn: AsyncConnection, org: UUID, since: datetime) -> int:
    return int(await scalar(conn, _DEAD, org=org, since=since))
