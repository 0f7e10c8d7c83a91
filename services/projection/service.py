"""The projection servicer and who may call it.

The only window the Conversador has on the business: raw reads of crm and agenda come in,
business facts in pt-BR go out. The gateway's runtime may open a turn (GetTurnContext) and
re-read the agenda at closing (ListMyAppointments); everything else is the Conversador's.

This module maps proto ↔ domain and errors → status, in one place: a malformed request is
INVALID_ARGUMENT; for the opening and `get_lead_context` an unknown organisation or contact is
NOT_FOUND and crm not answering is UNAVAILABLE (the runtime retries the turn); the agenda not
answering is "unknown" appointments; for the other read tools a failed raw read is DATA, a
consequence the customer may read. After projecting, every error code that had no consequence
raises a Central item.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import NoReturn

import grpc

from balcao.kit.identity import allow
from balcao.projection.v1 import projection_pb2, projection_pb2_grpc
from services.projection import availability, knowledge
from services.projection.appointments import project_appointments
from services.projection.findings import Findings
from services.projection.lead import project_lead_context
from services.projection.reads import ReadFailed, Reads
from services.projection.turn import project_turn_context

log = logging.getLogger(__name__)

# What a failed crm read means for the opening and get_lead_context; anything else is UNAVAILABLE.
_PASSED_THROUGH = {grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT}


class InvalidRequest(Exception):
    """A request field is missing or malformed; nothing was read."""


def _uuid(value: str, name: str, *, required: bool = True) -> str:
    if not value:
        if required:
            raise InvalidRequest(f"{name} is required")
        return ""
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise InvalidRequest(f"{name} must be a UUID") from None


def _text(value: str, name: str) -> str:
    if not value.strip():
        raise InvalidRequest(f"{name} is required")
    return value.strip()


async def _abort_invalid(context: grpc.aio.ServicerContext, exc: Exception) -> NoReturn:
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
    raise AssertionError("unreachable")  # pragma: no cover


async def _abort_read(context: grpc.aio.ServicerContext, exc: ReadFailed) -> NoReturn:
    log.warning("a raw read failed", extra={"rpc": exc.rpc, "status": exc.status.name})
    if exc.status in _PASSED_THROUGH:
        await context.abort(exc.status, f"{exc.rpc}: {exc.details}")
    await context.abort(grpc.StatusCode.UNAVAILABLE, f"{exc.rpc} could not be read ({exc.status.name})")
    raise AssertionError("unreachable")  # pragma: no cover


class Projection(projection_pb2_grpc.ProjectionServiceServicer):
    """Projected, read-only views for the Conversador."""

    def __init__(self, reads: Reads, handle_key: bytes, now: Callable[[], datetime] | None = None) -> None:
        self._reads = reads
        self._handle_key = handle_key
        self._now = now or (lambda: datetime.now(UTC))

    async def _settle(self, findings: Findings, org: str, contact: str) -> None:
        for code in sorted(findings.unmapped_codes):
            log.warning("error code without a consequence", extra={"code": code})
            await self._reads.raise_unmapped(org, contact, code)

    async def GetTurnContext(
        self, request: projection_pb2.GetTurnContextRequest, context: grpc.aio.ServicerContext
    ) -> projection_pb2.GetTurnContextResponse:
        try:
            org = _uuid(request.organization_id, "organization_id")
            contact = _uuid(request.contact_id, "contact_id")
            unit = _uuid(request.unit_id, "unit_id", required=False)
            version = _uuid(request.agent_version_id, "agent_version_id", required=False)
        except InvalidRequest as exc:
            await _abort_invalid(context, exc)
        try:
            raw = await self._reads.turn(org, contact, unit, version)
        except ReadFailed as exc:
            await _abort_read(context, exc)
        findings = Findings()
        response = project_turn_context(raw, self._now(), findings)
        await self._settle(findings, org, contact)
        return response

    async def GetLeadContext(
        self, request: projection_pb2.GetLeadContextRequest, context: grpc.aio.ServicerContext
    ) -> projection_pb2.GetLeadContextResponse:
        try:
            org = _uuid(request.organization_id, "organization_id")
            contact = _uuid(request.contact_id, "contact_id")
        except InvalidRequest as exc:
            await _abort_invalid(context, exc)
        try:
            raw = await self._reads.lead(org, contact)
        except ReadFailed as exc:
            await _abort_read(context, exc)
        findings = Findings()
        response = project_lead_context(raw, findings)
        await self._settle(findings, org, contact)
        return response

    async def SearchKnowledge(
        self, request: projection_pb2.SearchKnowledgeRequest, context: grpc.aio.ServicerContext
    ) -> projection_pb2.SearchKnowledgeResponse:
        try:
            org = _uuid(request.organization_id, "organization_id")
            contact = _uuid(request.contact_id, "contact_id")
            unit = _uuid(request.unit_id, "unit_id", required=False)
            query = _text(request.query, "query")
        except InvalidRequest as exc:
            await _abort_invalid(context, exc)
        findings = Findings()
        try:
            raw = await self._reads.search(org, query, unit, knowledge.hits_wanted(request.max_results))
            response = knowledge.project_search(raw, request.max_results, findings)
        except ReadFailed as exc:
            response = knowledge.search_failed(exc.status, findings)
        await self._settle(findings, org, contact)
        return response

    async def GetLeadNote(
        self, request: projection_pb2.GetLeadNoteRequest, context: grpc.aio.ServicerContext
    ) -> projection_pb2.GetLeadNoteResponse:
        try:
            org = _uuid(request.organization_id, "organization_id")
            contact = _uuid(request.contact_id, "contact_id")
        except InvalidRequest as exc:
            await _abort_invalid(context, exc)
        findings = Findings()
        try:
            zone, raw = await self._reads.notes(org, contact)
            response = knowledge.project_notes(raw, request.topic, zone, findings)
        except ReadFailed as exc:
            response = knowledge.notes_failed(exc.status, findings)
        await self._settle(findings, org, contact)
        return response

    async def ReadSkillReference(
        self, request: projection_pb2.ReadSkillReferenceRequest, context: grpc.aio.ServicerContext
    ) -> projection_pb2.ReadSkillReferenceResponse:
        try:
            org = _uuid(request.organization_id, "organization_id")
            contact = _uuid(request.contact_id, "contact_id")
            unit = _uuid(request.unit_id, "unit_id", required=False)
            title = _text(request.title, "title")
        except InvalidRequest as exc:
            await _abort_invalid(context, exc)
        findings = Findings()
        try:
            raw = await self._reads.skill_reference(org, unit, title)
            response = knowledge.project_skill_reference(raw, findings)
        except ReadFailed as exc:
            response = knowledge.skill_reference_failed(exc.status, findings)
        await self._settle(findings, org, contact)
        return response

    async def ListMyAppointments(
        self, request: projection_pb2.ListMyAppointmentsRequest, context: grpc.aio.ServicerContext
    ) -> projection_pb2.ListMyAppointmentsResponse:
        try:
            org = _uuid(request.organization_id, "organization_id")
            contact = _uuid(request.contact_id, "contact_id")
        except InvalidRequest as exc:
            await _abort_invalid(context, exc)
        findings = Findings()
        raw = await self._reads.appointments(org, contact)
        view = project_appointments(raw, self._now(), findings)
        await self._settle(findings, org, contact)
        return projection_pb2.ListMyAppointmentsResponse(appointments=view)

    async def CheckAvailability(
        self, request: projection_pb2.CheckAvailabilityRequest, context: grpc.aio.ServicerContext
    ) -> projection_pb2.CheckAvailabilityResponse:
        try:
            org = _uuid(request.organization_id, "organization_id")
            contact = _uuid(request.contact_id, "contact_id")
            unit = _uuid(request.unit_id, "unit_id", required=False)
            version = _uuid(request.agent_version_id, "agent_version_id", required=False)
            first, last = availability.parse_range(request.from_date, request.to_date)
        except (InvalidRequest, availability.BadRange) as exc:
            await _abort_invalid(context, exc)
        findings = Findings()
        response = await self._availability(request, org, contact, unit, version, first, last, findings)
        await self._settle(findings, org, contact)
        return response

    async def _availability(
        self,
        request: projection_pb2.CheckAvailabilityRequest,
        org: str,
        contact: str,
        unit: str,
        version: str,
        first: date,
        last: date,
        findings: Findings,
    ) -> projection_pb2.CheckAvailabilityResponse:
        try:
            zone, services, resources = await self._reads.agenda_catalog(org)
            # The unit's professionals as the turn's configuration has them (a draft under "Testar").
            agent = await self._reads.agent(org, version) if unit else None
            unit_resources = availability.unit_resources(agent, unit) if agent is not None else []
            service = None
            if request.service.strip():
                service = availability.match_service(services, request.service)
                if service is None:
                    return availability.refused("agenda:unknown_service", findings)
            service_id = service.service_id if service is not None else ""
            chosen = availability.match_resources(resources, request.professional, unit_resources, service_id)
            if not chosen:
                # A professional asked for by name and not found, or nothing bookable at all.
                code = "agenda:unknown_resource" if request.professional.strip() else "agenda:resource_inactive"
                return availability.refused(code, findings)
            now = self._now()
            raw = await self._reads.availability(
                availability.availability_request(
                    organization_id=org,
                    resource_ids=[r.resource_id for r in chosen],
                    service_id=service_id,
                    first=first,
                    last=last,
                    zone=zone,
                    part_of_day=request.part_of_day,
                    max_slots=request.max_slots,
                    now=now,
                )
            )
        except ReadFailed as exc:
            log.warning("availability could not be read", extra={"rpc": exc.rpc, "status": exc.status.name})
            return availability.failed(exc.status, findings)
        return availability.project_availability(
            raw,
            places=availability.places_of(chosen, service),
            handle_key=self._handle_key,
            organization_id=org,
            contact_id=contact,
            now=now,
            max_slots=request.max_slots,
            findings=findings,
        )


POLICY = allow(
    projection_pb2.DESCRIPTOR.services_by_name["ProjectionService"],
    ["conversador"],
    GetTurnContext=["conversador", "gateway"],
    ListMyAppointments=["conversador", "gateway"],
)
