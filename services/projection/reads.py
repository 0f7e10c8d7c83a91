"""The raw reads: crm's CrmReadService and agenda's AgendaReadService, and the one write.

I/O only: each method calls the raw services (concurrently where a view needs several
reads) and returns their answers untouched; the pure projection modules make them business
facts. A failed call becomes `ReadFailed` carrying its gRPC status. The only write projection
makes is `raise_unmapped`: a Central item for an error code that has no consequence yet.

The lead's own facts (contact, stage, latest checkpoint, open cases, pending follow-ups, the
timeline and, for an opening, the unit's skill references) come from ONE crm call,
`CrmReadService/GetLeadSnapshot`, read in one transaction: one round trip instead of seven, and
the parts agree with each other. Its parts are the single reads' own response messages.

The organisation and its published agent configuration change rarely and are read by every
opening and many tools: they are kept for `cache_seconds` (2 s by default, as the gateway keeps
them), so an owner's change shows at most that much later. Everything about a contact is read
fresh every time.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import Message

from balcao.agenda.v1 import agenda_read_pb2, agenda_read_pb2_grpc
from balcao.crm.v1 import crm_read_pb2, crm_read_pb2_grpc, crm_resources_pb2, crm_write_pb2, crm_write_pb2_grpc
from services.projection.lead import RawLead
from services.projection.turn import RawTurn

log = logging.getLogger(__name__)

ACTIVITIES_READ = 20


class ReadFailed(Exception):
    """A raw read did not answer; `status` is its gRPC status."""

    def __init__(self, rpc: str, status: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{rpc}: {status.name} {details}")
        self.rpc, self.status, self.details = rpc, status, details


class Reads:
    def __init__(
        self, crm: grpc.aio.Channel, agenda: grpc.aio.Channel, timeout: float, cache_seconds: float = 0.0
    ) -> None:
        self._crm = crm_read_pb2_grpc.CrmReadServiceStub(crm)
        self._crm_write = crm_write_pb2_grpc.CrmWriteServiceStub(crm)
        self._agenda = agenda_read_pb2_grpc.AgendaReadServiceStub(agenda)
        self._timeout = timeout
        self._cache_seconds = cache_seconds
        # (rpc, organisation) → (read at, the answer), or the read in flight.
        self._cache: dict[tuple[str, str], tuple[float, asyncio.Future[Any]]] = {}

    async def _cached(self, rpc: str, org: str, read: Callable[[], Awaitable[Message]]) -> Message:
        """`read()`'s answer, reused for `cache_seconds` (each caller gets its own copy); callers at
        the same moment share one read, and a failed read is not kept."""
        if self._cache_seconds <= 0:
            return await read()
        key, now = (rpc, org), time.monotonic()
        hit = self._cache.get(key)
        if hit is None or now - hit[0] >= self._cache_seconds:
            if len(self._cache) > 4096:
                self._cache = {k: v for k, v in self._cache.items() if now - v[0] < self._cache_seconds}
            hit = (now, asyncio.ensure_future(read()))
            self._cache[key] = hit
        try:
            answer = await asyncio.shield(hit[1])
        except Exception:
            if self._cache.get(key) is hit:
                del self._cache[key]
            raise
        copy = type(answer)()
        copy.CopyFrom(answer)
        return copy

    async def _call(self, rpc: str, stub: Any, request: Any) -> Any:
        try:
            return await getattr(stub, rpc)(request, timeout=self._timeout)
        except grpc.aio.AioRpcError as exc:
            raise ReadFailed(rpc, exc.code(), exc.details() or "") from None

    async def _all(self, *calls: Awaitable[Any]) -> list[Any]:
        results = await asyncio.gather(*calls, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return results

    # --- crm ----------------------------------------------------------------------------

    async def organization(self, org: str) -> crm_resources_pb2.Organization:
        response = await self._cached(
            "GetOrganization",
            org,
            lambda: self._call("GetOrganization", self._crm, crm_read_pb2.GetOrganizationRequest(organization_id=org)),
        )
        return response.organization

    async def _snapshot(
        self, org: str, contact: str, knowledge: crm_read_pb2.LeadSnapshotKnowledge | None = None
    ) -> crm_read_pb2.GetLeadSnapshotResponse:
        """Everything crm holds about the lead, in one call and one consistent snapshot."""
        request = crm_read_pb2.GetLeadSnapshotRequest(
            organization_id=org, contact_id=contact, activities_page_size=ACTIVITIES_READ, knowledge_articles=knowledge
        )
        return await self._call("GetLeadSnapshot", self._crm, request)

    async def lead(self, org: str, contact: str) -> RawLead:
        organization, snapshot = await self._all(self.organization(org), self._snapshot(org, contact))
        return _raw_lead(organization, snapshot)

    async def turn(self, org: str, contact: str, unit: str, version: str = "") -> RawTurn:
        references = crm_read_pb2.LeadSnapshotKnowledge(
            kinds=[crm_resources_pb2.KNOWLEDGE_KIND_SKILL_REFERENCE], unit_id=unit
        )
        organization, snapshot, agent, appointments = await self._all(
            self.organization(org),
            self._snapshot(org, contact, references),
            self.agent(org, version),
            self.appointments(org, contact),
        )
        return RawTurn(
            lead=_raw_lead(organization, snapshot),
            unit_id=unit,
            agent=agent,
            references=snapshot.knowledge_articles,
            appointments=appointments,
        )

    async def agent(self, org: str, version: str = "") -> crm_read_pb2.GetAgentConfigurationResponse:
        """The published configuration (reused briefly), or the version named (a draft under "Testar")."""

        def read() -> Awaitable[crm_read_pb2.GetAgentConfigurationResponse]:
            return self._call(
                "GetAgentConfiguration",
                self._crm,
                crm_read_pb2.GetAgentConfigurationRequest(
                    organization_id=org, which=crm_resources_pb2.AGENT_VERSION_STATUS_PUBLISHED, version_id=version
                ),
            )

        if version:
            return await read()
        return await self._cached("GetAgentConfiguration", org, read)

    async def search(self, org: str, query: str, unit: str, limit: int) -> crm_read_pb2.SearchKnowledgeResponse:
        return await self._call(
            "SearchKnowledge",
            self._crm,
            crm_read_pb2.SearchKnowledgeRequest(organization_id=org, query=query, unit_id=unit, limit=limit),
        )

    async def notes(self, org: str, contact: str) -> tuple[str, crm_read_pb2.ListLeadNotesResponse]:
        organization, notes = await self._all(
            self.organization(org),
            self._call(
                "ListLeadNotes", self._crm, crm_read_pb2.ListLeadNotesRequest(organization_id=org, contact_id=contact)
            ),
        )
        return organization.time_zone, notes

    async def skill_reference(self, org: str, unit: str, title: str) -> crm_read_pb2.GetSkillReferenceResponse:
        return await self._call(
            "GetSkillReference",
            self._crm,
            crm_read_pb2.GetSkillReferenceRequest(organization_id=org, unit_id=unit, title=title),
        )

    # --- agenda -------------------------------------------------------------------------

    async def appointments(self, org: str, contact: str) -> agenda_read_pb2.ListContactAppointmentsResponse | None:
        """The contact's appointments, or None when the agenda could not be read (unknown)."""
        try:
            return await self._call(
                "ListContactAppointments",
                self._agenda,
                agenda_read_pb2.ListContactAppointmentsRequest(organization_id=org, contact_id=contact),
            )
        except ReadFailed as exc:
            log.warning("agenda could not be read; appointments unknown", extra={"status": exc.status.name})
            return None

    async def agenda_catalog(
        self, org: str
    ) -> tuple[str, agenda_read_pb2.ListServicesResponse, agenda_read_pb2.ListResourcesResponse]:
        organization, services, resources = await self._all(
            self.organization(org),
            self._call("ListServices", self._agenda, agenda_read_pb2.ListServicesRequest(organization_id=org)),
            self._call("ListResources", self._agenda, agenda_read_pb2.ListResourcesRequest(organization_id=org)),
        )
        return organization.time_zone, services, resources

    async def availability(
        self, request: agenda_read_pb2.CheckAvailabilityRequest
    ) -> agenda_read_pb2.CheckAvailabilityResponse:
        return await self._call("CheckAvailability", self._agenda, request)

    # --- the one write ------------------------------------------------------------------

    async def raise_unmapped(self, org: str, contact: str, code: str) -> None:
        """A Central item saying `code` has no consequence yet; failures are logged, not raised."""
        request = crm_write_pb2.RaiseCentralItemRequest(
            organization_id=org,
            kind=crm_resources_pb2.CENTRAL_ITEM_KIND_UNMAPPED_ERROR,
            severity=crm_resources_pb2.CENTRAL_ITEM_SEVERITY_WARNING,
            title_pt="Erro sem explicação cadastrada para o cliente",
            body_pt=(
                "O assistente recebeu um erro que ainda não tem uma explicação em linguagem de cliente e "
                "respondeu com uma frase genérica. O código técnico está neste item: peça ao suporte que "
                "cadastre a explicação desse erro na projeção."
            ),
            code=code,
            contact_id=contact,
            dedup_key=f"projection:unmapped:{code}",
            raised_by=crm_resources_pb2.Actor(kind=crm_resources_pb2.ACTOR_KIND_SYSTEM, name="projection"),
        )
        try:
            await self._crm_write.RaiseCentralItem(request, timeout=self._timeout)
        except grpc.aio.AioRpcError as exc:
            log.error(
                "could not raise the Central item of an unmapped error code",
                extra={"code": code, "status": exc.code().name},
            )


def _raw_lead(
    organization: crm_resources_pb2.Organization, snapshot: crm_read_pb2.GetLeadSnapshotResponse
) -> RawLead:
    """The snapshot's parts, each the message type its single crm read answers (the allowlist is
    keyed by those types, so it applies part by part exactly as before)."""
    return RawLead(
        organization=organization,
        contact=snapshot.contact.contact,
        lead_state=snapshot.lead_state,
        checkpoint=snapshot.latest_checkpoint,
        cases=snapshot.human_cases,
        follow_ups=snapshot.pending_follow_ups,
        activities=snapshot.activities,
    )
