"""The gateway servicer and who may call it: a person's tools (`balcao chat`, the admin token).

The HTTP edge runs in this same process and calls the servicer directly.
"""

from __future__ import annotations

from balcao.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from balcao.kit.identity import allow
from balcao.kit.mesh import ADMIN


class Gateway(gateway_pb2_grpc.GatewayServiceServicer):
    """Inbound messages, turns, test turns and the admin surface."""


POLICY = allow(gateway_pb2.DESCRIPTOR.services_by_name["GatewayService"], [ADMIN])
