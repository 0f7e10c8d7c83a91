"""A private gateway beside the shared mesh, and helpers to drive it.

The private gateway runs in the test process (`create_server` on port 0) with its own database
(a fresh PostgreSQL database in the mesh's server, migrated like production), so the mesh's own
gateway never picks up its contacts and vice versa. Its peers are the mesh's services, except
those a test replaces with its own processes (a conversador on a scripted model, a projection it
can stop). It sends through a `RecordingChannel`, so the test sees exactly what was sent.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import grpc
import sqlalchemy as sa
from google.protobuf import field_mask_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from balcao.agenda.v1 import agenda_resources_pb2 as ag
from balcao.agenda.v1 import agenda_write_pb2 as aw
from balcao.agenda.v1 import agenda_write_pb2_grpc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.gateway.v1 import gateway_pb2_grpc
from balcao.kit import db
from balcao.kit.server import Registration as Reg
from balcao.kit.server import RunningServer, ServiceDefinition, create_server
from balcao.models.base import ModelProvider
from services.gateway.app import GatewayApp
from services.gateway.config import Settings
from services.gateway.outbound import ChannelRegistry, RecordingChannel
from services.gateway.service import POLICY, Gateway
from tests.support.mesh import RunningMesh, free_port

_TRACING_READY = False


def ensure_tracing() -> None:
    """Real trace ids in-process (the services get theirs from `balcao serve`)."""
    global _TRACING_READY
    if not _TRACING_READY and not isinstance(trace.get_tracer_provider(), TracerProvider):
        trace.set_tracer_provider(TracerProvider())
    _TRACING_READY = True


def metadata(mesh: RunningMesh, caller: str = "admin") -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {mesh.token(caller)}"),)


async def fresh_database(mesh: RunningMesh) -> str:
    """A new database in the mesh's PostgreSQL with the gateway schema at head; its URL."""
    name = f"gw_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(db.to_async_url(mesh.database_url), isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    await admin.dispose()
    url = mesh.database_url.rsplit("/", 1)[0] + f"/{name}"
    await db.migrate(url, "gateway", "gateway")
    return url


@dataclass
class PrivateGateway:
    app: GatewayApp
    server: RunningServer
    engine: AsyncEngine
    url: str
    channel: RecordingChannel
    settings: Settings

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.server.port}"

    async def stop(self) -> None:
        await self.app.stop()
        await self.server.server.stop(0)
        await self.engine.dispose()


async def start_gateway(
    mesh: RunningMesh,
    *,
    url: str | None = None,
    model: ModelProvider | None = None,
    peers: dict[str, str] | None = None,
    **overrides: Any,
) -> PrivateGateway:
    ensure_tracing()
    url = url or await fresh_database(mesh)
    addresses = {name: mesh.addr(name) for name in ("crm", "agenda", "projection", "seguranca", "conversador")}
    addresses.update(peers or {})
    options: dict[str, Any] = {
        "mesh_secret": mesh.secret.decode(),
        "database_url": url,
        "default_debounce_ms": 0,
        "turn_retry_base_seconds": 0.3,
        "turn_retry_max_seconds": 2.0,
        "send_retry_seconds": 0.05,
        "worker_poll_seconds": 0.2,
        "config_cache_seconds": 0.0,
        "proactive_consumer_enabled": False,
        **{f"{name}_addr": address for name, address in addresses.items()},
    }
    options.update(overrides)
    settings = Settings(**options)
    engine = db.create_engine(url, pool_size=5)
    channel = RecordingChannel("test")
    registry = ChannelRegistry({"test": channel, "web": RecordingChannel("web", max_text_chars=0)})
    app = GatewayApp.build(settings, engine, channels=registry, model=model, replica=f"test-{uuid.uuid4().hex[:6]}")
    servicer = Gateway()
    servicer.app = app
    server = await create_server(
        ServiceDefinition([Reg(servicer, gateway_pb2_grpc.add_GatewayServiceServicer_to_server, POLICY)]),
        secret=mesh.secret,
        host="127.0.0.1",
        port=0,
    )
    await server.set_serving(True)
    app.start()
    return PrivateGateway(app, server, engine, url, channel, settings)


# ---------------------------------------------------------------------------------------------
# Organisations and messages
# ---------------------------------------------------------------------------------------------


@dataclass
class Org:
    organization_id: str
    unit_ids: list[str] = field(default_factory=list)


async def create_org(
    mesh: RunningMesh,
    *,
    name: str | None = None,
    settings: r.OrganizationSettings | None = None,
    units: Iterable[tuple[str, str]] = (("Recepção", "agendamentos, consultas, valores e informações"),),
    plan_expires_at: datetime | None = None,
) -> Org:
    """An organisation with published units, created through crm's write RPCs (as the gateway)."""
    md = metadata(mesh, "gateway")
    settings = settings or r.OrganizationSettings()
    if not settings.HasField("roles"):
        # The Conversador answers and the Operador stays off, as these tests always ran (crm now
        # starts initial settings without `roles` with both on).
        settings.roles.CopyFrom(r.RoleSettings(conversador_enabled=True, operador_enabled=False))
    if not settings.runtime.debounce_ms:
        settings.runtime.debounce_ms = 1  # "0 in tests": the organisation's 0 would mean the default
    plan = r.Plan(name="Teste")
    if plan_expires_at is not None:
        plan.expires_at.FromDatetime(plan_expires_at.astimezone(UTC))
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        write = crm_write_pb2_grpc.CrmWriteServiceStub(channel)
        created = await write.UpsertOrganization(
            cw.UpsertOrganizationRequest(
                name=name or org_name("Clínica Teste"),
                time_zone="America/Sao_Paulo",
                plan=plan,
                initial_settings=settings,
            ),
            metadata=md,
        )
        org_id = created.organization.organization_id
        unit_configs = [
            r.UnitConfig(
                unit_id=str(uuid.uuid4()),
                name=unit_name,
                description=description,
                conversador=r.ConversadorConfig(voice="acolhedora", instructions="Atenda com cordialidade."),
            )
            for unit_name, description in units
        ]
        draft = await write.SaveAgentDraft(
            cw.SaveAgentDraftRequest(
                organization_id=org_id,
                configuration=r.AgentConfiguration(units=unit_configs, default_unit_id=unit_configs[0].unit_id),
            ),
            metadata=md,
        )
        await write.PublishAgentVersion(
            cw.PublishAgentVersionRequest(organization_id=org_id, version_id=draft.version.version_id),
            metadata=md,
        )
    return Org(org_id, [u.unit_id for u in unit_configs])


async def update_settings(mesh: RunningMesh, org: Org, settings: r.OrganizationSettings, paths: list[str]) -> None:
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        await crm_write_pb2_grpc.CrmWriteServiceStub(channel).UpdateOrganizationSettings(
            cw.UpdateOrganizationSettingsRequest(
                organization_id=org.organization_id,
                settings=settings,
                update_mask=field_mask_pb2.FieldMask(paths=paths),
            ),
            metadata=metadata(mesh, "gateway"),
        )


async def agenda_for(mesh: RunningMesh, org: Org) -> tuple[str, str]:
    """One professional who works every day, and a bookable service."""
    async with grpc.aio.insecure_channel(mesh.addr("agenda")) as channel:
        service = await agenda_write_pb2_grpc.AgendaWriteServiceStub(channel).UpsertService(
            aw.UpsertServiceRequest(
                organization_id=org.organization_id,
                service=ag.BookableService(name="Consulta de avaliação", duration_minutes=30, active=True),
            ),
            metadata=metadata(mesh, "gateway"),
        )
    service_id = service.service.service_id
    return await add_professional(mesh, org, "Dra. Ana Souza", service_id), service_id


async def add_professional(mesh: RunningMesh, org: Org, name: str, service_id: str) -> str:
    """A professional who works every day from 8h to 20h and performs the service; their id."""
    days = [d for d in ag.Weekday.values() if d != ag.WEEKDAY_UNSPECIFIED]
    async with grpc.aio.insecure_channel(mesh.addr("agenda")) as channel:
        resource = await agenda_write_pb2_grpc.AgendaWriteServiceStub(channel).UpsertResource(
            aw.UpsertResourceRequest(
                organization_id=org.organization_id,
                resource=ag.Resource(
                    name=name,
                    kind=ag.RESOURCE_KIND_PERSON,
                    time_zone="America/Sao_Paulo",
                    business_hours=ag.BusinessHours(
                        weekly=[ag.WeeklyInterval(weekday=d, opens="08:00", closes="20:00") for d in days]
                    ),
                    slot_minutes=30,
                    capacity=1,
                    place=ag.Place(kind=ag.PLACE_KIND_IN_PERSON, name="Clínica", address="Rua das Flores, 123"),
                    service_ids=[service_id],
                    active=True,
                ),
            ),
            metadata=metadata(mesh, "gateway"),
        )
    return resource.resource.resource_id


def org_name(prefix: str) -> str:
    """A unique organisation name that reaches the Conversador's prompt intact (the scripted model
    routes each test's calls by it). The suffix is letters only: the projection drops any text that
    looks like an identifier, and a random hex suffix is a run of seven digits one time in twenty."""
    return f"{prefix} {''.join('abcdefghijklmnop'[int(c, 16)] for c in uuid.uuid4().hex[:10])}"


def new_phone() -> str:
    return f"+55119{uuid.uuid4().int % 10**8:08d}"


def message(org: Org, phone: str, text: str, message_id: str | None = None) -> gw.SubmitInboundRequest:
    return gw.SubmitInboundRequest(
        organization_id=org.organization_id,
        message=gw.InboundMessage(
            channel=gw.CHANNEL_TEST,
            channel_instance="test",
            phone=phone,
            message_id=message_id or uuid.uuid4().hex,
            type=gw.MESSAGE_TYPE_TEXT,
            text=text,
        ),
    )


class Client:
    """A gateway client as `balcao chat` is one: the admin identity, SubmitInbound and GetTurn."""

    def __init__(self, mesh: RunningMesh, address: str) -> None:
        self._channel = grpc.aio.insecure_channel(address)
        self.stub = gateway_pb2_grpc.GatewayServiceStub(self._channel)
        self.md = metadata(mesh)

    async def close(self) -> None:
        await self._channel.close()

    async def submit(self, org: Org, phone: str, text: str, message_id: str | None = None) -> gw.SubmitInboundResponse:
        return await self.stub.SubmitInbound(message(org, phone, text, message_id), metadata=self.md)

    async def turn(self, org: Org, *, inbound_id: str = "", turn_id: str = "", wait: float = 30) -> gw.TurnResult:
        """The turn, waited for until it finished (failing the test after `wait` seconds)."""
        deadline = time.monotonic() + wait
        while True:
            request = gw.GetTurnRequest(organization_id=org.organization_id, inbound_id=inbound_id, turn_id=turn_id)
            request.wait.FromSeconds(int(max(1, min(30, deadline - time.monotonic()))))
            response = await self.stub.GetTurn(request, metadata=self.md)
            if response.turn.status in (gw.TURN_STATUS_DONE, gw.TURN_STATUS_FAILED):
                return response.turn
            if time.monotonic() > deadline:
                raise AssertionError(f"the turn did not finish in {wait}s: {response.turn}")

    async def say(self, org: Org, phone: str, text: str, wait: float = 30) -> gw.TurnResult:
        accepted = await self.submit(org, phone, text)
        return await self.turn(org, inbound_id=accepted.inbound_id, wait=wait)


async def crm_read(mesh: RunningMesh) -> tuple[grpc.aio.Channel, crm_read_pb2_grpc.CrmReadServiceStub]:
    channel = grpc.aio.insecure_channel(mesh.addr("crm"))
    return channel, crm_read_pb2_grpc.CrmReadServiceStub(channel)


async def contact(mesh: RunningMesh, org: Org, contact_id: str) -> r.Contact:
    """The contact as crm holds it."""
    channel, read = await crm_read(mesh)
    async with channel:
        response = await read.GetContact(
            cr.GetContactRequest(organization_id=org.organization_id, contact_id=contact_id),
            metadata=metadata(mesh, "gateway"),
        )
    return response.contact


async def human_cases(mesh: RunningMesh, org: Org, contact_id: str) -> list[r.HumanCase]:
    """The contact's human cases, as crm lists them."""
    channel, read = await crm_read(mesh)
    async with channel:
        response = await read.ListHumanCases(
            cr.ListHumanCasesRequest(organization_id=org.organization_id, contact_id=contact_id),
            metadata=metadata(mesh, "gateway"),
        )
    return list(response.cases)


async def execution(mesh: RunningMesh, org: Org, turn_id: str) -> r.TurnExecution:
    channel, read = await crm_read(mesh)
    async with channel:
        response = await read.GetTurnExecution(
            cr.GetTurnExecutionRequest(organization_id=org.organization_id, turn_id=turn_id),
            metadata=metadata(mesh, "gateway"),
        )
    return response.execution


# ---------------------------------------------------------------------------------------------
# Processes a test starts and stops itself
# ---------------------------------------------------------------------------------------------


@dataclass
class ServiceProcess:
    """One service (`balcao serve <name>`) run by the test, so the test may kill it."""

    name: str
    port: int
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        handle = open(self.log, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "balcao.cli", "serve", self.name],
            env=self.env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        handle.close()

    async def wait_serving(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        async with grpc.aio.insecure_channel(self.addr) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while True:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"{self.name} exited:\n{self.log.read_text()[-3000:]}")
                try:
                    reply = await stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.aio.AioRpcError:
                    pass
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{self.name} did not serve in {timeout}s")
                await asyncio.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: the process dies mid-call, as a crashed pod would."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def service_process(mesh: RunningMesh, name: str, tmp: Path, **env: str) -> ServiceProcess:
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("BALCAO_", "ANTHROPIC_"))}
    environment.update(
        {
            "BALCAO_MESH_SECRET": mesh.secret.decode(),
            "BALCAO_DATA_DIR": str(tmp),
            f"BALCAO_{name.upper()}_GRPC_PORT": str(port),
            "PYTHONWARNINGS": "ignore",
        }
    )
    for peer in ("crm", "agenda", "projection", "seguranca", "conversador", "operador"):
        environment[f"BALCAO_{peer.upper()}_ADDR"] = mesh.addr(peer)
    environment.update(env)
    return ServiceProcess(name, port, environment, tmp / f"{name}-{port}.log")
