"""The lead's stage in the tenant's pipeline, and the notes kept about a contact."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import contacts, organizations, refusals, timeline
from services.crm.errors import InvalidArgument
from services.crm.messages import actor_doc
from services.crm.repository import leads as repo
from services.crm.repository._sql import Row

AUTOMATIC = frozenset({r.ACTOR_KIND_OPERADOR_MODEL, r.ACTOR_KIND_OPERADOR_RULES})


@dataclass(frozen=True)
class StageChange:
    state: Row | None
    refusal: r.CrmRefusal | None


async def update_lead_state(conn: AsyncConnection, org: UUID, contact: UUID, *, stage_key: str, reason: str,
                            source_turn_id: str, actor: r.Actor, now: datetime) -> StageChange:
    if not stage_key.strip():
        raise InvalidArgument("stage_key is required")
    person = await contacts.require(conn, org, contact, lock=True)
    if person["anonymized"]:
        return StageChange(None, refusals.contact_anonymized())
    if actor.kind in AUTOMATIC and _human_in_control(person, now):
        return StageChange(None, refusals.human_in_control())
    settings = await organizations.settings_of(conn, org)
    stage = next((s for s in settings.stages if s.key == stage_key), None)
    if stage is None:
        return StageChange(None, refusals.unknown_stage(stage_key))
    previous = await repo.get_state(conn, org, contact)
    row = await repo.put_state(
        conn, org, contact, updated_by=actor_doc(actor), now=now, stage_key=stage.key, stage_label=stage.label,
        reason=reason.strip(), source_turn_id=source_turn_id,
    )
    if previous is None or previous["stage_key"] != stage.key:
        label = stage.label or stage.key
        summary = f"Etapa alterada para “{label}”" + (f": {reason.strip()}" if reason.strip() else "")
        await timeline.record(conn, org, contact, r.ACTIVITY_KIND_STAGE_CHANGED, summary, now, actor=actor,
                              turn_id=source_turn_id,
                              details={"from": previous["stage_key"] if previous else "", "to": stage.key})
    return StageChange(row, None)


def _human_in_control(contact: Row, now: datetime) -> bool:
    until = contact["human_control_until"]
    return bool(contact["human_in_control"]) and (until is None or until > now)


async def save_note(conn: AsyncConnection, org: UUID, contact: UUID, *, key: str, title: str, body: str,
                    source_turn_id: str, author: r.Actor, now: datetime) -> Row:
    if not body.strip() and not title.strip():
        raise InvalidArgument("a note needs a title or a body")
    await contacts.require(conn, org, contact)
    row = await repo.save_note(
        conn, org, uuid.uuid4(), contact, key=key.strip() or None, author=actor_doc(author), now=now,
        title=title.strip(), body=body.strip(), source_turn_id=source_turn_id,
    )
    await timeline.record(conn, org, contact, r.ACTIVITY_KIND_NOTE_SAVED,
                          f"Anotação salva: {row['title'] or row['body'][:60]}", now, actor=author,
                          turn_id=source_turn_id, details={"note_id": str(row["note_id"])})
    return row
