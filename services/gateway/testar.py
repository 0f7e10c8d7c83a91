""" "Testar" (RunTestTurn): the owner's messages through the real runtime, on the test channel.

The messages are accepted exactly as a customer's (intake, debounce, the worker, the whole
sequence: silence, plan gate, screening, controller, Conversador, Segurança and its revisions),
on the test channel's `testar` instance, whose channel records instead of sending. The answer is
the turn as GetTurn shows it: what would have been sent, the vetoes, the declaração, the trace.
Nothing leaves, and the turn writes no memory and raises no `turn_closed` (runtime.is_testar), so
the Operador never acts on a test.

The configuration tested is the owner's draft by default (the units, voices and instructions
being edited; the published ones when there is no draft), or the published one when asked: the
channel instance tells the runtime which (`records.testar_instance`), and the runtime reads that
version's units and passes it to projection for the unit's voice and instructions.

`run_operador` runs the real closing instead: the test contact's memory is written and crm raises
the `turn_closed` event the Operador consumes, exactly as in production, so the Operador may change
the real agenda; the answer waits for its outcome (recorded on the execution) and reports it.
Without it (the default) a test never reaches the Operador or the agenda.

The test customer is a phone reserved for fiction (+1 NXX 555-01XX): one per organisation, or a
new one for `new_conversation`. A limit, said plainly: Segurança counts the test channel's own
sending history for pacing and repetition, not the WhatsApp number's.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import uuid

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway import records
from services.gateway.admin_executions import operador_outcome, route_pt
from services.gateway.inbound import MAX_TEXT_CHARS, normalise_phone, parse_uuid
from services.gateway.intake import Intake, InvalidRequest
from services.gateway.peers import PeerFailure, Peers, call

MAX_MESSAGES = 10
WAIT_SECONDS = 120.0
OPERADOR_WAIT_SECONDS = 60.0
OPERADOR_POLL_SECONDS = 0.25


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
        if request.config not in (gw.CONFIG_VERSION_UNSPECIFIED, gw.CONFIG_VERSION_DRAFT, gw.CONFIG_VERSION_PUBLISHED):
            raise InvalidRequest("config must be CONFIG_VERSION_DRAFT or CONFIG_VERSION_PUBLISHED")
        draft = request.config != gw.CONFIG_VERSION_PUBLISHED
        instance = records.testar_instance(draft=draft, operador=request.run_operador)
        config = gw.CONFIG_VERSION_PUBLISHED
        if draft and await self._has_draft(org):
            config = gw.CONFIG_VERSION_DRAFT
        if request.test_phone.strip():
            phone = normalise_phone(request.test_phone, "test_phone")
        else:
            phone = test_phone(org, False)
        if request.new_conversation and not request.test_phone.strip():
            phone = test_phone(org, True)
        last = None
        for text in texts:
            last = await self._intake.accept(
                gw.SubmitInboundRequest(
                    organization_id=org,
                    message=gw.InboundMessage(
                        channel=gw.CHANNEL_TEST,
                        channel_instance=instance,
                        phone=phone,
                        message_id=f"testar-{uuid.uuid4().hex}",
                        type=gw.MESSAGE_TYPE_TEXT,
                        text=text,
                    ),
                )
            )
        assert last is not None
        turn = await self._wait(org, str(last.inbound_id))
        response = gw.RunTestTurnResponse(turn=turn, config=config)  # type: ignore[arg-type]
        record = await self._execution(org, turn.turn_id)
        if record is not None:
            response.route_pt = route_pt(record.route.reason)
            if record.drafts:
                for position, line in enumerate(record.drafts[-1].review.gates, start=1):
                    response.review_trace.add(position=position, gate=line.gate, status=line.result)
        if request.run_operador and record is not None and record.checkpoint_seq > 0:
            # The closing ran, so crm raised `turn_closed`: the Operador's worker takes it.
            outcome = await self._operador(org, turn.turn_id)
            if outcome is not None:
                response.operador.CopyFrom(outcome)
        return response

    async def _has_draft(self, org: str) -> bool:
        found = await call(
            "crm",
            self._peers.crm_read.GetAgentConfiguration,
            cr.GetAgentConfigurationRequest(organization_id=org, which=r.AGENT_VERSION_STATUS_DRAFT),
            timeout=self._peers.timeout,
        )
        return found.found

    async def _operador(self, org: str, turn_id: str) -> gw.OperadorOutcome | None:
        """The Operador's outcome for the turn, once its worker recorded it (None after the wait)."""
        deadline = time.monotonic() + OPERADOR_WAIT_SECONDS
        while time.monotonic() < deadline:
            record = await self._execution(org, turn_id)
            if record is not None and record.operador.status != r.OPERADOR_OUTCOME_STATUS_UNSPECIFIED:
                return operador_outcome(record.operador)
            await asyncio.sleep(OPERADOR_POLL_SECONDS)
        return None

    async def _wait(self, org: str, inbound_id: str) -> gw.TurnResult:
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            request = gw.GetTurnRequest(organization_id=org, inbound_id=inbound_id)
            request.wait.FromSeconds(int(max(1, min(30, deadline - time.monotonic()))))
            turn = await self._intake.turn_result(request)
            if turn.status in (gw.TURN_STATUS_DONE, gw.TURN_STATUS_FAILED) or time.monotonic() >= deadline:
                return turn

    async def _execution(self, org: str, turn_id: str) -> r.TurnExecution | None:
        if not turn_id:
            return None
        try:
            record = await call(
                "crm",
                self._peers.crm_read.GetTurnExecution,
                cr.GetTurnExecutionRequest(organization_id=org, turn_id=turn_id),
                timeout=self._peers.timeout,
            )
        except PeerFailure:
            return None
        return record.execution
