"""Wiring of the conversador process: one channel (to projection) and one model provider.

The process has no address for crm or agenda and opens no other channel: the read tools go
through projection, and nothing else is reachable from here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from balcao.conversador.v1 import conversador_pb2_grpc
from balcao.kit.channels import open_channel
from balcao.kit.server import Database, Registration, ServiceDefinition
from balcao.models import select_provider
from balcao.projection.v1 import projection_pb2_grpc
from services.conversador.config import Settings
from services.conversador.draft import Limits
from services.conversador.service import POLICY, Conversador, Options
from services.conversador.tools import ProjectionToolExecutor, TurnScope


def options(settings: Settings) -> Options:
    return Options(
        limits=Limits(max_tool_steps=settings.max_tool_steps, max_output_tokens=settings.max_output_tokens),
        result_cap_tokens=settings.prune_tool_results_min_result_tokens,
        summary_max_tokens=settings.rolling_summary_max_tokens or None,
    )


def build(settings: Settings, database: Database) -> ServiceDefinition:
    model = select_provider(settings)
    channel = open_channel(settings, "projection")
    stub = projection_pb2_grpc.ProjectionServiceStub(channel)

    def executors(scope: TurnScope) -> ProjectionToolExecutor:
        return ProjectionToolExecutor(stub, scope, timeout=settings.projection_timeout_seconds)

    async def on_ready() -> Callable[[], Awaitable[None]]:
        async def stop() -> None:
            await channel.close()
            await model.aclose()

        return stop

    return ServiceDefinition(
        [
            Registration(
                Conversador(model, executors, options(settings)),
                conversador_pb2_grpc.add_ConversadorServiceServicer_to_server,
                POLICY,
            )
        ],
        on_ready=on_ready,
    )
