"""Wiring of the agenda process: read and write services and their allowlists."""

from __future__ import annotations

from balcao.agenda.v1 import agenda_read_pb2_grpc, agenda_write_pb2_grpc
from balcao.kit.server import Database, Registration, ServiceDefinition
from services.agenda.config import Settings
from services.agenda.repository import AgendaRepository
from services.agenda.service import READ_POLICY, WRITE_POLICY, AgendaRead, AgendaWrite, Clock, system_clock


def build(settings: Settings, database: Database) -> ServiceDefinition:
    return definition(database)


def definition(database: Database, clock: Clock = system_clock) -> ServiceDefinition:
    """The agenda's servicers on `database`; tests pass their own clock, the process never does."""
    repository = AgendaRepository(database)
    return ServiceDefinition(
        [
            Registration(
                AgendaRead(repository, clock),
                agenda_read_pb2_grpc.add_AgendaReadServiceServicer_to_server,
                READ_POLICY,
            ),
            Registration(
                AgendaWrite(repository, clock),
                agenda_write_pb2_grpc.add_AgendaWriteServiceServicer_to_server,
                WRITE_POLICY,
            ),
        ]
    )
