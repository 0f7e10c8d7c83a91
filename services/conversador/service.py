"""The conversador servicer and who may call it: only the gateway's turn runtime.

Maps proto ↔ domain and errors to gRPC status in one place: a malformed request is
INVALID_ARGUMENT; a model provider or projection that does not answer is UNAVAILABLE (the
runtime retries the turn); a provider that refuses the request is INTERNAL. A model that fails
to produce a valid declaração or checkpoint is not an error: it is `failure` in the response,
with the tape and the usage.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import grpc

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.conversador.v1 import conversador_pb2_grpc
from balcao.kit.identity import allow
from balcao.models.base import Message, ModelProvider, ModelRejected, ModelUnavailable
from services.conversador import closing, prompts, tape
from services.conversador.declaracao import InvalidOutput, to_proto, validate_proto
from services.conversador.draft import Limits, LoopResult, run_loop
from services.conversador.tools import ProjectionUnavailable, ToolExecutor, TurnScope

log = logging.getLogger(__name__)

ExecutorFactory = Callable[[TurnScope], ToolExecutor]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Options:
    limits: Limits = field(default_factory=Limits)
    result_cap_tokens: int = 200
    summary_max_tokens: int | None = None


class BadRequest(ValueError):
    """The request cannot be served as sent."""


def _uuid(value: str, name: str, *, required: bool = True) -> None:
    if not value and not required:
        return
    try:
        uuid.UUID(value)
    except ValueError:
        raise BadRequest(f"{name} must be a UUID") from None


def _check_turn(request: cv.DraftRequest | cv.ReviseRequest) -> None:
    _uuid(request.organization_id, "organization_id")
    _uuid(request.contact_id, "contact_id")
    _uuid(request.unit_id, "unit_id", required=False)
    _uuid(request.turn_id, "turn_id", required=False)
    if not request.HasField("context"):
        raise BadRequest("context is required (Projection.GetTurnContext)")
    has_text = any(m.text.strip() or m.attachment_note.strip() for m in request.new_messages)
    proactive = request.HasField("proactive") and request.proactive.reason.strip()
    if not has_text and not proactive:
        raise BadRequest("nothing to answer: no new customer message and no proactive reason")


class Conversador(conversador_pb2_grpc.ConversadorServiceServicer):
    """Draft, revise and close a turn; talks, and only talks."""

    def __init__(self, model: ModelProvider, executors: ExecutorFactory, options: Options | None = None) -> None:
        self._model = model
        self._executors = executors
        self._options = options or Options()

    async def Draft(self, request: cv.DraftRequest, context: grpc.aio.ServicerContext) -> cv.DraftResponse:
        return await _guarded(context, self._draft(request))

    async def Revise(self, request: cv.ReviseRequest, context: grpc.aio.ServicerContext) -> cv.ReviseResponse:
        return await _guarded(context, self._revise(request))

    async def Close(self, request: cv.CloseRequest, context: grpc.aio.ServicerContext) -> cv.CloseResponse:
        return await _guarded(context, self._close(request))

    # -----------------------------------------------------------------------------------------

    def _opening(self, request: cv.DraftRequest | cv.ReviseRequest) -> tuple[str, Message, str]:
        proactive = request.proactive if request.HasField("proactive") else None
        system = prompts.system_prompt(request.context.unit, request.context.business)
        first = Message.user(prompts.turn_message(request.context, request.history, request.new_messages, proactive))
        conversation = prompts.conversation_text(request.history, request.new_messages)
        return system, first, conversation

    def _scope(self, request: cv.DraftRequest | cv.ReviseRequest) -> TurnScope:
        return TurnScope(request.organization_id, request.contact_id, request.unit_id, request.agent_version_id)

    async def _draft(self, request: cv.DraftRequest) -> cv.DraftResponse:
        _check_turn(request)
        system, first, conversation = self._opening(request)
        result = await run_loop(
            self._model,
            self._executors(self._scope(request)),
            system=system,
            opening=[first],
            added=[],
            conversation=conversation,
            attempt=1,
            purpose=cv.MODEL_CALL_PURPOSE_DRAFT,
            limits=self._options.limits,
        )
        response = cv.DraftResponse(tape=cv.Tape(steps=result.steps), usage=result.usage)
        _fill(response, result, request.context.now_iso, result.steps)
        return response

    async def _revise(self, request: cv.ReviseRequest) -> cv.ReviseResponse:
        _check_turn(request)
        if request.revision not in (1, 2):
            raise BadRequest("revision must be 1 or 2")
        if not request.HasField("previous_draft") or not request.previous_draft.message.strip():
            raise BadRequest("previous_draft with its message is required")
        guidance = [v.guidance for v in request.vetoes if v.guidance.strip()]
        if not guidance:
            raise BadRequest("at least one veto with guidance is required")
        try:
            earlier = tape.messages_from_tape(request.previous_tape)
        except tape.BadTape as exc:
            raise BadRequest(f"previous_tape: {exc}") from None
        system, first, conversation = self._opening(request)
        ask = Message.user(prompts.revision_message(request.previous_draft.message, guidance))
        result = await run_loop(
            self._model,
            self._executors(self._scope(request)),
            system=system,
            opening=[first, *earlier],
            added=[ask],
            conversation=conversation,
            attempt=request.revision + 1,
            purpose=cv.MODEL_CALL_PURPOSE_REVISION,
            limits=self._options.limits,
        )
        steps = [*request.previous_tape.steps, *result.steps]
        response = cv.ReviseResponse(tape=cv.Tape(steps=steps), usage=result.usage)
        _fill(response, result, request.context.now_iso, steps)
        return response

    async def _close(self, request: cv.CloseRequest) -> cv.CloseResponse:
        _uuid(request.organization_id, "organization_id")
        _uuid(request.contact_id, "contact_id")
        _uuid(request.turn_id, "turn_id", required=False)
        if not request.HasField("sent"):
            raise BadRequest("sent is required (what the customer received)")
        declaracao = request.declaracao if request.HasField("declaracao") else None
        if declaracao is not None:
            try:
                validate_proto(declaracao)
            except InvalidOutput as exc:
                raise BadRequest(f"declaracao is not valid: {exc.errors}") from None
        # The tape is only read as text here, so even a failed draft's tape can be closed over.
        which = request.WhichOneof("agenda_reread")
        data = closing.ClosingInput(
            new_messages=request.new_messages,
            tape=request.tape,
            sent=request.sent,
            declaracao=declaracao,
            previous=request.previous_checkpoint if request.HasField("previous_checkpoint") else None,
            agenda=request.agenda if which == "agenda" else None,
            agenda_unknown=which == "agenda_unknown",
        )
        result = await closing.close_turn(
            self._model,
            data,
            result_cap_tokens=self._options.result_cap_tokens,
            max_output_tokens=self._options.limits.max_output_tokens,
            summary_max_tokens=self._options.summary_max_tokens,
        )
        response = cv.CloseResponse(
            usage=result.usage, corrected=result.corrected, summary_condensed=result.summary_condensed
        )
        if result.checkpoint is not None:
            response.checkpoint.CopyFrom(result.checkpoint)
        else:
            response.failure.CopyFrom(
                cv.CloseFailure(reason=result.failure_reason, validation_error=result.validation_error)
            )
        return response


def _fill(
    response: cv.DraftResponse | cv.ReviseResponse, result: LoopResult, now_iso: str, steps: list[cv.TapeStep]
) -> None:
    if result.output is None:
        response.failure.CopyFrom(
            cv.DraftFailure(reason=result.failure_reason, validation_error=result.validation_error)
        )
        return
    reply = response.reply
    reply.message = result.output.mensagem
    reply.declaracao.CopyFrom(to_proto(result.output.declaracao, now_iso))
    reply.used_agenda_tool = tape.used_agenda_tool(steps)
    reply.declaracao_repaired = result.repaired


async def _guarded(context: grpc.aio.ServicerContext, work: Awaitable[T]) -> T:
    """The one place where domain errors become gRPC status codes."""
    try:
        return await work
    except BadRequest as exc:
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
    except (ModelUnavailable, ProjectionUnavailable) as exc:
        log.warning("dependency unavailable", extra={"error": str(exc)})
        await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
    except ModelRejected as exc:
        log.error("model provider refused the request", extra={"error": str(exc)})
        await context.abort(grpc.StatusCode.INTERNAL, f"model provider refused the request: {exc}")
    raise AssertionError("unreachable: context.abort raises")  # pragma: no cover


POLICY = allow(cv.DESCRIPTOR.services_by_name["ConversadorService"], ["gateway"])
