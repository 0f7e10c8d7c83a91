"""The seguranca servicer and who may call it: the gateway's runtime reviews every send."""

from __future__ import annotations

from balcao.kit.identity import allow
from balcao.seguranca.v1 import seguranca_pb2, seguranca_pb2_grpc


class Seguranca(seguranca_pb2_grpc.SegurancaServiceServicer):
    """The gate chain before every send and the inbound screening."""


POLICY = allow(seguranca_pb2.DESCRIPTOR.services_by_name["SegurancaService"], ["gateway"])
