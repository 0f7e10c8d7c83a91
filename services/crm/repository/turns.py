"""SQL of `turn_executions` (the record of each turn) and its aggregates."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q

_PUT = q(
    """
    INSERT INTO crm.turn_executions
        (organization_id, turn_id, contact_id, unit_id, trigger, outcome, test, trace_id, checkpoint_seq, record,
         inbound_preview, sent_preview, draft_count, veto_count, input_tokens, output_tokens, cache_read_tokens,
         cache_write_tokens, model_duration_ms, started_at, finished_at, recorded_at)
    VALUES (:org, :turn_id, :contact, :unit_id, :trigger, :outcome, :test, :trace_id, :checkpoint_seq,
            CAST(:record AS jsonb), :inbound_preview, :sent_preview, :draft_count, :veto_count, :input_tokens,
            :output_tokens, :cache_read_tokens, :cache_write_tokens, :model_duration_ms, :started_at, :finished_at,
            :now)
    ON CONFLICT (organization_id, turn_id) DO UPDATE SET
        contact_id = excluded.contact_id, unit_id = excluded.unit_id, trigger = excluded.trigger,
        outcome = excluded.outcome, test = excluded.test, trace_id = excluded.trace_id,
        checkpoint_seq = greatest(crm.turn_executions.checkpoint_seq, excluded.checkpoint_seq),
        record = excluded.record, inbound_preview = excluded.inbound_preview, sent_preview = excluded.sent_preview,
        draft_count = excluded.draft_count, veto_count = excluded.veto_count,
        input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
        cache_read_tokens = excluded.cache_read_tokens, cache_write_tokens = excluded.cache_write_tokens,
        model_duration_ms = excluded.model_duration_ms, started_at = excluded.started_at,
        finished_at = excluded.finished_at, recorded_at = excluded.recorded_at
    RETURNING *
    """
)
_GET = q("SELECT * FROM crm.turn_executions WHERE organization_id = :org AND turn_id = :turn_id")
_SET_OPERADOR = q(
    """
    UPDATE crm.turn_executions SET operador = CAST(:operador AS jsonb), operador_status = :status,
        operador_actions = :actions, recorded_at = :now
    WHERE organization_id = :org AND turn_id = :turn_id RETURNING *
    """
)
_LIST = q(
    """
    SELECT * FROM crm.turn_executions
    WHERE organization_id = :org
      AND (CAST(:contact AS uuid) IS NULL OR contact_id = CAST(:contact AS uuid))
      AND (cardinality(CAST(:outcomes AS text[])) = 0 OR outcome = ANY(CAST(:outcomes AS text[])))
      AND (:include_tests OR NOT test)
      AND (CAST(:since AS timestamptz) IS NULL OR started_at >= CAST(:since AS timestamptz))
      AND (CAST(:until AS timestamptz) IS NULL OR started_at < CAST(:until AS timestamptz))
    ORDER BY started_at DESC NULLS LAST, recorded_at DESC, turn_id
    LIMIT :limit OFFSET :offset
    """
)
_WINDOW = """
    FROM crm.turn_executions
    WHERE organization_id = :org AND NOT test AND finished_at >= :since
"""
_TOTALS = q(
    f"""
    SELECT count(*) AS finished,
           count(*) FILTER (WHERE outcome = 'failed') AS failed,
           coalesce(avg(greatest(draft_count - 1, 0)), 0)::float8 AS revisions_per_turn,
           coalesce(avg(operador_actions) FILTER (WHERE operador_status <> 'unspecified'), 0)::float8
               AS operador_actions_per_turn,
           count(*) FILTER (WHERE operador_status = 'could_not_act') AS operador_could_not_act,
           coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
           coalesce(sum(output_tokens), 0)::bigint AS output_tokens,
           coalesce(sum(cache_read_tokens), 0)::bigint AS cache_read_tokens,
           coalesce(sum(cache_write_tokens), 0)::bigint AS cache_write_tokens,
           coalesce(sum(model_duration_ms), 0)::bigint AS model_duration_ms
    {_WINDOW}
    """
)
_BY_OUTCOME = q(f"SELECT outcome, count(*) AS count {_WINDOW} GROUP BY outcome ORDER BY count DESC, outcome")
_VETOES = q(
    f"""
    SELECT veto ->> 'gate' AS gate, count(*) AS count
    FROM (SELECT record {_WINDOW}) turns,
         jsonb_array_elements(coalesce(turns.record -> 'drafts', '[]')) AS draft,
         jsonb_array_elements(coalesce(draft -> 'review' -> 'vetoes', '[]')) AS veto
    GROUP BY 1 ORDER BY count DESC, gate
    """
)


async def put(conn: AsyncConnection, org: UUID, turn_id: str, contact: UUID, *, record: dict[str, Any],
              now: datetime, **fields: Any) -> Row:
    row = await one(conn, _PUT, org=org, turn_id=turn_id, contact=contact, record=js(record), now=now, **fields)
    assert row is not None
    return row


async def get(conn: AsyncConnection, org: UUID, turn_id: str) -> Row | None:
    return await one(conn, _GET, org=org, turn_id=turn_id)


async def set_operador(conn: AsyncConnection, org: UUID, turn_id: str, *, operador: dict[str, Any], status: str,
                       actions: int, now: datetime) -> Row | None:
    return await one(conn, _SET_OPERADOR, org=org, turn_id=turn_id, operador=js(operador), status=status,
                     actions=actions, now=now)


async def list_page(conn: AsyncConnection, org: UUID, *, contact: UUID | None, outcomes: list[str],
                    include_tests: bool, since: datetime | None, until: datetime | None, limit: int,
                    offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, contact=contact, outcomes=outcomes, include_tests=include_tests,
                      since=since, until=until, limit=limit, offset=offset)


async def stats(conn: AsyncConnection, org: UUID, since: datetime) -> tuple[Row, list[Row], list[Row]]:
    totals = await one(conn, _TOTALS, org=org, since=since)
    assert totals is not None
    return totals, await many(conn, _BY_OUTCOME, org=org, since=since), await many(conn, _VETOES, org=org, since=since)
