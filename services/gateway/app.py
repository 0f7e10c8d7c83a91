"""The gateway's runtime assembled: peers, configuration cache, runner, worker, proactive consumer.

`server.build` starts it once the database is up; tests and the benchmark build it the same way
with their own channels or model, so what they run is what production runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.models.base import ModelProvider
from balcao.models.selection import select_provider
from services.gateway.channel_directory import ChannelAdmin, DatabaseDirectory
from services.gateway.config import Settings
from services.gateway.configuration import ConfigCache
from services.gateway.edge.evolution.channel import EvolutionChannel
from services.gateway.edge.evolution.client import EvolutionClient
from services.gateway.edge.http import Edge
from services.gateway.edge.inbox import DeliveryDrain
from services.gateway.intake import Intake, TurnWatch
from services.gateway.outbound import ChannelRegistry, NotConnectedChannel
from services.gateway.peers import Peers
from services.gateway.proactive import ProactiveConsumer
from services.gateway.runtime import RuntimeOptions, TurnRunner
from services.gateway.sink import LostDeliveries, RuntimeSink, RuntimeWebTurns
from services.gateway.worker import Worker, replica_name


@dataclass
class GatewayApp:
    settings: Settings
    engine: AsyncEngine
    peers: Peers
    channels: ChannelRegistry
    intake: Intake
    runner: TurnRunner
    worker: Worker
    consumer: ProactiveConsumer | None
    watch: TurnWatch
    # The HTTP edge (Evolution webhook, web channel) and the configuration it reads.
    directory: DatabaseDirectory
    channel_admin: ChannelAdmin
    evolution: EvolutionClient
    edge: Edge
    # Hands webhook deliveries stored by the edge's inbox to the intake; None without an inbox.
    drain: DeliveryDrain | None = None

    @classmethod
    def build(
        cls,
        settings: Settings,
        engine: AsyncEngine,
        *,
        channels: ChannelRegistry | None = None,
        model: ModelProvider | None = None,
        replica: str | None = None,
    ) -> GatewayApp:
        peers = Peers.open(
            settings, timeout=settings.peer_timeout_seconds, conversador_timeout=settings.conversador_timeout_seconds
        )
        channels = channels or ChannelRegistry.default()
        configs = ConfigCache(peers, settings.config_cache_seconds)
        directory = DatabaseDirectory(engine, cache_seconds=settings.config_cache_seconds)
        evolution = settings.evolution_client()
        current = channels.channels.get("whatsapp")
        if settings.whatsapp_enabled and (current is None or isinstance(current, NotConnectedChannel)):
            channels.channels["whatsapp"] = EvolutionChannel(directory, evolution)
        watch = TurnWatch()
        model = model or select_provider(settings)
        runner = TurnRunner(
            engine=engine,
            peers=peers,
            configs=configs,
            channels=channels,
            model=model,
            options=RuntimeOptions(
                max_attempts=settings.turn_max_attempts,
                retry_base_seconds=settings.turn_retry_base_seconds,
                retry_max_seconds=settings.turn_retry_max_seconds,
                history_messages=settings.history_messages,
                max_redrafts=settings.max_redrafts,
            ),
            send_attempts=settings.send_attempts,
            send_retry_seconds=settings.send_retry_seconds,
            on_finished=watch.notify,
        )
        name = replica or replica_name()
        worker = Worker(
            engine,
            runner,
            concurrency=settings.worker_concurrency,
            lease_seconds=settings.claim_lease_seconds,
            poll_seconds=settings.worker_poll_seconds,
            replica=name,
        )
        intake = Intake(
            engine=engine,
            peers=peers,
            configs=configs,
            wake=worker.wake,
            watch=watch,
            default_debounce_ms=settings.default_debounce_ms,
            default_debounce_cap_ms=settings.default_debounce_cap_ms,
            default_human_pause_minutes=settings.default_human_pause_minutes,
            replica=name,
        )
        consumer = ProactiveConsumer(peers, intake, consumer=name) if settings.proactive_consumer_enabled else None
        edge = Edge(
            directory=directory,
            sink=RuntimeSink(intake),
            enricher=settings.enricher(describer=model),
            evolution=evolution,
            turns=RuntimeWebTurns(intake),
            limits=settings.limits(),
            rate_limiter=settings.rate_limiter(engine),
            inbox=settings.inbox(engine),
        )
        drain = None
        if edge.inbox is not None:
            drain = settings.drain(
                engine, edge.take_delivery, on_lost=LostDeliveries(peers.crm_write, edge, timeout=peers.timeout).report,
            )
            edge.inbox.on_stored = drain.wake
        admin = ChannelAdmin(engine, directory, configs, webhook_url=settings.webhook_url())
        return cls(
            settings,
            engine,
            peers,
            channels,
            intake,
            runner,
            worker,
            consumer,
            watch,
            directory,
            admin,
            evolution,
            edge,
            drain,
        )

    def start(self) -> None:
        self.worker.start()
        if self.drain is not None:
            self.drain.start()
        if self.consumer is not None:
            self.consumer.start()

    async def stop(self) -> None:
        if self.consumer is not None:
            await self.consumer.stop()
        if self.drain is not None:
            await self.drain.stop(self.settings.stop_grace_seconds)
        await self.worker.stop(self.settings.stop_grace_seconds)
        await self.evolution.aclose()
        await self.peers.close()
