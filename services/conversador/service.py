"""The conversador servicer and who may call it: only the gateway's turn runtime."""

from __future__ import annotations

from balcao.conversador.v1 import conversador_pb2, conversador_pb2_grpc
from balcao.kit.identity import allow


class Conversador(conversador_pb2_grpc.ConversadorServiceServicer):
    """Draft, revise and close a turn; talks, and only talks."""


POLICY = allow(conversador_pb2.DESCRIPTOR.services_by_name["ConversadorService"], ["gateway"])
