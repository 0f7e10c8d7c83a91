"""Wiring of the operador process: the servicer, the peers and the event worker (started on ready)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from balcao.kit.channels import open_channel
from balcao.kit.server import Database, Registration, ServiceDefinition
from balcao.models.offline import OfflineProvider
from balcao.models.selection import select_provider
from balcao.operador.v1 import operador_pb2_grpc
from services.operador import offline
from services.operador.config import Settings
from services.operador.peers import Peers
from services.operador.processing import Processor, ScriptLibrary
from services.operador.service import POLICY, Operador
from services.operador.worker import Worker


def build(settings: Settings, database: Database) -> ServiceDefinition:
    peers = Peers.over(open_channel(settings, "crm"), open_channel(settings, "agenda"),
                       timeout=settings.call_timeout_seconds)
    provider = select_provider(settings)
    if isinstance(provider, OfflineProvider):
        offline.teach(provider)
    scripts = ScriptLibrary(settings.script_dir) if settings.script_dir else None
    worker = Worker(Processor(peers, provider, scripts), batch_size=settings.batch_size,
                    lease_seconds=settings.lease_seconds, concurrency=settings.concurrency,
                    poll_seconds=settings.poll_seconds)

    async def on_ready() -> Callable[[], Awaitable[None]]:
        if settings.worker_enabled:
            await worker.start()

        async def stop() -> None:
            await worker.stop()
            await provider.aclose()
            await peers.close()

        return stop

    return ServiceDefinition(
        [Registration(Operador(worker), operador_pb2_grpc.add_OperadorServiceServicer_to_server, POLICY)],
        on_ready=on_ready,
    )
