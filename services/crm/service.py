"""The crm servicers and who may call each RPC.

crm owns the business facts (organisations, contacts, lead state, checkpoints, cases,
follow-ups, obligations, the Central inbox, knowledge, agent configuration) and the event
queue. Reads and writes are separate services; the Conversador is on no list here.
Every RPC without an implementation yet answers UNIMPLEMENTED (the generated base class).
"""

from __future__ import annotations

from balcao.crm.v1 import (
    crm_read_pb2,
    crm_read_pb2_grpc,
    crm_write_pb2,
    crm_write_pb2_grpc,
    event_queue_pb2,
    event_queue_pb2_grpc,
)
from balcao.kit.identity import allow
from balcao.kit.mesh import ADMIN


class CrmRead(crm_read_pb2_grpc.CrmReadServiceServicer):
    """Reads of crm's facts, always filtered on the organisation."""


class CrmWrite(crm_write_pb2_grpc.CrmWriteServiceServicer):
    """Writes of crm's facts; the Operador's carry an idempotency key."""


class EventQueue(event_queue_pb2_grpc.EventQueueServiceServicer):
    """The outbox and work queue (`event_log`)."""


READ_POLICY = allow(
    crm_read_pb2.DESCRIPTOR.services_by_name["CrmReadService"],
    ["projection", "seguranca", "operador", "gateway"],
)
WRITE_POLICY = allow(
    crm_write_pb2.DESCRIPTOR.services_by_name["CrmWriteService"],
    ["operador", "gateway"],
)
QUEUE_POLICY = allow(
    event_queue_pb2.DESCRIPTOR.services_by_name["EventQueueService"],
    ["operador", "gateway"],
    GetEvent=["operador", "gateway", ADMIN],
    ListEvents=["operador", "gateway", ADMIN],
    RequeueEvent=["gateway", ADMIN],
    GetQueueStats=["operador", "gateway", ADMIN],
)
