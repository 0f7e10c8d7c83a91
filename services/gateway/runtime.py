"""The turn runtime: one attempt of one turn, through the sequence of DESIGN.md §2.

    accept (SubmitInbound) → claim (worker) → plan gate → screening → controller → opening →
    draft (again if the customer wrote meanwhile) → review (revise ≤ 2, then the holding reply) →
    send (ledger first) → closing (agenda re-read, Conversador.Close) → persist (CrmWrite.CloseTurn)

The order is code, not prompt: no model can skip a step. Every step is a span of the turn's one
trace (a retried attempt joins the same trace) and a line of the execution record.

An attempt that fails half-way (a peer down, a timeout, an invalid draft) raises; the worker
schedules a retry with backoff and, after the last attempt, the turn fails for good with a
Central item. What was sent is recorded before anything after it runs, so a retry resumes after
the send and never sends again (`stage` and `progress` on the turn row).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import grpc
from google.protobuf import json_format
from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from balcao.common.v1 import declaracao_pb2
from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.models.base import ModelProvider
from balcao.projection.v1 import projection_pb2 as pj
from balcao.seguranca.v1 import seguranca_pb2 as sg
from services.gateway import catalog, classify, controller, records, repository
from services.gateway import execution as ex
from services.gateway.configuration import ConfigCache, OrgConfig
from services.gateway.outbound import ChannelRegistry, OutboundChannel
from services.gateway.peers import PeerFailure, Peers, call
from services.gateway.records import Claim, Conversation, Inbound, SendingStats, Turn
from services.gateway.review import Reviewer, human_owned, used_agenda_tool
from services.gateway.sending import Sender, SendResult, Writes

log = logging.getLogger(__name__)
tracer = trace.get_tracer(__name__)

RUNTIME = r.Actor(kind=r.ACTOR_KIND_RUNTIME, name="gateway")
HUMAN_OWNS_PT = "uma pessoa da equipe está cuidando desta conversa"
OPT_OUT_WHILE_HELD_PT = (
    "o cliente pediu para não receber mensagens enquanto uma pessoa da equipe cuidava da conversa: "
    "o pedido foi registrado e a equipe foi avisada"
)
CONVERSADOR_OFF = "conversador_off"
CONVERSADOR_OFF_PT = "o Conversador está desligado: a mensagem foi para um atendimento da equipe"
PROACTIVE_OFF_PT = "o Conversador está desligado: nenhuma mensagem automática é enviada"


def conversador_on(config: OrgConfig) -> bool:
    """Whether the organisation's agent answers customers on its own (crm `roles.conversador_enabled`)."""
    return config.settings.roles.conversador_enabled
MAX_REVISIONS = 2
PROACTIVE_KINDS = {
    "followup_due": cv.PROACTIVE_KIND_FOLLOWUP_DUE,
    "obligation_fulfilled": cv.PROACTIVE_KIND_OBLIGATION_FULFILLED,
    "obligation_failed": cv.PROACTIVE_KIND_OBLIGATION_FAILED,
    "scheduled": cv.PROACTIVE_KIND_SCHEDULED,
}


# What `TurnRunner.run_next` did with a claimed contact.
RAN = "ran"  # an attempt ran; the claim is still held (ask again)
IDLE = "idle"  # nothing to run: the claim was given back
DUE_AGAIN = "due_again"  # given back, with work later (a retry's time, a debounce, a message meanwhile)


class TurnError(Exception):
    """The attempt cannot go on (an invalid draft or closing); retried like a peer failure."""


class DraftInvalid(TurnError):
    """The Conversador produced no valid declaração, even after its repair."""


class CustomerWroteMeanwhile(Exception):
    """Raised inside the send's first transaction when the customer wrote while the reply was
    reviewed: the transaction rolls back (nothing recorded, nothing sent) and the turn drafts again."""


@dataclass
class RuntimeOptions:
    max_attempts: int = 5
    retry_base_seconds: float = 2.0
    retry_max_seconds: float = 300.0
    history_messages: int = 20
    max_redrafts: int = 2
    # A pacing wait up to this long is waited in place; a longer one parks the turn.
    inline_wait_seconds: float = 10.0

    def backoff(self, attempts: int) -> float:
        delay = min(self.retry_max_seconds, self.retry_base_seconds * (2 ** max(0, attempts - 1)))
        return delay * random.uniform(0.8, 1.2)


@dataclass
class Review:
    """How a review loop ended."""

    status: str  # "approved", "silent", "exhausted", "waiting"
    parts: list[str] = field(default_factory=list)
    until: datetime | None = None
    detail: str = ""


@dataclass
class Ctx:
    """Everything one attempt knows; `progress()` keeps what a resumed attempt needs."""

    claim: Claim
    turn: Turn
    config: OrgConfig
    conversation: Conversation
    channel: OutboundChannel
    execution: r.TurnExecution
    messages: list[Inbound] = field(default_factory=list)
    unit_id: str = ""
    route_pt: str = ""
    context: pj.TurnContext | None = None
    previous: cv.CheckpointContent | None = None
    history: list[cv.ConversationMessage] = field(default_factory=list)
    tape: cv.Tape = field(default_factory=cv.Tape)
    reply: cv.DraftedReply | None = None
    bookings: list[sg.ConfirmedBooking] | None = None
    # The watermark this attempt already moved to (after its send); 0: not moved yet.
    answered_upto: int = 0
    # `IDLE` or `DUE_AGAIN` once the finish gave the claim back (nothing left to run now).
    released: str = ""
    # The sending statistics read with the last "did the customer write meanwhile?" check, for the
    # review that follows it (used once; any later review reads them again).
    stats: SendingStats | None = None

    @property
    def org(self) -> Any:
        return self.turn.organization_id

    @property
    def contact(self) -> Any:
        return self.turn.contact_id

    @property
    def proactive(self) -> bool:
        return self.turn.trigger == "proactive"

    def new_messages(self) -> list[cv.ConversationMessage]:
        out = []
        for m in self.messages:
            message = cv.ConversationMessage(author=cv.AUTHOR_CUSTOMER, text=m.text, attachment_note=m.attachment_note)
            stamp = ex.ts(m.sent_at or m.received_at)
            if stamp is not None:
                message.sent_at.CopyFrom(stamp)
            out.append(message)
        return out

    def progress(self, **extra: Any) -> dict[str, Any]:
        document: dict[str, Any] = {
            "execution": ex.pack(self.execution),
            "tape": ex.pack(self.tape),
            "unit_id": self.unit_id,
            "route_pt": self.route_pt,
            "history": [ex.pack(m) for m in self.history],
        }
        if self.context is not None:
            document["context"] = ex.pack(self.context)
        if self.previous is not None:
            document["previous"] = ex.pack(self.previous)
        if self.reply is not None:
            document["reply"] = ex.pack(self.reply)
        if self.bookings is not None:
            document["bookings"] = [ex.pack(b) for b in self.bookings]
        document.update(extra)
        return document

    def restore(self, progress: dict[str, Any]) -> None:
        self.execution = ex.unpack(r.TurnExecution, progress.get("execution"))
        self.tape = ex.unpack(cv.Tape, progress.get("tape"))
        self.unit_id = progress.get("unit_id", "")
        self.route_pt = progress.get("route_pt", "")
        self.history = [ex.unpack(cv.ConversationMessage, m) for m in progress.get("history", [])]
        if progress.get("context"):
            self.context = ex.unpack(pj.TurnContext, progress["context"])
        if progress.get("previous"):
            self.previous = ex.unpack(cv.CheckpointContent, progress["previous"])
        if progress.get("reply"):
            self.reply = ex.unpack(cv.DraftedReply, progress["reply"])
        if "bookings" in progress:
            self.bookings = [ex.unpack(sg.ConfirmedBooking, b) for b in progress["bookings"]]


def is_testar(conversation: Conversation) -> bool:
    instance = conversation.channel_instance
    return conversation.channel == "test" and (
        instance == records.TESTAR_INSTANCE or instance.startswith(records.TESTAR_INSTANCE + "+")
    )


def testar_flags(conversation: Conversation) -> tuple[bool, bool]:
    """(draft, operador) for a "Testar" conversation; (False, False) for any other."""
    return records.testar_flags(conversation.channel_instance) if is_testar(conversation) else (False, False)


def agent_version(ctx: Ctx) -> str:
    """The configuration version the Conversador's reads follow: the draft under "Testar" with the
    draft, else "" (the published one)."""
    return ctx.config.agent_version_id if testar_flags(ctx.conversation)[0] else ""


def parent_context(trace_id: str) -> otel_context.Context | None:
    """A context whose parent is the turn's trace, so a retried attempt joins the same trace."""
    if not trace_id:
        return None
    span_context = SpanContext(
        trace_id=int(trace_id, 16),
        span_id=random.getrandbits(64) or 1,
        is_remote=True,
        trace_flags=TraceFlags(TraceFlags.SAMPLED),
    )
    return trace.set_span_in_context(NonRecordingSpan(span_context))


def current_traceparent() -> str:
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier.get("traceparent", "")


class TurnRunner:
    def __init__(
        self,
        *,
        engine: AsyncEngine,
        peers: Peers,
        configs: ConfigCache,
        channels: ChannelRegistry,
        model: ModelProvider,
        options: RuntimeOptions,
        send_attempts: int = 3,
        send_retry_seconds: float = 1.0,
        on_finished: Any = None,
    ) -> None:
        self.engine = engine
        self.peers = peers
        self.configs = configs
        self.channels = channels
        self.model = model
        self.options = options
        self.reviewer = Reviewer(peers, engine)
        self.sender = Sender(engine, channels, attempts=send_attempts, retry_seconds=send_retry_seconds)
        self.on_finished = on_finished
        classify.teach_offline(model)

    # -----------------------------------------------------------------------------------------
    # One attempt
    # -----------------------------------------------------------------------------------------

    async def run_next(self, claim: Claim) -> str:
        """Run the claimed contact's next attempt, if one is due: `RAN`, `IDLE` or `DUE_AGAIN`.

        The next turn is an unfinished one (a retry resumes its turn), else a new one for the
        messages that wait. Choosing it and beginning its attempt (count the attempt, keep the
        trace id, take the messages that wait) is one transaction. With nothing to run now, the
        claim is given back in that transaction, due again when the contact still has work (a
        retry's time, the debounce's): `DUE_AGAIN`, else `IDLE`. A turn whose finish gave the
        claim back (nothing left to do) also answers `IDLE` or `DUE_AGAIN`.
        """
        org, contact = claim.organization_id, claim.contact_id
        span: trace.Span | None = None
        try:
            async with repository.tenant(self.engine, org) as conn:
                conversation = await repository.lock_conversation(conn, claim)
                turn, waiting, due = await repository.next_work(conn, org, contact)
                if turn is not None:
                    if turn.next_attempt_at is not None and turn.next_attempt_at > datetime.now(UTC):
                        await repository.give_back(conn, claim, pending=turn, waiting=False)
                        return DUE_AGAIN
                    span = self._turn_span(turn.turn_id, org, turn.trace_id)
                    turn = await repository.begin_attempt(conn, org, turn.turn_id, self._trace_id(span))
                elif not waiting or not due:
                    await repository.give_back(conn, claim, pending=None, waiting=waiting)
                    return DUE_AGAIN if waiting else IDLE
                else:
                    turn_id = uuid4()
                    span = self._turn_span(turn_id, org, "")
                    turn = await repository.start_turn(conn, org, contact, turn_id, self._trace_id(span))
                taken: list[Inbound] = []
                had_messages = turn.inbound_upto > 0
                if turn.trigger == "inbound" and turn.stage == records.STAGE_NEW:
                    taken = await repository.take_inbound(conn, org, contact, turn.turn_id, turn.inbound_upto)
                    if taken:
                        turn.inbound_upto = max(turn.inbound_upto, taken[-1].seq)
                # A turn that had taken nothing yet has exactly what it took now.
                messages = await repository.inbound_of_turn(conn, org, turn.turn_id) if had_messages else taken
        except BaseException as exc:
            if span is not None:
                span.record_exception(exc)
                span.set_status(trace.Status(trace.StatusCode.ERROR, str(exc)))
                span.end()
            raise
        assert span is not None
        with trace.use_span(span, end_on_exit=True):
            return await self._run(claim, turn, conversation, messages, span)

    @staticmethod
    def _turn_span(turn_id: Any, org: Any, trace_id: str) -> trace.Span:
        """The attempt's span; a retried attempt joins the trace of the turn's first one."""
        attributes = {"balcao.turn_id": str(turn_id), "balcao.organization_id": str(org)}
        return tracer.start_span("turn", context=parent_context(trace_id), attributes=attributes)

    @staticmethod
    def _trace_id(span: trace.Span) -> str:
        trace_id = span.get_span_context().trace_id
        return format(trace_id, "032x") if trace_id else ""

    async def _run(
        self, claim: Claim, turn: Turn, conversation: Conversation, messages: list[Inbound], span: trace.Span
    ) -> str:
        """One begun attempt, then its success, its retry or its failure recorded."""
        ctx: Ctx | None = None
        try:
            span.set_attribute("balcao.attempt", turn.attempts)
            ctx = await self._context(claim, turn, conversation, messages)
            await self._attempt(ctx)
        except repository.ClaimLost:
            log.warning("claim lost during a turn; another replica continues it", extra={"turn_id": str(turn.turn_id)})
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the turn fails half-way: retry or give up
            span.record_exception(exc)
            span.set_status(trace.Status(trace.StatusCode.ERROR, str(exc)))
            log.warning("turn attempt failed: %s", exc, extra={"turn_id": str(turn.turn_id), "error": str(exc)})
            await self._attempt_failed(claim, turn, exc)
        return ctx.released if ctx is not None and ctx.released else RAN

    async def _context(self, claim: Claim, turn: Turn, conversation: Conversation, messages: list[Inbound]) -> Ctx:
        config = await self.configs.get(turn.organization_id, draft=testar_flags(conversation)[0])
        ctx = Ctx(
            claim=claim,
            turn=turn,
            config=config,
            conversation=conversation,
            channel=self.channels.for_conversation(conversation.channel),
            execution=self._new_execution(turn, config, messages),
            messages=messages,
        )
        ctx.execution.test = is_testar(conversation)
        return ctx

    async def _attempt(self, ctx: Ctx) -> None:
        turn, messages = ctx.turn, ctx.messages
        if turn.stage == records.STAGE_SENT:
            ctx.restore(turn.progress)
            return await self._after_send(ctx, turn.progress)
        if turn.stage == records.STAGE_DRAFTED:
            ctx.restore(turn.progress)
            return await self._resume_review(ctx, turn.progress)
        if turn.trigger == "inbound":
            if not messages:
                return await self._finish(ctx, records.SILENT, detail="nenhuma mensagem nova para responder")
            return await self._inbound(ctx)
        return await self._proactive(ctx)

    def _new_execution(self, turn: Turn, config: OrgConfig, messages: Sequence[Inbound]) -> r.TurnExecution:
        detail = turn.trigger_detail
        trigger = r.TURN_TRIGGER_INBOUND
        if turn.trigger == "proactive":
            trigger = r.TURN_TRIGGER_FOLLOW_UP if detail.get("kind") == "followup_due" else r.TURN_TRIGGER_PROACTIVE
        ref = detail.get("followup_id") or detail.get("obligation_id") or detail.get("source_event_id") or ""
        return ex.new_execution(
            turn, agent_version_id=config.agent_version_id, trigger=trigger, trigger_ref=str(ref), messages=messages
        )

    # -----------------------------------------------------------------------------------------
    # Inbound turns: silence, plan gate, screening, controller
    # -----------------------------------------------------------------------------------------

    async def _inbound(self, ctx: Ctx) -> None:
        texts = [ex.message_text(m) for m in ctx.messages]
        rules = ctx.config.rules
        auto_replies = [m.auto_reply_pt for m in ctx.messages if m.auto_reply_pt]
        screening_task: asyncio.Task[sg.ScreenInboundResponse] | None = None
        if (
            conversador_on(ctx.config)
            and not ctx.config.plan_expired()
            and not (auto_replies and len(auto_replies) == len(ctx.messages))
            and not ctx.config.settings.seguranca.inbound_classifier_enabled
        ):
            # The screening will be needed unless the contact is silent: it runs beside the contact
            # read (the deterministic heuristic only: a model classifier is never run for nothing).
            # Its result is used, and recorded, at its place in the sequence.
            screening_task = asyncio.create_task(self._screen(ctx, texts))
        try:
            contact = await self._contact(ctx)
            if contact.opted_out and any(controller.is_opt_in(t, rules.opt_in_phrases) for t in texts):
                contact = await self._opt_back_in(ctx, contact)
        except BaseException:
            await self._drop(screening_task)
            raise
        silence = self._silence_reason(contact)
        if silence == HUMAN_OWNS_PT and any(controller.is_opt_out(t, rules.opt_out_phrases) for t in texts):
            # A person holds the conversation, so nothing automatic is said; but not receiving
            # messages is the customer's right whoever answers: recorded, and the person told.
            await self._drop(screening_task)
            return await self._opt_out_while_held(ctx, texts)
        if not conversador_on(ctx.config) and silence in ("", HUMAN_OWNS_PT):
            # The owner switched the Conversador off: a person answers every message.
            return await self._to_team(ctx, texts, contact)
        if silence:
            await self._drop(screening_task)
            ex.skipped(ctx.execution, "controller", silence)
            return await self._finish(ctx, records.SILENT, detail=silence)

        with ex.step(ctx.execution, "plan_gate"), tracer.start_as_current_span("plan_gate"):
            expired = ctx.config.plan_expired()
        if expired:
            ctx.execution.route.CopyFrom(r.ControllerDecision(reason="plan_expired"))
            return await self._fixed(ctx, "fixed_reply", ctx.config.reply(catalog.EXPIRED_PLAN), records.PLAN_EXPIRED)

        if auto_replies and len(auto_replies) == len(ctx.messages):
            # Nothing in the burst the agent can read (an audio without a transcript, a kind of
            # content it cannot open): the edge's fixed pt-BR reply goes, reviewed, without a model.
            ctx.execution.route.CopyFrom(r.ControllerDecision(reason="auto_reply"))
            return await self._fixed(ctx, "fixed_reply", auto_replies[-1], records.FIXED_REPLY)

        with ex.step(ctx.execution, "screen"), tracer.start_as_current_span("screen"):
            screening = await (screening_task if screening_task is not None else self._screen(ctx, texts))
        ctx.execution.screening.CopyFrom(
            r.ScreeningRecord(
                level=sg.ThreatLevel.Name(screening.level).removeprefix("THREAT_LEVEL_").lower(),
                rule=screening.matched_rule,
                classifier_used=screening.classifier.ran,
            )
        )
        if screening.verdict == sg.SCREEN_VERDICT_INJECTION:
            ctx.execution.route.CopyFrom(r.ControllerDecision(reason="screened"))
            return await self._fixed(ctx, "safe_reply", ctx.config.reply(catalog.SAFE_REPLY), records.SAFE_REPLY)

        with ex.step(ctx.execution, "controller"), tracer.start_as_current_span("controller") as span:
            decision = await self._decide(ctx, texts)
            span.set_attribute("balcao.route_reason", decision.reason)
        action = decision.action
        if action.kind == controller.OPT_OUT:
            return await self._opt_out(ctx, texts)
        if action.kind == controller.HANDOFF:
            return await self._fixed(ctx, "handoff", ctx.config.reply(catalog.HANDOFF), records.HANDOFF, post="handoff")
        if action.kind in (controller.FIXED_REPLY, controller.CANCEL_PLAN, controller.SHOW_MENU):
            key = catalog.MENU if action.kind == controller.SHOW_MENU else action.reply_key
            return await self._fixed(ctx, "fixed_reply", ctx.config.reply(key), records.FIXED_REPLY)
        return await self._converse(ctx)

    async def _opt_out(self, ctx: Ctx, texts: Sequence[str]) -> None:
        """Record the opt-out (LGPD), then send its one confirmation."""
        await self._record_opt_out(ctx, texts)
        text = ctx.config.reply(catalog.OPT_OUT_CONFIRMATION)
        return await self._fixed(ctx, "opt_out_confirmation", text, records.OPT_OUT_CONFIRMED, post="opt_out")

    async def _opt_out_while_held(self, ctx: Ctx, texts: Sequence[str]) -> None:
        """An opt-out while a person holds the conversation: recorded (LGPD) like any other, but
        not confirmed by the agent, which stays silent for a held conversation; the person learns
        it in the contact's case (opened, or updated when one is open) and can answer in person."""
        ctx.execution.route.CopyFrom(r.ControllerDecision(reason="opt_out_phrase"))
        await self._record_opt_out(ctx, texts)
        shown = " / ".join(ex.message_text(m) for m in ctx.messages)[:800]
        told = ("O cliente pediu para não receber mais mensagens; o pedido foi registrado e nada automático "
                "será enviado.")
        await self._case_for_team(
            ctx, r.HUMAN_CASE_REASON_OTHER, "o cliente pediu para não receber mensagens",
            f"{told} Mensagens: {shown}", f"{told} Mensagem: {shown}", take=False,
        )
        ex.skipped(ctx.execution, "draft", HUMAN_OWNS_PT)
        return await self._finish(ctx, records.SILENT, detail=OPT_OUT_WHILE_HELD_PT)

    async def _record_opt_out(self, ctx: Ctx, texts: Sequence[str]) -> None:
        await call(
            "crm",
            self.peers.crm_write.SetContactOptOut,
            cw.SetContactOptOutRequest(
                organization_id=str(ctx.org),
                contact_id=str(ctx.contact),
                opted_out=True,
                reason=" / ".join(texts)[:500],
                source_turn_id=str(ctx.turn.turn_id),
                idempotency_key=f"turn:{ctx.turn.turn_id}:opt_out",
            ),
            timeout=self.peers.timeout,
        )

    async def _to_team(self, ctx: Ctx, texts: Sequence[str], contact: r.Contact) -> None:
        """The Conversador is off: the turn's messages go to a person, and nothing is said for them.

        No model is called and no reply is sent (no screening, no plan gate, no catalog text),
        except an opt-out: it is recorded and confirmed exactly as when the Conversador is on
        (the customer's right, a fixed text the owner wrote, reviewed by Segurança). A request for
        a person (phrase, hashtag, menu option) opens the case *and* hands the conversation over,
        so it stays with the person after the Conversador is switched back on; any other message
        opens the contact's case, or joins the one already open, without taking the conversation,
        so switching back on lets the assistant answer again at once. The crm calls carry the
        turn's idempotency keys, so a retried attempt adds nothing twice; the finish moves the
        watermark, so the messages are handled once.
        """
        with ex.step(ctx.execution, "controller"), tracer.start_as_current_span("controller") as span:
            conversation = ctx.conversation
            state = controller.State(conversation.route, conversation.pending, conversation.requirements,
                                     conversation.transient)
            kind = controller.decide(texts, ctx.config.rules, state, datetime.now(UTC)).action.kind
            if kind in (controller.OPT_OUT, controller.HANDOFF):
                # Recorded as when the Conversador is on (neither needs a model classification).
                route_reason = (await self._decide(ctx, texts)).reason
            else:
                # No unit answers: the controller's routing is not used and its state stays as it was.
                route_reason = CONVERSADOR_OFF
                ctx.execution.route.CopyFrom(r.ControllerDecision(reason=route_reason))
                ctx.route_pt = "Conversador desligado: a mensagem foi para a equipe"
            span.set_attribute("balcao.route_reason", route_reason)
        if kind == controller.OPT_OUT:
            return await self._opt_out(ctx, texts)
        asked = kind == controller.HANDOFF
        shown = " / ".join(ex.message_text(m) for m in ctx.messages)[:800]
        if asked:
            reason, reason_text = r.HUMAN_CASE_REASON_CUSTOMER_ASKED, "o cliente pediu atendimento humano"
            summary = f"O cliente pediu para falar com uma pessoa (o assistente está desligado). Mensagens: {shown}"
        else:
            reason, reason_text = r.HUMAN_CASE_REASON_OTHER, "o Conversador está desligado"
            summary = f"O assistente está desligado: o cliente espera a resposta de uma pessoa. Mensagens: {shown}"
        joined = await self._case_for_team(
            ctx, reason, reason_text, summary, f"Nova mensagem do cliente: {shown}", take=asked
        )
        if asked and joined and not human_owned(contact):
            # A case that was already open does not take the conversation by itself.
            await call(
                "crm",
                self.peers.crm_write.SetHumanControl,
                cw.SetHumanControlRequest(
                    organization_id=str(ctx.org),
                    contact_id=str(ctx.contact),
                    human_in_control=True,
                    reason="pediu atendente",
                    actor=RUNTIME,
                    idempotency_key=f"turn:{ctx.turn.turn_id}:human_control",
                ),
                timeout=self.peers.timeout,
            )
        ex.skipped(ctx.execution, "draft", CONVERSADOR_OFF_PT)
        return await self._finish(ctx, records.HANDOFF, detail=CONVERSADOR_OFF_PT)

    async def _case_for_team(
        self, ctx: Ctx, reason: int, reason_text: str, summary: str, update: str, *, take: bool
    ) -> bool:
        """Open the contact's human case, or add `update` to the one already open (then True)."""
        with tracer.start_as_current_span("open_human_case"):
            opened = await call(
                "crm",
                self.peers.crm_write.OpenHumanCase,
                cw.OpenHumanCaseRequest(
                    organization_id=str(ctx.org),
                    contact_id=str(ctx.contact),
                    reason=reason,  # type: ignore[arg-type]
                    reason_text=reason_text,
                    summary=summary,
                    priority=r.CASE_PRIORITY_HIGH if take else r.CASE_PRIORITY_NORMAL,
                    take_conversation=take,
                    source_turn_id=str(ctx.turn.turn_id),
                    opened_by=RUNTIME,
                    idempotency_key=f"turn:{ctx.turn.turn_id}:case",
                ),
                timeout=self.peers.timeout,
            )
            if opened.already_open:
                await call(
                    "crm",
                    self.peers.crm_write.ProvideCaseUpdate,
                    cw.ProvideCaseUpdateRequest(
                        organization_id=str(ctx.org),
                        case_id=opened.human_case.case_id,
                        text=update,
                        author=RUNTIME,
                        idempotency_key=f"turn:{ctx.turn.turn_id}:case_update",
                    ),
                    timeout=self.peers.timeout,
                )
        return opened.already_open

    async def _screen(self, ctx: Ctx, texts: Sequence[str]) -> sg.ScreenInboundResponse:
        return await call(
            "seguranca",
            self.peers.seguranca.ScreenInbound,
            sg.ScreenInboundRequest(
                organization_id=str(ctx.org), contact_id=str(ctx.contact), turn_id=str(ctx.turn.turn_id), texts=texts
            ),
            timeout=self.peers.timeout,
        )

    @staticmethod
    async def _drop(task: asyncio.Task[Any] | None) -> None:
        """Cancel a look-ahead whose result will not be used (its failure included)."""
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _contact(self, ctx: Ctx) -> r.Contact:
        response = await call(
            "crm",
            self.peers.crm_read.GetContact,
            cr.GetContactRequest(organization_id=str(ctx.org), contact_id=str(ctx.contact)),
            timeout=self.peers.timeout,
        )
        return response.contact

    async def _opt_back_in(self, ctx: Ctx, contact: r.Contact) -> r.Contact:
        response = await call(
            "crm",
            self.peers.crm_write.SetContactOptOut,
            cw.SetContactOptOutRequest(
                organization_id=str(ctx.org),
                contact_id=str(ctx.contact),
                opted_out=False,
                reason="o cliente pediu para voltar a receber mensagens",
                source_turn_id=str(ctx.turn.turn_id),
                idempotency_key=f"turn:{ctx.turn.turn_id}:opt_in",
            ),
            timeout=self.peers.timeout,
        )
        async with repository.tenant(self.engine, ctx.org) as conn:
            await repository.hold_claim(conn, ctx.claim)
            await repository.clear_opt_out_confirmation(conn, ctx.org, ctx.contact)
        ctx.conversation.opt_out_confirmed_at = None
        return response.contact

    @staticmethod
    def _silence_reason(contact: r.Contact) -> str:
        if contact.blocked:
            return "o contato está bloqueado"
        if contact.opted_out:
            return "o cliente pediu para não receber mensagens"
        if contact.anonymized:
            return "os dados do contato foram apagados (LGPD)"
        if human_owned(contact):
            return HUMAN_OWNS_PT
        return ""

    async def _decide(self, ctx: Ctx, texts: Sequence[str]) -> controller.Decision:
        conversation = ctx.conversation
        state = controller.State(
            route=conversation.route,
            pending=conversation.pending,
            requirements=conversation.requirements,
            transient=conversation.transient,
        )
        now = datetime.now(UTC)
        decision = controller.decide(texts, ctx.config.rules, state, now)
        action = decision.action
        used_model = False
        if decision.classify:
            chosen = await classify.classify(self.model, texts, ctx.config.units, ctx.config.default_unit_id)
            used_model = not chosen.failed
            action = controller.Action(controller.ROUTE, unit_id=chosen.unit_id)
            if chosen.usage is not None:
                ctx.execution.usage.add(
                    purpose="classify",
                    provider=chosen.provider,
                    model=chosen.model,
                    input_tokens=chosen.usage.input_tokens,
                    output_tokens=chosen.usage.output_tokens,
                    duration_ms=chosen.duration_ms,
                )
        ctx.unit_id = action.unit_id if action.kind == controller.ROUTE else ""
        ctx.execution.unit_id = ctx.unit_id
        ctx.execution.route.CopyFrom(
            r.ControllerDecision(
                action=r.ControllerAction(
                    kind=_CRM_ACTION[action.kind], unit_id=action.unit_id, reply_key=action.reply_key
                ),
                reason=decision.reason,
                used_model=used_model,
            )
        )
        ctx.route_pt = self._route_pt(ctx.config, decision.reason, action)
        conversation.route = decision.state.route
        conversation.pending = dict(decision.state.pending) if decision.state.pending is not None else None
        conversation.transient = dict(decision.state.transient)
        conversation.reply_key = action.reply_key
        # The new state is written with the turn's next write (the send's first transaction, a
        # parked turn, the finish); an attempt that fails before it decides again from the old one.
        return controller.Decision(action, decision.reason, decision.classify, decision.state)

    @staticmethod
    def _route_pt(config: OrgConfig, reason: str, action: controller.Action) -> str:
        names = {u.unit_id: u.name for u in config.units}
        unit = names.get(action.unit_id, "")
        labels = {
            "opt_out_phrase": "pedido para não receber mensagens",
            "handoff_phrase": "pedido para falar com uma pessoa",
            "hashtag": "hashtag",
            "cancel_plan": "cancelamento do plano",
            "explanatory_followup": "explicação da última resposta",
            "pending_flow": "fluxo em andamento",
            "active_route": "assunto em andamento",
            "menu": "menu",
            "menu_request": "menu",
            "requirements": "encaminhamento definido pela equipe",
            "classifier": "triagem pelo assunto",
            "single_unit": "atendimento",
        }
        label = labels.get(reason, reason)
        return f"{label}, unidade {unit}" if unit else label

    # -----------------------------------------------------------------------------------------
    # Proactive turns
    # -----------------------------------------------------------------------------------------

    async def _proactive(self, ctx: Ctx) -> None:
        detail = ctx.turn.trigger_detail
        contact = await self._contact(ctx)
        silence = self._silence_reason(contact)
        if silence:
            ex.skipped(ctx.execution, "controller", silence)
            return await self._finish(ctx, records.SILENT, detail=silence)
        if not conversador_on(ctx.config):
            # Nothing goes out on the agent's own initiative while it is off. A follow-up is only
            # skipped (recorded SKIPPED); an Operador's news the customer waits for (an obligation
            # fulfilled or failed) goes to the contact's case, so a person tells them.
            ctx.execution.route.CopyFrom(r.ControllerDecision(reason=CONVERSADOR_OFF))
            ex.skipped(ctx.execution, "draft", PROACTIVE_OFF_PT)
            if detail.get("kind") in ("obligation_fulfilled", "obligation_failed"):
                news = str(detail.get("reason_pt") or "uma pendência do cliente foi resolvida").strip()
                await self._case_for_team(
                    ctx,
                    r.HUMAN_CASE_REASON_OTHER,
                    "o Conversador está desligado",
                    f"O assistente avisaria o cliente, mas está desligado. Avise o cliente: {news}",
                    f"O assistente avisaria o cliente, mas está desligado. Avise o cliente: {news}",
                    take=False,
                )
            return await self._finish(ctx, records.SILENT, detail=PROACTIVE_OFF_PT)
        with ex.step(ctx.execution, "plan_gate"):
            expired = ctx.config.plan_expired()
        if expired:
            # Seed 003 §9: the scheduled flow does not run and no model is called; the same fixed
            # expired-plan message goes instead.
            ctx.execution.route.CopyFrom(r.ControllerDecision(reason="plan_expired"))
            return await self._fixed(ctx, "fixed_reply", ctx.config.reply(catalog.EXPIRED_PLAN), records.PLAN_EXPIRED)
        kind = "followup" if detail.get("kind") == "followup_due" else "proactive"
        fixed_text = str(detail.get("fixed_text") or "").strip()
        ctx.execution.route.CopyFrom(r.ControllerDecision(reason=f"proactive:{detail.get('kind', '')}"))
        if fixed_text:
            return await self._fixed(ctx, kind, fixed_text, records.FIXED_REPLY)
        ctx.unit_id = ctx.conversation.route or ctx.config.default_unit_id
        ctx.execution.unit_id = ctx.unit_id
        return await self._converse(ctx, outbound_kind=kind)

    # -----------------------------------------------------------------------------------------
    # Fixed texts (catalog, hand-off, opt-out confirmation, safe reply, follow-up texts)
    # -----------------------------------------------------------------------------------------

    async def _fixed(self, ctx: Ctx, kind: str, text: str, outcome: str, *, post: str = "") -> None:
        review = await self._review_fixed(ctx, kind, [text])
        return await self._after_review(ctx, review, path="fixed", kind=kind, outcome=outcome, post=post)

    async def _review_fixed(self, ctx: Ctx, kind: str, candidates: Sequence[str], attempt: int = 1) -> Review:
        """Review fixed texts in order; the first approved one goes. A wait is kept."""
        last = Review("exhausted")
        for text in candidates:
            last = await self._review_loop(ctx, kind=kind, text=text, declaracao=None, attempt=attempt, revise=False)
            if last.status in ("approved", "waiting", "silent"):
                return last
        return last

    # -----------------------------------------------------------------------------------------
    # The Conversador's turn: opening, draft, review
    # -----------------------------------------------------------------------------------------

    async def _converse(self, ctx: Ctx, *, outbound_kind: str = "reply") -> None:
        await self._opening(ctx)
        try:
            await self._draft(ctx)
        except DraftInvalid as exc:
            if ctx.turn.attempts < self.options.max_attempts or ctx.proactive:
                raise  # another attempt may draft well; nobody waits on a proactive turn
            # The last attempt still has no valid draft: the customer gets the reviewed holding
            # reply and a person, not silence.
            review = Review("exhausted", detail=str(exc))
            return await self._after_review(
                ctx, review, path="conversation", kind=outbound_kind, outcome=records.REPLIED, post=""
            )
        review = await self._review_loop(
            ctx,
            kind=outbound_kind,
            text=ctx.reply.message if ctx.reply else "",
            declaracao=ctx.reply.declaracao if ctx.reply else None,
            attempt=1,
            revise=True,
        )
        if review.status == "approved" and not ctx.proactive:
            # "Did the customer write while we reviewed?" is asked in the send's first transaction
            # (one transaction less per turn); if so, nothing is sent and the reply is drafted again.
            try:
                return await self._after_review(
                    ctx, review, path="conversation", kind=outbound_kind, outcome=records.REPLIED, post="",
                    unanswered_check=True,
                )
            except CustomerWroteMeanwhile:
                pass
            await self._customer_wrote_meanwhile(ctx)
            # The customer wrote while we reviewed: answer that too instead of ignoring it.
            await self._draft(ctx, already_redrafted=True)
            review = await self._review_loop(
                ctx,
                kind=outbound_kind,
                text=ctx.reply.message if ctx.reply else "",
                declaracao=ctx.reply.declaracao if ctx.reply else None,
                attempt=1,
                revise=True,
            )
        return await self._after_review(
            ctx, review, path="conversation", kind=outbound_kind, outcome=records.REPLIED, post=""
        )

    async def _opening(self, ctx: Ctx) -> None:
        with ex.step(ctx.execution, "opening"), tracer.start_as_current_span("opening"):
            opening, earlier = await asyncio.gather(
                call(
                    "projection",
                    self.peers.projection.GetTurnContext,
                    pj.GetTurnContextRequest(
                        organization_id=str(ctx.org),
                        contact_id=str(ctx.contact),
                        unit_id=ctx.unit_id,
                        agent_version_id=agent_version(ctx),
                    ),
                    timeout=self.peers.timeout,
                ),
                self._history(ctx),
            )
        ctx.context = opening.context
        ctx.history = earlier
        if opening.context.lead.HasField("memory"):
            # The closing starts from the memory the draft saw: the latest checkpoint as the
            # projection let it through, never crm's raw record.
            memory = opening.context.lead.memory
            ctx.previous = cv.CheckpointContent(
                rolling_summary=memory.rolling_summary,
                commitments=list(memory.commitments),
                objections=list(memory.objections),
                next_action=memory.next_action,
            )

    async def _history(self, ctx: Ctx) -> list[cv.ConversationMessage]:
        async with repository.tenant(self.engine, ctx.org) as conn:
            entries = await repository.history(
                conn, ctx.org, ctx.contact, ctx.turn.turn_id, self.options.history_messages
            )
        authors = {"customer": cv.AUTHOR_CUSTOMER, "agent": cv.AUTHOR_AGENT, "team": cv.AUTHOR_TEAM}
        out = []
        for e in entries:
            message = cv.ConversationMessage(author=authors[e.author], text=e.text, attachment_note=e.note)
            stamp = ex.ts(e.at)
            if stamp is not None:
                message.sent_at.CopyFrom(stamp)
            out.append(message)
        return out

    def _proactive_reason(self, ctx: Ctx) -> cv.ProactiveReason | None:
        if not ctx.proactive:
            return None
        detail = ctx.turn.trigger_detail
        return cv.ProactiveReason(
            kind=PROACTIVE_KINDS.get(str(detail.get("kind")), cv.PROACTIVE_KIND_UNSPECIFIED),  # type: ignore[arg-type]
            reason=str(detail.get("reason_pt") or ""),
        )

    async def _draft(self, ctx: Ctx, *, already_redrafted: bool = False) -> None:
        redrafts = 1 if already_redrafted else 0
        while True:
            request = cv.DraftRequest(
                organization_id=str(ctx.org),
                contact_id=str(ctx.contact),
                unit_id=ctx.unit_id,
                turn_id=str(ctx.turn.turn_id),
                context=ctx.context,
                new_messages=ctx.new_messages(),
                history=ctx.history,
                agent_version_id=agent_version(ctx),
            )
            reason = self._proactive_reason(ctx)
            if reason is not None:
                request.proactive.CopyFrom(reason)
            with ex.step(ctx.execution, "draft"), tracer.start_as_current_span("draft"):
                response = await call(
                    "conversador", self.peers.conversador.Draft, request, timeout=self.peers.conversador_timeout
                )
            ex.add_usage(ctx.execution, response.usage)
            if response.WhichOneof("result") != "reply":
                ctx.tape = response.tape
                raise DraftInvalid(f"o rascunho não trouxe uma declaração válida: {response.failure.reason}")
            ctx.reply = response.reply
            ctx.tape = response.tape
            if redrafts >= self.options.max_redrafts or not await self._customer_wrote_meanwhile(ctx):
                return
            redrafts += 1

    async def _customer_wrote_meanwhile(self, ctx: Ctx) -> bool:
        """Take the contact's messages that arrived since the turn took its own; True if any."""
        if ctx.proactive:
            return False
        # Always the database: another replica's notification of a new message can reach this one
        # after the draft's answer, so what this replica heard of proves nothing.
        async with repository.tenant(self.engine, ctx.org) as conn:
            await repository.hold_claim(conn, ctx.claim)
            newer = await repository.take_inbound(conn, ctx.org, ctx.contact, ctx.turn.turn_id, ctx.turn.inbound_upto)
            if not newer:
                # The review comes next: the sending statistics it needs are read here, in this
                # transaction, instead of in one of their own beside the review's crm reads.
                sender = ctx.channel.sender(ctx.conversation.channel_instance)
                ctx.stats = await repository.sending_stats(conn, ctx.org, ctx.contact, sender, ctx.config.time_zone)
        if not newer:
            return False
        ctx.turn.inbound_upto = newer[-1].seq
        ctx.messages.extend(newer)
        ex.set_inbound(ctx.execution, ctx.messages)
        trace.get_current_span().add_event("customer wrote during the draft", {"messages": len(newer)})
        return True

    async def _evidence(self, ctx: Ctx) -> list[sg.ConfirmedBooking]:
        if ctx.bookings is None:
            ctx.bookings = await self.reviewer.confirmed_bookings(ctx.org, ctx.contact)
        return ctx.bookings

    def _agenda_consulted(self, ctx: Ctx) -> bool:
        known = ctx.context is not None and ctx.context.appointments.appointments_known == pj.AGENDA_KNOWLEDGE_KNOWN
        return known or used_agenda_tool(ctx.tape) or bool(ctx.reply and ctx.reply.used_agenda_tool)

    async def _review_loop(
        self,
        ctx: Ctx,
        *,
        kind: str,
        text: str,
        declaracao: declaracao_pb2.DeclaracaoDoTurno | None,
        attempt: int,
        revise: bool,
    ) -> Review:
        """Review until approved; revise (at most twice) when `revise`; a veto never releases by repetition."""
        while True:
            bookings = self._evidence(ctx) if kind in ("reply", "proactive", "followup") else None
            stats, ctx.stats = ctx.stats, None
            with ex.step(ctx.execution, "review"), tracer.start_as_current_span("review", attributes={"kind": kind}):
                response = await self.reviewer.review(
                    config=ctx.config,
                    conversation=ctx.conversation,
                    channel=ctx.channel,
                    turn_id=ctx.turn.turn_id,
                    kind=kind,
                    attempt=attempt,
                    text=text,
                    declaracao=declaracao,
                    bookings=bookings,
                    tape=ctx.tape if revise else None,
                    agenda_consulted=self._agenda_consulted(ctx) if revise else False,
                    stats=stats,
                )
            ex.add_attempt(ctx.execution, attempt=attempt - 1, text=text, declaracao=declaracao, review=response)
            decision = response.WhichOneof("decision")
            if decision == "approved":
                parts = [p for p in response.approved.parts if p.strip()] or [response.approved.body]
                return Review("approved", parts)
            if decision == "wait":
                until = response.wait.until.ToDatetime(tzinfo=UTC)
                delay = (until - datetime.now(UTC)).total_seconds()
                if delay <= self.options.inline_wait_seconds:
                    await asyncio.sleep(max(0.0, delay))
                    continue
                return Review("waiting", until=until, detail=response.wait.reason_pt)
            vetoes = list(response.vetoed.vetoes)
            await self._raise_veto_items(ctx, vetoes)
            if not response.vetoed.revisable:
                return Review("silent", detail=vetoes[0].guidance_pt if vetoes else "")
            if not revise or attempt > MAX_REVISIONS:
                return Review("exhausted", detail=vetoes[0].guidance_pt if vetoes else "")
            with (
                ex.step(ctx.execution, "revise"),
                tracer.start_as_current_span("revise", attributes={"revision": attempt}),
            ):
                revised = await call(
                    "conversador",
                    self.peers.conversador.Revise,
                    cv.ReviseRequest(
                        organization_id=str(ctx.org),
                        contact_id=str(ctx.contact),
                        unit_id=ctx.unit_id,
                        turn_id=str(ctx.turn.turn_id),
                        context=ctx.context,
                        new_messages=ctx.new_messages(),
                        history=ctx.history,
                        proactive=self._proactive_reason(ctx),
                        previous_draft=ctx.reply,
                        previous_tape=ctx.tape,
                        vetoes=[cv.VetoGuidance(gate=ex.gate_name(v.gate), guidance=v.guidance_pt) for v in vetoes],
                        revision=attempt,
                        agent_version_id=agent_version(ctx),
                    ),
                    timeout=self.peers.conversador_timeout,
                )
            ex.add_usage(ctx.execution, revised.usage)
            if revised.WhichOneof("result") != "reply":
                return Review("exhausted", detail=revised.failure.reason)
            ctx.reply = revised.reply
            ctx.tape = revised.tape
            text, declaracao, attempt = revised.reply.message, revised.reply.declaracao, attempt + 1

    async def _raise_veto_items(self, ctx: Ctx, vetoes: Sequence[sg.Veto]) -> None:
        for veto in vetoes:
            if veto.central_item_pt:
                kind = r.CENTRAL_ITEM_KIND_LGPD_BLOCK if veto.gate == sg.GATE_LGPD else r.CENTRAL_ITEM_KIND_OTHER
                await self._central(
                    ctx,
                    kind=kind,
                    severity=r.CENTRAL_ITEM_SEVERITY_WARNING,
                    title="Mensagem barrada pela Segurança",
                    body=veto.central_item_pt,
                    code=veto.code,
                    dedup=f"veto:{ctx.turn.turn_id}:{veto.code}",
                )

    async def _resume_review(self, ctx: Ctx, progress: dict[str, Any]) -> None:
        """A turn parked by a pacing wait: review its candidate again, then go on."""
        kind, path = progress["kind"], progress["path"]
        declaracao = ctx.reply.declaracao if (path == "conversation" and ctx.reply) else None
        review = await self._review_loop(
            ctx,
            kind=kind,
            text=progress["text"],
            declaracao=declaracao,
            attempt=progress.get("attempt", 1),
            revise=path == "conversation" and kind != "holding_reply",
        )
        return await self._after_review(
            ctx, review, path=path, kind=kind, outcome=progress["outcome"], post=progress.get("post", "")
        )

    # -----------------------------------------------------------------------------------------
    # After the review: holding reply, waiting, send, post-send actions
    # -----------------------------------------------------------------------------------------

    async def _after_review(
        self, ctx: Ctx, review: Review, *, path: str, kind: str, outcome: str, post: str, unanswered_check: bool = False
    ) -> None:
        """`unanswered_check`: raise `CustomerWroteMeanwhile` (before anything is recorded or sent) when
        the customer wrote since the turn took its messages."""
        if review.status == "exhausted" and path == "fixed" and kind != "holding_reply":
            # A text the owner wrote (catalog, follow-up) that Segurança refuses is a configuration
            # problem the owner must see.
            await self._central(
                ctx,
                kind=r.CENTRAL_ITEM_KIND_CONFIGURATION,
                severity=r.CENTRAL_ITEM_SEVERITY_WARNING,
                title="Texto pronto barrado pela Segurança",
                body=f"Um texto pronto ({kind}) não pôde ser enviado: {review.detail} Revise o texto.",
                code=f"fixed_text_vetoed:{kind}",
                dedup=f"fixed_text_vetoed:{ctx.org}:{kind}",
            )
            if kind in ("followup", "proactive"):
                # Nobody is waiting for an answer: nothing goes rather than a holding message out of
                # the blue.
                return await self._finish(ctx, records.SILENT, detail="o texto do retorno foi barrado pela Segurança")
        if review.status == "exhausted":
            # Two corrections ran out (or a fixed text cannot pass): a reviewed holding reply and a
            # human case. Silence is never the outcome.
            holding = await self._review_fixed(ctx, "holding_reply", catalog.holding_reply(ctx.config.catalog))
            if holding.status == "exhausted":
                await self._central(
                    ctx,
                    kind=r.CENTRAL_ITEM_KIND_OTHER,
                    severity=r.CENTRAL_ITEM_SEVERITY_CRITICAL,
                    title="Cliente sem resposta",
                    body="Nem a resposta nem a mensagem de espera passaram pela Segurança; o cliente precisa de uma "
                    "pessoa agora.",
                    code="holding_reply_vetoed",
                    dedup=f"holding:{ctx.turn.turn_id}",
                )
                await self._open_case(ctx, r.HUMAN_CASE_REASON_REVIEW_EXHAUSTED, take=True)
                return await self._finish(ctx, records.SILENT, detail="a mensagem de espera também foi vetada")
            review, kind, outcome, post = holding, "holding_reply", records.HOLDING_REPLY, "holding"
        if review.status == "waiting":
            return await self._park(ctx, review, path=path, kind=kind, outcome=outcome, post=post)
        if review.status == "silent":
            return await self._finish(ctx, records.SILENT, detail=review.detail)
        progress = ctx.progress(path=path, kind=kind, outcome=outcome, post=post, parts=review.parts)

        async def stage_sent(conn: AsyncConnection) -> None:
            if unanswered_check and await repository.take_inbound(
                conn, ctx.org, ctx.contact, ctx.turn.turn_id, ctx.turn.inbound_upto
            ):
                raise CustomerWroteMeanwhile  # rolls the take back too; the caller takes them again
            # In the send's first transaction, before any part is reserved: a retry resumes after
            # the send, with the controller's decision kept.
            await repository.update_turn_and_state(
                conn, ctx.conversation, ctx.turn.turn_id, stage=records.STAGE_SENT, progress=progress
            )

        return await self._after_send(ctx, progress, before=stage_sent)

    async def _park(self, ctx: Ctx, review: Review, *, path: str, kind: str, outcome: str, post: str) -> None:
        last = ctx.execution.drafts[-1] if ctx.execution.drafts else None
        progress = ctx.progress(
            path=path,
            kind=kind,
            outcome=outcome,
            post=post,
            text=last.text if last else "",
            attempt=(last.attempt + 1) if last else 1,
        )
        async with repository.tenant(self.engine, ctx.org) as conn:
            await repository.hold_claim(conn, ctx.claim)
            await repository.update_turn_and_state(
                conn,
                ctx.conversation,
                ctx.turn.turn_id,
                status=records.WAITING,
                stage=records.STAGE_DRAFTED,
                progress=progress,
                next_attempt_at=review.until,
                waiting_until=review.until,
                detail_pt=review.detail,
                # A wait is not a failed attempt: the next one starts from the same count.
                attempts=max(0, ctx.turn.attempts - 1),
            )

    async def _after_send(self, ctx: Ctx, progress: dict[str, Any], *, before: Writes | None = None) -> None:
        path, kind, outcome, post = progress["path"], progress["kind"], progress["outcome"], progress.get("post", "")

        async def answered(conn: AsyncConnection, result: SendResult) -> None:
            # The messages are answered once the reply left: the watermark moves forward now.
            await repository.advance_watermark(conn, ctx.org, ctx.contact, ctx.turn.inbound_upto)
            ctx.answered_upto = ctx.turn.inbound_upto
            if post == "opt_out" and result.delivered:
                await repository.mark_opt_out_confirmed(conn, ctx.org, ctx.contact)

        try:
            with ex.step(ctx.execution, "send"), tracer.start_as_current_span("send", attributes={"kind": kind}):
                sent = await self.sender.send(
                    ctx.claim, ctx.turn.turn_id, ctx.conversation, kind, progress["parts"],
                    before=before, after=answered,
                )
        except CustomerWroteMeanwhile:
            del ctx.execution.steps[-1]  # nothing was sent: not a step of this turn
            raise
        ex.set_sent(ctx.execution, sent.parts)
        if not sent.delivered:
            await self._central(
                ctx,
                kind=r.CENTRAL_ITEM_KIND_SEND_FAILED,
                severity=r.CENTRAL_ITEM_SEVERITY_CRITICAL,
                title="Mensagem não entregue",
                body=f"A resposta ao cliente não pôde ser entregue: {sent.error or 'o canal recusou o envio'}. "
                "Confira o canal e fale com o cliente.",
                code="send_failed",
                dedup=f"send_failed:{ctx.turn.turn_id}",
            )
        if post in ("handoff", "holding"):
            reason = r.HUMAN_CASE_REASON_CUSTOMER_ASKED if post == "handoff" else r.HUMAN_CASE_REASON_REVIEW_EXHAUSTED
            await self._open_case(ctx, reason, take=True)
        final = outcome if sent.delivered else records.NOT_DELIVERED
        if path == "conversation":
            return await self._closing(ctx, sent, final, holding=post == "holding")
        return await self._finish(ctx, final, detail=self._detail(final, sent))

    @staticmethod
    def _detail(outcome: str, sent: SendResult) -> str:
        if outcome == records.NOT_DELIVERED:
            return f"a mensagem não foi entregue: {sent.error}"
        return ""

    async def _open_case(self, ctx: Ctx, reason: int, *, take: bool) -> None:
        texts = " / ".join(ex.message_text(m) for m in ctx.messages)[:800]
        if reason == r.HUMAN_CASE_REASON_CUSTOMER_ASKED:
            summary = f"O cliente pediu para falar com uma pessoa. Mensagens: {texts}"
            reason_text = "o cliente pediu atendimento humano"
        else:
            summary = (
                "O assistente não conseguiu escrever uma resposta aprovada pela Segurança depois de duas "
                f"correções; o cliente recebeu a mensagem de espera. Mensagens: {texts}"
            )
            reason_text = "respostas vetadas pela Segurança"
        request = cw.OpenHumanCaseRequest(
            organization_id=str(ctx.org),
            contact_id=str(ctx.contact),
            reason=reason,  # type: ignore[arg-type]
            reason_text=reason_text,
            summary=summary,
            priority=r.CASE_PRIORITY_HIGH,
            take_conversation=take,
            source_turn_id=str(ctx.turn.turn_id),
            opened_by=RUNTIME,
            idempotency_key=f"turn:{ctx.turn.turn_id}:case",
        )
        if ctx.reply is not None:
            request.declaracao.CopyFrom(ctx.reply.declaracao)
        with tracer.start_as_current_span("open_human_case"):
            await call("crm", self.peers.crm_write.OpenHumanCase, request, timeout=self.peers.timeout)

    # -----------------------------------------------------------------------------------------
    # Closing and persisting
    # -----------------------------------------------------------------------------------------

    async def _closing(self, ctx: Ctx, sent: SendResult, outcome: str, *, holding: bool) -> None:
        if is_testar(ctx.conversation) and not testar_flags(ctx.conversation)[1]:
            # "Testar": everything up to the send ran as in production; no memory is written and no
            # `turn_closed` event raised, so the Operador never acts on a test (the execution is
            # recorded with `test` set).
            ex.skipped(ctx.execution, "closing", "testar: no checkpoint, no turn_closed")
            kept = None if holding or ctx.reply is None else ctx.reply.declaracao
            return await self._finish(ctx, outcome, declaracao=kept, detail=self._detail(outcome, sent))
        request = cv.CloseRequest(
            organization_id=str(ctx.org),
            contact_id=str(ctx.contact),
            turn_id=str(ctx.turn.turn_id),
            new_messages=ctx.new_messages(),
            tape=ctx.tape,
            sent=cv.SentReply(text=sent.text, delivered=sent.delivered, holding_reply=holding),
        )
        declaracao = None if holding or ctx.reply is None else ctx.reply.declaracao
        if declaracao is not None:
            request.declaracao.CopyFrom(declaracao)
        if ctx.previous is not None:
            request.previous_checkpoint.CopyFrom(ctx.previous)
        reread = r.AGENDA_REREAD_STATUS_NOT_NEEDED
        had_appointments = ctx.context is not None and len(ctx.context.appointments.appointments) > 0
        if had_appointments or used_agenda_tool(ctx.tape) or (ctx.reply is not None and ctx.reply.used_agenda_tool):
            with ex.step(ctx.execution, "reread"), tracer.start_as_current_span("agenda_reread") as span:
                view = await self._reread(ctx)
                known = view is not None and view.appointments_known == pj.AGENDA_KNOWLEDGE_KNOWN
                span.set_attribute("balcao.agenda_known", known)
            if known and view is not None:
                request.agenda.CopyFrom(view)
                reread = r.AGENDA_REREAD_STATUS_READ
            else:
                request.agenda_unknown.CopyFrom(cv.AgendaUnknown(reason="a releitura da agenda falhou"))
                reread = r.AGENDA_REREAD_STATUS_UNKNOWN
        with ex.step(ctx.execution, "closing"), tracer.start_as_current_span("closing"):
            closed = await call(
                "conversador", self.peers.conversador.Close, request, timeout=self.peers.conversador_timeout
            )
        ex.add_usage(ctx.execution, closed.usage)
        if closed.WhichOneof("result") != "checkpoint":
            raise TurnError(f"o fechamento não produziu uma memória válida: {closed.failure.reason}")
        c = closed.checkpoint
        checkpoint = r.CheckpointContent(
            rolling_summary=c.rolling_summary,
            commitments=list(c.commitments),
            objections=list(c.objections),
            next_action=c.next_action,
            declaracao=self._kept_declaracao(ctx, delivered=sent.delivered, holding=holding),
            agenda_reread=reread,  # type: ignore[arg-type]
        )
        ctx.execution.closing.CopyFrom(checkpoint)
        ex.finish(ctx.execution, outcome)
        with ex.step(ctx.execution, "persist"), tracer.start_as_current_span("persist"):
            persisted = await call(
                "crm",
                self.peers.crm_write.CloseTurn,
                cw.CloseTurnRequest(
                    organization_id=str(ctx.org),
                    contact_id=str(ctx.contact),
                    turn_id=str(ctx.turn.turn_id),
                    unit_id=ctx.unit_id,
                    checkpoint=checkpoint,
                    execution=ctx.execution,
                    traceparent=current_traceparent(),
                    idempotency_key=f"turn:{ctx.turn.turn_id}",
                ),
                timeout=self.peers.timeout,
            )
        ctx.execution.checkpoint_seq = persisted.seq
        return await self._finish(
            ctx,
            outcome,
            declaracao=declaracao,
            detail=self._detail(outcome, sent),
            recorded=True,
            checkpoint_seq=persisted.seq,
        )

    @staticmethod
    def _kept_declaracao(ctx: Ctx, *, delivered: bool, holding: bool) -> declaracao_pb2.DeclaracaoDoTurno:
        """The declaração the checkpoint keeps, and so the obligations crm writes.

        The sent reply's, whole. When the customer got the holding reply instead (or nothing),
        the customer's intentions stand but no promise was made to them: a vetoed draft's
        promises never become obligations.
        """
        kept = declaracao_pb2.DeclaracaoDoTurno()
        if ctx.reply is not None:
            kept.intencoes.extend(ctx.reply.declaracao.intencoes)
            if delivered and not holding:
                kept.promessas.extend(ctx.reply.declaracao.promessas)
        kept.nada_a_declarar = not kept.intencoes and not kept.promessas
        return kept

    async def _reread(self, ctx: Ctx) -> pj.AppointmentsView | None:
        """The contact's agenda now; None when it could not be read (then it is unknown, never empty)."""
        try:
            response = await call(
                "projection",
                self.peers.projection.ListMyAppointments,
                pj.ListMyAppointmentsRequest(organization_id=str(ctx.org), contact_id=str(ctx.contact)),
                timeout=self.peers.timeout,
            )
        except PeerFailure as exc:
            log.warning("agenda re-read failed; the closing is told it is unknown", extra={"error": str(exc)})
            return None
        return response.appointments

    async def _finish(
        self,
        ctx: Ctx,
        outcome: str,
        *,
        declaracao: declaracao_pb2.DeclaracaoDoTurno | None = None,
        detail: str = "",
        recorded: bool = False,
        checkpoint_seq: int = 0,
    ) -> None:
        if not recorded:
            ex.finish(ctx.execution, outcome)
            with ex.step(ctx.execution, "persist"), tracer.start_as_current_span("record_execution"):
                await call(
                    "crm",
                    self.peers.crm_write.RecordTurnExecution,
                    cw.RecordTurnExecutionRequest(organization_id=str(ctx.org), execution=ctx.execution),
                    timeout=self.peers.timeout,
                )
        result = ex.result_document(declaracao=declaracao, execution=ctx.execution, route_pt=ctx.route_pt)
        result["checkpoint_seq"] = checkpoint_seq
        if outcome == records.REPLIED and ctx.unit_id:
            ctx.conversation.transient["last_answer_unit"] = ctx.unit_id
        followup = bool(ctx.turn.trigger_detail.get("followup_id"))
        async with repository.tenant(self.engine, ctx.org) as conn:
            await repository.hold_claim(conn, ctx.claim)
            if ctx.answered_upto < ctx.turn.inbound_upto:
                await repository.advance_watermark(conn, ctx.org, ctx.contact, ctx.turn.inbound_upto)
            await repository.update_turn_and_state(
                conn,
                ctx.conversation,
                ctx.turn.turn_id,
                status=records.DONE,
                outcome=outcome,
                finished_at="now()",
                result=result,
                progress={},
                detail_pt=detail,
                unit_id=ctx.unit_id,
                last_error="",
            )
            if not followup:
                # What the worker would ask next, under the same lock: with nothing to run now the
                # claim goes back here (one transaction less per turn). A follow-up's outcome is
                # recorded after this transaction and may fail into a retry: it keeps its claim.
                waiting = await repository.release_if_idle(conn, ctx.claim)
                if waiting is not None:
                    ctx.released = DUE_AGAIN if waiting else IDLE
        await self._record_followup(ctx, outcome)
        self._notify(ctx.turn)

    async def _record_followup(self, ctx: Ctx, outcome: str, error: str = "") -> None:
        followup = str(ctx.turn.trigger_detail.get("followup_id") or "")
        if not followup:
            return
        status = {
            records.SILENT: r.FOLLOW_UP_STATUS_SKIPPED,
            records.NOT_DELIVERED: r.FOLLOW_UP_STATUS_FAILED,
            "failed": r.FOLLOW_UP_STATUS_FAILED,
        }.get(outcome, r.FOLLOW_UP_STATUS_SENT)
        try:
            await call(
                "crm",
                self.peers.crm_write.RecordFollowUpOutcome,
                cw.RecordFollowUpOutcomeRequest(
                    organization_id=str(ctx.org),
                    follow_up_id=followup,
                    status=status,  # type: ignore[arg-type]
                    detail=error or outcome,
                    turn_id=str(ctx.turn.turn_id),
                    idempotency_key=f"turn:{ctx.turn.turn_id}:followup",
                ),
                timeout=self.peers.timeout,
            )
        except PeerFailure as exc:
            if exc.code not in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION):
                raise

    async def _central(
        self, ctx: Ctx, *, kind: int, severity: int, title: str, body: str, code: str, dedup: str
    ) -> None:
        await call(
            "crm",
            self.peers.crm_write.RaiseCentralItem,
            cw.RaiseCentralItemRequest(
                organization_id=str(ctx.org),
                kind=kind,  # type: ignore[arg-type]
                severity=severity,  # type: ignore[arg-type]
                title_pt=title,
                body_pt=body,
                code=code,
                contact_id=str(ctx.contact),
                turn_id=str(ctx.turn.turn_id),
                dedup_key=dedup,
                raised_by=RUNTIME,
                idempotency_key=f"turn:{ctx.turn.turn_id}:{dedup}",
            ),
            timeout=self.peers.timeout,
        )

    def _notify(self, turn: Turn) -> None:
        if self.on_finished is not None:
            self.on_finished(turn)

    # -----------------------------------------------------------------------------------------
    # A failed attempt
    # -----------------------------------------------------------------------------------------

    async def _attempt_failed(self, claim: Claim, turn: Turn, error: Exception) -> None:
        message = str(error)[:2000]
        last = turn.attempts >= self.options.max_attempts
        try:
            async with repository.tenant(self.engine, turn.organization_id) as conn:
                await repository.hold_claim(conn, claim)
                if not last:
                    retry_at = datetime.now(UTC) + timedelta(seconds=self.options.backoff(turn.attempts))
                    await repository.update_turn(
                        conn,
                        turn.organization_id,
                        turn.turn_id,
                        status=records.RETRYING,
                        next_attempt_at=retry_at,
                        last_error=message,
                    )
                else:
                    await repository.update_turn(
                        conn,
                        turn.organization_id,
                        turn.turn_id,
                        status=records.FAILED,
                        finished_at="now()",
                        last_error=message,
                        detail_pt="o atendimento falhou depois de todas as tentativas; a equipe foi avisada",
                    )
        except repository.ClaimLost:
            return
        if not last:
            return
        self._notify(turn)
        await self._give_up(turn, message)

    async def _give_up(self, turn: Turn, message: str) -> None:
        """After the last attempt: a critical Central item and the record of the failed turn."""
        answered = turn.stage == records.STAGE_SENT
        body = (
            "A resposta foi enviada, mas o atendimento não pôde ser registrado: "
            if answered
            else "O cliente escreveu e ficou sem resposta depois de todas as tentativas: "
        ) + message[:500]
        try:
            await call(
                "crm",
                self.peers.crm_write.RaiseCentralItem,
                cw.RaiseCentralItemRequest(
                    organization_id=str(turn.organization_id),
                    kind=r.CENTRAL_ITEM_KIND_TURN_FAILED,
                    severity=r.CENTRAL_ITEM_SEVERITY_CRITICAL,
                    title_pt="Atendimento com falha",
                    body_pt=body,
                    code="turn_failed",
                    contact_id=str(turn.contact_id),
                    turn_id=str(turn.turn_id),
                    dedup_key=f"turn_failed:{turn.turn_id}",
                    raised_by=RUNTIME,
                    idempotency_key=f"turn_failed:{turn.turn_id}",
                ),
                timeout=self.peers.timeout,
            )
            failed = r.TurnExecution(
                turn_id=str(turn.turn_id),
                organization_id=str(turn.organization_id),
                contact_id=str(turn.contact_id),
                outcome=r.TURN_OUTCOME_FAILED,
                trace_id=turn.trace_id,
                error=message,
            )
            failed.finished_at.CopyFrom(ex.now_ts())
            await call(
                "crm",
                self.peers.crm_write.RecordTurnExecution,
                cw.RecordTurnExecutionRequest(organization_id=str(turn.organization_id), execution=failed),
                timeout=self.peers.timeout,
            )
        except PeerFailure as exc:  # crm itself is down: the log is all that is left
            log.error("could not raise the Central item of a failed turn", extra={"error": str(exc)})


_CRM_ACTION = {
    controller.ROUTE: r.CONTROLLER_ACTION_KIND_ROUTE_TO_UNIT,
    controller.FIXED_REPLY: r.CONTROLLER_ACTION_KIND_FIXED_REPLY,
    controller.HANDOFF: r.CONTROLLER_ACTION_KIND_HANDOFF,
    controller.SHOW_MENU: r.CONTROLLER_ACTION_KIND_SHOW_MENU,
    controller.OPT_OUT: r.CONTROLLER_ACTION_KIND_OPT_OUT,
    controller.CANCEL_PLAN: r.CONTROLLER_ACTION_KIND_CANCEL_PLAN,
}


def result_declaracao(turn: Turn) -> declaracao_pb2.DeclaracaoDoTurno | None:
    document = turn.result.get("declaracao")
    if document is None:
        return None
    return json_format.ParseDict(document, declaracao_pb2.DeclaracaoDoTurno(), ignore_unknown_fields=True)
