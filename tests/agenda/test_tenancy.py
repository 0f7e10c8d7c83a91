"""Tenancy: another organisation's ids find nothing, in SQL and again under row-level security."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import grpc
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.agenda.v1 import agenda_read_pb2 as read
from balcao.agenda.v1 import agenda_resources_pb2 as pb
from balcao.agenda.v1 import agenda_write_pb2 as write
from balcao.kit import db
from tests.agenda.support import AgendaClient, codes, instant_start, ts
from tests.support.mesh import RunningMesh

NOW = datetime(2024, 11, 1, tzinfo=UTC)
TABLES = ("resources", "services", "calendar_appointments", "appointment_history", "idempotency_keys")


async def _populated(agenda: AgendaClient, org: uuid.UUID) -> dict[str, str]:
    """An organisation with a service, a resource and a confirmed booking; their ids."""
    service = (
        await agenda.write.UpsertService(
            write.UpsertServiceRequest(
                organization_id=str(org), service=pb.BookableService(name="Consulta", active=True)
            ),
            metadata=agenda.metadata,
        )
    ).service
    resource = await agenda.resource(org, service_ids=[service.service_id])
    contact = uuid.uuid4()
    booked = await agenda.book(
        org,
        resource.resource_id,
        instant_start(datetime(2024, 11, 5, 17, 30, tzinfo=UTC)),
        contact_id=contact,
        confirm=True,
        service_id=service.service_id,
        idempotency_key="shared-key",
    )
    return {
        "resource": resource.resource_id,
        "service": service.service_id,
        "contact": str(contact),
        "appointment": booked.appointment.appointment_id,
    }


async def test_every_read_with_another_organisations_ids_finds_nothing(
    agenda: AgendaClient, at, superuser: AsyncEngine
) -> None:
    at(NOW)
    owner, stranger = uuid.uuid4(), uuid.uuid4()
    ids = await _populated(agenda, owner)
    org, md = str(stranger), agenda.metadata
    window = pb.TimeRange(start_time=ts(NOW), end_time=ts(NOW + timedelta(days=10)))

    contact_list = await agenda.read.ListContactAppointments(
        read.ListContactAppointmentsRequest(organization_id=org, contact_id=ids["contact"], as_of=ts(NOW)), metadata=md
    )
    assert (list(contact_list.appointments), contact_list.total_count, contact_list.truncated) == ([], 0, False)
    evidence = await agenda.read.ListConfirmedFutureBookings(
        read.ListConfirmedFutureBookingsRequest(organization_id=org, contact_id=ids["contact"], as_of=ts(NOW)),
        metadata=md,
    )
    assert list(evidence.bookings) == []
    named = await agenda.read.CheckAvailability(
        read.CheckAvailabilityRequest(organization_id=org, resource_ids=[ids["resource"]], instants=window), metadata=md
    )
    assert codes(named.refusal) == "REFUSAL_CODE_UNKNOWN_RESOURCE" and not named.slots
    by_service = await agenda.read.CheckAvailability(
        read.CheckAvailabilityRequest(organization_id=org, service_id=ids["service"], instants=window), metadata=md
    )
    assert codes(by_service.refusal) == "REFUSAL_CODE_UNKNOWN_SERVICE" and not by_service.slots
    everything = await agenda.read.CheckAvailability(
        read.CheckAvailabilityRequest(organization_id=org, instants=window), metadata=md
    )
    assert not everything.slots and not everything.HasField("refusal")
    for call in (
        agenda.read.GetAppointment(
            read.GetAppointmentRequest(organization_id=org, appointment_id=ids["appointment"]), metadata=md
        ),
        agenda.read.GetResource(read.GetResourceRequest(organization_id=org, resource_id=ids["resource"]), metadata=md),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await call
        assert error.value.code() == grpc.StatusCode.NOT_FOUND
    listed = await agenda.read.ListAppointments(
        read.ListAppointmentsRequest(organization_id=org, resource_id=ids["resource"], contact_id=ids["contact"]),
        metadata=md,
    )
    assert list(listed.appointments) == []
    assert (
        list(
            (
                await agenda.read.ListAppointments(read.ListAppointmentsRequest(organization_id=org), metadata=md)
            ).appointments
        )
        == []
    )
    resources = await agenda.read.ListResources(
        read.ListResourcesRequest(organization_id=org, include_inactive=True), metadata=md
    )
    assert list(resources.resources) == []
    services = await agenda.read.ListServices(
        read.ListServicesRequest(organization_id=org, include_inactive=True), metadata=md
    )
    assert list(services.services) == []

    # The owner still sees everything through the same RPCs.
    mine = await agenda.contact_appointments(owner, ids["contact"], as_of=NOW)
    assert [a.appointment_id for a in mine.appointments] == [ids["appointment"]]


async def test_writes_with_another_organisations_ids_touch_nothing(
    agenda: AgendaClient, at, superuser: AsyncEngine
) -> None:
    at(NOW)
    owner, stranger = uuid.uuid4(), uuid.uuid4()
    ids = await _populated(agenda, owner)
    org, md = str(stranger), agenda.metadata

    booked = await agenda.book(stranger, ids["resource"], instant_start(datetime(2024, 11, 6, 17, tzinfo=UTC)))
    assert codes(booked.refusal) == "REFUSAL_CODE_UNKNOWN_RESOURCE"
    for call in (
        agenda.write.Cancel(write.CancelRequest(organization_id=org, appointment_id=ids["appointment"]), metadata=md),
        agenda.write.Confirm(write.ConfirmRequest(organization_id=org, appointment_id=ids["appointment"]), metadata=md),
        agenda.write.Reschedule(
            write.RescheduleRequest(
                organization_id=org,
                appointment_id=ids["appointment"],
                new_start=instant_start(datetime(2024, 11, 6, 17, tzinfo=UTC)),
            ),
            metadata=md,
        ),
        agenda.write.SetVideoCallStatus(
            write.SetVideoCallStatusRequest(
                organization_id=org, appointment_id=ids["appointment"], status=pb.VIDEO_CALL_STATUS_FAILED
            ),
            metadata=md,
        ),
    ):
        reply = await call
        assert codes(reply.refusal) == "REFUSAL_CODE_UNKNOWN_APPOINTMENT"
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await agenda.write.UpsertResource(
            write.UpsertResourceRequest(
                organization_id=org,
                resource=pb.Resource(
                    resource_id=ids["resource"], name="Tomada", time_zone="UTC", slot_minutes=30, capacity=1
                ),
            ),
            metadata=md,
        )
    assert error.value.code() == grpc.StatusCode.NOT_FOUND
    # The same idempotency key in another organisation is another key.
    fresh = await agenda.book(
        stranger,
        (await agenda.resource(stranger)).resource_id,
        instant_start(datetime(2024, 11, 5, 17, 30, tzinfo=UTC)),
        idempotency_key="shared-key",
    )
    assert fresh.HasField("appointment") and not fresh.replayed

    async with superuser.connect() as conn:
        row = (
            await conn.execute(
                sa.text(
                    "SELECT status, start_time, video_call_status FROM agenda.calendar_appointments "
                    "WHERE appointment_id = :id"
                ),
                {"id": uuid.UUID(ids["appointment"])},
            )
        ).one()
    assert tuple(row) == ("confirmed", datetime(2024, 11, 5, 17, 30, tzinfo=UTC), "none")


async def test_row_level_security_is_forced_on_every_table(superuser: AsyncEngine) -> None:
    async with superuser.connect() as conn:
        rows = (
            await conn.execute(
                sa.text(
                    "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, "
                    "(SELECT count(*) FROM pg_policies p WHERE p.schemaname = 'agenda' AND p.tablename = c.relname) "
                    "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = 'agenda' AND c.relkind = 'r' AND c.relname <> 'alembic_version'"
                )
            )
        ).all()
    assert {r[0]: tuple(r[1:]) for r in rows} == {table: (True, True, 1) for table in TABLES}


async def test_the_application_role_sees_only_the_organisation_set_in_its_transaction(
    mesh: RunningMesh, agenda: AgendaClient, at
) -> None:
    at(NOW)
    first, second = uuid.uuid4(), uuid.uuid4()
    await _populated(agenda, first)
    await _populated(agenda, second)
    engine = db.create_engine(mesh.database_url, pool_size=1)
    try:
        async with engine.begin() as conn:
            # Even a query that forgets its WHERE clause sees nothing without the setting…
            assert (await conn.execute(sa.text("SELECT count(*) FROM agenda.calendar_appointments"))).scalar() == 0
            assert (await conn.execute(sa.text("SELECT count(*) FROM agenda.resources"))).scalar() == 0
        async with engine.begin() as conn:
            await conn.execute(sa.text("SELECT set_config('balcao.organization_id', :org, true)"), {"org": str(first)})
            # …and only its own organisation's rows with it.
            orgs = (
                await conn.execute(sa.text("SELECT DISTINCT organization_id FROM agenda.calendar_appointments"))
            ).all()
            assert orgs == [(first,)]
            # Writing another organisation's row is refused by the policy.
            with pytest.raises(DBAPIError, match="row-level security"):
                await conn.execute(
                    sa.text("INSERT INTO agenda.services (organization_id, name) VALUES (:org, 'Intrusa')"),
                    {"org": second},
                )
        async with engine.begin() as conn:
            # The setting was transaction-local: the next transaction starts blind again.
            assert (await conn.execute(sa.text("SELECT count(*) FROM agenda.calendar_appointments"))).scalar() == 0
    finally:
        await engine.dispose()
