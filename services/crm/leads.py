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
    seq = await turn_seq(conn, org, contact, source_turn_id)
    previous = await repo.get_state(conn, org, contact)
    if seq is not None and previous is not None \
            and superseded(previous["source_seq"], previous["source_turn_id"], seq, source_turn_id):
        kept, by_turn = previous["stage_key"], previous["source_turn_id"]
        await timeline.record(conn, org, contact, r.ACTIVITY_KIND_OTHER,
                              kept_summary(kept, previous["stage_label"], by_turn, stage), now, actor=actor,
                              turn_id=source_turn_id, details=kept_details(kept, by_turn, stage.key))
        return StageChange(previous, None)
    row = await repo.put_state(
        conn, org, contact, updated_by=actor_doc(actor), now=now, stage_key=stage.key, stage_label=stage.label,
        reason=reason.strip(), source_turn_id=source_turn_id, source_seq=seq,
    )
    if previous is None or previous["stage_key"] != stage.key:
        label = stage.label or stage.key
        summary = f"Etapa alterada para “{label}”" + (f": {reason.strip()}" if reason.strip() else "")
        await timeline.record(conn, org, contact, r.ACTIVITY_KIND_STAGE_CHANGED, summary, now, actor=actor,
                              turn_id=source_turn_id,
                              details={"from": previous["stage_key"] if previous else "", "to": stage.key})
    return StageChange(row, None)


async def turn_seq(conn: AsyncConnection, org: UUID, contact: UUID, source_turn_id: str) -> int | None:
    """The `seq` of the turn a write names, when that turn closed for this contact; None: not tied to a turn."""
    if not source_turn_id:
        return None
    checkpoint = await repo.checkpoint_by_turn(conn, org, source_turn_id)
    if checkpoint is None or str(checkpoint["contact_id"]) != str(contact):
        return None
    return int(checkpoint["seq"])


def superseded(marker: int | None, marker_turn: str, seq: int, source_turn_id: str) -> bool:
    """Whether a write on behalf of the turn with checkpoint `seq` must leave the stage alone: the stored state
    was set by a newer turn, or by another write at least as new (a person after this turn closed: a person's
    write stores the last seq handed out then). Its own turn may set it again; an unknown marker (NULL, rows from
    before `crm_0004`) lets any turn set it. `marker` and `marker_turn` are the stored `source_seq` and
    `source_turn_id`."""
    if marker is None or seq > marker:
        return False
    return not (seq == marker and marker_turn == source_turn_id)


KEPT_BY_TURN = "Etapa não alterada: uma conversa mais recente já definiu a etapa"
KEPT_BY_PERSON = "Etapa não alterada: uma pessoa definiu a etapa depois desta conversa"


def kept_summary(kept_key: str, kept_label: str, set_by_turn: str, wanted: r.StageDefinition) -> str:
    """The timeline line of a turn's stage change that was not made, in the owner's words."""
    why = KEPT_BY_TURN if set_by_turn else KEPT_BY_PERSON
    return f"{why} (continua em “{kept_label or kept_key}”; esta conversa indicava “{wanted.label or wanted.key}”)"


def kept_details(kept_key: str, set_by_turn: str, wanted: str) -> dict[str, str]:
    return {"stage_not_changed": wanted, "kept": kept_key, "set_by_turn": set_by_turn}


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
