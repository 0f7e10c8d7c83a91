"""The versioned agent configuration: one draft being edited, one published version production runs.

Saving replaces the draft under a new version id (an editor holding the old id gets ABORTED);
publishing supersedes the previous published version; publishing a superseded one rolls back.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import organizations
from services.crm.errors import Aborted, InvalidArgument, NotFound
from services.crm.messages import actor_doc, to_json
from services.crm.repository import agent_versions as repo
from services.crm.repository._sql import Row

# DESIGN §5: a cap of 25 Operador tools. crm does not own the capability catalog (the Operador
# does), so it can count only the capabilities a unit switches on one by one.
MAX_OPERADOR_TOOLS = 25


def prepare(configuration: r.AgentConfiguration) -> r.AgentConfiguration:
    """A copy with unit ids assigned and a default unit chosen; InvalidArgument naming a problem."""
    prepared = r.AgentConfiguration()
    prepared.CopyFrom(configuration)
    seen: set[str] = set()
    for index, unit in enumerate(prepared.units):
        if not unit.name.strip():
            raise InvalidArgument(f"units[{index}].name is required")
        unit.unit_id = unit.unit_id.strip() or str(uuid.uuid4())
        if unit.unit_id in seen:
            raise InvalidArgument(f"units[{index}].unit_id {unit.unit_id!r} is used by another unit")
        seen.add(unit.unit_id)
        extra = set(unit.operador.extra_capabilities) - set(unit.operador.disabled_capabilities)
        if len(extra) > MAX_OPERADOR_TOOLS:
            raise InvalidArgument(
                f"units[{index}] switches on {len(extra)} Operador capabilities; at most {MAX_OPERADOR_TOOLS}"
            )
        if unit.conversador.max_steps < 0:
            raise InvalidArgument(f"units[{index}].conversador.max_steps must not be negative")
    if prepared.default_unit_id and prepared.default_unit_id not in seen:
        raise InvalidArgument(f"default_unit_id {prepared.default_unit_id!r} is not one of the units")
    if not prepared.default_unit_id and prepared.units:
        prepared.default_unit_id = prepared.units[0].unit_id
    return prepared


async def save_draft(conn: AsyncConnection, org: UUID, configuration: r.AgentConfiguration, *, note: str,
                     base_version: UUID | None, saved_by: r.Actor, now: datetime) -> Row:
    await organizations.require(conn, org)
    await repo.lock(conn, org)
    draft = await repo.draft_locked(conn, org)
    if base_version is not None and (draft is None or draft["version_id"] != base_version):
        current = draft["version_id"] if draft else "none"
        raise Aborted(
            f"the draft changed meanwhile (based on {base_version}, current draft {current}); "
            "reload it and apply the edit again"
        )
    document = to_json(configuration)
    if draft is None:
        return await repo.insert_draft(conn, org, uuid.uuid4(), configuration=document,
                                       saved_by=actor_doc(saved_by), note=note.strip(), now=now)
    return await repo.replace_draft(conn, org, draft["version_id"], uuid.uuid4(), configuration=document,
                                    saved_by=actor_doc(saved_by), note=note.strip(), now=now)


async def publish(conn: AsyncConnection, org: UUID, version: UUID, now: datetime) -> tuple[Row, str]:
    await repo.lock(conn, org)
    row = await repo.get(conn, org, version)
    if row is None:
        raise NotFound(f"agent version {version} not found in organization {org}")
    if row["status"] == "published":
        return row, ""
    published, superseded = await repo.publish(conn, org, version, now)
    return published, str(superseded) if superseded else ""
