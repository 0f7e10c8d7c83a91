"""One processing of one event: the writes it makes (each with an idempotency key derived from the
event and the action) and the record of what happened (actions, obligations, could-not-act)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import struct_pb2

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.kit.structs import as_struct
from balcao.operador.v1 import operador_pb2 as pb
from services.operador.context import TurnContext
from services.operador.peers import Peers

RULES = r.Actor(kind=r.ACTOR_KIND_OPERADOR_RULES, name="operador")
MODEL = r.Actor(kind=r.ACTOR_KIND_OPERADOR_MODEL, name="operador")


@dataclass
class TurnRun:
    peers: Peers
    context: TurnContext
    mode: int = pb.ROLE_MODE_BASIC
    actions: list[pb.ActionResult] = field(default_factory=list)
    obligations: dict[str, pb.ObligationResult] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # wanted to act and could not, in pt-BR
    proactive_requested: bool = False
    model_calls: int = 0
    # Promises whose action was refused: obligation id → (obligation, capability, consequence), settled after the model.
    refused: dict[str, tuple[r.Obligation, str, str]] = field(default_factory=dict)
    _ordinals: Counter[str] = field(default_factory=Counter)

    def key(self, action: str) -> str:
        """`op:<event>:<action>:<n>`: the same action of the same event always carries the same key."""
        self._ordinals[action] += 1
        return f"op:{self.context.event_id}:{action}:{self._ordinals[action]}"

    @property
    def org(self) -> str:
        return self.context.organization_id

    @property
    def contact_id(self) -> str:
        return self.context.contact.contact_id

    @property
    def actor(self) -> r.Actor:
        return MODEL if self.mode == pb.ROLE_MODE_MODEL else RULES

    def record(self, capability: str, status: int, detail_pt: str, key: str) -> pb.ActionResult:
        result = pb.ActionResult(capability=capability, status=status, detail_pt=detail_pt, idempotency_key=key)  # type: ignore[arg-type]
        self.actions.append(result)
        return result

    @property
    def acted(self) -> bool:
        return any(a.status in (pb.ACTION_STATUS_DONE, pb.ACTION_STATUS_ALREADY_DONE) for a in self.actions)

    async def resolve(self, obligation: r.Obligation, *, fulfilled: bool, resolution: str,
                      evidence: tuple[tuple[str, str], ...] = (), proactive: bool = False) -> None:
        key = self.key(f"obligation:{obligation.obligation_id}")
        reply = await self.peers.crm_write.ResolveObligation(cw.ResolveObligationRequest(
            organization_id=self.org, obligation_id=obligation.obligation_id,
            outcome=r.OBLIGATION_STATUS_FULFILLED if fulfilled else r.OBLIGATION_STATUS_FAILED,
            resolution=resolution, evidence=[r.EvidenceRef(kind=k, id=i) for k, i in evidence],
            request_proactive_turn=proactive, resolved_by=self.actor, idempotency_key=key,
        ), timeout=self.peers.timeout)
        if reply.HasField("refusal"):
            # Already resolved differently (by a person, or an earlier run): its recorded state stands.
            self.obligations[obligation.obligation_id] = pb.ObligationResult(
                o_que=obligation.o_que, status=_status(reply.obligation.status) or pb.OBLIGATION_STATUS_OPEN,
                resolution_pt=reply.refusal.message_pt)
            return
        self.obligations[obligation.obligation_id] = pb.ObligationResult(
            o_que=obligation.o_que,
            status=pb.OBLIGATION_STATUS_FULFILLED if fulfilled else pb.OBLIGATION_STATUS_FAILED,
            resolution_pt=resolution)
        if reply.proactive_event_id:
            self.proactive_requested = True

    async def could_not_act(self, title_pt: str, body_pt: str, code: str, *, obligation: bool = False) -> None:
        """An inbox item for the owner: the Operador wanted to act and could not. Never a silent return."""
        self.problems.append(body_pt)
        key = self.key(f"central:{code}")
        await self.peers.crm_write.RaiseCentralItem(cw.RaiseCentralItemRequest(
            organization_id=self.org,
            kind=r.CENTRAL_ITEM_KIND_OBLIGATION_FAILED if obligation else r.CENTRAL_ITEM_KIND_OPERADOR_BLOCKED,
            severity=r.CENTRAL_ITEM_SEVERITY_WARNING, title_pt=title_pt, body_pt=body_pt, code=code,
            contact_id=self.contact_id, turn_id=self.context.turn_id, event_id=self.context.event_id,
            dedup_key=key, raised_by=self.actor, idempotency_key=key,
        ), timeout=self.peers.timeout)

    async def activity(self, kind: int, summary_pt: str, details: dict[str, Any]) -> None:
        struct = struct_of(details)
        await self.peers.crm_write.RecordActivity(cw.RecordActivityRequest(
            organization_id=self.org, contact_id=self.contact_id, kind=kind, actor=self.actor,  # type: ignore[arg-type]
            summary_pt=summary_pt, turn_id=self.context.turn_id, event_id=self.context.event_id, details=struct,
            idempotency_key=f"op:{self.context.event_id}:decision",
        ), timeout=self.peers.timeout)


_STRUCTS: dict[tuple[Any, ...], struct_pb2.Struct] = {}


def struct_of(document: dict[str, Any]) -> struct_pb2.Struct:
    """`as_struct(document)`, remembered for flat documents (scalars and lists of scalars): the decision line
    carries one of a handful of such documents on every turn, and the request copies the Struct anyway. The
    key keeps each value's type, so `True` and `1` (equal in Python) never share an entry."""
    try:
        key = tuple((name, type(value), tuple((type(x), x) for x in value) if isinstance(value, list) else value)
                    for name, value in document.items())
        found = _STRUCTS.get(key)
    except TypeError:  # a value that cannot be a key (a dict, a list holding one): built every time
        return as_struct(document)
    if found is None:
        if len(_STRUCTS) > 1000:
            _STRUCTS.clear()
        found = _STRUCTS[key] = as_struct(document)
    return found


def _status(status: int) -> int:
    return {
        r.OBLIGATION_STATUS_OPEN: pb.OBLIGATION_STATUS_OPEN,
        r.OBLIGATION_STATUS_FULFILLED: pb.OBLIGATION_STATUS_FULFILLED,
        r.OBLIGATION_STATUS_FAILED: pb.OBLIGATION_STATUS_FAILED,
    }.get(status, 0)
