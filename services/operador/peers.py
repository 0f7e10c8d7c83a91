"""The Operador's clients: crm (read, write, queue) and agenda (read, write), signed as `operador`."""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from balcao.agenda.v1 import agenda_read_pb2_grpc, agenda_write_pb2_grpc
from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc, event_queue_pb2_grpc


@dataclass
class Peers:
    crm_read: crm_read_pb2_grpc.CrmReadServiceStub
    crm_write: crm_write_pb2_grpc.CrmWriteServiceStub
    queue: event_queue_pb2_grpc.EventQueueServiceStub
    agenda_read: agenda_read_pb2_grpc.AgendaReadServiceStub
    agenda_write: agenda_write_pb2_grpc.AgendaWriteServiceStub
    channels: tuple[grpc.aio.Channel, ...]
    timeout: float = 10.0

    @classmethod
    def over(cls, crm: grpc.aio.Channel, agenda: grpc.aio.Channel, timeout: float = 10.0) -> Peers:
        return cls(
            crm_read_pb2_grpc.CrmReadServiceStub(crm),
            crm_write_pb2_grpc.CrmWriteServiceStub(crm),
            event_queue_pb2_grpc.EventQueueServiceStub(crm),
            agenda_read_pb2_grpc.AgendaReadServiceStub(agenda),
            agenda_write_pb2_grpc.AgendaWriteServiceStub(agenda),
            (crm, agenda),
            timeout,
        )

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close()
