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
import os
import re
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from google.protobuf.message import Message
from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.crm.v1 import event_queue_pb2 as eq
from services.crm import (
    central,
    contacts,
    followups,
    ids,
    leads,
    obligations,
    organization_settings,
    organizations,
    queue,
    turns,
)
from services.crm import messages as m
from services.crm.errors import Aborted, CrmError, InvalidArgument, NotFound
from services.crm.idempotency import MAX_KEY_LENGTH, is_refusal
from services.crm.repository import Store, use_tenant
from services.crm.repository import turn_basics as repo

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


def _why(error: Exception) -> str:
    return getattr(error, "detail", None) or getattr(error, "message", None) or str(error)


class _Ids:
    """The batch's ids as canonical UUID strings (lower-case, hyphenated), each distinct value parsed once (a
    hundred turns name the same organisation and a few dozen contacts); a value already in that form is
    recognised by a regular expression instead of being parsed."""

    def __init__(self) -> None:
        self._canonical: dict[str, str] = {}
        self._uuids: dict[str, UUID] = {}

    def canonical(self, value: str, field: str) -> str:
        if _CANONICAL_UUID(value):
            return value
        found = self._canonical.get(value)
        if found is None:
            found = self._canonical[value] = str(self.uuid(value, field))
        return found

    def uuid(self, value: str, field: str) -> UUID:
        found = self._uuids.get(value)
        if found is None:
            found = self._uuids[value] = ids.required_uuid(value, field)
        return found


_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").fullmatch


def _new_id() -> str:
    """`str(uuid.uuid4())`, from the same 16 random bytes, without the UUID object (a timeline line each)."""
    h = os.urandom(16).hex()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) & 3]}{h[17:20]}-{h[20:]}"


@dataclass(slots=True)
class _Write:
    kind: str
    request: Any
    rpc: str
    key: str  # the idempotency key
    contact: str = ""  # canonical contact id of a write that names one
    at: datetime = datetime.min
    tick: int = 0  # `at` is the call's `now` plus this many microseconds

    @property
    def pair(self) -> tuple[str, str]:
        return self.rpc, self.key


@dataclass(slots=True)
class _Turn:
    index: int
    org: UUID
    event_id: str
    lease: str  # canonical lease token; "" when the caller completes the event itself
    writes: list[_Write]
    keys: set[tuple[str, str]]
    status: int = wr.TURN_BASICS_STATUS_APPLIED
    detail: str = ""
    completion: int = 0
    responses: list[tuple[str, str, bytes]] = field(default_factory=list)  # (rpc, key, stored response)

    def skip(self, detail: str) -> None:
        self.status, self.detail = wr.TURN_BASICS_STATUS_NOT_APPLIED, detail

    @property
    def live(self) -> bool:
        return self.status == wr.TURN_BASICS_STATUS_APPLIED

    def respond(self, write: _Write, response: Message) -> None:
        self.responses.append((write.rpc, write.key, response.SerializeToString()))


async def register(store: Store, clock: Any, policy: queue.QueuePolicy,
                   request: wr.RegisterTurnBasicsRequest) -> wr.RegisterTurnBasicsResponse:
    if len(request.turns) > MAX_TURNS:
        raise InvalidArgument(f"at most {MAX_TURNS} turns per RegisterTurnBasics call")
    not_applied: dict[int, str] = {}
    by_org: dict[UUID, list[_Turn]] = {}
    parsed: list[_Turn] = []
    seen = _Ids()
    for index, item in enumerate(request.turns):
        try:
            turn = _parse(index, item, seen)
        except (CrmError, _NotApplied) as error:
            not_applied[index] = _why(error)
            continue
        parsed.append(turn)
        by_org.setdefault(turn.org, []).append(turn)
    now = clock()
    tick = 0
    for turn in parsed:  # each write its own instant, in request order, so the timeline keeps the order
        for write in turn.writes:
            write.at, write.tick = now + timedelta(microseconds=tick), tick
            tick += 1
    if by_org:
        # Organisations in a fixed order too: two batches lock contacts in the same sequence.
        orgs = sorted(by_org)
        async with store.batch(orgs[0]) as conn:
            for org in orgs:
                if org != orgs[0]:
                    await use_tenant(conn, org)
                await _apply(conn, org, by_org[org], policy, now)
    response = wr.RegisterTurnBasicsResponse()
    outcome = {turn.index: turn for turn in parsed}
    for index, item in enumerate(request.turns):
        turn = outcome.get(index)
        if turn is None:
            response.results.add(event_id=item.event_id, status=wr.TURN_BASICS_STATUS_NOT_APPLIED,
                                 detail=not_applied[index])
        else:
            response.results.add(event_id=item.event_id, status=turn.status, detail=turn.detail,  # type: ignore[arg-type]
                                 completion=turn.completion)  # type: ignore[arg-type]
    return response


def _parse(index: int, item: wr.TurnBasics, seen: _Ids) -> _Turn:
    org_id = item.organization_id
    org = seen.uuid(org_id, "organization_id")
    lease = ""
    if item.lease_token:
        lease = seen.canonical(item.lease_token, "lease_token")
        seen.canonical(item.event_id, "event_id")
    writes: list[_Write] = []
    for write in item.writes:
        kind = write.WhichOneof("write")
        if kind is None:
            raise _NotApplied("an empty write")
        request = getattr(write, kind)
        if request.organization_id != org_id:
            raise _NotApplied(f"{kind} names another organisation")
        key = request.idempotency_key
        if not key or len(key) > MAX_KEY_LENGTH:
            raise _NotApplied(f"{kind} needs an idempotency key of at most {MAX_KEY_LENGTH} characters")
        contact = ""
        if kind == "update_lead_state":
            contact = seen.canonical(request.contact_id, "contact_id")
            if not request.stage_key.strip():
                raise _NotApplied("stage_key is required")
        elif kind == "record_activity":
            contact = seen.canonical(request.contact_id, "contact_id")
            ids.required_text(request.summary_pt, "summary_pt", max_length=2000)
        elif kind == "record_operador_outcome":
            turns.validate_turn_id(request.turn_id)
            if not request.HasField("outcome"):
                raise _NotApplied("outcome is required")
            if request.outcome.usage:
                raise _NotApplied("an outcome with model usage changes the turn's token totals: single RPC")
        elif kind == "schedule_follow_up" and request.contact_id:
            contact = seen.canonical(request.contact_id, "contact_id")
        writes.append(_Write(kind, request, RPC[kind], key, contact))
    if not writes:
        raise _NotApplied("no writes")
    keys = {w.pair for w in writes}
    if len(keys) != len(writes):
        raise _NotApplied("two writes share an idempotency key")
    event_id = seen.canonical(item.event_id, "event_id") if lease else item.event_id
    return _Turn(index, org, event_id, lease, writes, keys)


async def read_closed_turns(store: Store, now: datetime,
                            request: rd.BatchGetClosedTurnsRequest) -> rd.BatchGetClosedTurnsResponse:
    """BatchGetClosedTurns: each turn's contact, its own checkpoint (only when it belongs to that contact) and its
    obligations (at most 50, oldest first), one transaction for every organisation of the batch."""
    if len(request.turns) > MAX_TURNS:
        raise InvalidArgument(f"at most {MAX_TURNS} turns per BatchGetClosedTurns call")
    seen = _Ids()
    by_org: dict[UUID, list[int]] = {}
    refs: list[tuple[str, str]] = []
    for n, ref in enumerate(request.turns):
        org = seen.uuid(ref.organization_id, f"turns[{n}].organization_id")
        refs.append((seen.canonical(ref.contact_id, f"turns[{n}].contact_id"), ref.turn_id))
        by_org.setdefault(org, []).append(n)
    found: dict[int, tuple[r.Contact | None, r.LeadCheckpoint | None, list[r.Obligation]]] = {}
    if by_org:  # nothing asked, nothing read
        async with store.batch(next(iter(by_org))) as conn:
            for n_org, (org, indexes) in enumerate(by_org.items()):
                if n_org:
                    await use_tenant(conn, org)
                people = await repo.contacts(conn, org, sorted({refs[n][0] for n in indexes}))
                wanted = sorted({refs[n][1] for n in indexes})
                checkpoints = await repo.checkpoints(conn, org, wanted)
                obligations_of = await repo.obligations(conn, org, wanted)
                built = {key: m.contact(row, now) for key, row in people.items()}  # once per contact, not per turn
                for n in indexes:
                    contact, turn_id = refs[n]
                    checkpoint = checkpoints.get(turn_id)
                    found[n] = (built.get(contact),
                                m.checkpoint(checkpoint) if checkpoint is not None
                                and str(checkpoint["contact_id"]) == contact else None,
                                [m.obligation(row) for row in obligations_of.get(turn_id, [])[:50]])
    response = rd.BatchGetClosedTurnsResponse()
    for n, ref in enumerate(request.turns):
        contact_message, checkpoint_message, obligation_messages = found[n]
        response.turns.add(ref=ref, contact=contact_message, checkpoint=checkpoint_message,
                           obligations=obligation_messages)
    return response


# The organisations' stages as last read, with the settings version they came from: the stored
# settings are parsed again only when their version moved (ParseDict is slow).
_STAGES: dict[UUID, tuple[int, dict[str, r.StageDefinition]]] = {}


async def _apply(conn: AsyncConnection, org: UUID, batch: list[_Turn], policy: queue.QueuePolicy,
                 now: datetime) -> None:
    contacts = sorted({w.contact for t in batch for w in t.writes if w.contact})
    checked = await repo.lock_contacts(conn, org, contacts=contacts, keys=sorted({k for t in batch for k in t.keys}))
    seen: set[tuple[str, str]] = set()
    used = checked.used
    for turn in batch:
        keys = turn.keys
        if keys & seen:
            turn.skip("another turn of this batch uses the same idempotency key")
        elif keys <= used:
            turn.status = wr.TURN_BASICS_STATUS_REPLAYED
        elif keys & used:
            turn.skip("some of its writes were made before, others not")
        seen |= keys
    live = [t for t in batch if t.live]
    rows = repo.Rows()
    if live:
        cached = _STAGES.get(org)
        outcome_turns = [w.request.turn_id for t in live for w in t.writes if w.kind == "record_operador_outcome"]
        source_turns = sorted({w.request.source_turn_id for t in live for w in t.writes
                               if w.kind == "update_lead_state" and w.request.source_turn_id})
        found = await repo.lookups(conn, org, contacts=contacts, turns=outcome_turns,
                                   settings_version=cached[0] if cached else None, source_turns=source_turns)
        stages: dict[str, r.StageDefinition] = {}
        if any(w.kind == "update_lead_state" for t in live for w in t.writes):
            if found.settings_version is None:
                raise NotFound(f"organization {org} not found")
            if found.settings is not None or cached is None:
                settings = organization_settings.from_document(found.settings or {})
                cached = (found.settings_version, {s.key: s for s in settings.stages})
                if len(_STAGES) > 10_000:
                    _STAGES.clear()
                _STAGES[org] = cached
            stages = cached[1]
        outcome_seen: set[str] = set()
        for turn in live:
            try:
                _check(turn, checked.people, stages, found.executed, outcome_seen, now)
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
                turn.skip(_why(error))
        live = [t for t in live if t.live]
        # A stage change an older turn asks for after a newer turn set the stage is not made, and its stored
        # response carries the state as it stays: the whole stored rows, read only when that can happen.
        older = sorted({w.contact for t in live for w in t.writes if w.kind == "update_lead_state"
                        and _older(_seq(w, found), found.markers.get(w.contact))})
        _rows(live, stages, found, await repo.states(conn, org, older) if older else {}, rows)
    leased = [t for t in batch if t.lease and t.status != wr.TURN_BASICS_STATUS_NOT_APPLIED]
    rows.events = [[t.event_id, t.lease] for t in leased]
    if not live and not leased:
        return
    written = await repo.write(conn, org, rows, now)
    if written.outcomes != len(rows.outcomes):
        raise Aborted("a turn's execution record changed during the batch; retry it")
    if written.keys != len(rows.keys):
        # Another transaction used one of these keys meanwhile: give the whole batch back.
        raise Aborted("an idempotency key of the batch was used concurrently; retry the batch")
    for turn in leased:
        if turn.event_id in written.completed:
            turn.completion = eq.LEASE_OUTCOME_COMPLETED
        elif turn.event_id in written.done_before:
            turn.completion = eq.LEASE_OUTCOME_ALREADY_COMPLETED
        else:
            turn.completion = eq.LEASE_OUTCOME_LEASE_LOST


def _seq(write: _Write, found: repo.Lookups) -> int | None:
    """The checkpoint `seq` of the turn a stage change names, when that turn closed for this contact."""
    checkpoint = found.turn_seqs.get(write.request.source_turn_id)
    return checkpoint[1] if checkpoint is not None and checkpoint[0] == write.contact else None


def _older(seq: int | None, marker: tuple[int | None, str] | None) -> bool:
    """Whether a stage change of the turn `seq` may meet a stored marker at least as new (a superset)."""
    return seq is not None and marker is not None and marker[0] is not None and seq <= marker[0]


def _rows(live: list[_Turn], stages: dict[str, r.StageDefinition], found: repo.Lookups, stored: dict[str, Any],
          rows: repo.Rows) -> None:
    """Every live turn's rows and the responses stored with its keys, in request order."""
    put_states: dict[str, list[Any]] = {}
    current = found.stages
    # Per contact, what set its stage last: (source_seq, source_turn_id) as stored, then as this batch sets it,
    # and the state a stage change that is not made answers with.
    markers = dict(found.markers)
    states: dict[str, r.LeadState] = {}
    activities, outcomes, share = rows.activities, rows.outcomes, rows.share
    for turn in live:
        for write in turn.writes:
            request, at, kind = write.request, write.at, write.kind
            if kind == "record_activity":
                details = request.details.SerializeToString()
                row = [_new_id(), write.contact, m.ACTIVITY_KIND.word(request.kind or r.ACTIVITY_KIND_OTHER),
                       _shared_actor(rows, request.actor), request.summary_pt, request.turn_id, request.event_id,
                       share(("details", details), lambda d=request.details: m.struct_to_dict(d)), write.tick, None]
                occurred = at
                if request.HasField("occurred_at"):
                    occurred = m.when(request, "occurred_at")
                    row[9] = _iso(occurred)  # type: ignore[arg-type]
                activities.append(row)
                turn.responses.append((write.rpc, write.key, activity_response(
                    r.LeadActivity(activity_id=row[0], contact_id=write.contact, kind=m.ACTIVITY_KIND.number(row[2]),
                                   summary_pt=row[4], turn_id=row[5], event_id=row[6], occurred_at=m.ts(occurred)),
                    request.actor if request.actor.kind else SYSTEM, details)))
            elif kind == "record_operador_outcome":
                # The stored document is outcome_doc's: what turns share (status, actions, summary) written
                # once in `shared`, the event and the instant per row (no usage here: _parse refuses it).
                outcome = request.outcome
                common = share(("outcome", outcome.status, outcome.used_model, tuple(outcome.actions),
                                outcome.summary_pt), lambda o=outcome, a=at: _outcome_common(o, a))
                finished = outcome.finished_at.ToJsonString() if outcome.HasField("finished_at") else rfc3339(at)
                outcomes.append([request.turn_id, common, outcome.event_id or None, finished,
                                 m.OPERADOR_STATUS.word(outcome.status), len(outcome.actions), write.tick])
                turn.respond(write, _EMPTY_OUTCOME_RESPONSE)
            elif kind == "update_lead_state":
                contact = write.contact
                stage = stages[request.stage_key.strip()]
                actor = request.actor
                source_turn = request.source_turn_id
                seq = _seq(write, found)
                marker = markers.get(contact)
                if seq is not None and marker is not None and leads.superseded(marker[0], marker[1], seq,
                                                                               source_turn):
                    _kept(turn, write, stage, rows, stored, states)
                    continue
                reason = request.reason.strip()
                previous = current.get(contact)
                current[contact] = stage.key
                # A write not tied to a closed turn of the contact stores its last seq, as the single RPC does.
                markers[contact] = (seq if seq is not None else found.last_seqs.get(contact), source_turn)
                put_states[contact] = [contact, stage.key, stage.label, reason, source_turn,
                                       share(("actor", actor.kind, actor.name), lambda a=actor: _actor(a)[0]),
                                       write.tick, markers[contact][0]]
                state = states[contact] = r.LeadState(
                    contact_id=contact, stage_key=stage.key, stage_label=stage.label, reason=reason,
                    source_turn_id=source_turn, updated_by=_actor(actor)[1], updated_at=m.ts(at))
                turn.respond(write, wr.UpdateLeadStateResponse(lead_state=state))
                if previous != stage.key:
                    label = stage.label or stage.key
                    summary = f"Etapa alterada para “{label}”" + (f": {reason}" if reason else "")
                    details = {"from": previous or "", "to": stage.key}
                    activities.append([_new_id(), contact, _STAGE_CHANGED, _shared_actor(rows, actor), summary,
                                       request.source_turn_id, "",
                                       share(("stage", details["from"], details["to"]), details), write.tick, None])
        for rpc, key, response in turn.responses:
            repo.add_key(rows, rpc, key, response)
    rows.states = list(put_states.values())


def _kept(turn: _Turn, write: _Write, wanted: r.StageDefinition, rows: repo.Rows, stored: dict[str, Any],
          states: dict[str, r.LeadState]) -> None:
    """A stage change a newer turn (or a person after this turn) made moot: no state written, a timeline line
    that says why, and the state as it stays for the stored response, as UpdateLeadState answers it."""
    contact, request = write.contact, write.request
    state = states.get(contact)
    if state is None:
        state = states[contact] = m.lead_state(stored[contact])
    details = leads.kept_details(state.stage_key, state.source_turn_id, wanted.key)
    rows.activities.append([
        _new_id(), contact, _OTHER, _shared_actor(rows, request.actor),
        leads.kept_summary(state.stage_key, state.stage_label, state.source_turn_id, wanted),
        request.source_turn_id, "", rows.share(("kept", *details.values()), details), write.tick, None])
    turn.respond(write, wr.UpdateLeadStateResponse(lead_state=state))


def activity_response(activity: r.LeadActivity, actor: r.Actor, details: bytes) -> bytes:
    """The serialised RecordActivityResponse for `activity` with `actor` (as a stored row reads it back) and the
    serialised `details` Struct: the activity's own bytes followed by those two fields, written out. A parser
    reads fields in any order, so this is the response the message itself would serialise to, without copying
    the Struct into a new message (the largest part of answering RecordActivity in a batch)."""
    inner = b"".join((activity.SerializeToString(), _actor_field(actor.kind, actor.name), b"\x42",
                      _varint(len(details)), details))  # field 8 (details), length-delimited
    return b"\x0a" + _varint(len(inner)) + inner  # field 1 (activity), length-delimited


@functools.lru_cache(maxsize=256)
def _actor_field(kind: int, name: str) -> bytes:
    actor = _actor_parts(kind, name)[1].SerializeToString()
    return b"\x22" + _varint(len(actor)) + actor  # LeadActivity field 4 (actor), length-delimited


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _shared_actor(rows: repo.Rows, actor: r.Actor) -> int:
    """A timeline line's actor (SYSTEM when none), written once per batch."""
    if not actor.kind:
        actor = SYSTEM
    return rows.share(("actor", actor.kind, actor.name), lambda: _actor(actor)[0])


_EMPTY_OUTCOME_RESPONSE = wr.RecordOperadorOutcomeResponse()
_STAGE_CHANGED = m.ACTIVITY_KIND.word(r.ACTIVITY_KIND_STAGE_CHANGED)
_OTHER = m.ACTIVITY_KIND.word(r.ACTIVITY_KIND_OTHER)


def _check(turn: _Turn, people: dict[str, tuple[bool, bool, datetime | None]], stages: dict[str, r.StageDefinition],
           executed: set[str], outcome_seen: set[str], now: datetime) -> None:
    """Every refusal and error the single RPCs would meet, found before anything is written."""
    for write in turn.writes:
        request = write.request
        if write.kind in ("update_lead_state", "record_activity"):
            person = people.get(write.contact)
            if person is None:
                raise _NotApplied(f"contact {request.contact_id} not found")
            if write.kind == "update_lead_state":
                anonymized, in_control, until = person
                if anonymized:
                    raise _NotApplied("UpdateLeadState would be refused: contact anonymized")
                if request.actor.kind in leads.AUTOMATIC and in_control and (until is None or until > now):
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
    doc["finishedAt"] = outcome.finished_at.ToJsonString() if outcome.HasField("finished_at") else rfc3339(at)
    return doc


_OUTCOME_NAMES = frozenset(r.OperadorOutcomeStatus.values())


def _outcome_common(outcome: r.OperadorOutcome, at: datetime) -> dict[str, Any]:
    """outcome_doc without the two fields that differ from turn to turn (`eventId`, `finishedAt`)."""
    doc = outcome_doc(outcome, at)
    doc.pop("eventId", None)
    doc.pop("finishedAt", None)
    return doc


def rfc3339(at: datetime) -> str:
    """`m.ts(at).ToJsonString()` written out (the library's runs in Python): UTC, `Z`, and 0, 3 or 6
    fractional digits, the fewest that hold the instant exactly; a naive `at` is UTC, as `m.ts` takes it."""
    if at.tzinfo is not None and at.utcoffset():
        return m.ts(at).ToJsonString()  # type: ignore[union-attr]
    base, micro = at.isoformat(timespec="seconds")[:19], at.microsecond
    if not micro:
        return base + "Z"
    if not micro % 1000:
        return f"{base}.{micro // 1000:03d}Z"
    return f"{base}.{micro:06d}Z"


def _iso(at: datetime) -> str:
    """An instant as the write's JSON document carries it to a timestamptz (a naive one is UTC, as asyncpg
    takes it)."""
    return at.isoformat() if at.tzinfo is not None else at.isoformat() + "+00:00"


@functools.lru_cache(maxsize=256)
def _actor_parts(kind: int, name: str) -> tuple[dict[str, str], r.Actor]:
    doc = m.actor_doc(r.Actor(kind=kind, name=name))  # type: ignore[arg-type]
    return doc, m.actor(doc)  # type: ignore[return-value]


def _actor(actor: r.Actor) -> tuple[dict[str, str], r.Actor]:
    """An actor as stored (its JSON document) and as a stored row reads back (unknown kinds unspecified)."""
    return _actor_parts(actor.kind, actor.name)


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
