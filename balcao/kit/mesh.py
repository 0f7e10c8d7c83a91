"""The mesh's fixed facts: which services exist, their default ports, who owns a schema.

Everything that needs a service name or a default port (settings, the launcher, the
Kubernetes manifests' tests) reads it from here, so there is one source.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServiceSpec:
    """One service of the mesh and its defaults."""

    name: str
    grpc_port: int
    http_port: int | None = None
    # The PostgreSQL schema the service owns (and migrates), if any.
    schema: str | None = None
    # Services this one calls, by name; each gets a `BALCAO_<PEER>_ADDR` setting.
    peers: tuple[str, ...] = ()


SERVICES: dict[str, ServiceSpec] = {
    spec.name: spec
    for spec in (
        ServiceSpec(
            "gateway",
            grpc_port=50050,
            http_port=8080,
            schema="gateway",
            peers=("conversador", "projection", "seguranca", "operador", "crm", "agenda"),
        ),
        ServiceSpec("conversador", grpc_port=50051, peers=("projection",)),
        ServiceSpec("projection", grpc_port=50052, peers=("crm", "agenda")),
        ServiceSpec("seguranca", grpc_port=50053, peers=("agenda", "crm")),
        ServiceSpec("operador", grpc_port=50054, peers=("crm", "agenda")),
        ServiceSpec("crm", grpc_port=50055, schema="crm"),
        ServiceSpec("agenda", grpc_port=50056, schema="agenda"),
    )
}

# A person at a terminal (`balcao chat`, grpcurl with `balcao token admin`): the owner's and
# operator's tools, never a service's data-plane RPCs unless a policy names it.
ADMIN = "admin"

# Callers that can hold a mesh identity: the services themselves and the admin.
CALLERS: frozenset[str] = frozenset(SERVICES) | {ADMIN}


def addr_env(peer: str) -> str:
    """The environment variable holding the address other services use to reach `peer`."""
    return f"BALCAO_{peer.upper()}_ADDR"


def default_addr(peer: str) -> str:
    return f"localhost:{SERVICES[peer].grpc_port}"
