"""The closing re-reads the agenda (seed 000): the checkpoint reflects the agenda as it is after the
turn, even when another process changed it meanwhile; a failed re-read is unknown, never empty,
and never makes the runtime send again."""

from __future__ import annotations

import asyncio
import uuid
from datetime import date, timedelta
from pathlib import Path

import grpc

from balcao.agenda.v1 import agenda_resources_pb2 as ag
from balcao.agenda.v1 import agenda_write_pb2 as aw
from balcao.agenda.v1 import agenda_write_pb2_grpc
from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.models import conversador_format as fmt
from services.gateway import repository
from tests.gateway import support
from tests.gateway.conftest import Scripted
from tests.gateway.scripted import Call, Gate, echo
from tests.support.mesh import RunningMesh


def _local(days: int, clock: str) -> ag.TimePoint:
    day = date.today() + timedelta(days=days)
    return ag.TimePoint(
        local=ag.LocalDateTime(local_date_time=f"{day.isoformat()}T{clock}:00", time_zone="America/Sao_Paulo")
    )


async def _book(mesh: RunningMesh, org: support.Org, contact_id: str, resource: str, service: str) -> ag.Appointment:
    async with grpc.aio.insecure_channel(mesh.addr("agenda")) as channel:
        booked = await agenda_write_pb2_grpc.AgendaWriteServiceStub(channel).Book(
            aw.BookRequest(
                organization_id=org.organization_id,
                idempotency_key=uuid.uuid4().hex,
                contact_id=contact_id,
                resource_id=resource,
                service_id=service,
                start=_local(3, "10:00"),
                confirm=True,
                booked_by="operador",
            ),
            metadata=support.metadata(mesh, "operador"),
        )
    assert booked.WhichOneof("result") == "appointment", booked
    return booked.appointment


async def _latest(mesh: RunningMesh, org: support.Org, contact_id: str) -> r.LeadCheckpoint:
    channel, read = await support.crm_read(mesh)
    async with channel:
        response = await read.LatestCheckpoint(
            cr.LatestCheckpointRequest(organization_id=org.organization_id, contact_id=contact_id),
            metadata=support.metadata(mesh, "gateway"),
        )
    return response.checkpoint


async def _gated_org(mesh: RunningMesh, scripted: Scripted) -> tuple[support.Org, Gate, str, str]:
    name = support.org_name("Clínica Agenda")
    org = await support.create_org(mesh, name=name)
    resource, service = await support.agenda_for(mesh, org)
    gate = Gate()

    def behaviour(call: Call) -> str:
        if any("consulta" in text for text in call.customer) and not gate.released.is_set():
            gate.hold()
        return echo(call)

    scripted.model.script(name, behaviour)
    return org, gate, resource, service


async def test_the_checkpoint_reflects_the_agenda_changed_by_another_process_during_the_turn(
    mesh: RunningMesh, scripted: Scripted, private: support.PrivateGateway, private_client: support.Client
) -> None:
    org, gate, resource, service = await _gated_org(mesh, scripted)
    phone = support.new_phone()
    hello = await private_client.say(org, phone, "oi")
    booked = await _book(mesh, org, hello.contact_id, resource, service)

    accepted = await private_client.submit(org, phone, "minha consulta continua marcada?")
    await asyncio.to_thread(gate.reached.wait, 30)
    async with grpc.aio.insecure_channel(mesh.addr("agenda")) as channel:
        moved = await agenda_write_pb2_grpc.AgendaWriteServiceStub(channel).Reschedule(
            aw.RescheduleRequest(
                organization_id=org.organization_id,
                idempotency_key=uuid.uuid4().hex,
                appointment_id=booked.appointment_id,
                new_start=_local(4, "15:00"),
                rescheduled_by="recepção",
            ),
            metadata=support.metadata(mesh, "operador"),
        )
    assert moved.WhichOneof("result") == "appointment", moved
    gate.release()
    turn = await private_client.turn(org, inbound_id=accepted.inbound_id)

    assert turn.outcome == gw.TURN_OUTCOME_REPLIED
    checkpoint = await _latest(mesh, org, turn.contact_id)
    assert checkpoint.turn_id == turn.turn_id
    assert checkpoint.content.agenda_reread == r.AGENDA_REREAD_STATUS_READ
    summary = checkpoint.content.rolling_summary
    assert moved.appointment.labels.start_iso in summary and booked.labels.start_iso not in summary


async def test_a_failed_reread_closes_as_unknown_and_sends_nothing_again(
    mesh: RunningMesh, scripted: Scripted, tmp_path: Path
) -> None:
    projection = support.service_process(mesh, "projection", tmp_path)
    projection.start()
    await projection.wait_serving()
    gateway = await support.start_gateway(
        mesh, peers={"conversador": scripted.conversador.addr, "projection": projection.addr}, model=scripted.chooser
    )
    client = support.Client(mesh, gateway.addr)
    try:
        org, gate, resource, service = await _gated_org(mesh, scripted)
        phone = support.new_phone()
        hello = await client.say(org, phone, "oi")
        await _book(mesh, org, hello.contact_id, resource, service)

        accepted = await client.submit(org, phone, "minha consulta continua marcada?")
        await asyncio.to_thread(gate.reached.wait, 30)
        projection.kill()  # the re-read after the send will find nobody
        gate.release()
        turn = await client.turn(org, inbound_id=accepted.inbound_id)

        assert turn.status == gw.TURN_STATUS_DONE and turn.outcome == gw.TURN_OUTCOME_REPLIED
        contact = uuid.UUID(turn.contact_id)
        assert len(gateway.channel.texts_to(contact)) == 2  # "oi" got one reply, this turn one, never again
        checkpoint = await _latest(mesh, org, turn.contact_id)
        assert checkpoint.turn_id == turn.turn_id
        assert checkpoint.content.agenda_reread == r.AGENDA_REREAD_STATUS_UNKNOWN
        assert "agenda desconhecida" in checkpoint.content.rolling_summary
        async with repository.tenant(gateway.engine, uuid.UUID(org.organization_id)) as conn:
            row = await repository.get_turn(conn, uuid.UUID(org.organization_id), uuid.UUID(turn.turn_id))
        assert row is not None and row.attempts == 1
    finally:
        await client.close()
        await gateway.stop()
        projection.stop()


async def test_the_next_closing_starts_from_the_memory_the_last_one_wrote(
    mesh: RunningMesh, scripted: Scripted, private_client: support.Client
) -> None:
    name = support.org_name("Clínica Memória")
    org = await support.create_org(mesh, name=name)
    scripted.model.script(name, echo)
    phone = support.new_phone()
    first = await private_client.say(org, phone, "quero marcar uma limpeza")
    remembered = (await _latest(mesh, org, first.contact_id)).content.rolling_summary
    assert "quero marcar uma limpeza" in remembered

    second = await private_client.say(org, phone, "quanto custa?")
    assert second.outcome == gw.TURN_OUTCOME_REPLIED
    assert "quanto custa?" in (await _latest(mesh, org, second.contact_id)).content.rolling_summary
    marker = uuid.uuid4().hex[:10]
    third = await private_client.say(org, phone, f"meu código é {marker}")
    assert third.outcome == gw.TURN_OUTCOME_REPLIED
    closing = next(c for c in scripted.model.calls_for(marker) if c.kind == "closing")
    # The third closing starts from the memory the second one wrote (which repeats its messages).
    assert "quanto custa?" in fmt.sections(closing.text).get(fmt.PREVIOUS_MEMORY, "")
