"""Human cases: a conversation or a request handed to a person, with its updates."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.common.v1 import declaracao_pb2
from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import central, contacts, refusals, timeline
from services.crm.errors import InvalidArgument, NotFound
from services.crm.messages import CASE_PRIORITY, CASE_REASON, CASE_STATUS, actor_doc, to_json
from services.crm.repository import cases as repo
from services.crm.repository import central as central_repo
from services.crm.repository import contacts as contacts_repo
from services.crm.repository._sql import Row


@dataclass(frozen=True)
class Opening:
    contact: UUID
    reason: int
    reason_text: str
    summary: str
    declaracao: declaracao_pb2.DeclaracaoDoTurno | None
    priority: int
    take_conversation: bool
    source_turn_id: str
    opened_by: r.Actor


@dataclass(frozen=True)
class Opened:
    case: Row
    already_open: bool
    central_item_id: str


async def open_case(conn: AsyncConnection, org: UUID, opening: Opening, now: datetime) -> Opened:
    person = await contacts.require(conn, org, opening.contact, lock=True)
    existing = await repo.open_case_of(conn, org, opening.contact)
    if existing is not None:
        return Opened(existing, True, str(existing["central_item_id"] or ""))
    case = await repo.insert(
        conn, org, uuid.uuid4(), opening.contact,
        declaracao=to_json(opening.declaracao) if opening.declaracao is not None else None,
        opened_by=actor_doc(opening.opened_by), now=now,
        reason=CASE_REASON.word(opening.reason), reason_text=opening.reason_text.strip(),
        summary=opening.summary.strip(), priority=CASE_PRIORITY.word(opening.priority or r.CASE_PRIORITY_NORMAL),
        source_turn_id=opening.source_turn_id,
    )
    assert case is not None  # the contact row lock above serialises openings of one contact
    name = person["name"] or person["phone_e164"] or "um cliente"
    item, _ = await central.raise_item(
        conn, org,
        kind=r.CENTRAL_ITEM_KIND_HANDOFF,
        severity=r.CENTRAL_ITEM_SEVERITY_CRITICAL if opening.priority == r.CASE_PRIORITY_HIGH
        else r.CENTRAL_ITEM_SEVERITY_WARNING,
        title_pt=f"Atendimento aguardando a equipe: {name}",
        body_pt=opening.summary.strip() or opening.reason_text.strip() or "Uma conversa foi passada para a equipe.",
        code=f"human_case:{CASE_REASON.word(opening.reason)}",
        contact=opening.contact, turn_id=opening.source_turn_id,
        raised_by=opening.opened_by, dedup_key=f"human_case:{case['case_id']}", now=now,
    )
    case = await repo.set_central_item(conn, org, case["case_id"], item["central_item_id"])
    await timeline.record(conn, org, opening.contact, r.ACTIVITY_KIND_CASE_OPENED,
                          f"Atendimento aberto para a equipe: {opening.reason_text.strip() or opening.summary[:80]}",
                          now, actor=opening.opened_by, turn_id=opening.source_turn_id,
                          details={"case_id": str(case["case_id"])})
    if opening.take_conversation:
        await contacts_repo.set_human_control(conn, org, opening.contact, True, None, now)
        await timeline.record(conn, org, opening.contact, r.ACTIVITY_KIND_HUMAN_CONTROL_CHANGED,
                              "Uma pessoa assumiu a conversa", now, actor=opening.opened_by,
                              turn_id=opening.source_turn_id)
    return Opened(case, False, str(item["central_item_id"]))


@dataclass(frozen=True)
class Updated:
    case: Row | None
    update: Row | None
    refusal: r.CrmRefusal | None


async def provide_update(conn: AsyncConnection, org: UUID, case_id: UUID, *, text: str, customer_facing: bool,
                         new_status: int, author: r.Actor, now: datetime) -> Updated:
    if not text.strip():
        raise InvalidArgument("text is required")
    if new_status == r.HUMAN_CASE_STATUS_CLOSED:
        raise InvalidArgument("new_status CLOSED is not accepted here; use CloseHumanCase")
    case = await require(conn, org, case_id, lock=True)
    if case["status"] == "closed":
        return Updated(None, None, refusals.case_closed())
    update = await repo.add_update(conn, org, uuid.uuid4(), case_id, text=text.strip(), author=actor_doc(author),
                                   customer_facing=customer_facing, now=now)
    if new_status:
        case = await repo.set_status(conn, org, case_id, CASE_STATUS.word(new_status))
    await timeline.record(conn, org, case["contact_id"], r.ACTIVITY_KIND_CASE_UPDATED,
                          f"Atualização no atendimento: {text.strip()[:100]}", now, actor=author,
                          details={"case_id": str(case_id), "customer_facing": customer_facing})
    return Updated(case, update, None)


async def close_case(conn: AsyncConnection, org: UUID, case_id: UUID, *, resolution: str,
                     return_conversation: bool, closed_by: r.Actor, now: datetime) -> Updated:
    case = await require(conn, org, case_id, lock=True)
    if case["status"] == "closed":
        return Updated(None, None, refusals.case_closed())
    case = await repo.close(conn, org, case_id, resolution.strip(), now)
    await central_repo.resolve_by_key(conn, org, f"human_case:{case_id}",
                                      resolution=resolution.strip() or "Atendimento encerrado.",
                                      resolved_by=actor_doc(closed_by), now=now)
    await timeline.record(conn, org, case["contact_id"], r.ACTIVITY_KIND_CASE_CLOSED,
                          "Atendimento encerrado" + (f": {resolution.strip()}" if resolution.strip() else ""),
                          now, actor=closed_by, details={"case_id": str(case_id)})
    if return_conversation:
        await contacts_repo.set_human_control(conn, org, case["contact_id"], False, None, now)
        await timeline.record(conn, org, case["contact_id"], r.ACTIVITY_KIND_HUMAN_CONTROL_CHANGED,
                              "A conversa voltou para o assistente", now, actor=closed_by)
    return Updated(case, None, None)


async def require(conn: AsyncConnection, org: UUID, case_id: UUID, *, lock: bool = False) -> Row:
    row = await repo.get(conn, org, case_id, lock=lock)
    if row is None:
        raise NotFound(f"human case {case_id} not found in organization {org}")
    return row
