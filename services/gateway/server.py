"""Wiring of the gateway process: the gRPC service, the turn runtime and the HTTP side."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from balcao.gateway.v1 import gateway_pb2_grpc
from balcao.kit.server import Database, Registration, ServiceDefinition
from services.gateway.app import GatewayApp
from services.gateway.config import Settings
from services.gateway.edge.bridge import Bridge
from services.gateway.edge.http import WEB_MESSAGE_RPC
from services.gateway.http import SERVICE, create_app, start_http
from services.gateway.service import POLICY, Gateway


def build(settings: Settings, database: Database) -> ServiceDefinition:
    servicer = Gateway()

    async def on_ready() -> Callable[[], Awaitable[None]]:
        app = GatewayApp.build(settings, database.engine)
        servicer.app = app
        app.start()
        # The admin RPCs as HTTP/JSON: called on this process's own gRPC port, so the identity
        # check, the access policy and tracing apply as for any gRPC client.
        bridge = Bridge(
            SERVICE,
            settings.own_grpc_target(),
            served_elsewhere=frozenset({WEB_MESSAGE_RPC}),
            max_body_bytes=settings.edge_bridge_max_body_bytes,
            timeout_seconds=settings.edge_bridge_timeout_seconds,
        )
        stop_http = await start_http(create_app(app.edge, bridge), settings.bind_host, settings.http_port)

        async def stop() -> None:
            await stop_http()
            await bridge.close()
            await app.stop()

        return stop

    return ServiceDefinition(
        [Registration(servicer, gateway_pb2_grpc.add_GatewayServiceServicer_to_server, POLICY)],
        on_ready=on_ready,
    )
