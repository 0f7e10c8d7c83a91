"""The operador servicer and who may call it: the gateway (admin API) and a person."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import grpc
from google.protobuf import json_format

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
        org = await self._check(request.organization_id, "organization_id", context, required=False)
        since = request.since if request.HasField("since") else None
        if since is None:
            from google.protobuf.timestamp_pb2 import Timestamp

            since = Timestamp()
            since.FromDatetime(datetime.now(UTC) - timedelta(hours=24))
        counts = self.worker.processor.metrics.total(org)
        metrics = operador_pb2.OperadorMetrics(
            since=since, turns_processed=counts["turns_processed"], actions_taken=counts["actions_taken"],
            actions_per_turn=counts["actions_taken"] / counts["turns_processed"] if counts["turns_processed"] else 0.0,
            turns_nothing_to_do=counts["turns_nothing_to_do"], promises_declared=counts["promises_declared"],
            promises_fulfilled=counts["promises_fulfilled"], promises_failed=counts["promises_failed"],
            turns_could_not_act=counts["turns_could_not_act"], events_dead=counts["events_dead"],
            turns_with_model=counts["turns_with_model"], turns_basic=counts["turns_basic"],
        )
        if org:
            # The recorded outcomes in crm are the figures of every replica.
            await self._organization(org, context)
            stats = (await self.peers.crm_read.GetObligationStats(
                cr.GetObligationStatsRequest(organization_id=org, since=since), timeout=self.peers.timeout)).stats
            metrics.promises_declared, metrics.promises_fulfilled = stats.declared, stats.fulfilled
            metrics.promises_failed, metrics.promises_open = stats.failed, stats.open
            queue = await self.peers.queue.GetQueueStats(eq.GetQueueStatsRequest(organization_id=org),
                                                          timeout=self.peers.timeout)
            metrics.events_dead = sum(c.count for c in queue.counts
                                      if c.kind == "turn_closed" and c.status == r.EVENT_STATUS_DEAD)
        return operador_pb2.GetStatusResponse(worker=self.worker.status(), metrics=metrics)

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
