"""The stand-in for CrmWrite while a turn's basic registration is planned for a batch.

It records each write request and answers it as crm answers a write that is not refused, so
the registration code (`processing.Processor.run`) runs unchanged and its requests become one
`TurnBasics` of a RegisterTurnBasics batch. Nothing is written here; crm makes the writes, all
or none, and an event whose writes crm would refuse runs again the single way.
"""

from __future__ import annotations

import uuid
from typing import Any

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from services.operador.context import TurnContext


def follow_up_id_for(key: str) -> str:
    """The id crm gives a follow-up scheduled through RegisterTurnBasics (crm_write.proto says how)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, key))


_LABELS: dict[int, tuple[r.OrganizationSettings, dict[str, str]]] = {}


def _labels(settings: r.OrganizationSettings) -> dict[str, str]:
    """stage key → label of these settings; kept per settings object, as `registration._rules` does (the
    organisation cache hands out the same object for its TTL)."""
    cached = _LABELS.get(id(settings))
    if cached is not None and cached[0] is settings:
        return cached[1]
    labels: dict[str, str] = {}
    for stage in settings.stages:
        labels.setdefault(stage.key, stage.label)  # the first stage with a key, as the scan found it
    if len(_LABELS) > 1000:
        _LABELS.clear()
    _LABELS[id(settings)] = (settings, labels)
    return labels


class Recorder:
    """Quacks like `CrmWriteServiceStub` for the six writes the basic registration makes."""

    def __init__(self, context: TurnContext, into: cw.TurnBasics | None = None) -> None:
        self.context = context
        # The writes go straight into the batch request's TurnBasics (one copy of each request, not three).
        self.turn = into if into is not None else cw.TurnBasics()
        self.writes = self.turn.writes

    async def UpdateLeadState(self, request: cw.UpdateLeadStateRequest, **_: Any) -> cw.UpdateLeadStateResponse:
        self.writes.add(update_lead_state=request)
        key = request.stage_key.strip()
        return cw.UpdateLeadStateResponse(lead_state=r.LeadState(
            contact_id=request.contact_id, stage_key=key, stage_label=_labels(self.context.settings).get(key, ""),
            reason=request.reason.strip(), source_turn_id=request.source_turn_id))

    async def ScheduleFollowUp(self, request: cw.ScheduleFollowUpRequest, **_: Any) -> cw.ScheduleFollowUpResponse:
        self.writes.add(schedule_follow_up=request)
        return cw.ScheduleFollowUpResponse(follow_up=r.FollowUp(
            follow_up_id=follow_up_id_for(request.idempotency_key), contact_id=request.contact_id,
            reason=request.reason, obligation_id=request.obligation_id, due_at=request.due_at))

    async def ResolveObligation(self, request: cw.ResolveObligationRequest, **_: Any) -> cw.ResolveObligationResponse:
        self.writes.add(resolve_obligation=request)
        return cw.ResolveObligationResponse(
            obligation=r.Obligation(obligation_id=request.obligation_id, status=request.outcome),
            proactive_event_id="planned" if request.request_proactive_turn else "")

    async def RaiseCentralItem(self, request: cw.RaiseCentralItemRequest, **_: Any) -> cw.RaiseCentralItemResponse:
        self.writes.add(raise_central_item=request)
        return cw.RaiseCentralItemResponse()

    async def RecordActivity(self, request: cw.RecordActivityRequest, **_: Any) -> cw.RecordActivityResponse:
        self.writes.add(record_activity=request)
        return cw.RecordActivityResponse()

    async def RecordOperadorOutcome(self, request: cw.RecordOperadorOutcomeRequest,
                                    **_: Any) -> cw.RecordOperadorOutcomeResponse:
        self.writes.add(record_operador_outcome=request)
        return cw.RecordOperadorOutcomeResponse()
