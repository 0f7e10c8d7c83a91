"""The agenda servicers and who may call each RPC.

agenda owns resources, services and `calendar_appointments`. Only the Operador books,
reschedules, cancels and confirms; the gateway may configure resources and services.
Every RPC without an implementation yet answers UNIMPLEMENTED (the generated base class).
"""

from __future__ import annotations

from balcao.agenda.v1 import agenda_read_pb2, agenda_read_pb2_grpc, agenda_write_pb2, agenda_write_pb2_grpc
from balcao.kit.identity import allow


class AgendaRead(agenda_read_pb2_grpc.AgendaReadServiceServicer):
    """Reads of the agenda, always filtered on the organisation."""


class AgendaWrite(agenda_write_pb2_grpc.AgendaWriteServiceServicer):
    """Bookings and configuration; business refusals come back as data."""


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
