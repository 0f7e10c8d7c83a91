"""Wiring of the projection process: the servicer and its raw-read channels to crm and agenda.

The channels live as long as the process: they are not closed on shutdown before the
server's grace period, so calls still in flight can finish their reads.
"""

from __future__ import annotations

from balcao.kit.channels import open_channel
from balcao.kit.server import Database, Registration, ServiceDefinition
from balcao.projection.v1 import projection_pb2_grpc
from services.projection.config import Settings
from services.projection.handles import handle_key
from services.projection.reads import Reads
from services.projection.service import POLICY, Projection


def build(settings: Settings, database: Database) -> ServiceDefinition:
    servicer = Projection(
        Reads(
            open_channel(settings, "crm"),
            open_channel(settings, "agenda"),
            timeout=settings.read_timeout_seconds,
            cache_seconds=settings.config_cache_seconds,
        ),
        handle_key(settings.mesh_secret.get_secret_value().encode()),
    )
    return ServiceDefinition(
        [Registration(servicer, projection_pb2_grpc.add_ProjectionServiceServicer_to_server, POLICY)]
    )
