"""Wiring of the conversador process. Its only peer is projection."""

from __future__ import annotations

from balcao.conversador.v1 import conversador_pb2_grpc
from balcao.kit.server import Database, Registration, ServiceDefinition
from services.conversador.config import Settings
from services.conversador.service import POLICY, Conversador


def build(settings: Settings, database: Database) -> ServiceDefinition:
    return ServiceDefinition(
        [Registration(Conversador(), conversador_pb2_grpc.add_ConversadorServiceServicer_to_server, POLICY)]
    )
