"""The Operador's basic registration for a batch of closed turns, in one transaction.

RegisterTurnBasics carries, per turn, the same requests the single write RPCs would get, with
the same idempotency keys, and makes the same rows: the lead's stage (with its STAGE_CHANGED
line), the decision activity, the Operador's outcome and the stored responses are written
set-based, one statement per kind for every turn of an organisation; the rarer writes (a
promised follow-up, an obligation resolved, an inbox item) go through the same domain functions
as their RPCs, each turn inside a savepoint.

A turn is applied whole or not at all. Everything the single RPCs would refuse or reject is
checked before anything is written, and such a turn is reported NOT_APPLIED with nothing
written: its caller then runs it with the single RPCs, where the refusal or the error surfaces
exactly as before. A turn whose keys were all used before is REPLAYED (nothing written); one
whose keys were only partly used is NOT_APPLIED (the single RPCs replay the used ones).
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from google.protobuf.message import Message
from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from services.crm import central, contacts, followups, ids, obligations, organizations, queue, turns
from services.crm import messages as m
from services.crm.errors import Aborted, CrmError, InvalidArgument
from services.crm.idempotency import MAX_KEY_LENGTH, is_refusal
from services.crm.leads import AUTOMATIC
from services.crm.repository import Store, use_tenant
from services.crm.repository import turn_basics as repo
from services.crm.repository._sql import js

MAX_TURNS = 500
RPC = {
    "update_lead_state": "UpdateLeadState",
    "schedule_follow_up": "ScheduleFollowUp",
    "resolve_obligation": "ResolveObligation",
    "raise_central_item": "RaiseCentralItem",
    "record_activity": "RecordActivity",
    "record_operador_outcome": "RecordOperadorOutcome",
}
RARE = frozenset({"schedule_follow_up", "resolve_obligation", "raise_central_item"})
SYSTEM = r.Actor(kind=r.ACTOR_KIND_SYSTEM)


def follow_up_id_for(key: str) -> UUID:
    """The id of a follow-up scheduled by a batch: derived from its idempotency key."""
    return uuid.uuid5(uuid.NAMESPACE_URL, key)


class _NotApplied(Exception):
    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


@dataclass
class _Write:
    kind: str
    request: Any
    at: datetime = datetime.min

    @property
    def key(self) -> tuple[str, str]:
        return RPC[self.kind], self.request.idempotency_key


@dataclass
class _Turn:
    index: int
    org: UUID
    writes: list[_Write]
    status: int = wr.TURN_BASICS_STATUS_APPLIED
    detail: str = ""
    responses: list[tuple[str, str, bytes]] = field(default_factory=list)

    def skip(self, detail: str) -> None:
        self.status, self.detail = wr.TURN_BASICS_STATUS_NOT_APPLIED, detail

    @property
    def live(self) -> bool:
        return self.status == wr.TURN_BASICS_STATUS_APPLIED

    def of(self, kind: str) -> list[_Write]:
        return [w for w in self.writes if w.kind == kind]

    def respond(self, write: _Write, response: Message) -> None:
        rpc, key = write.key
        self.responses.append((rpc, key, response.SerializeToString()))


async def register(store: Store, clock: Any, policy: queue.QueuePolicy,
                   request: wr.RegisterTurnBasicsRequest) -> wr.RegisterTurnBasicsResponse:
    if len(request.turns) > MAX_TURNS:
        raise InvalidArgument(f"at most {MAX_TURNS} turns per RegisterTurnBasics call")
    results = [wr.TurnBasicsResult(event_id=item.event_id) for item in request.turns]
    by_org: dict[UUID, list[_Turn]] = {}
    parsed: list[_Turn] = []
    for index, item in enumerate(request.turns):
        try:
            turn = _parse(index, item)
        except (CrmError, _NotApplied) as error:
            results[index].status = wr.TURN_BASICS_STATUS_NOT_APPLIED
            results[index].detail = getattr(error, "detail", None) or getattr(error, "message", str(error))
            continue
        parsed.append(turn)
        by_org.setdefault(turn.org, []).append(turn)
    now = clock()
    tick = 0
    for turn in parsed:  # each write its own instant, in request order, so the timeline keeps the order
        for write in turn.writes:
            write.at = now + timedelta(microseconds=tick)
            tick += 1
    if by_org:
        async with store.batch() as conn:
            # Organisations in a fixed order too: two batches lock contacts in the same sequence.
            for org, org_turns in sorted(by_org.items()):
                await use_tenant(conn, org)
                await _apply(conn, org, org_turns, policy, now)
    for turn in parsed:
        results[turn.index].status = turn.status  # type: ignore[assignment]
        results[turn.index].detail = turn.detail
    return wr.RegisterTurnBasicsResponse(results=results)


def _parse(index: int, item: wr.TurnBasics) -> _Turn:
    org = ids.required_uuid(item.organization_id, "organization_id")
    writes: list[_Write] = []
    for write in item.writes:
        kind = write.WhichOneof("write")
        if kind is None:
            raise _NotApplied("an empty write")
        request = getattr(write, kind)
        if request.organization_id != item.organization_id:
            raise _NotApplied(f"{kind} names another organisation")
        if not request.idempotency_key or len(request.idempotency_key) > MAX_KEY_LENGTH:
            raise _NotApplied(f"{kind} needs an idempotency key of at most {MAX_KEY_LENGTH} characters")
        if kind in ("update_lead_state", "record_activity"):
            ids.required_uuid(request.contact_id, "contact_id")
        if kind == "update_lead_state" and not request.stage_key.strip():
            raise _NotApplied("stage_key is required")
        if kind == "record_activity":
            ids.required_text(request.summary_pt, "summary_pt", max_length=2000)
        if kind == "record_operador_outcome":
            turns.validate_turn_id(request.turn_id)
            if not request.HasField("outcome"):
                raise _NotApplied("outcome is required")
            if request.outcome.usage:
                raise _NotApplied("an outcome with model usage changes the turn's token totals: single RPC")
        writes.append(_Write(kind, request))
    if not writes:
        raise _NotApplied("no writes")
    keys = [w.key for w in writes]
    if len(set(keys)) != len(keys):
        raise _NotApplied("two writes share an idempotency key")
    return _Turn(index, org, writes)


async def _apply(conn: AsyncConnection, org: UUID, batch: list[_Turn], policy: queue.QueuePolicy,
                 now: datetime) -> None:
    used = await repo.used_keys(conn, org, sorted({w.request.idempotency_key for t in batch for w in t.writes}))
    seen: set[tuple[str, str]] = set()
    for turn in batch:
        keys = {w.key for w in turn.writes}
        if keys & seen:
            turn.skip("another turn of this batch uses the same idempotency key")
        elif keys <= used:
            turn.status = wr.TURN_BASICS_STATUS_REPLAYED
        elif keys & used:
            turn.skip("some of its writes were made before, others not")
        seen |= keys
    live = [t for t in batch if t.live]
    if not live:
        return
    contact_ids = sorted({UUID(w.request.contact_id) for t in live for w in t.writes
                          if w.kind in ("update_lead_state", "record_activity", "schedule_follow_up")
                          and w.request.contact_id})
    people = await repo.contacts(conn, org, contact_ids, lock=True)
    stages = {}
    if any(t.of("update_lead_state") for t in live):
        stages = {s.key: s for s in (await organizations.settings_of(conn, org)).stages}
    outcome_turns = [w.request.turn_id for t in live for w in t.of("record_operador_outcome")]
    executed = await repo.executions(conn, org, outcome_turns) if outcome_turns else set()
    states = {k: dict(v) for k, v in (await repo.states(conn, org, contact_ids)).items()}

    outcome_seen: set[str] = set()
    for turn in live:
        try:
            _check(turn, people, stages, executed, outcome_seen, now)
        except _NotApplied as error:
            turn.skip(error.detail)
    for turn in [t for t in live if t.live and any(w.kind in RARE for w in t.writes)]:
        try:
            async with conn.begin_nested():
                for write in turn.writes:
                    if write.kind in RARE:
                        response = await _rare(conn, org, write, policy)
                        if is_refusal(response):
                            raise _NotApplied(f"{write.kind} refused: {response.refusal.code}")  # type: ignore[attr-defined]
                        turn.respond(write, response)
        except (_NotApplied, CrmError) as error:
            turn.responses.clear()
            turn.skip(getattr(error, "detail", None) or getattr(error, "message", str(error)))
    live = [t for t in live if t.live]

    put_states: dict[UUID, dict[str, Any]] = {}
    activities: list[dict[str, Any]] = []
    outcomes: list[dict[str, Any]] = []
    for turn in live:
        for write in turn.writes:
            request = write.request
            if write.kind == "update_lead_state":
                contact = UUID(request.contact_id)
                stage = stages[request.stage_key.strip()]
                actor = request.actor if request.HasField("actor") else r.Actor()
                previous = states.get(contact)
                state = {
                    "contact_id": contact, "stage_key": stage.key, "stage_label": stage.label,
                    "reason": request.reason.strip(), "source_turn_id": request.source_turn_id,
                    "updated_by": m.actor_doc(actor), "updated_at": write.at,
                }
                state["updated_by_json"] = js(state["updated_by"])
                states[contact] = put_states[contact] = state
                turn.respond(write, wr.UpdateLeadStateResponse(lead_state=m.lead_state(state)))
                if previous is None or previous["stage_key"] != stage.key:
                    label = stage.label or stage.key
                    summary = f"Etapa alterada para “{label}”" + (f": {state['reason']}" if state["reason"] else "")
                    activities.append(_activity(contact, r.ACTIVITY_KIND_STAGE_CHANGED, summary, actor, write.at,
                                                turn_id=request.source_turn_id, details={
                                                    "from": previous["stage_key"] if previous else "",
                                                    "to": stage.key}))
            elif write.kind == "record_activity":
                actor = request.actor if request.HasField("actor") else r.Actor()
                row = _activity(UUID(request.contact_id), request.kind or r.ACTIVITY_KIND_OTHER,
                                request.summary_pt, actor, write.at, turn_id=request.turn_id,
                                event_id=request.event_id, details=m.struct_to_dict(request.details),
                                occurred_at=m.when(request, "occurred_at"))
                activities.append(row)
                # The response m.activity(row) would build, with the request's own Struct (no dict round trip).
                turn.respond(write, wr.RecordActivityResponse(activity=r.LeadActivity(
                    activity_id=str(row["activity_id"]), contact_id=request.contact_id,
                    kind=m.ACTIVITY_KIND.number(row["kind"]), actor=m.actor(row["actor"]),
                    summary_pt=row["summary_pt"], turn_id=row["turn_id"], event_id=row["event_id"],
                    details=request.details, occurred_at=m.ts(row["occurred_at"]))))
            elif write.kind == "record_operador_outcome":
                document = outcome_doc(request.outcome, write.at)
                outcomes.append({"turn_id": request.turn_id, "operador_json": js(document),
                                 "status": m.OPERADOR_STATUS.word(request.outcome.status),
                                 "actions": len(request.outcome.actions), "recorded_at": write.at})
                turn.respond(write, wr.RecordOperadorOutcomeResponse())
    await repo.put_states(conn, org, list(put_states.values()))
    await repo.insert_activities(conn, org, activities)
    if await repo.set_outcomes(conn, org, outcomes) != len(outcomes):
        raise Aborted("a turn's execution record changed during the batch; retry it")
    keys = [k for t in live for k in t.responses]
    if await repo.save_keys(conn, org, keys, now) != len(keys):
        # Another transaction used one of these keys meanwhile: give the whole batch back.
        raise Aborted("an idempotency key of the batch was used concurrently; retry the batch")


def _check(turn: _Turn, people: dict[UUID, Any], stages: dict[str, r.StageDefinition], executed: set[str],
           outcome_seen: set[str], now: datetime) -> None:
    """Every refusal and error the single RPCs would meet, found before anything is written."""
    for write in turn.writes:
        request = write.request
        if write.kind in ("update_lead_state", "record_activity"):
            person = people.get(UUID(request.contact_id))
            if person is None:
                raise _NotApplied(f"contact {request.contact_id} not found")
            if write.kind == "update_lead_state":
                actor = request.actor if request.HasField("actor") else r.Actor()
                until = person["human_control_until"]
                if person["anonymized"]:
                    raise _NotApplied("UpdateLeadState would be refused: contact anonymized")
                if actor.kind in AUTOMATIC and person["human_in_control"] and (until is None or until > now):
                    raise _NotApplied("UpdateLeadState would be refused: a person is in control")
                if request.stage_key.strip() not in stages:
                    raise _NotApplied(f"UpdateLeadState would be refused: unknown stage {request.stage_key!r}")
        elif write.kind == "record_operador_outcome":
            if request.turn_id not in executed:
                raise _NotApplied(f"turn {request.turn_id} has no execution record")
            if request.turn_id in outcome_seen:
                raise _NotApplied(f"turn {request.turn_id} appears twice in the batch")
            outcome_seen.add(request.turn_id)


def outcome_doc(outcome: r.OperadorOutcome, at: datetime) -> dict[str, Any]:
    """The stored JSON of an Operador outcome without usage (`finished_at` defaults to `at`): exactly what
    MessageToDict gives for it, written out, because the generic printer was the batch's largest cost."""
    if outcome.usage:
        copy = r.OperadorOutcome()
        copy.CopyFrom(outcome)
        if not copy.HasField("finished_at"):
            copy.finished_at.CopyFrom(m.ts(at))
        return m.to_json(copy)
    doc: dict[str, Any] = {}
    if outcome.status:
        doc["status"] = r.OperadorOutcomeStatus.Name(outcome.status) if outcome.status in _OUTCOME_NAMES \
            else outcome.status
    if outcome.used_model:
        doc["usedModel"] = True
    if outcome.actions:
        doc["actions"] = list(outcome.actions)
    if outcome.summary_pt:
        doc["summaryPt"] = outcome.summary_pt
    if outcome.event_id:
        doc["eventId"] = outcome.event_id
    stamp = outcome.finished_at if outcome.HasField("finished_at") else m.ts(at)
    doc["finishedAt"] = stamp.ToJsonString()  # type: ignore[union-attr]
    return doc


_OUTCOME_NAMES = frozenset(r.OperadorOutcomeStatus.values())


def _activity(contact: UUID, kind: int, summary: str, actor: r.Actor, at: datetime, *, turn_id: str = "",
              event_id: str = "", details: dict[str, Any] | None = None,
              occurred_at: datetime | None = None) -> dict[str, Any]:
    row = {
        "activity_id": uuid.uuid4(), "contact_id": contact, "kind": m.ACTIVITY_KIND.word(kind),
        "actor": m.actor_doc(actor if actor.kind else SYSTEM), "summary_pt": summary, "turn_id": turn_id,
        "event_id": event_id, "details": details or {}, "occurred_at": occurred_at or at, "recorded_at": at,
    }
    row["actor_json"], row["details_json"] = _actor_json(row["actor"]["kind"], row["actor"]["name"]), js(row["details"])
    return row


@functools.lru_cache(maxsize=256)
def _actor_json(kind: str, name: str) -> str:
    return js({"kind": kind, "name": name})


async def _rare(conn: AsyncConnection, org: UUID, write: _Write, policy: queue.QueuePolicy) -> Message:
    """A follow-up, an obligation or an inbox item: the same domain call and response as its RPC."""
    request, at = write.request, write.at
    if write.kind == "schedule_follow_up":
        contact = ids.required_uuid(request.contact_id, "contact_id")
        item = followups.Scheduling(
            contact=contact, due_at=m.when(request, "due_at"), reason=request.reason, callback=request.callback,
            fixed_text=request.fixed_text, obligation=ids.optional_uuid(request.obligation_id, "obligation_id"),
            source_turn_id=request.source_turn_id,
            scheduled_by=request.scheduled_by if request.HasField("scheduled_by") else r.Actor(),
        )
        scheduled = await followups.schedule(conn, org, item, policy, at,
                                             follow_up_id=follow_up_id_for(request.idempotency_key))
        if scheduled.refusal is not None:
            return wr.ScheduleFollowUpResponse(refusal=scheduled.refusal)
        return wr.ScheduleFollowUpResponse(follow_up=m.follow_up(scheduled.follow_up), event_id=scheduled.event_id)
    if write.kind == "resolve_obligation":
        obligation = ids.required_uuid(request.obligation_id, "obligation_id")
        resolution = obligations.Resolution(
            outcome=request.outcome, resolution=request.resolution, evidence=list(request.evidence),
            request_proactive_turn=request.request_proactive_turn,
            resolved_by=request.resolved_by if request.HasField("resolved_by") else r.Actor(),
        )
        resolved = await obligations.resolve(conn, org, obligation, resolution, policy, at)
        if resolved.refusal is not None:
            return wr.ResolveObligationResponse(refusal=resolved.refusal)
        return wr.ResolveObligationResponse(obligation=m.obligation(resolved.obligation),
                                            proactive_event_id=resolved.proactive_event_id)
    contact_of = ids.optional_uuid(request.contact_id, "contact_id")
    title = ids.required_text(request.title_pt, "title_pt", max_length=300)
    if not request.kind:
        raise InvalidArgument("kind is required")
    await organizations.require(conn, org)
    if contact_of is not None:
        await contacts.require(conn, org, contact_of)
    row, new = await central.raise_item(
        conn, org, kind=request.kind, severity=request.severity, title_pt=title, body_pt=request.body_pt,
        code=request.code, contact=contact_of, turn_id=request.turn_id, event_id=request.event_id,
        details=m.struct_to_dict(request.details),
        raised_by=request.raised_by if request.HasField("raised_by") else r.Actor(),
        dedup_key=request.dedup_key, now=at,
    )
    return wr.RaiseCentralItemResponse(item=m.central_item(row), deduplicated=not new)
