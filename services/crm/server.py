"""Wiring of the crm process: its three gRPC services and their allowlists."""

from __future__ import annotations

from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc, event_queue_pb2_grpc
from balcao.kit.server import Database, Registration, ServiceDefinition
from services.crm.config import Settings
from services.crm.service import QUEUE_POLICY, READ_POLICY, WRITE_POLICY, CrmRead, CrmWrite, EventQueue


def build(settings: Settings, database: Database) -> ServiceDefinition:
    return ServiceDefinition(
        [
            Registration(CrmRead(), crm_read_pb2_grpc.add_CrmReadServiceServicer_to_server, READ_POLICY),
            Registration(CrmWrite(), crm_write_pb2_grpc.add_CrmWriteServiceServicer_to_server, WRITE_POLICY),
            Registration(EventQueue(), event_queue_pb2_grpc.add_EventQueueServiceServicer_to_server, QUEUE_POLICY),
        ]
    )
