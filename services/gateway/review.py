"""Asking Segurança about one outgoing message, with the facts of this one send.

The stop facts (opted out, blocked, a person owns the conversation) are read from crm right
before every review, never trusted from the turn's start. The evidence is the contact's
CONFIRMED future bookings, read from agenda filtered on organisation and contact (seed 000:
`pending` proves nothing), plus what this turn's read tools returned.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.agenda.v1 import agenda_read_pb2 as ar
from balcao.agenda.v1 import agenda_resources_pb2 as ag
from balcao.common.v1 import declaracao_pb2
from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.seguranca.v1 import seguranca_pb2 as sg
from services.gateway import repository
from services.gateway.configuration import OrgConfig
from services.gateway.execution import ts
from services.gateway.outbound import OutboundChannel
from services.gateway.peers import Peers, call
from services.gateway.records import Conversation, SendingStats

KIND = {
    "reply": sg.OUTBOUND_KIND_REPLY,
    "followup": sg.OUTBOUND_KIND_FOLLOWUP,
    "proactive": sg.OUTBOUND_KIND_PROACTIVE,
    "handoff": sg.OUTBOUND_KIND_HANDOFF,
    "holding_reply": sg.OUTBOUND_KIND_HOLDING_REPLY,
    "fixed_reply": sg.OUTBOUND_KIND_FIXED_REPLY,
    "safe_reply": sg.OUTBOUND_KIND_SAFE_REPLY,
    "opt_out_confirmation": sg.OUTBOUND_KIND_OPT_OUT_CONFIRMATION,
}
AGENDA_TOOLS = frozenset({"list_my_appointments", "check_availability"})


@dataclass(frozen=True)
class Recipient:
    """What the stop facts and third-party checks need, read right before a review."""

    contact: r.Contact
    human_case_open: bool


def human_owned(contact: r.Contact, now: datetime | None = None) -> bool:
    if not contact.human_in_control:
        return False
    if contact.HasField("human_control_until"):
        return contact.human_control_until.ToDatetime(tzinfo=UTC) > (now or datetime.now(UTC))
    return True


def tool_evidence(tape: cv.Tape) -> list[sg.ToolEvidence]:
    return [
        sg.ToolEvidence(tool_name=part.tool_result.tool_name, result_text=part.tool_result.content)
        for step in tape.steps
        for message in step.messages
        for part in message.parts
        if part.WhichOneof("content") == "tool_result"
    ]


def organization_facts(config: OrgConfig) -> sg.OrganizationFacts:
    settings = config.settings
    business = settings.business
    facts = sg.OrganizationFacts(time_zone=config.time_zone)
    for kind, values in (
        (sg.PUBLIC_CONTACT_KIND_PHONE, business.public_phones),
        (sg.PUBLIC_CONTACT_KIND_EMAIL, business.public_emails),
        (sg.PUBLIC_CONTACT_KIND_WEBSITE, business.websites),
        (sg.PUBLIC_CONTACT_KIND_DOCUMENT, business.public_documents),
    ):
        for value in values:
            facts.public_contacts.add(kind=kind, value=value)
    commercial = settings.commercial
    for price in commercial.prices:
        facts.authorised_commercial_facts.add(
            kind=sg.COMMERCIAL_FACT_KIND_PRICE,
            subject=price.item,
            text=f"{price.item}: {price.price.amount_minor / 100:.2f} {price.conditions}".strip(),
            amount_cents=price.price.amount_minor,
            instalments=price.max_instalments if price.max_instalments > 1 else 0,
        )
    for offer in commercial.offers:
        facts.authorised_commercial_facts.add(
            kind=sg.COMMERCIAL_FACT_KIND_DISCOUNT,
            subject=offer.subject,
            text=offer.description,
            amount_cents=offer.discount_amount.amount_minor,
            percent=offer.discount_percent,
        )
    for item in commercial.free_items:
        facts.authorised_commercial_facts.add(kind=sg.COMMERCIAL_FACT_KIND_FREE, subject=item, text=item)
    for item in commercial.guarantees:
        facts.authorised_commercial_facts.add(kind=sg.COMMERCIAL_FACT_KIND_GUARANTEE, subject=item, text=item)
    return facts


def booking(a: ag.Appointment) -> sg.ConfirmedBooking:
    return sg.ConfirmedBooking(
        starts_at=a.start_time,
        ends_at=a.end_time,
        time_zone=a.time_zone,
        local_label=a.labels.start_label,
        service=a.service_name,
        professional=a.resource_name,
        place=a.place.name or a.place.address,
    )


class Reviewer:
    def __init__(self, peers: Peers, engine: AsyncEngine) -> None:
        self._peers = peers
        self._engine = engine

    async def read_recipient(self, organization_id: UUID, contact_id: UUID) -> Recipient:
        contact, cases = await asyncio.gather(
            call(
                "crm",
                self._peers.crm_read.GetContact,
                cr.GetContactRequest(organization_id=str(organization_id), contact_id=str(contact_id)),
                timeout=self._peers.timeout,
            ),
            call(
                "crm",
                self._peers.crm_read.ListHumanCases,
                cr.ListHumanCasesRequest(organization_id=str(organization_id), contact_id=str(contact_id), page_size=1),
                timeout=self._peers.timeout,
            ),
        )
        return Recipient(contact.contact, bool(cases.cases))

    async def confirmed_bookings(self, organization_id: UUID, contact_id: UUID) -> list[sg.ConfirmedBooking]:
        response = await call(
            "agenda",
            self._peers.agenda.ListConfirmedFutureBookings,
            ar.ListConfirmedFutureBookingsRequest(organization_id=str(organization_id), contact_id=str(contact_id)),
            timeout=self._peers.timeout,
        )
        return [booking(b) for b in response.bookings]

    async def review(
        self,
        *,
        config: OrgConfig,
        conversation: Conversation,
        channel: OutboundChannel,
        turn_id: UUID,
        kind: str,
        attempt: int,
        text: str,
        declaracao: declaracao_pb2.DeclaracaoDoTurno | None = None,
        bookings: Awaitable[Sequence[sg.ConfirmedBooking]] | None = None,
        tape: cv.Tape | None = None,
        agenda_consulted: bool = False,
        stats: SendingStats | None = None,
    ) -> sg.ReviewOutboundResponse:
        """`bookings`: the evidence, read beside the recipient's facts and the sending statistics.
        `stats`: the sending statistics when the caller read them right before (in the transaction
        that made sure the customer had not written meanwhile); read here otherwise."""
        organization_id, contact_id = conversation.organization_id, conversation.contact_id
        sender = channel.sender(conversation.channel_instance)
        recipient, read_stats, evidence = await asyncio.gather(
            self.read_recipient(organization_id, contact_id),
            self._stats(organization_id, contact_id, sender, config.time_zone) if stats is None else _given(stats),
            bookings if bookings is not None else _none(),
        )
        stats = read_stats
        contact = recipient.contact
        facts = sg.ContactFacts(
            phone=contact.phone_e164 or conversation.phone,
            name=contact.name,
            email=contact.email,
            cpf=contact.cpf,
            opted_out=contact.opted_out,
            blocked=contact.blocked,
            human_owned=human_owned(contact),
            anonymised=contact.anonymized,
            first_contact=not stats.ever_sent_to_contact,
            legal_basis_recorded=contact.legal_basis != r.LEGAL_BASIS_UNSPECIFIED,
            human_case_open=recipient.human_case_open,
            opt_out_confirmation_sent=conversation.opt_out_confirmed_at is not None,
        )
        last_inbound = ts(conversation.last_inbound_at)
        if last_inbound is not None:
            facts.last_inbound_at.CopyFrom(last_inbound)
        history = sg.SendingHistory(sent_today_from_sender=stats.sent_today_from_sender)
        for body, at in stats.from_sender:
            history.from_sender.add(text=body, sent_at=ts(at))
        for body, at in stats.to_contact:
            history.to_contact.add(text=body, sent_at=ts(at))
        since = ts(stats.sender_active_since)
        if since is not None:
            history.sender_active_since.CopyFrom(since)
        request = sg.ReviewOutboundRequest(
            organization_id=str(organization_id),
            contact_id=str(contact_id),
            turn_id=str(turn_id),
            kind=KIND[kind],  # type: ignore[arg-type]
            attempt=attempt,
            draft=text,
            contact=facts,
            channel=sg.ChannelFacts(
                name=channel.name,
                has_service_window=channel.has_service_window,
                max_text_chars=channel.max_text_chars,
                sender=sender,
            ),
            organization=organization_facts(config),
            history=history,
            evidence=sg.Evidence(
                evidencias_agendamento=list(evidence),
                tool_results=tool_evidence(tape) if tape is not None else [],
                agenda_readable=True,
                agenda_consulted=agenda_consulted,
            ),
        )
        if declaracao is not None:
            request.declaracao.CopyFrom(declaracao)
        if config.organization.HasField("updated_at"):
            # Segurança reuses its copy of the settings when it is at least as recent as ours.
            request.organization_updated_at.CopyFrom(config.organization.updated_at)
        return await call("seguranca", self._peers.seguranca.ReviewOutbound, request, timeout=self._peers.timeout)

    async def _stats(self, organization_id: UUID, contact_id: UUID, sender: str, time_zone: str) -> SendingStats:
        async with repository.tenant(self._engine, organization_id) as conn:
            return await repository.sending_stats(conn, organization_id, contact_id, sender, time_zone)


async def _none() -> Sequence[sg.ConfirmedBooking]:
    return ()


async def _given(stats: SendingStats) -> SendingStats:
    return stats


def used_agenda_tool(tape: cv.Tape) -> bool:
    return any(
        part.tool_call.tool_name in AGENDA_TOOLS
        for step in tape.steps
        for message in step.messages
        for part in message.parts
        if part.WhichOneof("content") == "tool_call"
    )
