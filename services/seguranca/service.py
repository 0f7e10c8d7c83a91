"""The seguranca servicer: proto ↔ domain, and errors to gRPC status, in one place.

A veto, a wait or a suspicious inbound is DATA with status OK. Errors are only: a malformed
request (INVALID_ARGUMENT, nothing judged), an unknown organisation (NOT_FOUND), settings that
cannot be used (FAILED_PRECONDITION) and crm unreachable (UNAVAILABLE). The runtime never treats
an error as approval, so failing closed is always an error, never a quiet "approved".
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, NoReturn, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import grpc
from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.common.v1 import declaracao_pb2
from balcao.kit.identity import allow
from balcao.kit.mesh import ADMIN
from balcao.seguranca.v1 import seguranca_pb2 as pb
from balcao.seguranca.v1 import seguranca_pb2_grpc
from services.seguranca import inbound
from services.seguranca.chain import CHAIN_VERSION, GATES, Chain, is_enabled
from services.seguranca.facts import (
    AuthorisedFacts,
    Channel,
    ConfirmedBooking,
    Contact,
    Declaracao,
    Evidence,
    History,
    Outbound,
    OutboundKind,
    PublicContacts,
    SentMessage,
    ToolResult,
)
from services.seguranca.organizations import (
    InvalidSettings,
    OrganizationNotFound,
    OrganizationSource,
    OrganizationsUnavailable,
)
from services.seguranca.reviewers import InboundClassifier, ReviewerFailed
from services.seguranca.verdict import Decision, Status, Verdict

log = logging.getLogger(__name__)


class InvalidRequest(Exception):
    """The request cannot be judged as it is; the message says which field and why."""


# ---------------------------------------------------------------------------------------------
# proto → domain
# ---------------------------------------------------------------------------------------------

_KINDS = {
    pb.OUTBOUND_KIND_UNSPECIFIED: OutboundKind.REPLY,
    pb.OUTBOUND_KIND_REPLY: OutboundKind.REPLY,
    pb.OUTBOUND_KIND_FOLLOWUP: OutboundKind.FOLLOWUP,
    pb.OUTBOUND_KIND_PROACTIVE: OutboundKind.PROACTIVE,
    pb.OUTBOUND_KIND_HANDOFF: OutboundKind.HANDOFF,
    pb.OUTBOUND_KIND_HOLDING_REPLY: OutboundKind.HOLDING_REPLY,
    pb.OUTBOUND_KIND_FIXED_REPLY: OutboundKind.FIXED_REPLY,
    pb.OUTBOUND_KIND_SAFE_REPLY: OutboundKind.SAFE_REPLY,
    pb.OUTBOUND_KIND_OPT_OUT_CONFIRMATION: OutboundKind.OPT_OUT_CONFIRMATION,
}


def _uuid(value: str, field: str) -> str:
    if not value.strip():
        raise InvalidRequest(f"{field} is required")
    try:
        return str(uuid.UUID(value.strip()))
    except ValueError:
        raise InvalidRequest(f"{field} must be a UUID, got {value!r}") from None


def _when(stamp: Timestamp) -> datetime:
    return stamp.ToDatetime(tzinfo=UTC)


def _zone(value: str, field: str) -> str:
    if not value:
        return ""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidRequest(f"{field} {value!r} is not an IANA time zone") from None
    return value


def _declaracao(message: declaracao_pb2.DeclaracaoDoTurno) -> Declaracao:
    return Declaracao(
        pede_humano=any(i.categoria == declaracao_pb2.CATEGORIA_PEDE_HUMANO for i in message.intencoes),
        promessas=tuple(p.o_que for p in message.promessas if p.o_que.strip()),
    )


def _authorised(facts: list[pb.CommercialFact]) -> AuthorisedFacts:
    prices: set[int] = set()
    discount_cents: set[int] = set()
    discount_percents: set[int] = set()
    most = 0
    any_offer = False
    free: list[str] = []
    guarantees: list[str] = []
    texts: list[str] = []
    for fact in facts:
        if fact.amount_cents < 0 or fact.percent < 0 or fact.instalments < 0:
            raise InvalidRequest("organization.authorised_commercial_facts cannot hold negative values")
        kind = fact.kind
        if kind == pb.COMMERCIAL_FACT_KIND_PRICE and fact.amount_cents:
            prices.add(fact.amount_cents)
        elif kind in (pb.COMMERCIAL_FACT_KIND_DISCOUNT, pb.COMMERCIAL_FACT_KIND_OFFER):
            any_offer = True
            if fact.amount_cents:
                discount_cents.add(fact.amount_cents)
            if fact.percent:
                discount_percents.add(fact.percent)
        elif kind == pb.COMMERCIAL_FACT_KIND_FREE:
            free.append(fact.subject or fact.text)
        elif kind == pb.COMMERCIAL_FACT_KIND_GUARANTEE:
            guarantees.append(f"{fact.subject} {fact.text}".strip())
        most = max(most, fact.instalments)
        if fact.text:
            texts.append(fact.text)
    return AuthorisedFacts(
        price_cents=frozenset(prices),
        discount_cents=frozenset(discount_cents),
        discount_percents=frozenset(discount_percents),
        max_instalments=most,
        any_discount=any_offer,
        free_items=tuple(f for f in free if f),
        guarantees=tuple(g for g in guarantees if g),
        texts=tuple(texts),
    )


def _public(contacts: list[pb.PublicContact]) -> PublicContacts:
    phones = tuple(c.value for c in contacts if c.kind == pb.PUBLIC_CONTACT_KIND_PHONE)
    emails = tuple(c.value for c in contacts if c.kind == pb.PUBLIC_CONTACT_KIND_EMAIL)
    documents = tuple(c.value for c in contacts if c.kind == pb.PUBLIC_CONTACT_KIND_DOCUMENT)
    return PublicContacts(phones, emails, documents)


def _sent(messages: list[pb.SentMessage]) -> tuple[SentMessage, ...]:
    return tuple(SentMessage(m.text, _when(m.sent_at) if m.HasField("sent_at") else None) for m in messages)


def _bookings(evidence: pb.Evidence) -> tuple[ConfirmedBooking, ...]:
    bookings = []
    for i, b in enumerate(evidence.evidencias_agendamento):
        field = f"evidence.evidencias_agendamento[{i}]"
        if not b.HasField("starts_at"):
            raise InvalidRequest(f"{field}.starts_at is required")
        bookings.append(
            ConfirmedBooking(
                starts_at=_when(b.starts_at),
                time_zone=_zone(b.time_zone, f"{field}.time_zone"),
                ends_at=_when(b.ends_at) if b.HasField("ends_at") else None,
                local_label=b.local_label,
                service=b.service,
                professional=b.professional,
                place=b.place,
            )
        )
    return tuple(bookings)


def outbound_from_request(request: pb.ReviewOutboundRequest) -> Outbound:
    if request.kind not in _KINDS:
        raise InvalidRequest(f"kind {request.kind} is not a known outbound kind")
    if request.attempt < 0:
        raise InvalidRequest("attempt cannot be negative")
    c = request.contact
    ch = request.channel
    if ch.max_text_chars < 0:
        raise InvalidRequest("channel.max_text_chars cannot be negative")
    history = request.history
    evidence = request.evidence
    return Outbound(
        draft=request.draft,
        kind=_KINDS[request.kind],
        attempt=request.attempt or 1,
        declaracao=_declaracao(request.declaracao) if request.HasField("declaracao") else None,
        contact=Contact(
            phone=c.phone,
            name=c.name,
            email=c.email,
            cpf=c.cpf,
            opted_out=c.opted_out,
            blocked=c.blocked,
            human_owned=c.human_owned,
            anonymised=c.anonymised,
            first_contact=c.first_contact,
            legal_basis_recorded=c.legal_basis_recorded,
            human_case_open=c.human_case_open,
            opt_out_confirmation_sent=c.opt_out_confirmation_sent,
            last_inbound_at=_when(c.last_inbound_at) if c.HasField("last_inbound_at") else None,
        ),
        channel=Channel(ch.name, ch.has_service_window, ch.max_text_chars, ch.sender),
        time_zone=_zone(request.organization.time_zone, "organization.time_zone"),
        public_contacts=_public(list(request.organization.public_contacts)),
        authorised=_authorised(list(request.organization.authorised_commercial_facts)),
        history=History(
            from_sender=_sent(list(history.from_sender)),
            to_contact=_sent(list(history.to_contact)),
            sent_today_from_sender=max(0, history.sent_today_from_sender),
            sender_active_since=_when(history.sender_active_since) if history.HasField("sender_active_since") else None,
        ),
        evidence=Evidence(
            bookings=_bookings(evidence),
            tool_results=tuple(ToolResult(t.tool_name, t.result_text) for t in evidence.tool_results),
            agenda_readable=evidence.agenda_readable,
            agenda_consulted=evidence.agenda_consulted,
        ),
    )


# ---------------------------------------------------------------------------------------------
# domain → proto
# ---------------------------------------------------------------------------------------------

GATE_ENUM = {spec.name: pb.Gate.Value(f"GATE_{spec.name.upper()}") for spec in GATES}
_STATUS = {
    Status.PASSED: pb.GATE_STATUS_PASSED,
    Status.VETOED: pb.GATE_STATUS_VETOED,
    Status.NOT_APPLICABLE: pb.GATE_STATUS_SKIPPED_NOT_APPLICABLE,
    Status.DISABLED: pb.GATE_STATUS_SKIPPED_DISABLED,
    Status.WAITED: pb.GATE_STATUS_WAITED,
    Status.REVIEWER_FAILED: pb.GATE_STATUS_REVIEWER_FAILED,
}
_LEVELS = {
    inbound.Level.NONE: pb.THREAT_LEVEL_NONE,
    inbound.Level.LOW: pb.THREAT_LEVEL_LOW,
    inbound.Level.HIGH: pb.THREAT_LEVEL_HIGH,
}
_VERDICTS = {
    inbound.Level.NONE: pb.SCREEN_VERDICT_CLEAN,
    inbound.Level.LOW: pb.SCREEN_VERDICT_SUSPICIOUS,
    inbound.Level.HIGH: pb.SCREEN_VERDICT_INJECTION,
}
_CLASSIFIER_LEVELS = {"none": inbound.Level.NONE, "low": inbound.Level.LOW, "high": inbound.Level.HIGH}


def _timestamp(moment: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(moment.astimezone(UTC))
    return stamp


def response_from_verdict(verdict: Verdict) -> pb.ReviewOutboundResponse:
    trace = [
        pb.TraceLine(
            gate=GATE_ENUM[line.gate],
            position=line.position,
            status=_STATUS[line.status],
            code=line.code,
            rewrote_body=line.rewrote_body,
            category_counts=dict(line.counts),
            elapsed=Duration(seconds=line.elapsed_ns // 1_000_000_000, nanos=line.elapsed_ns % 1_000_000_000),
        )
        for line in verdict.trace
    ]
    response = pb.ReviewOutboundResponse(trace=trace, chain_version=verdict.chain_version)
    if verdict.decision is Decision.APPROVED:
        response.approved.CopyFrom(
            pb.Approval(body=verdict.body, parts=list(verdict.parts), body_rewritten=verdict.body_rewritten)
        )
    elif verdict.decision is Decision.WAIT:
        assert verdict.wait is not None
        response.wait.CopyFrom(
            pb.PacingWait(
                until=_timestamp(verdict.wait.until), code=verdict.wait.code, reason_pt=verdict.wait.reason_pt
            )
        )
    else:
        response.vetoed.CopyFrom(
            pb.Rejection(
                vetoes=[
                    pb.Veto(
                        gate=GATE_ENUM[v.gate],
                        code=v.code,
                        guidance_pt=v.guidance_pt,
                        revisable=v.revisable,
                        central_item_pt=v.central_item_pt,
                    )
                    for v in verdict.vetoes
                ],
                revisable=verdict.revisable,
            )
        )
    return response


# ---------------------------------------------------------------------------------------------
# The servicer
# ---------------------------------------------------------------------------------------------

R = TypeVar("R")


async def _abort(context: grpc.aio.ServicerContext, code: grpc.StatusCode, details: str) -> NoReturn:
    await context.abort(code, details)
    raise AssertionError("unreachable")  # context.abort raises


async def _guarded(context: grpc.aio.ServicerContext, work: Callable[[], Awaitable[R]]) -> R:
    """Run one RPC's work, turning the domain's failures into gRPC status codes."""
    try:
        return await work()
    except InvalidRequest as exc:
        await _abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
    except OrganizationNotFound as exc:
        await _abort(context, grpc.StatusCode.NOT_FOUND, f"organization {exc} not found")
    except InvalidSettings as exc:
        await _abort(context, grpc.StatusCode.FAILED_PRECONDITION, f"the organization's settings: {exc}")
    except OrganizationsUnavailable as exc:
        await _abort(context, grpc.StatusCode.UNAVAILABLE, f"the organization's settings could not be read: {exc}")


class Seguranca(seguranca_pb2_grpc.SegurancaServiceServicer):
    """The gate chain before every send and the inbound screening."""

    def __init__(
        self,
        organizations: OrganizationSource,
        chain: Chain,
        *,
        classifier: InboundClassifier | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._organizations = organizations
        self._chain = chain
        self._classifier = classifier
        self._clock = clock

    async def ReviewOutbound(self, request: pb.ReviewOutboundRequest, context: Any) -> pb.ReviewOutboundResponse:
        async def work() -> pb.ReviewOutboundResponse:
            organization_id = _uuid(request.organization_id, "organization_id")
            _uuid(request.contact_id, "contact_id")
            outbound = outbound_from_request(request)
            now = self._clock()
            seen = (
                request.organization_updated_at.ToDatetime(tzinfo=UTC)
                if request.HasField("organization_updated_at")
                else None
            )
            config = await self._organizations.get(organization_id, now, seen)
            verdict = await self._chain.review(config, outbound, now)
            log.info(
                "reviewed",
                extra={
                    "organization_id": organization_id,
                    "turn_id": request.turn_id,
                    "attempt": outbound.attempt,
                    "decision": verdict.decision.value,
                    "codes": [v.code for v in verdict.vetoes] or ([verdict.wait.code] if verdict.wait else []),
                },
            )
            return response_from_verdict(verdict)

        return await _guarded(context, work)

    async def ScreenInbound(self, request: pb.ScreenInboundRequest, context: Any) -> pb.ScreenInboundResponse:
        async def work() -> pb.ScreenInboundResponse:
            organization_id = _uuid(request.organization_id, "organization_id")
            texts = list(request.texts)
            config = await self._organizations.get(organization_id, self._clock())
            found = inbound.screen(texts)
            level, rule, index = found.level, found.rule, found.text_index
            classifier = pb.ClassifierResult(ran=False)
            if config.inbound_classifier_enabled:
                classifier.ran = True
                try:
                    if self._classifier is None:
                        raise ReviewerFailed("no model is configured for the classifier")
                    said = _CLASSIFIER_LEVELS[await self._classifier.classify(texts)]
                    classifier.level = _LEVELS[said]
                    if said > level:
                        level, rule, index = said, "model_classifier", -1
                except ReviewerFailed as exc:
                    classifier.failed = True
                    log.warning(
                        "inbound classifier failed", extra={"organization_id": organization_id, "error": str(exc)}
                    )
            if level > inbound.Level.NONE:
                log.info(
                    "inbound flagged",
                    extra={"organization_id": organization_id, "turn_id": request.turn_id, "rule": rule},
                )
            return pb.ScreenInboundResponse(
                verdict=_VERDICTS[level],
                level=_LEVELS[level],
                matched_rule=rule,
                matched_text_index=index,
                classifier=classifier,
            )

        return await _guarded(context, work)

    async def GetGateChain(self, request: pb.GetGateChainRequest, context: Any) -> pb.GetGateChainResponse:
        async def work() -> pb.GetGateChainResponse:
            organization_id = _uuid(request.organization_id, "organization_id")
            config = await self._organizations.get(organization_id, self._clock())
            gates = [
                pb.GateInfo(
                    gate=GATE_ENUM[spec.name],
                    position=position,
                    name=spec.name,
                    label_pt=spec.label_pt,
                    explanation_pt=spec.explanation_pt,
                    switchable=spec.switchable,
                    enabled=is_enabled(config, spec.name),
                    uses_model=spec.uses_model,
                )
                for position, spec in enumerate(GATES, start=1)
            ]
            return pb.GetGateChainResponse(
                chain_version=CHAIN_VERSION,
                gates=gates,
                inbound=pb.InboundScreeningInfo(
                    heuristic_enabled=True, classifier_enabled=config.inbound_classifier_enabled
                ),
            )

        return await _guarded(context, work)


POLICY = allow(
    pb.DESCRIPTOR.services_by_name["SegurancaService"],
    ["gateway"],
    GetGateChain=["gateway", ADMIN],
)
