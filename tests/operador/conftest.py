"""Helpers of the Operador tests: a business seeded through crm and agenda, turns closed with
CrmWrite.CloseTurn, and polling until the mesh's Operador (or a test worker) shows its effect."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import grpc
import pytest
from google.protobuf import field_mask_pb2
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.agenda.v1 import agenda_read_pb2 as ar
from balcao.agenda.v1 import agenda_read_pb2_grpc, agenda_write_pb2_grpc
from balcao.agenda.v1 import agenda_resources_pb2 as ag
from balcao.agenda.v1 import agenda_write_pb2 as aw
from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc, event_queue_pb2_grpc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.kit.identity import signing_interceptors
from balcao.operador.v1 import operador_pb2_grpc
from services.operador.peers import Peers
from tests.support.mesh import RunningMesh

SP = "America/Sao_Paulo"
T = TypeVar("T")


def ts(moment: datetime) -> Timestamp:
    value = Timestamp()
    value.FromDatetime(moment)
    return value


def next_weekday(weekday: int, at_least_days: int = 2) -> date:
    """The next date with ISO `weekday` (4 = Thursday) at least `at_least_days` from today in São Paulo."""
    day = datetime.now(ZoneInfo(SP)).date() + timedelta(days=at_least_days)
    while day.isoweekday() != weekday:
        day += timedelta(days=1)
    return day


def local(day: date, hhmm: str) -> ag.TimePoint:
    return ag.TimePoint(local=ag.LocalDateTime(local_date_time=f"{day.isoformat()}T{hhmm}:00", time_zone=SP))


def declaracao(intencao: str = "quer remarcar para quinta 10h", categoria: int = dc.CATEGORIA_QUER_REMARCAR,
               promessa: str | None = "vou remarcar para quinta às 10h e te confirmo",
               prazo: datetime | None = None) -> dc.DeclaracaoDoTurno:
    promessas = []
    if promessa is not None:
        p = dc.Promessa(o_que=promessa)
        if prazo is not None:
            p.prazo.CopyFrom(ts(prazo))
        promessas.append(p)
    return dc.DeclaracaoDoTurno(
        intencoes=[dc.Intencao(o_que=intencao, evidencia="pode ser quinta às 10h?", categoria=categoria)],  # type: ignore[arg-type]
        promessas=promessas,
    )


@dataclass
class Business:
    """One organisation with a contact, seeded through the real services."""

    mesh: RunningMesh
    env: Env
    org: str
    contact: str
    unit_id: str
    resource_id: str

    async def book(self, start: ag.TimePoint, contact: str | None = None) -> aw.BookResponse:
        return await self.env.agenda_write.Book(aw.BookRequest(
            organization_id=self.org, idempotency_key=str(uuid.uuid4()), contact_id=contact or self.contact,
            resource_id=self.resource_id, start=start, confirm=True, booked_by="teste"), metadata=self.env.operador_md)

    def script(self, *entries: dict[str, Any]) -> None:
        """What the mesh's Operador model answers for this organisation (read at its first call)."""
        folder = self.mesh.data_dir / "operador-scripts"
        folder.mkdir(exist_ok=True)
        path = folder / f"{self.org}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(list(entries), ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)

    async def close(self, content: dc.DeclaracaoDoTurno | None, *, contact: str | None = None,
                    turn_id: str | None = None,
                    summary: str = "Cliente quer mudar o horário da consulta.") -> cw.CloseTurnResponse:
        checkpoint = r.CheckpointContent(rolling_summary=summary,
                                         next_action="confirmar o novo horário")
        if content is not None:
            checkpoint.declaracao.CopyFrom(content)
        return await self.env.crm_write.CloseTurn(cw.CloseTurnRequest(
            organization_id=self.org, contact_id=contact or self.contact, turn_id=turn_id or str(uuid.uuid4()),
            unit_id=self.unit_id, checkpoint=checkpoint,
            execution=r.TurnExecution(trigger=r.TURN_TRIGGER_INBOUND, outcome=r.TURN_OUTCOME_REPLIED,
                                      inbound=[r.InboundRef(text="pode ser quinta às 10h?")],
                                      sent=[r.SentPart(text="Vou ver e te confirmo!")]),
        ), metadata=self.env.md)

    async def obligations(self, turn_id: str) -> list[r.Obligation]:
        return list((await self.env.crm_read.ListObligations(
            cr.ListObligationsRequest(organization_id=self.org, turn_id=turn_id), metadata=self.env.md)).obligations)

    async def activities(self, turn_id: str, contact: str | None = None) -> list[r.LeadActivity]:
        return list((await self.env.crm_read.ListActivities(cr.ListActivitiesRequest(
            organization_id=self.org, contact_id=contact or self.contact, turn_id=turn_id),
            metadata=self.env.md)).activities)

    async def appointments(self, contact: str | None = None) -> list[ag.Appointment]:
        return list((await self.env.agenda_read.ListContactAppointments(ar.ListContactAppointmentsRequest(
            organization_id=self.org, contact_id=contact or self.contact), metadata=self.env.md)).appointments)

    async def events(self, kind: str, contact: str | None = None) -> list[r.Event]:
        return list((await self.env.queue.ListEvents(eq.ListEventsRequest(
            organization_id=self.org, kinds=[kind], contact_id=contact or self.contact, page_size=200),
            metadata=self.env.md)).events)

    async def central(self) -> list[r.CentralItem]:
        return list((await self.env.crm_read.ListCentralItems(cr.ListCentralItemsRequest(
            organization_id=self.org, contact_id=self.contact), metadata=self.env.md)).items)

    async def follow_ups(self) -> list[r.FollowUp]:
        return list((await self.env.crm_read.ListFollowUps(cr.ListFollowUpsRequest(
            organization_id=self.org, contact_id=self.contact), metadata=self.env.md)).follow_ups)

    async def execution(self, turn_id: str) -> r.TurnExecution:
        return (await self.env.crm_read.GetTurnExecution(cr.GetTurnExecutionRequest(
            organization_id=self.org, turn_id=turn_id), metadata=self.env.md)).execution


@dataclass
class Env:
    mesh: RunningMesh
    crm_read: crm_read_pb2_grpc.CrmReadServiceStub
    crm_write: crm_write_pb2_grpc.CrmWriteServiceStub
    queue: event_queue_pb2_grpc.EventQueueServiceStub
    agenda_read: agenda_read_pb2_grpc.AgendaReadServiceStub
    agenda_write: agenda_write_pb2_grpc.AgendaWriteServiceStub
    operador: operador_pb2_grpc.OperadorServiceStub
    md: tuple[tuple[str, str], ...]
    operador_md: tuple[tuple[str, str], ...]

    async def business(self, *, role_on: bool, callback_enabled: bool = True,
                       packages: tuple[str, ...] = ("agenda", "vender", "reter", "escalar", "organizar")) -> Business:
        org = (await self.crm_write.UpsertOrganization(cw.UpsertOrganizationRequest(
            name="Clínica Sorriso", time_zone=SP), metadata=self.md)).organization
        settings = r.OrganizationSettings()
        settings.CopyFrom(org.settings)
        settings.roles.operador_enabled = role_on
        settings.followup.callback_enabled = callback_enabled
        settings.categoria_stages.append(
            r.CategoriaStageRule(categoria=dc.CATEGORIA_QUER_REMARCAR, stage_key="scheduled"))
        await self.crm_write.UpdateOrganizationSettings(cw.UpdateOrganizationSettingsRequest(
            organization_id=org.organization_id, settings=settings,
            update_mask=field_mask_pb2.FieldMask(paths=["roles", "followup", "categoria_stages"])), metadata=self.md)
        draft = await self.crm_write.SaveAgentDraft(cw.SaveAgentDraftRequest(
            organization_id=org.organization_id,
            configuration=r.AgentConfiguration(units=[r.UnitConfig(
                name="SDR da clínica", operador=r.OperadorConfig(capability_packages=list(packages)))]),
        ), metadata=self.md)
        await self.crm_write.PublishAgentVersion(cw.PublishAgentVersionRequest(
            organization_id=org.organization_id, version_id=draft.version.version_id), metadata=self.md)
        unit_id = draft.version.configuration.units[0].unit_id
        contact = await self.contact(org.organization_id)
        resource = await self.agenda_write.UpsertResource(aw.UpsertResourceRequest(
            organization_id=org.organization_id,
            resource=ag.Resource(
                name="Dra. Ana Souza", kind=ag.RESOURCE_KIND_PERSON, time_zone=SP, slot_minutes=60, capacity=1,
                business_hours=ag.BusinessHours(weekly=[
                    ag.WeeklyInterval(weekday=d, opens="08:00", closes="18:00") for d in range(1, 8)]),  # type: ignore[arg-type]
                place=ag.Place(kind=ag.PLACE_KIND_IN_PERSON, name="Clínica Centro"), active=True)),
            metadata=self.md)
        return Business(self.mesh, self, org.organization_id, contact, unit_id, resource.resource.resource_id)

    async def contact(self, org: str) -> str:
        phone = f"+55119{uuid.uuid4().int % 10**8:08d}"
        return (await self.crm_write.UpsertContact(cw.UpsertContactRequest(
            organization_id=org, phone=phone, name="Marina"), metadata=self.md)).contact.contact_id

    def peers(self) -> Peers:
        """Clients signed as `operador`, for test workers running in this process."""
        secret = self.mesh.secret

        def channel(service: str) -> grpc.aio.Channel:
            return grpc.aio.insecure_channel(self.mesh.addr(service),
                                             interceptors=signing_interceptors(secret, "operador"))

        return Peers.over(channel("crm"), channel("agenda"))


@pytest.fixture
async def env(mesh: RunningMesh) -> AsyncIterator[Env]:
    channels = {s: grpc.aio.insecure_channel(mesh.addr(s)) for s in ("crm", "agenda", "operador")}
    yield Env(
        mesh,
        crm_read_pb2_grpc.CrmReadServiceStub(channels["crm"]),
        crm_write_pb2_grpc.CrmWriteServiceStub(channels["crm"]),
        event_queue_pb2_grpc.EventQueueServiceStub(channels["crm"]),
        agenda_read_pb2_grpc.AgendaReadServiceStub(channels["agenda"]),
        agenda_write_pb2_grpc.AgendaWriteServiceStub(channels["agenda"]),
        operador_pb2_grpc.OperadorServiceStub(channels["operador"]),
        (("authorization", f"Bearer {mesh.token('gateway')}"),),
        (("authorization", f"Bearer {mesh.token('operador')}"),),
    )
    for channel in channels.values():
        await channel.close()


async def until(probe: Callable[[], Awaitable[T]], done: Callable[[T], bool], *, seconds: float = 30.0,
                what: str = "the Operador's effect") -> T:
    """Poll `probe` until `done(value)`; fail naming `what` and the last value otherwise."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        value = await probe()
        if done(value):
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last value: {value!r}")
        await asyncio.sleep(0.2)


def later(hours: float) -> datetime:
    return datetime.now(UTC) + timedelta(hours=hours)


def scripts_dir(mesh: RunningMesh) -> Path:
    return mesh.data_dir / "operador-scripts"
