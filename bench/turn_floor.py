"""Benchmark: the floor under a turn — the sequence `../shared/DESIGN.md` §2 prescribes, with no work.

`bench/turn.py` measures the real turn. This one measures what any implementation of the same
design pays on this machine before it does anything: the same seven-process topology, the kit's
servers (`create_server`: identity and tracing on every handler, health, reflection) and the kit's
signed, traced client channels, the real service names and methods of the protos, one event loop
per process on the loop the services run on — and handlers that do nothing but the hops the
design puts in sequence and one minimal tenant transaction (BEGIN, `set_config`, COMMIT on a raw
asyncpg connection: the floor under any SQL) wherever the design needs the database.

One turn, as the client sees it (the design's steps; an arrow is an RPC between processes):

    client → gateway.SubmitInbound                       tx: store the inbound        (step 1)
    client → gateway.GetTurn, which runs, in sequence:
        tx: claim the contact's messages                                              (step 2)
        gateway → seguranca.ScreenInbound  ‖  gateway → projection.GetTurnContext    (steps 4, 6)
                                               projection → crm.GetLeadSnapshot   tx
                                             ‖ projection → agenda.ListContactAppointments tx
        gateway → conversador.Draft        (the model's time is not platform time)   (step 7)
        gateway → seguranca.ReviewOutbound → agenda.ListConfirmedFutureBookings tx   (step 8)
        tx: the send ledger                                                           (step 9)
        gateway → conversador.Close                                                   (step 10)
        gateway → crm.CloseTurn            tx                                         (step 11)
        tx: finish the turn, release the claim

Left out, so the floor is generous: the plan gate and controller reads (steps 3, 5), the new
contact's `UpsertContact`, the "did the customer write meanwhile" check, the Operador, the wait
between SubmitInbound and the worker (here GetTurn runs the turn itself), the screening running
in parallel with the opening (it need not finish first), and every byte of real request and
response (all messages are empty). So: 9 sequential RPC layers (11 RPCs, the client's two included),
7 sequential transactions (8 in all).

Figures: wall p50/p99 per turn over `--turns` sequential turns, CPU per turn of all processes
(from /proc, PostgreSQL included), and the same with the database left out (RPCs only), so the
two parts of the floor read apart. The target printed is #7's (p50 ≤ 10 ms per turn in the mesh):
`met` says whether the floor itself is under it, i.e. whether the target is reachable at all by
this design on this machine.

Run: `.venv/bin/python bench/turn_floor.py` (or `make bench`). Prints a table, then one JSON line
(the last line).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Not bench/ itself: its queue.py would shadow the standard library's.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
import grpc  # noqa: E402

from balcao.agenda.v1 import agenda_read_pb2 as ar  # noqa: E402
from balcao.agenda.v1 import agenda_read_pb2_grpc  # noqa: E402
from balcao.conversador.v1 import conversador_pb2 as cv  # noqa: E402
from balcao.conversador.v1 import conversador_pb2_grpc  # noqa: E402
from balcao.crm.v1 import crm_read_pb2 as cr  # noqa: E402
from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc  # noqa: E402
from balcao.crm.v1 import crm_write_pb2 as cw  # noqa: E402
from balcao.gateway.v1 import gateway_pb2 as gw  # noqa: E402
from balcao.gateway.v1 import gateway_pb2_grpc  # noqa: E402
from balcao.kit.channels import MeshChannel  # noqa: E402
from balcao.kit.embedded_pg import EmbeddedPostgres  # noqa: E402
from balcao.kit.identity import TokenCache, allow  # noqa: E402
from balcao.kit.server import Registration, ServiceDefinition, create_server, run_loop  # noqa: E402
from balcao.kit.telemetry import configure_telemetry  # noqa: E402
from balcao.projection.v1 import projection_pb2 as pj  # noqa: E402
from balcao.projection.v1 import projection_pb2_grpc  # noqa: E402
from balcao.seguranca.v1 import seguranca_pb2 as sg  # noqa: E402
from balcao.seguranca.v1 import seguranca_pb2_grpc  # noqa: E402
from bench import _harness  # noqa: E402

TARGET_P50_MS = 10.0
PROCESSES = ("crm", "agenda", "projection", "seguranca", "conversador", "gateway")
CALLERS = ("gateway", "projection", "seguranca", "conversador", "operador", "admin")
ORGANIZATION = str(uuid.UUID(int=1))


class Node:
    """What one null service holds: its peers' channels and, with a database, a pool."""

    def __init__(self, name: str, addresses: dict[str, str], secret: bytes, pool: asyncpg.Pool | None) -> None:
        self.pool = pool
        tokens = TokenCache(secret, name)
        self.channels = {peer: MeshChannel(grpc.aio.insecure_channel(addr), tokens) for peer, addr in addresses.items()}

    async def transaction(self) -> None:
        if self.pool is None:
            return
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT set_config('balcao.organization_id', $1, true)", ORGANIZATION)


def definition(name: str, node: Node) -> ServiceDefinition:
    """The null servicers of one process, on the real service descriptors."""
    ch = node.channels

    def policy(module: Any, service: str) -> Any:
        return allow(module.DESCRIPTOR.services_by_name[service], CALLERS)

    if name == "crm":
        class CrmRead(crm_read_pb2_grpc.CrmReadServiceServicer):
            async def GetLeadSnapshot(self, request: Any, context: Any) -> Any:
                await node.transaction()
                return cr.GetLeadSnapshotResponse()

        class CrmWrite(crm_write_pb2_grpc.CrmWriteServiceServicer):
            async def CloseTurn(self, request: Any, context: Any) -> Any:
                await node.transaction()
                return cw.CloseTurnResponse()

        return ServiceDefinition([
            Registration(CrmRead(), crm_read_pb2_grpc.add_CrmReadServiceServicer_to_server,
                         policy(cr, "CrmReadService")),
            Registration(CrmWrite(), crm_write_pb2_grpc.add_CrmWriteServiceServicer_to_server,
                         policy(cw, "CrmWriteService")),
        ])
    if name == "agenda":
        class AgendaRead(agenda_read_pb2_grpc.AgendaReadServiceServicer):
            async def ListContactAppointments(self, request: Any, context: Any) -> Any:
                await node.transaction()
                return ar.ListContactAppointmentsResponse()

            async def ListConfirmedFutureBookings(self, request: Any, context: Any) -> Any:
                await node.transaction()
                return ar.ListConfirmedFutureBookingsResponse()

        return ServiceDefinition([Registration(
            AgendaRead(), agenda_read_pb2_grpc.add_AgendaReadServiceServicer_to_server,
            policy(ar, "AgendaReadService"))])
    if name == "projection":
        crm_read = crm_read_pb2_grpc.CrmReadServiceStub(ch["crm"])
        agenda_read = agenda_read_pb2_grpc.AgendaReadServiceStub(ch["agenda"])

        class Projection(projection_pb2_grpc.ProjectionServiceServicer):
            async def GetTurnContext(self, request: Any, context: Any) -> Any:
                await asyncio.gather(
                    crm_read.GetLeadSnapshot(cr.GetLeadSnapshotRequest()),
                    agenda_read.ListContactAppointments(ar.ListContactAppointmentsRequest()),
                )
                return pj.GetTurnContextResponse()

        return ServiceDefinition([Registration(
            Projection(), projection_pb2_grpc.add_ProjectionServiceServicer_to_server,
            policy(pj, "ProjectionService"))])
    if name == "seguranca":
        evidence = agenda_read_pb2_grpc.AgendaReadServiceStub(ch["agenda"])

        class Seguranca(seguranca_pb2_grpc.SegurancaServiceServicer):
            async def ScreenInbound(self, request: Any, context: Any) -> Any:
                return sg.ScreenInboundResponse()

            async def ReviewOutbound(self, request: Any, context: Any) -> Any:
                await evidence.ListConfirmedFutureBookings(ar.ListConfirmedFutureBookingsRequest())
                return sg.ReviewOutboundResponse()

        return ServiceDefinition([Registration(
            Seguranca(), seguranca_pb2_grpc.add_SegurancaServiceServicer_to_server,
            policy(sg, "SegurancaService"))])
    if name == "conversador":
        class Conversador(conversador_pb2_grpc.ConversadorServiceServicer):
            async def Draft(self, request: Any, context: Any) -> Any:
                return cv.DraftResponse()

            async def Close(self, request: Any, context: Any) -> Any:
                return cv.CloseResponse()

        return ServiceDefinition([Registration(
            Conversador(), conversador_pb2_grpc.add_ConversadorServiceServicer_to_server,
            policy(cv, "ConversadorService"))])
    if name == "gateway":
        seguranca = seguranca_pb2_grpc.SegurancaServiceStub(ch["seguranca"])
        projection = projection_pb2_grpc.ProjectionServiceStub(ch["projection"])
        conversador = conversador_pb2_grpc.ConversadorServiceStub(ch["conversador"])
        crm_write = crm_write_pb2_grpc.CrmWriteServiceStub(ch["crm"])

        class Gateway(gateway_pb2_grpc.GatewayServiceServicer):
            async def SubmitInbound(self, request: Any, context: Any) -> Any:
                await node.transaction()  # the inbound stored before the answer
                return gw.SubmitInboundResponse()

            async def GetTurn(self, request: Any, context: Any) -> Any:
                await node.transaction()  # claim
                await asyncio.gather(
                    seguranca.ScreenInbound(sg.ScreenInboundRequest()),
                    projection.GetTurnContext(pj.GetTurnContextRequest()),
                )
                await conversador.Draft(cv.DraftRequest())
                await seguranca.ReviewOutbound(sg.ReviewOutboundRequest())
                await node.transaction()  # the send ledger
                await conversador.Close(cv.CloseRequest())
                await crm_write.CloseTurn(cw.CloseTurnRequest())
                await node.transaction()  # finish, release the claim
                return gw.GetTurnResponse()

        return ServiceDefinition([Registration(
            Gateway(), gateway_pb2_grpc.add_GatewayServiceServicer_to_server,
            policy(gw, "GatewayService"))])
    raise ValueError(name)


PEERS = {
    "crm": (), "agenda": (), "projection": ("crm", "agenda"), "seguranca": ("agenda",),
    "conversador": (), "gateway": ("seguranca", "projection", "conversador", "crm"),
}


async def serve(name: str, ports: dict[str, int], secret: bytes, database_url: str) -> None:
    """One null service process, until its stdin closes."""
    configure_telemetry(name)
    pool = await asyncpg.create_pool(database_url, min_size=2, max_size=4) if database_url else None
    node = Node(name, {peer: f"127.0.0.1:{ports[peer]}" for peer in PEERS[name]}, secret, pool)
    running = await create_server(definition(name, node), secret=secret, host="127.0.0.1", port=ports[name])
    await running.set_serving(True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await running.server.stop(0)


def spawn(name: str, ports: dict[str, int], secret: str, database_url: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "BALCAO_FLOOR_SECRET": secret, "PYTHONWARNINGS": "ignore"}
    return subprocess.Popen(
        [sys.executable, __file__, "--serve", name, "--ports", json.dumps(ports), "--database-url", database_url],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
    )


def process_cpu_ms(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total * 1000.0 / tick


async def measure(database_url: str, turns: int, warmup: int, pg_folder: Path | None) -> dict[str, float]:
    secret = secrets.token_urlsafe(32)
    ports = {name: _harness.free_port() for name in PROCESSES}
    processes = [spawn(name, ports, secret, database_url) for name in PROCESSES]
    try:
        for name, process in zip(PROCESSES, processes, strict=True):
            await _harness.wait_serving(f"127.0.0.1:{ports[name]}", process, name)
        channel = MeshChannel(grpc.aio.insecure_channel(f"127.0.0.1:{ports['gateway']}"),
                              TokenCache(secret.encode(), "admin"))
        gateway = gateway_pb2_grpc.GatewayServiceStub(channel)

        async def turn() -> None:
            await gateway.SubmitInbound(gw.SubmitInboundRequest())
            await gateway.GetTurn(gw.GetTurnRequest())

        for _ in range(warmup):
            await turn()
        pids = [p.pid for p in processes]
        cpu0 = process_cpu_ms(pids) + time.process_time() * 1000
        pg0 = _harness.postgres_cpu_ms(pg_folder) if pg_folder else 0.0
        walls = []
        for _ in range(turns):
            started = time.perf_counter()
            await turn()
            walls.append((time.perf_counter() - started) * 1000)
        cpu = process_cpu_ms(pids) + time.process_time() * 1000 - cpu0
        pg = (_harness.postgres_cpu_ms(pg_folder) - pg0) if pg_folder else 0.0
        await channel.close()
    finally:
        for process in processes:
            if process.stdin:
                process.stdin.close()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    walls.sort()
    return {
        "p50_ms": round(statistics.median(walls), 2),
        "p99_ms": round(walls[min(len(walls) - 1, int(len(walls) * 0.99))], 2),
        "cpu_ms_per_turn": round((cpu + pg) / turns, 2),
    }


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="balcao-floor-") as tmp:
        folder = Path(tmp)
        postgres = EmbeddedPostgres(folder / "pg")
        await asyncio.to_thread(postgres.start)
        try:
            rpcs_only = await measure("", args.turns, args.warmup, None)
            with_db = await measure(postgres.url, args.turns, args.warmup, folder / "pg")
        finally:
            await asyncio.to_thread(postgres.stop)
    load = os.getloadavg()
    print(f"The floor of a turn: the design's sequence, empty handlers, {args.turns} sequential turns"
          f" (load average {load[0]:.2f})")
    print(f"  {'':38}{'p50 ms':>9}{'p99 ms':>9}{'CPU ms/turn':>13}")
    print(f"  {'RPCs only (9 layers, 11 RPCs)':38}{rpcs_only['p50_ms']:>9.2f}{rpcs_only['p99_ms']:>9.2f}"
          f"{rpcs_only['cpu_ms_per_turn']:>13.2f}")
    print(f"  {'RPCs + 7 sequential transactions':38}{with_db['p50_ms']:>9.2f}{with_db['p99_ms']:>9.2f}"
          f"{with_db['cpu_ms_per_turn']:>13.2f}")
    print(f"  #7's target for the whole turn: p50 ≤ {TARGET_P50_MS:.0f} ms")
    print(json.dumps({
        "bench": "turn_floor", "turns": args.turns,
        "rpcs_only_p50_ms": rpcs_only["p50_ms"], "rpcs_only_p99_ms": rpcs_only["p99_ms"],
        "rpcs_only_cpu_ms_per_turn": rpcs_only["cpu_ms_per_turn"],
        "floor_p50_ms": with_db["p50_ms"], "floor_p99_ms": with_db["p99_ms"],
        "floor_cpu_ms_per_turn": with_db["cpu_ms_per_turn"],
        "rpc_layers": 9, "rpcs": 11, "sequential_transactions": 7, "load_average_1m": round(load[0], 2),
        "targets": {"mesh_p50_ms": TARGET_P50_MS}, "met": with_db["p50_ms"] <= TARGET_P50_MS,
    }))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--database-url", default="", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.serve:
        run_loop(serve(arguments.serve, json.loads(arguments.ports),
                       os.environ["BALCAO_FLOOR_SECRET"].encode(), arguments.database_url))
    else:
        run_loop(main(arguments))
