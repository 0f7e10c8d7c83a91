""" "Testar" (RunTestTurn): the owner's messages through the real runtime, on the test channel.

The messages are accepted exactly as a customer's (intake, debounce, the worker, the whole
sequence: silence, plan gate, screening, controller, Conversador, Segurança and its revisions),
on the test channel's `testar` instance, whose channel records instead of sending. The answer is
the turn as GetTurn shows it: what would have been sent, the vetoes, the declaração, the trace.
Nothing leaves, and the turn writes no memory and raises no `turn_closed` (runtime.is_testar), so
the Operador never acts on a test.

The test customer is a phone reserved for fiction (+1 NXX 555-01XX): one per organisation, or a
new one for `new_conversation`. Limits, said plainly rather than faked: only the published
configuration runs (a draft is refused), `run_operador` is refused, and Segurança counts the test
channel's own sending history for pacing and repetition, not the WhatsApp number's.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway import records
from services.gateway.inbound import MAX_TEXT_CHARS, normalise_phone, parse_uuid
from services.gateway.intake import Intake, InvalidRequest
from services.gateway.peers import PeerFailure, Peers, call

MAX_MESSAGES = 10
WAIT_SECONDS = 120.0


# North American numbers 555-0100…555-0199 are reserved for fiction (NANPA): valid for crm's
# phone check, never a real customer's. 20 area codes × 100 numbers.
_AREA_CODES = (201, 202, 203, 205, 206, 207, 208, 209, 210, 212, 213, 214, 215, 216, 217, 218, 219, 224, 225, 228)


def test_phone(organization_id: str, fresh: bool) -> str:
    """The test customer's phone: fixed per organisation, or a new one for a new conversation."""
    slots = len(_AREA_CODES) * 100
    slot = secrets.randbelow(slots) if fresh else int(hashlib.sha256(organization_id.encode()).hexdigest(), 16) % slots
    return f"+1{_AREA_CODES[slot // 100]}55501{slot % 100:02d}"


class Testar:
    def __init__(self, intake: Intake, peers: Peers) -> None:
        self._intake = intake
        self._peers = peers

    async def run(self, request: gw.RunTestTurnRequest) -> gw.RunTestTurnResponse:
        org = str(parse_uuid(request.organization_id, "organization_id"))
        texts = [m.strip() for m in request.messages]
        if not texts or not all(texts):
            raise InvalidRequest("messages must hold at least one non-empty text")
        if len(texts) > MAX_MESSAGES:
            raise InvalidRequest(f"at most {MAX_MESSAGES} messages per test")
        if any(len(t) > MAX_TEXT_CHARS for t in texts):
            raise InvalidRequest(f"each message is at most {MAX_TEXT_CHARS} characters")
        if request.config == gw.CONFIG_VERSION_DRAFT:
            raise InvalidRequest("testing the draft is not supported yet; publish it and test CONFIG_VERSION_PUBLISHED")
        if request.run_operador:
            raise InvalidRequest("run_operador is not supported yet: a test never reaches the Operador")
        phone = normalise_phone(request.test_phone) if request.test_phone.strip() else test_phone(org, False)
        if request.new_conversation and not request.test_phone.strip():
            phone = test_phone(org, True)
        last = None
        for text in texts:
            last = await self._intake.accept(
                gw.SubmitInboundRequest(
                    organization_id=org,
                    message=gw.InboundMessage(
                        channel=gw.CHANNEL_TEST,
                        channel_instance=records.TESTAR_INSTANCE,
                        phone=phone,
                        message_id=f"testar-{uuid.uuid4().hex}",
                        type=gw.MESSAGE_TYPE_TEXT,
                        text=text,
                    ),
                )
            )
        assert last is not None
        turn = await self._wait(org, str(last.inbound_id))
        return gw.RunTestTurnResponse(turn=turn, route_pt=await self._route_pt(org, turn.turn_id))

    async def _wait(self, org: str, inbound_id: str) -> gw.TurnResult:
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            request = gw.GetTurnRequest(organization_id=org, inbound_id=inbound_id)
            request.wait.FromSeconds(int(max(1, min(30, deadline - time.monotonic()))))
            turn = await self._intake.turn_result(request)
            if turn.status in (gw.TURN_STATUS_DONE, gw.TURN_STATUS_FAILED) or time.monotonic() >= deadline:
                return turn

    async def _route_pt(self, org: str, turn_id: str) -> str:
        if not turn_id:
            return ""
        try:
            record = await call(
                "crm",
                self._peers.crm_read.GetTurnExecution,
                cr.GetTurnExecutionRequest(organization_id=org, turn_id=turn_id),
                timeout=self._peers.timeout,
            )
        except PeerFailure:
            return ""
        return route_pt(record.execution.route.reason)


def route_pt(reason: str) -> str:
    """The controller's decision as the owner reads it."""
    return _ROUTES_PT.get(reason, reason)


_ROUTES_PT = {
    "plan_expired": "plano vencido: resposta fixa",
    "screened": "mensagem barrada na triagem: resposta segura",
    "auto_reply": "conteúdo que o assistente não abre: resposta fixa",
}
