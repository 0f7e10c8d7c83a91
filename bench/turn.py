"""Benchmark: whole turns through the runtime, as a mesh of processes and composed in one process.

Both runs use the offline model (no key, no network), a fresh embedded PostgreSQL and the same
organisation (one unit, debounce off). A turn is timed from `Gateway.SubmitInbound` until
`Gateway.GetTurn` (waiting) returns it finished: accept, claim, plan gate, screening, controller,
opening, draft, review, send, closing re-read, Conversador.Close and CrmWrite.CloseTurn — every
hop of the sequence. The offline model answers in well under a millisecond, so the time is the
platform's: processes, gRPC, identity, tracing, PostgreSQL.

1. mesh: `balcao up` (seven processes) in a temporary folder.
2. in-process: the same seven services built by their own `server.build` and started with the
   kit's `create_server` in one event loop (still gRPC on loopback between them).

Per run: `--turns` sequential turns (each a new customer) for p50/p99, then `--turns` turns
`--concurrency` at a time for turns/s. Targets: p50 ≤ 10 ms per turn in the mesh, and the mesh at
most 1.5× the in-process p50. Prints a table, then one JSON line (the last line).

Run: `.venv/bin/python bench/turn.py` (or `make bench`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import logging
import os
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Not bench/ itself: its queue.py would shadow the standard library's.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402

from balcao.crm.v1 import crm_resources_pb2 as r  # noqa: E402
from balcao.crm.v1 import crm_write_pb2 as cw  # noqa: E402
from balcao.crm.v1 import crm_write_pb2_grpc  # noqa: E402
from balcao.gateway.v1 import gateway_pb2 as gw  # noqa: E402
from balcao.gateway.v1 import gateway_pb2_grpc  # noqa: E402
from balcao.kit import db  # noqa: E402
from balcao.kit.embedded_pg import EmbeddedPostgres  # noqa: E402
from balcao.kit.identity import mint_token  # noqa: E402
from balcao.kit.mesh import SERVICES  # noqa: E402
from balcao.kit.server import Database, create_server  # noqa: E402
from balcao.kit.telemetry import configure_telemetry  # noqa: E402
from balcao.launcher import ORDER  # noqa: E402
from tests.support.mesh import free_port, start_mesh, stop_mesh  # noqa: E402

TARGET_P50_MS = 10.0
TARGET_RATIO = 1.5
MESSAGE = "Oi! Vocês atendem no sábado? Qual o endereço?"


@dataclass
class Endpoints:
    gateway: str
    crm: str
    secret: bytes


@dataclass
class Figures:
    latencies_ms: list[float]
    turns_per_second: float
    failed: int

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
        return ordered[index]


async def organisation(endpoints: Endpoints) -> str:
    md = (("authorization", f"Bearer {mint_token(endpoints.secret, 'gateway')}"),)
    async with grpc.aio.insecure_channel(endpoints.crm) as channel:
        write = crm_write_pb2_grpc.CrmWriteServiceStub(channel)
        org = (
            await write.UpsertOrganization(
                cw.UpsertOrganizationRequest(
                    name="Clínica Bench",
                    time_zone="America/Sao_Paulo",
                    plan=r.Plan(name="Bench"),
                    initial_settings=r.OrganizationSettings(
                        runtime=r.RuntimeSettings(debounce_ms=1),
                        business=r.BusinessProfile(
                            display_name="Clínica Bench",
                            address="Rua das Flores, 123, Campinas",
                            opening_hours_text="segunda a sábado, das 8h às 18h",
                        ),
                    ),
                ),
                metadata=md,
            )
        ).organization.organization_id
        unit = str(uuid.uuid4())
        draft = await write.SaveAgentDraft(
            cw.SaveAgentDraftRequest(
                organization_id=org,
                configuration=r.AgentConfiguration(
                    units=[r.UnitConfig(unit_id=unit, name="Recepção", description="informações e agendamentos")],
                    default_unit_id=unit,
                ),
            ),
            metadata=md,
        )
        await write.PublishAgentVersion(
            cw.PublishAgentVersionRequest(organization_id=org, version_id=draft.version.version_id), metadata=md
        )
    return org


async def one_turn(stub: gateway_pb2_grpc.GatewayServiceStub, md: Any, org: str) -> tuple[float, bool]:
    phone = f"+55119{uuid.uuid4().int % 10**8:08d}"
    started = time.perf_counter()
    accepted = await stub.SubmitInbound(
        gw.SubmitInboundRequest(
            organization_id=org,
            message=gw.InboundMessage(
                channel=gw.CHANNEL_TEST,
                channel_instance="bench",
                phone=phone,
                message_id=uuid.uuid4().hex,
                type=gw.MESSAGE_TYPE_TEXT,
                text=MESSAGE,
            ),
        ),
        metadata=md,
    )
    request = gw.GetTurnRequest(organization_id=org, inbound_id=accepted.inbound_id)
    request.wait.FromSeconds(30)
    while True:
        turn = (await stub.GetTurn(request, metadata=md)).turn
        if turn.status in (gw.TURN_STATUS_DONE, gw.TURN_STATUS_FAILED):
            break
    elapsed = (time.perf_counter() - started) * 1000
    return elapsed, turn.status == gw.TURN_STATUS_DONE and turn.outcome == gw.TURN_OUTCOME_REPLIED


async def measure(endpoints: Endpoints, turns: int, concurrency: int, warmup: int) -> Figures:
    org = await organisation(endpoints)
    md = (("authorization", f"Bearer {mint_token(endpoints.secret, 'admin')}"),)
    async with grpc.aio.insecure_channel(endpoints.gateway) as channel:
        stub = gateway_pb2_grpc.GatewayServiceStub(channel)
        for _ in range(warmup):
            await one_turn(stub, md, org)
        latencies, failed = [], 0
        for _ in range(turns):
            elapsed, ok = await one_turn(stub, md, org)
            latencies.append(elapsed)
            failed += 0 if ok else 1
        gate = asyncio.Semaphore(concurrency)

        async def limited() -> bool:
            async with gate:
                return (await one_turn(stub, md, org))[1]

        started = time.perf_counter()
        results = await asyncio.gather(*(limited() for _ in range(turns)))
        wall = time.perf_counter() - started
        failed += sum(1 for ok in results if not ok)
    return Figures(latencies, turns / wall, failed)


# ---------------------------------------------------------------------------------------------
# The two ways to run the services
# ---------------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def as_mesh(folder: Path) -> AsyncIterator[Endpoints]:
    mesh = await asyncio.to_thread(start_mesh, folder)
    try:
        yield Endpoints(mesh.addr("gateway"), mesh.addr("crm"), mesh.secret)
    finally:
        await asyncio.to_thread(stop_mesh, mesh)


@contextlib.asynccontextmanager
async def in_one_process(folder: Path) -> AsyncIterator[Endpoints]:
    """The seven services in this process, each built by its own `server.build`."""
    postgres = EmbeddedPostgres(folder / "pg")
    await asyncio.to_thread(postgres.start)
    url = postgres.url
    secret = secrets.token_urlsafe(32)
    ports = {name: free_port() for name in SERVICES}
    for name in ORDER:
        schema = SERVICES[name].schema
        if schema:
            await db.migrate(url, name, schema)
    logging.getLogger().setLevel(logging.WARNING)
    stoppers: list[Callable[[], Awaitable[None]]] = []
    try:
        for name in ORDER:
            config = importlib.import_module(f"services.{name}.config")
            server_module = importlib.import_module(f"services.{name}.server")
            options: dict[str, Any] = {
                "mesh_secret": secret,
                "grpc_port": ports[name],
                "bind_host": "127.0.0.1",
                "data_dir": folder,
                **{f"{peer}_addr": f"127.0.0.1:{ports[peer]}" for peer in SERVICES[name].peers},
            }
            if SERVICES[name].schema:
                options.update(database_url=url, migrate_on_start=False)
            if SERVICES[name].http_port is not None:
                options["http_port"] = free_port()
            settings = config.Settings(**options)
            database = Database()
            if SERVICES[name].schema:
                engine = db.create_engine(url, pool_size=10)
                await db.wait_until_ready(engine)
                database.attach(engine)
            definition = server_module.build(settings, database)
            running = await create_server(definition, secret=secret.encode(), host="127.0.0.1", port=ports[name])
            stop_worker = await definition.on_ready() if definition.on_ready else None
            await running.set_serving(True)

            async def stop(
                running: Any = running, stop_worker: Any = stop_worker, database: Database = database
            ) -> None:
                if stop_worker is not None:
                    await stop_worker()
                await running.server.stop(0)
                await database.dispose()

            stoppers.append(stop)
        yield Endpoints(f"127.0.0.1:{ports['gateway']}", f"127.0.0.1:{ports['crm']}", secret.encode())
    finally:
        for stop in reversed(stoppers):
            await stop()
        await asyncio.to_thread(postgres.stop)


# ---------------------------------------------------------------------------------------------


def _row(label: str, figures: Figures) -> str:
    return (
        f"{label:<12} {figures.percentile(0.5):>9.1f} {figures.percentile(0.99):>9.1f} "
        f"{statistics.fmean(figures.latencies_ms):>9.1f} {figures.turns_per_second:>9.1f} {figures.failed:>7}"
    )


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args()
    os.environ.pop("ANTHROPIC_API_KEY", None)  # the offline model, whatever the shell has
    configure_telemetry("bench")
    results: dict[str, Figures] = {}
    with tempfile.TemporaryDirectory(prefix="balcao-bench-turn-") as tmp:
        async with as_mesh(Path(tmp) / "mesh") as endpoints:
            results["mesh"] = await measure(endpoints, args.turns, args.concurrency, args.warmup)
        async with in_one_process(Path(tmp) / "inproc") as endpoints:
            results["in_process"] = await measure(endpoints, args.turns, args.concurrency, args.warmup)
    mesh, inproc = results["mesh"], results["in_process"]
    ratio = mesh.percentile(0.5) / inproc.percentile(0.5)
    print(
        f"Turn latency, SubmitInbound → turn finished ({args.turns} turns; turns/s at concurrency {args.concurrency})"
    )
    print(f"{'':<12} {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9} {'turns/s':>9} {'failed':>7}")
    print(_row("mesh", mesh))
    print(_row("in-process", inproc))
    print(f"mesh / in-process (p50): {ratio:.2f}×   (target ≤ {TARGET_RATIO}×)")
    print(f"mesh p50 per turn: {mesh.percentile(0.5):.1f} ms   (target ≤ {TARGET_P50_MS} ms)")
    met = mesh.percentile(0.5) <= TARGET_P50_MS and ratio <= TARGET_RATIO and mesh.failed == 0 and inproc.failed == 0
    print(
        json.dumps(
            {
                "bench": "turn",
                "turns": args.turns,
                "concurrency": args.concurrency,
                "mesh_p50_ms": round(mesh.percentile(0.5), 2),
                "mesh_p99_ms": round(mesh.percentile(0.99), 2),
                "mesh_turns_per_s": round(mesh.turns_per_second, 2),
                "in_process_p50_ms": round(inproc.percentile(0.5), 2),
                "in_process_p99_ms": round(inproc.percentile(0.99), 2),
                "in_process_turns_per_s": round(inproc.turns_per_second, 2),
                "mesh_over_in_process_p50": round(ratio, 3),
                "failed_turns": mesh.failed + inproc.failed,
                "targets": {"mesh_p50_ms": TARGET_P50_MS, "mesh_over_in_process_p50": TARGET_RATIO},
                "met": met,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
