"""Wiring of the crm process: its three gRPC services, their allowlists, and the listener that
wakes Subscribe streams (started once the database answers, stopped before the server)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc, event_queue_pb2_grpc
from balcao.kit.server import Database, Registration, ServiceDefinition
from services.crm.clock import Clock, system_clock
from services.crm.config import Settings
from services.crm.notifications import Notifications, listener_dsn
from services.crm.queue import QueuePolicy
from services.crm.repository import Store
from services.crm.service import QUEUE_POLICY, READ_POLICY, WRITE_POLICY, CrmRead, CrmWrite, EventQueue


def queue_policy(settings: Settings) -> QueuePolicy:
    return QueuePolicy(
        lease=timedelta(seconds=settings.queue_lease_seconds),
        max_attempts=settings.queue_max_attempts,
        backoff_base=timedelta(seconds=settings.queue_backoff_base_seconds),
        backoff_max=timedelta(seconds=settings.queue_backoff_max_seconds),
        poll_interval=timedelta(seconds=settings.queue_poll_seconds),
    )


def build(settings: Settings, database: Database, *, clock: Clock = system_clock) -> ServiceDefinition:
    store = Store(database)
    policy = queue_policy(settings)
    notifications = Notifications(lambda: listener_dsn(database.engine.url))

    async def on_ready() -> Callable[[], Awaitable[None]]:
        await notifications.start()
        return notifications.stop

    return ServiceDefinition(
        [
            Registration(
                CrmRead(store, clock, policy), crm_read_pb2_grpc.add_CrmReadServiceServicer_to_server, READ_POLICY
            ),
            Registration(
                CrmWrite(store, clock, policy), crm_write_pb2_grpc.add_CrmWriteServiceServicer_to_server, WRITE_POLICY
            ),
            Registration(
                EventQueue(store, clock, policy, notifications),
                event_queue_pb2_grpc.add_EventQueueServiceServicer_to_server,
                QUEUE_POLICY,
            ),
        ],
        on_ready=on_ready,
    )
