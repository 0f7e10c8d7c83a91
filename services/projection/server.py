"""Wiring of the projection process."""

from __future__ import annotations

from balcao.kit.server import Database, Registration, ServiceDefinition
from balcao.projection.v1 import projection_pb2_grpc
from services.projection.config import Settings
from services.projection.service import POLICY, Projection


def build(settings: Settings, database: Database) -> ServiceDefinition:
    return ServiceDefinition(
        [Registration(Projection(), projection_pb2_grpc.add_ProjectionServiceServicer_to_server, POLICY)]
    )
