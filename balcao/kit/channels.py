"""Client channels to peers: signed with the caller's identity and traced."""

from __future__ import annotations

import grpc

from balcao.kit.identity import signing_interceptors
from balcao.kit.settings import ServiceSettings
from balcao.kit.telemetry import client_interceptors


def open_channel(settings: ServiceSettings, peer: str) -> grpc.aio.Channel:
    """A channel to `peer` at its configured address, every call signed as this service."""
    return grpc.aio.insecure_channel(
        settings.peer_addr(peer),
        interceptors=[
            *client_interceptors(),
            *signing_interceptors(settings.mesh_secret.get_secret_value().encode(), settings.service_name),
        ],
    )
