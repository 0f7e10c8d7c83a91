"""The HTTP edge's two needs of the runtime, in process: store a message, and read the turn answering it.

`RuntimeSink` is the edge's `InboundSink` over `Intake.accept` (the same path as the SubmitInbound
RPC): the normalised message becomes gateway.proto's `InboundMessage` (`to_proto()`), the submit
status becomes a `SinkOutcome`, invalid input becomes `SinkRejected` (nothing stored). An
`auto_reply_pt` (an audio without a transcript, content the agent cannot open) travels with the
message and the turn sends it as a reviewed fixed reply instead of drafting. A message typed on the
business's phone is stored and pauses the agent for that contact (`Intake`).

`RuntimeWebTurns` is the web channel's `WebTurns`: `GetTurn` by the accepted message, waiting.
"""

from __future__ import annotations

from google.protobuf.duration_pb2 import Duration

from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.configuration import UnknownOrganization
from services.gateway.edge.inbound import NormalizedInbound, Receipt, SinkOutcome, SinkRejected
from services.gateway.inbound import InvalidInbound
from services.gateway.intake import Intake

_OUTCOMES = {
    gw.SUBMIT_STATUS_ACCEPTED: SinkOutcome.ACCEPTED,
    gw.SUBMIT_STATUS_DUPLICATE: SinkOutcome.DUPLICATE,
    gw.SUBMIT_STATUS_RECORDED: SinkOutcome.RECORDED,
}


class RuntimeSink:
    def __init__(self, intake: Intake) -> None:
        self._intake = intake

    async def accept(self, organization_id: str, message: NormalizedInbound) -> Receipt:
        request = gw.SubmitInboundRequest(organization_id=organization_id, message=message.to_proto())
        try:
            accepted = await self._intake.accept(request, auto_reply_pt=message.auto_reply_pt)
        except InvalidInbound as exc:
            raise SinkRejected(str(exc)) from None
        except UnknownOrganization:
            raise SinkRejected(f"organization {organization_id} not found") from None
        outcome = _OUTCOMES.get(accepted.status)
        if outcome is None:  # pragma: no cover - the intake answers only these three
            raise RuntimeError(f"unexpected submit status {accepted.status}")
        return Receipt(outcome, str(accepted.inbound_id), str(accepted.contact_id))


class RuntimeWebTurns:
    def __init__(self, intake: Intake) -> None:
        self._intake = intake

    async def turn_for(self, organization_id: str, receipt: Receipt, wait_seconds: float) -> gw.TurnResult | None:
        if receipt.outcome == SinkOutcome.RECORDED or not receipt.inbound_id:
            return None
        request = gw.GetTurnRequest(organization_id=organization_id, inbound_id=receipt.inbound_id)
        seconds = max(0.0, wait_seconds)
        request.wait.CopyFrom(Duration(seconds=int(seconds), nanos=int((seconds % 1) * 1e9)))
        return await self._intake.turn_result(request)
