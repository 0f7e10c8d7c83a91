"""The operador servicer and who may call it: the gateway (admin API) and a person."""

from __future__ import annotations

from balcao.kit.identity import allow
from balcao.kit.mesh import ADMIN
from balcao.operador.v1 import operador_pb2, operador_pb2_grpc


class Operador(operador_pb2_grpc.OperadorServiceServicer):
    """Status, one event on demand, and the capability catalog."""


POLICY = allow(operador_pb2.DESCRIPTOR.services_by_name["OperadorService"], ["gateway", ADMIN])
