"""The HTTP edge's two needs of the runtime, in process: store a message, and read the turn answering it.

`RuntimeSink` is the edge's `InboundSink` over `Intake.accept` (the same path as the SubmitInbound
RPC): the normalised message becomes gateway.proto's `InboundMessage` (`to_proto()`), the submit
status becomes a `SinkOutcome`, invalid input becomes `SinkRejected` (nothing stored). An
`auto_reply_pt` (an audio without a transcript, content the agent cannot open) travels with the
message and the turn sends it as a reviewed fixed reply instead of drafting. A message typed on the
business's phone is stored and pauses the agent for that contact (`Intake`).

`RuntimeWebTurns` is the web channel's `WebTurns`: `GetTurn` by the accepted message, waiting.

`LostDeliveries` is the drain's `on_lost`: a stored message the runtime never took, after every
attempt, becomes a critical Central item saying who wrote, on which number, and what, so a person
answers the customer.
"""

from __future__ import annotations

from google.protobuf.duration_pb2 import Duration

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import crm_write_pb2_grpc
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.configuration import UnknownOrganization
from services.gateway.edge.http import Edge
from services.gateway.edge.inbound import NormalizedInbound, Receipt, SinkOutcome, SinkRejected
from services.gateway.edge.inbox import LostDelivery
from services.gateway.inbound import InvalidInbound
from services.gateway.intake import Intake
from services.gateway.peers import call

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


class LostDeliveries:
    def __init__(self, crm_write: crm_write_pb2_grpc.CrmWriteServiceStub, edge: Edge, *, timeout: float) -> None:
        self._crm_write = crm_write
        self._edge = edge
        self._timeout = timeout

    async def report(self, lost: LostDelivery) -> None:
        text = await self._edge.delivery_text(lost.channel_instance, lost.sender_key, lost.message_id, lost.body)
        who = lost.sender_key if lost.sender_key.startswith("+") else "Um cliente"
        body = (
            f"{who} escreveu para o número do WhatsApp ({lost.channel_instance}) e a mensagem não chegou ao "
            f"atendimento depois de {lost.attempts} tentativas: o cliente está sem resposta. Responda pelo WhatsApp."
        )
        if text:
            body += f' A mensagem: "{text[:500]}".'
        body += f" Erro: {lost.error[:300]}"
        key = f"delivery_failed:{lost.channel_instance}:{lost.sender_key}:{lost.message_id}"
        await call(
            "crm",
            self._crm_write.RaiseCentralItem,
            cw.RaiseCentralItemRequest(
                organization_id=lost.organization_id,
                kind=r.CENTRAL_ITEM_KIND_JOB_DEAD,
                severity=r.CENTRAL_ITEM_SEVERITY_CRITICAL,
                title_pt="Mensagem de cliente sem atendimento",
                body_pt=body,
                code="delivery_failed",
                dedup_key=key,
                raised_by=r.Actor(kind=r.ACTOR_KIND_RUNTIME, name="gateway"),
                idempotency_key=key,
            ),
            timeout=self._timeout,
        )
