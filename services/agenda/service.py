"""The agenda servicers and who may call each RPC.

agenda owns resources, services and `calendar_appointments`. Only the Operador books,
reschedules, cancels and confirms; the gateway may configure resources and services.

This module maps proto ↔ domain (through `messages`) and the domain's errors to gRPC status
codes, in one place (`_status_of`). A business refusal is not an error: it is a `Refusal` in
the response with status OK. Writes with an idempotency key run inside the same transaction as
the ledger entry that remembers their response, so a replay returns the first result exactly.
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import grpc
from google.protobuf.message import Message
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from balcao.agenda.v1 import agenda_read_pb2, agenda_read_pb2_grpc, agenda_write_pb2, agenda_write_pb2_grpc
from balcao.kit.identity import allow
from services.agenda import messages, scheduling
from services.agenda.model import (
    VIDEO_READY,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    Refusal,
)
from services.agenda.repository import AgendaRepository, AgendaTransaction, IdempotencyKeyReused
from services.agenda.scheduling import AvailabilityQuery, BookCommand, RescheduleCommand

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


# Seed 000: the contact's appointments are capped at five.
CONTACT_APPOINTMENTS_CAP = 5
DEFAULT_MAX_SLOTS, MAX_SLOTS = 20, 200
DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE = 50, 200
MAX_DURATION_MINUTES = 24 * 60
MAX_IDEMPOTENCY_KEY = 200

_DEADLOCK, _SERIALIZATION = "40P01", "40001"


def _status_of(error: Exception) -> tuple[grpc.StatusCode, str] | None:
    """The one mapping from the domain's (and the database's) errors to gRPC status codes."""
    if isinstance(error, InvalidArgument):
        return grpc.StatusCode.INVALID_ARGUMENT, str(error)
    if isinstance(error, NotFound):
        return grpc.StatusCode.NOT_FOUND, str(error)
    if isinstance(error, FailedPrecondition):
        return grpc.StatusCode.FAILED_PRECONDITION, str(error)
    if isinstance(error, IdempotencyKeyReused):
        return grpc.StatusCode.INVALID_ARGUMENT, f"idempotency_key was already used by {error.method}"
    if isinstance(error, DBAPIError) and getattr(error.orig, "sqlstate", None) in (_DEADLOCK, _SERIALIZATION):
        return grpc.StatusCode.ABORTED, "the agenda changed concurrently; retry the call"
    if isinstance(error, OperationalError | InterfaceError | ConnectionError):
        return grpc.StatusCode.UNAVAILABLE, "the agenda database is unreachable"
    if isinstance(error, RuntimeError) and "not ready" in str(error):
        return grpc.StatusCode.UNAVAILABLE, "the agenda database is not ready yet"
    return None


Handler = TypeVar("Handler", bound=Callable[..., Awaitable[Any]])


def _rpc(method: Handler) -> Handler:
    @functools.wraps(method)
    async def handle(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await method(self, request, context)
        except Exception as error:
            mapped = _status_of(error)
            if mapped is None:
                raise
            code, details = mapped
            if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED):
                log.warning("agenda call failed", extra={"rpc": method.__name__, "error": repr(error)})
            await context.abort(code, details)

    return handle  # type: ignore[return-value]


R = TypeVar("R", bound=Message)


class _Servicer:
    def __init__(self, repository: AgendaRepository, clock: Clock = system_clock) -> None:
        self._repository = repository
        self._clock = clock


class AgendaRead(_Servicer, agenda_read_pb2_grpc.AgendaReadServiceServicer):
    """Reads of the agenda, always filtered on the organisation."""

    @_rpc
    async def ListContactAppointments(
        self, request: agenda_read_pb2.ListContactAppointmentsRequest, context: grpc.aio.ServicerContext
    ) -> agenda_read_pb2.ListContactAppointmentsResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        contact = messages.required_uuid(request.contact_id, "contact_id")
        limit = messages.non_negative(request.limit, "limit")
        limit = min(limit or CONTACT_APPOINTMENTS_CAP, CONTACT_APPOINTMENTS_CAP)
        as_of = messages.optional_instant(request, "as_of") or self._clock()
        async with self._repository.transaction(org) as tx:
            found, total = await tx.contact_active_appointments(contact, as_of, limit)
        return agenda_read_pb2.ListContactAppointmentsResponse(
            appointments=[messages.appointment(a) for a in found],
            truncated=total > len(found),
            total_count=total,
            as_of=messages.timestamp(as_of),
        )

    @_rpc
    async def ListConfirmedFutureBookings(
        self, request: agenda_read_pb2.ListConfirmedFutureBookingsRequest, context: grpc.aio.ServicerContext
    ) -> agenda_read_pb2.ListConfirmedFutureBookingsResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        contact = messages.required_uuid(request.contact_id, "contact_id")
        as_of = messages.optional_instant(request, "as_of") or self._clock()
        async with self._repository.transaction(org) as tx:
            found = await tx.contact_confirmed_future(contact, as_of)
        return agenda_read_pb2.ListConfirmedFutureBookingsResponse(
            bookings=[messages.appointment(a) for a in found], as_of=messages.timestamp(as_of)
        )

    @_rpc
    async def CheckAvailability(
        self, request: agenda_read_pb2.CheckAvailabilityRequest, context: grpc.aio.ServicerContext
    ) -> agenda_read_pb2.CheckAvailabilityResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        which = request.WhichOneof("range")
        if which == "instants":
            requested: scheduling.InstantRange | scheduling.LocalDates = messages.time_range(
                request.instants, "instants"
            )
        elif which == "local_dates":
            requested = messages.local_dates(request.local_dates, "local_dates")
        else:
            raise InvalidArgument("a range is required: instants or local_dates")
        max_slots = messages.non_negative(request.max_slots, "max_slots")
        query = AvailabilityQuery(
            resource_ids=tuple(
                dict.fromkeys(
                    messages.required_uuid(v, f"resource_ids[{n}]") for n, v in enumerate(request.resource_ids)
                )
            ),
            service_id=messages.optional_uuid(request.service_id, "service_id"),
            range=requested,
            label_time_zone=messages.optional_zone(request.label_time_zone, "label_time_zone"),
            max_slots=min(max_slots or DEFAULT_MAX_SLOTS, MAX_SLOTS),
            time_of_day=(
                messages.time_of_day(request.time_of_day, "time_of_day") if request.HasField("time_of_day") else None
            ),
        )
        now = messages.optional_instant(request, "as_of") or self._clock()
        async with self._repository.transaction(org) as tx:
            outcome = await scheduling.check_availability(tx, query, now)
        if isinstance(outcome, Refusal):
            return agenda_read_pb2.CheckAvailabilityResponse(refusal=messages.refusal(outcome))
        slots, truncated = outcome
        return agenda_read_pb2.CheckAvailabilityResponse(slots=[messages.slot(s) for s in slots], truncated=truncated)

    @_rpc
    async def GetAppointment(
        self, request: agenda_read_pb2.GetAppointmentRequest, context: grpc.aio.ServicerContext
    ) -> agenda_read_pb2.GetAppointmentResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        appointment_id = messages.required_uuid(request.appointment_id, "appointment_id")
        contact = messages.optional_uuid(request.contact_id, "contact_id")
        async with self._repository.transaction(org) as tx:
            found = await tx.get_appointment(appointment_id, contact)
        if found is None:
            raise NotFound(f"appointment {appointment_id} does not exist in this organisation")
        return agenda_read_pb2.GetAppointmentResponse(appointment=messages.appointment(found))

    @_rpc
    async def ListAppointments(
        self, request: agenda_read_pb2.ListAppointmentsRequest, context: grpc.aio.ServicerContext
    ) -> agenda_read_pb2.ListAppointmentsResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        page_size = messages.non_negative(request.page_size, "page_size")
        page_size = min(page_size or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
        overlapping = None
        if request.HasField("overlapping"):
            window = messages.time_range(request.overlapping, "overlapping")
            overlapping = (window.start, window.end)
        filters = {
            "resource_id": messages.optional_uuid(request.resource_id, "resource_id"),
            "contact_id": messages.optional_uuid(request.contact_id, "contact_id"),
            "statuses": sorted(
                {messages.appointment_status(s, f"statuses[{n}]") for n, s in enumerate(request.statuses)}
            ),
            "overlapping": overlapping,
            "after": messages.page_token(request.page_token),
        }
        async with self._repository.transaction(org) as tx:
            found = await tx.list_appointments(**filters, limit=page_size + 1)
        page, more = found[:page_size], len(found) > page_size
        token = messages.next_page_token((page[-1].start_time, page[-1].appointment_id)) if more else ""
        return agenda_read_pb2.ListAppointmentsResponse(
            appointments=[messages.appointment(a) for a in page], next_page_token=token
        )

    @_rpc
    async def GetResource(
        self, request: agenda_read_pb2.GetResourceRequest, context: grpc.aio.ServicerContext
    ) -> agenda_read_pb2.GetResourceResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        resource_id = messages.required_uuid(request.resource_id, "resource_id")
        async with self._repository.transaction(org) as tx:
            found = await tx.get_resource(resource_id)
        if found is None:
            raise NotFound(f"resource {resource_id} does not exist in this organisation")
        return agenda_read_pb2.GetResourceResponse(resource=messages.resource(found))

    @_rpc
    async def ListResources(
        self, request: agenda_read_pb2.ListResourcesRequest, context: grpc.aio.ServicerContext
    ) -> agenda_read_pb2.ListResourcesResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        async with self._repository.transaction(org) as tx:
            found = await tx.list_resources(request.include_inactive)
        return agenda_read_pb2.ListResourcesResponse(resources=[messages.resource(r) for r in found])

    @_rpc
    async def ListServices(
        self, request: agenda_read_pb2.ListServicesRequest, context: grpc.aio.ServicerContext
    ) -> agenda_read_pb2.ListServicesResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        async with self._repository.transaction(org) as tx:
            found = await tx.list_services(request.include_inactive)
        return agenda_read_pb2.ListServicesResponse(services=[messages.service(s) for s in found])


class AgendaWrite(_Servicer, agenda_write_pb2_grpc.AgendaWriteServiceServicer):
    """Bookings and configuration; business refusals come back as data."""

    async def _idempotent(
        self,
        organization_id: uuid.UUID,
        key: str,
        method: str,
        response_type: type[R],
        work: Callable[[AgendaTransaction], Awaitable[R]],
    ) -> R:
        """Run `work` once per idempotency key; a repeat returns the stored first response."""
        async with self._repository.transaction(organization_id) as tx:
            if key:
                stored = await tx.claim_idempotency_key(key, method)
                if stored is not None:
                    replay = response_type.FromString(stored)
                    replay.replayed = True  # type: ignore[attr-defined]
                    return replay
            response = await work(tx)
            if key:
                await tx.store_idempotent_response(key, response.SerializeToString())
            return response

    @_rpc
    async def Book(
        self, request: agenda_write_pb2.BookRequest, context: grpc.aio.ServicerContext
    ) -> agenda_write_pb2.BookResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        key = _idempotency_key(request.idempotency_key)
        command = BookCommand(
            contact_id=messages.required_uuid(request.contact_id, "contact_id"),
            resource_id=messages.required_uuid(request.resource_id, "resource_id"),
            start=messages.start_point(request.start, "start"),
            service_id=messages.optional_uuid(request.service_id, "service_id"),
            duration_minutes=_duration(request.duration_minutes),
            time_zone=messages.optional_zone(request.time_zone, "time_zone"),
            confirm=request.confirm,
            video_call=request.video_call,
            notes=request.notes.strip(),
            source_turn_id=request.source_turn_id,
            booked_by=request.booked_by,
            idempotency_key=key or None,
        )

        async def work(tx: AgendaTransaction) -> agenda_write_pb2.BookResponse:
            outcome = await scheduling.book(tx, command, self._clock())
            if isinstance(outcome, Refusal):
                return agenda_write_pb2.BookResponse(refusal=messages.refusal(outcome))
            return agenda_write_pb2.BookResponse(appointment=messages.appointment(outcome))

        return await self._idempotent(org, key, "Book", agenda_write_pb2.BookResponse, work)

    @_rpc
    async def Reschedule(
        self, request: agenda_write_pb2.RescheduleRequest, context: grpc.aio.ServicerContext
    ) -> agenda_write_pb2.RescheduleResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        key = _idempotency_key(request.idempotency_key)
        command = RescheduleCommand(
            appointment_id=messages.required_uuid(request.appointment_id, "appointment_id"),
            new_start=messages.start_point(request.new_start, "new_start"),
            contact_id=messages.optional_uuid(request.contact_id, "contact_id"),
            duration_minutes=_duration(request.duration_minutes),
            resource_id=messages.optional_uuid(request.resource_id, "resource_id"),
            time_zone=messages.optional_zone(request.time_zone, "time_zone"),
            confirm=request.confirm,
            reason=request.reason.strip(),
            rescheduled_by=request.rescheduled_by,
            source_turn_id=request.source_turn_id,
        )

        async def work(tx: AgendaTransaction) -> agenda_write_pb2.RescheduleResponse:
            outcome = await scheduling.reschedule(tx, command, self._clock())
            if isinstance(outcome, Refusal):
                return agenda_write_pb2.RescheduleResponse(refusal=messages.refusal(outcome))
            return agenda_write_pb2.RescheduleResponse(
                appointment=messages.appointment(outcome.appointment), previous=messages.interval(outcome.previous)
            )

        return await self._idempotent(org, key, "Reschedule", agenda_write_pb2.RescheduleResponse, work)

    @_rpc
    async def Cancel(
        self, request: agenda_write_pb2.CancelRequest, context: grpc.aio.ServicerContext
    ) -> agenda_write_pb2.CancelResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        key = _idempotency_key(request.idempotency_key)
        appointment_id = messages.required_uuid(request.appointment_id, "appointment_id")
        contact = messages.optional_uuid(request.contact_id, "contact_id")

        async def work(tx: AgendaTransaction) -> agenda_write_pb2.CancelResponse:
            outcome = await scheduling.cancel(
                tx,
                appointment_id,
                contact,
                self._clock(),
                reason=request.reason.strip(),
                actor=request.cancelled_by,
                source_turn_id=request.source_turn_id,
            )
            if isinstance(outcome, Refusal):
                return agenda_write_pb2.CancelResponse(refusal=messages.refusal(outcome))
            return agenda_write_pb2.CancelResponse(appointment=messages.appointment(outcome))

        return await self._idempotent(org, key, "Cancel", agenda_write_pb2.CancelResponse, work)

    @_rpc
    async def Confirm(
        self, request: agenda_write_pb2.ConfirmRequest, context: grpc.aio.ServicerContext
    ) -> agenda_write_pb2.ConfirmResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        key = _idempotency_key(request.idempotency_key)
        appointment_id = messages.required_uuid(request.appointment_id, "appointment_id")
        contact = messages.optional_uuid(request.contact_id, "contact_id")

        async def work(tx: AgendaTransaction) -> agenda_write_pb2.ConfirmResponse:
            outcome = await scheduling.confirm(
                tx,
                appointment_id,
                contact,
                self._clock(),
                actor=request.confirmed_by,
                source_turn_id=request.source_turn_id,
            )
            if isinstance(outcome, Refusal):
                return agenda_write_pb2.ConfirmResponse(refusal=messages.refusal(outcome))
            return agenda_write_pb2.ConfirmResponse(appointment=messages.appointment(outcome))

        return await self._idempotent(org, key, "Confirm", agenda_write_pb2.ConfirmResponse, work)

    @_rpc
    async def SetVideoCallStatus(
        self, request: agenda_write_pb2.SetVideoCallStatusRequest, context: grpc.aio.ServicerContext
    ) -> agenda_write_pb2.SetVideoCallStatusResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        key = _idempotency_key(request.idempotency_key)
        appointment_id = messages.required_uuid(request.appointment_id, "appointment_id")
        status = messages.video_call_status(request.status, "status")
        url = request.url.strip()
        if status == VIDEO_READY and not url:
            raise InvalidArgument("url is required when status is VIDEO_CALL_STATUS_READY")
        if url and not url.startswith("https://"):
            raise InvalidArgument(f"url must be an https:// link, got {url!r}")

        async def work(tx: AgendaTransaction) -> agenda_write_pb2.SetVideoCallStatusResponse:
            outcome = await scheduling.set_video_call(tx, appointment_id, status, url)
            if isinstance(outcome, Refusal):
                return agenda_write_pb2.SetVideoCallStatusResponse(refusal=messages.refusal(outcome))
            return agenda_write_pb2.SetVideoCallStatusResponse(appointment=messages.appointment(outcome))

        return await self._idempotent(org, key, "SetVideoCallStatus", agenda_write_pb2.SetVideoCallStatusResponse, work)

    @_rpc
    async def UpsertResource(
        self, request: agenda_write_pb2.UpsertResourceRequest, context: grpc.aio.ServicerContext
    ) -> agenda_write_pb2.UpsertResourceResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        if not request.HasField("resource"):
            raise InvalidArgument("resource is required")
        resource = messages.resource_arg(org, request.resource)
        async with self._repository.transaction(org) as tx:
            stored, created = await scheduling.upsert_resource(tx, resource, self._clock())
        return agenda_write_pb2.UpsertResourceResponse(resource=messages.resource(stored), created=created)

    @_rpc
    async def UpsertService(
        self, request: agenda_write_pb2.UpsertServiceRequest, context: grpc.aio.ServicerContext
    ) -> agenda_write_pb2.UpsertServiceResponse:
        org = messages.required_uuid(request.organization_id, "organization_id")
        if not request.HasField("service"):
            raise InvalidArgument("service is required")
        service = messages.service_arg(org, request.service)
        async with self._repository.transaction(org) as tx:
            stored, created = await scheduling.upsert_service(tx, service)
        return agenda_write_pb2.UpsertServiceResponse(service=messages.service(stored), created=created)


def _idempotency_key(key: str) -> str:
    if len(key) > MAX_IDEMPOTENCY_KEY:
        raise InvalidArgument(f"idempotency_key is longer than {MAX_IDEMPOTENCY_KEY} characters")
    return key


def _duration(minutes: int) -> int:
    messages.non_negative(minutes, "duration_minutes")
    if minutes > MAX_DURATION_MINUTES:
        raise InvalidArgument(f"duration_minutes must be at most {MAX_DURATION_MINUTES} (24 hours), got {minutes}")
    return minutes


READ_POLICY = allow(
    agenda_read_pb2.DESCRIPTOR.services_by_name["AgendaReadService"],
    ["projection", "seguranca", "operador", "gateway"],
)
WRITE_POLICY = allow(
    agenda_write_pb2.DESCRIPTOR.services_by_name["AgendaWriteService"],
    ["operador"],
    SetVideoCallStatus=["operador", "gateway"],
    UpsertResource=["operador", "gateway"],
    UpsertService=["operador", "gateway"],
)

__all__ = ["READ_POLICY", "WRITE_POLICY", "AgendaRead", "AgendaWrite", "Clock", "system_clock"]
