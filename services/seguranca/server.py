"""Wiring of the seguranca process."""

from __future__ import annotations

from balcao.kit.server import Database, Registration, ServiceDefinition
from balcao.seguranca.v1 import seguranca_pb2_grpc
from services.seguranca.config import Settings
from services.seguranca.service import POLICY, Seguranca


def build(settings: Settings, database: Database) -> ServiceDefinition:
    return ServiceDefinition(
        [Registration(Seguranca(), seguranca_pb2_grpc.add_SegurancaServiceServicer_to_server, POLICY)]
    )
