"""Wiring of the gateway process: the gRPC service, the turn runtime and the HTTP side."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from balcao.gateway.v1 import gateway_pb2_grpc
from balcao.kit.server import Database, Registration, ServiceDefinition
from services.gateway.app import GatewayApp
from services.gateway.config import Settings
from services.gateway.http import create_app, start_http
from services.gateway.service import POLICY, Gateway


def build(settings: Settings, database: Database) -> ServiceDefinition:
    servicer = Gateway()

    async def on_ready() -> Callable[[], Awaitable[None]]:
        app = GatewayApp.build(settings, database.engine)
        servicer.app = app
        app.start()
        stop_http = await start_http(create_app(app.edge), settings.bind_host, settings.http_port)

        async def stop() -> None:
            await stop_http()
            await app.stop()

        return stop

    return ServiceDefinition(
        [Registration(servicer, gateway_pb2_grpc.add_GatewayServiceServicer_to_server, POLICY)],
        on_ready=on_ready,
    )
