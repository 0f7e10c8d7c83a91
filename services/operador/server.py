"""Wiring of the operador process."""

from __future__ import annotations

from balcao.kit.server import Database, Registration, ServiceDefinition
from balcao.operador.v1 import operador_pb2_grpc
from services.operador.config import Settings
from services.operador.service import POLICY, Operador


def build(settings: Settings, database: Database) -> ServiceDefinition:
    return ServiceDefinition(
        [Registration(Operador(), operador_pb2_grpc.add_OperadorServiceServicer_to_server, POLICY)]
    )
