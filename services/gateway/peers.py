"""The runtime's channels to the other services: one stub per contract, signed as the gateway.

A peer that does not answer (UNAVAILABLE, a deadline, UNIMPLEMENTED while it is being built,
an internal error) fails the turn attempt with `PeerFailure`; the worker retries it with backoff.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from balcao.agenda.v1 import agenda_read_pb2_grpc
from balcao.conversador.v1 import conversador_pb2_grpc
from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc, event_queue_pb2_grpc
from balcao.kit.channels import open_channel
from balcao.kit.settings import ServiceSettings
from balcao.operador.v1 import operador_pb2_grpc
from balcao.projection.v1 import projection_pb2_grpc
from balcao.seguranca.v1 import seguranca_pb2_grpc

T = TypeVar("T")


class PeerFailure(Exception):
    """A call to another service failed; the turn attempt stops and is retried later."""

    def __init__(self, peer: str, method: str, code: grpc.StatusCode | None, details: str) -> None:
        name = code.name if code is not None else "ERROR"
        super().__init__(f"{peer}.{method}: {name} {details}".strip())
        self.peer = peer
        self.method = method
        self.code = code
        self.details = details  # the peer's own words, without the mesh's names


@dataclass
class Peers:
    crm_read: crm_read_pb2_grpc.CrmReadServiceStub
    crm_write: crm_write_pb2_grpc.CrmWriteServiceStub
    events: event_queue_pb2_grpc.EventQueueServiceStub
    agenda: agenda_read_pb2_grpc.AgendaReadServiceStub
    projection: projection_pb2_grpc.ProjectionServiceStub
    seguranca: seguranca_pb2_grpc.SegurancaServiceStub
    conversador: conversador_pb2_grpc.ConversadorServiceStub
    timeout: float
    conversador_timeout: float
    # The Operador: the admin surface's capability screen and metrics, and "Testar" with the Operador.
    operador: operador_pb2_grpc.OperadorServiceStub | None = None
    channels: tuple[grpc.aio.Channel, ...] = ()

    @classmethod
    def open(cls, settings: ServiceSettings, *, timeout: float, conversador_timeout: float) -> Peers:
        crm = open_channel(settings, "crm")
        agenda = open_channel(settings, "agenda")
        projection = open_channel(settings, "projection")
        seguranca = open_channel(settings, "seguranca")
        conversador = open_channel(settings, "conversador")
        operador = open_channel(settings, "operador")
        return cls(
            crm_read=crm_read_pb2_grpc.CrmReadServiceStub(crm),
            crm_write=crm_write_pb2_grpc.CrmWriteServiceStub(crm),
            events=event_queue_pb2_grpc.EventQueueServiceStub(crm),
            agenda=agenda_read_pb2_grpc.AgendaReadServiceStub(agenda),
            projection=projection_pb2_grpc.ProjectionServiceStub(projection),
            seguranca=seguranca_pb2_grpc.SegurancaServiceStub(seguranca),
            conversador=conversador_pb2_grpc.ConversadorServiceStub(conversador),
            timeout=timeout,
            conversador_timeout=conversador_timeout,
            operador=operador_pb2_grpc.OperadorServiceStub(operador),
            channels=(crm, agenda, projection, seguranca, conversador, operador),
        )

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close()


async def call(peer: str, method: Callable[..., Awaitable[T]], request: Any, *, timeout: float) -> T:
    """Call one RPC; any gRPC error becomes `PeerFailure` naming the peer and the request."""
    try:
        return await method(request, timeout=timeout)
    except grpc.aio.AioRpcError as exc:
        label = type(request).__name__.removesuffix("Request")
        raise PeerFailure(peer, label, exc.code(), exc.details() or "") from exc
