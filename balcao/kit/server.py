"""The gRPC server every service runs: health, reflection, identity, tracing, graceful stop.

Identity and tracing are not interceptors: each handler is wrapped once at registration, and
services are added as generic handlers, never as aio "registered methods" (`balcao.kit.handlers`
says why); `extra_interceptors` of a definition still run as interceptors.

`create_server` builds a `grpc.aio.Server` from a `ServiceDefinition` (kept apart so tests can
bind port 0 in-process); `run` is the whole life of a service process: settings →
telemetry → database → server → SERVING, and on SIGTERM/SIGINT NOT_SERVING →
`server.stop(grace)` → engine dispose → telemetry flush.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.kit import db
from balcao.kit.handlers import register
from balcao.kit.identity import AccessPolicy, CallerCheck
from balcao.kit.logs import configure_logging
from balcao.kit.mesh import SERVICES
from balcao.kit.settings import DatabaseSettings, ServiceSettings
from balcao.kit.telemetry import configure_telemetry, rpc_tracer

log = logging.getLogger(__name__)

# Liveness: SERVING while the process is up, whatever the database does.
LIVENESS = "liveness"


@dataclass
class Registration:
    """One gRPC service a process serves: its servicer, how to add it, and who may call it."""

    servicer: Any
    add_to_server: Callable[[Any, grpc.aio.Server], None]
    policy: AccessPolicy

    @property
    def full_name(self) -> str:
        return self.policy.service.full_name


@dataclass
class ServiceDefinition:
    """What a service process is made of, handed to the kit by the service's `server` module."""

    registrations: Sequence[Registration]
    # Extra work once the database is up (background workers, caches); returns a stopper.
    on_ready: Callable[[], Awaitable[Callable[[], Awaitable[None]] | None]] | None = None
    extra_interceptors: Sequence[grpc.aio.ServerInterceptor] = field(default_factory=tuple)


@dataclass
class RunningServer:
    server: grpc.aio.Server
    health: health.aio.HealthServicer
    port: int
    service_names: list[str]

    async def set_serving(self, serving: bool) -> None:
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if serving
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for name in ["", *self.service_names]:
            await self.health.set(name, status)


async def create_server(
    definition: ServiceDefinition,
    *,
    secret: bytes,
    host: str,
    port: int,
    max_connection_age_seconds: float = 0.0,
    max_connection_age_grace_seconds: float = 0.0,
) -> RunningServer:
    """Build and start a server that reports NOT_SERVING until told otherwise.

    With `max_connection_age_seconds`, each client connection is closed after that long (its
    calls in flight get the grace), so clients spread over the replicas a Service adds."""
    options: list[tuple[str, int]] = []
    if max_connection_age_seconds > 0:
        options.append(("grpc.max_connection_age_ms", int(max_connection_age_seconds * 1000)))
        options.append(("grpc.max_connection_age_grace_ms", int(max_connection_age_grace_seconds * 1000)))
    # No interceptors of the kit's own: identity and tracing wrap each handler once (handlers.py).
    server = grpc.aio.server(interceptors=list(definition.extra_interceptors) or None, options=options or None)
    check = CallerCheck(secret, [r.policy for r in definition.registrations])
    tracer = rpc_tracer()
    names = []
    for registration in definition.registrations:
        register(server, registration.add_to_server, registration.servicer, check, tracer)
        names.append(registration.full_name)
    # Open and untraced: probes and `grpcurl list` need no token.
    health_servicer = health.aio.HealthServicer()
    register(server, health_pb2_grpc.add_HealthServicer_to_server, health_servicer)
    register(
        server,
        reflection_pb2_grpc.add_ServerReflectionServicer_to_server,
        reflection.aio.ReflectionServicer(
            [*names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME]
        ),
    )
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise OSError(f"could not listen on {host}:{port}")
    await server.start()
    running = RunningServer(server, health_servicer, bound, names)
    await running.set_serving(False)
    await health_servicer.set(LIVENESS, health_pb2.HealthCheckResponse.SERVING)
    return running


async def open_database(settings: DatabaseSettings, service: str) -> AsyncEngine:
    """Resolve the URL (embedded when unset), migrate when asked, and wait for an answer."""
    configured = settings.database_url.get_secret_value() if settings.database_url else None
    url, _started = await asyncio.to_thread(db.resolve_database_url, configured, settings.data_dir)
    schema = SERVICES[service].schema
    if settings.migrate_on_start and schema:
        await db.migrate(url, service, schema)
    engine = db.create_engine(url, pool_size=settings.database_pool_size)
    # When another process migrates, the role and schema may not exist yet: wait, do not crash.
    await db.wait_until_ready(engine, timeout=60.0 if settings.migrate_on_start else None)
    if schema:
        # Not SERVING on a schema older than this code, whoever migrates it.
        await db.wait_for_head(engine, service, schema)
    return engine


class Database:
    """The service's engine, present once the database answered (health turns SERVING then)."""

    def __init__(self) -> None:
        self._engine: AsyncEngine | None = None

    @property
    def engine(self) -> AsyncEngine:
        if self._engine is None:
            raise RuntimeError("the database is not ready yet")
        return self._engine

    def attach(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def dispose(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None


Builder = Callable[[Any, Database], ServiceDefinition]
T = TypeVar("T")
# The event loop a service process runs on: `uvloop` (the default) or `asyncio`'s own.
EVENT_LOOP_ENV = "BALCAO_EVENT_LOOP"


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run `main` to completion on the services' event loop (what `balcao serve` does).

    uvloop by default: a gRPC call wakes the loop about a dozen times on each side, and asyncpg
    is written for it; a bare grpc.aio call costs about a third fewer instructions than on the
    standard loop. `BALCAO_EVENT_LOOP=asyncio` runs on the standard loop instead.
    """
    choice = os.environ.get(EVENT_LOOP_ENV, "uvloop").strip().lower() or "uvloop"
    if choice == "asyncio":
        return asyncio.run(main)
    if choice != "uvloop":
        main.close()
        raise ValueError(f"invalid setting {EVENT_LOOP_ENV}: {choice!r} (use uvloop or asyncio)")
    import uvloop

    return uvloop.run(main)


async def run(
    service: str,
    settings: ServiceSettings,
    build: Builder,
    *,
    ready: Callable[[int], None] | None = None,
) -> None:
    """The life of one service process, from settings already loaded to a clean exit."""
    configure_logging(service, settings.log_level)
    flush_telemetry = configure_telemetry(service)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    database = Database()
    running: RunningServer | None = None
    stop_worker: Callable[[], Awaitable[None]] | None = None
    try:
        definition = build(settings, database)
        # Listen first, NOT_SERVING, so probes see the process while the database comes up.
        running = await create_server(
            definition,
            secret=settings.mesh_secret.get_secret_value().encode(),
            host=settings.bind_host,
            port=settings.grpc_port,
            max_connection_age_seconds=settings.grpc_max_connection_age_seconds,
            max_connection_age_grace_seconds=settings.grpc_max_connection_age_grace_seconds,
        )
        log.info("listening", extra={"port": running.port, "services": running.service_names})
        if isinstance(settings, DatabaseSettings):
            engine = await _until_stopped(open_database(settings, service), stop)
            if engine is None:
                return
            database.attach(engine)
        if definition.on_ready is not None:
            stop_worker = await definition.on_ready()
        await running.set_serving(True)
        log.info("serving", extra={"port": running.port})
        if ready is not None:
            ready(running.port)
        await stop.wait()
        log.info("stopping", extra={"grace_seconds": settings.stop_grace_seconds})
    finally:
        if running is not None:
            await running.health.enter_graceful_shutdown()
        if stop_worker is not None:
            await stop_worker()
        if running is not None:
            await running.server.stop(settings.stop_grace_seconds)
        await database.dispose()
        flush_telemetry()
        log.info("stopped")


async def _until_stopped(work: Awaitable[Any], stop: asyncio.Event) -> Any:
    """Await `work` unless a stop signal comes first (then cancel it and return None)."""
    task = asyncio.ensure_future(work)
    waiter = asyncio.ensure_future(stop.wait())
    done, _ = await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        waiter.cancel()
        return task.result()
    task.cancel()
    return None
