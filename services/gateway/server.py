"""Wiring of the gateway process: the gRPC service and the HTTP side."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from balcao.gateway.v1 import gateway_pb2_grpc
from balcao.kit.server import Database, Registration, ServiceDefinition
from services.gateway.config import Settings
from services.gateway.http import create_app, start_http
from services.gateway.service import POLICY, Gateway


def build(settings: Settings, database: Database) -> ServiceDefinition:
    async def on_ready() -> Callable[[], Awaitable[None]]:
        return await start_http(create_app(), settings.bind_host, settings.http_port)

    return ServiceDefinition(
        [Registration(Gateway(), gateway_pb2_grpc.add_GatewayServiceServicer_to_server, POLICY)],
        on_ready=on_ready,
    )
