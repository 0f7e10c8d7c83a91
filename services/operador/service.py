"""The operador servicer and who may call it: the gateway (admin API) and a person."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import grpc
from google.protobuf import json_format
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.kit.identity import allow
from balcao.kit.mesh import ADMIN
from balcao.operador.v1 import operador_pb2, operador_pb2_grpc
from services.operador import catalog
from services.operador.context import MalformedEvent
from services.operador.worker import Worker


def _uuid(value: str, name: str, context: grpc.aio.ServicerContext, *, required: bool = True) -> str:
    import uuid

    if not value and not required:
        return ""
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return ""


STAT_FIELDS = ("turns_processed", "actions_taken", "turns_nothing_to_do", "turns_could_not_act", "turns_with_model",
               "turns_basic", "events_dead")


class Operador(operador_pb2_grpc.OperadorServiceServicer):
    """Status, one event on demand, and the capability catalog."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.peers = worker.peers

    async def _check(self, value: str, name: str, context: grpc.aio.ServicerContext, required: bool = True) -> str:
        parsed = _uuid(value, name, context, required=required)
        if (value or required) and not parsed:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{name} must be a UUID")
        return parsed

    async def _organization(self, org: str, context: grpc.aio.ServicerContext) -> r.Organization:
        try:
            return (await self.peers.crm_read.GetOrganization(
                cr.GetOrganizationRequest(organization_id=org), timeout=self.peers.timeout)).organization
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.NOT_FOUND:
                await context.abort(grpc.StatusCode.NOT_FOUND, f"organization {org} not found")
            raise

    async def GetStatus(self, request: operador_pb2.GetStatusRequest, context: grpc.aio.ServicerContext
                        ) -> operador_pb2.GetStatusResponse:
        """The worker of this replica, and the figures of the whole fleet over a window (24 h by default),
        read from what crm recorded: every replica's outcomes, obligations and dead events."""
        org = await self._check(request.organization_id, "organization_id", context, required=False)
        since = Timestamp()
        if request.HasField("since"):
            since.CopyFrom(request.since)
        else:
            since.FromDatetime(datetime.now(UTC) - timedelta(hours=24))
        if org:
            await self._organization(org, context)
            organizations = [org]
        else:
            organizations = await self._every_organization()
        total = cr.OperadorStats(obligations=r.ObligationStats())
        for organization_id in organizations:
            stats = (await self.peers.crm_read.GetOperadorStats(
                cr.GetOperadorStatsRequest(organization_id=organization_id, since=since),
                timeout=self.peers.timeout)).stats
            for name in STAT_FIELDS:
                setattr(total, name, getattr(total, name) + getattr(stats, name))
            for name in ("declared", "open", "fulfilled", "failed", "overdue"):
                setattr(total.obligations, name, getattr(total.obligations, name) + getattr(stats.obligations, name))
        metrics = operador_pb2.OperadorMetrics(
            since=since, turns_processed=total.turns_processed, actions_taken=total.actions_taken,
            actions_per_turn=total.actions_taken / total.turns_processed if total.turns_processed else 0.0,
            turns_nothing_to_do=total.turns_nothing_to_do, promises_declared=total.obligations.declared,
            promises_fulfilled=total.obligations.fulfilled, promises_failed=total.obligations.failed,
            promises_open=total.obligations.open, turns_could_not_act=total.turns_could_not_act,
            events_dead=total.events_dead, turns_with_model=total.turns_with_model, turns_basic=total.turns_basic,
        )
        return operador_pb2.GetStatusResponse(worker=self.worker.status(), metrics=metrics)

    async def _every_organization(self) -> list[str]:
        found: list[str] = []
        token = ""
        while True:
            page = await self.peers.crm_read.ListOrganizations(
                cr.ListOrganizationsRequest(page_size=200, page_token=token), timeout=self.peers.timeout)
            found += [o.organization_id for o in page.organizations]
            token = page.next_page_token
            if not token:
                return found

    async def RunEvent(self, request: operador_pb2.RunEventRequest, context: grpc.aio.ServicerContext
                       ) -> operador_pb2.RunEventResponse:
        org = await self._check(request.organization_id, "organization_id", context)
        event_id = await self._check(request.event_id, "event_id", context)
        try:
            event = (await self.peers.queue.GetEvent(eq.GetEventRequest(organization_id=org, event_id=event_id),
                                                     timeout=self.peers.timeout)).event
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.NOT_FOUND:
                await context.abort(grpc.StatusCode.NOT_FOUND, f"event {event_id} not found")
            raise
        not_run = self._not_run_reason(event)
        if not_run:
            return operador_pb2.RunEventResponse(
                outcome=operador_pb2.EVENT_RUN_OUTCOME_NOT_RUN, not_run_reason_pt=not_run)
        try:
            return await self.worker.processor.process(event)
        except MalformedEvent as error:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(error))
            raise

    @staticmethod
    def _not_run_reason(event: r.Event) -> str:
        if event.kind != "turn_closed":
            return f"o Operador não processa eventos do tipo {event.kind}"
        if event.status == r.EVENT_STATUS_DEAD:
            return "o evento esgotou as tentativas; recoloque-o na fila antes de rodar de novo"
        if event.status == r.EVENT_STATUS_LEASED and event.lease.expires_at.ToDatetime(tzinfo=UTC) > datetime.now(UTC):
            return f"o evento está sendo processado agora por {event.lease.consumer}"
        return ""

    async def ListCapabilities(self, request: operador_pb2.ListCapabilitiesRequest, context: grpc.aio.ServicerContext
                               ) -> operador_pb2.ListCapabilitiesResponse:
        org = await self._check(request.organization_id, "organization_id", context)
        unit_id = await self._check(request.unit_id, "unit_id", context, required=False)
        organization = await self._organization(org, context)
        configuration = await self.peers.crm_read.GetAgentConfiguration(
            cr.GetAgentConfigurationRequest(organization_id=org), timeout=self.peers.timeout)
        config = None
        if configuration.found:
            units = configuration.version.configuration
            wanted = unit_id or units.default_unit_id
            config = next((u.operador for u in units.units if u.unit_id == wanted), None)
            if unit_id and config is None:
                await context.abort(grpc.StatusCode.NOT_FOUND, f"unit {unit_id} not found")
        elif unit_id:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"unit {unit_id} not found")
        try:
            selection = catalog.select(config, callback_enabled=organization.settings.followup.callback_enabled)
        except catalog.SelectionError as error:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(error))
            raise
        return catalog.listing(selection)


def event_json(event: r.Event) -> str:
    return json_format.MessageToJson(event)


POLICY = allow(operador_pb2.DESCRIPTOR.services_by_name["OperadorService"], ["gateway", ADMIN])
