"""Benchmark: whole turns through the runtime, as a mesh of processes and composed in one process.

Both runs use the offline model (no key, no network), a fresh embedded PostgreSQL and the same
organisation (one unit, debounce off). A turn is timed from `Gateway.SubmitInbound` until
`Gateway.GetTurn` (waiting) returns it finished: accept, claim, plan gate, screening, controller,
opening, draft, review, send, closing re-read, Conversador.Close and CrmWrite.CloseTurn — every
hop of the sequence. The platform overhead of a turn is that wall time minus the time spent in
the model provider's calls, as the turn's execution record in crm states it (`model_duration_ms`);
with the offline model that is (almost) nothing, so the time is the platform's: processes, gRPC,
identity, tracing, PostgreSQL. Both are printed, beside the end-to-end latency.

Evidence that does not depend on the machine's load is printed too: CPU milliseconds per turn of
every process (each service, PostgreSQL, and for the composition the one process), and for the
composition the RPCs served, and the SQL statements and transactions asyncpg ran, per turn.

1. mesh: `balcao up` (seven processes) in a temporary folder.
2. in-process: the same seven services built by their own `server.build` and started with the
   kit's `create_server` in one event loop (still gRPC on loopback between them).

Per run: `--turns` sequential turns (each a new customer) for p50/p99, then `--turns` turns
`--concurrency` at a time for turns/s. Targets: p50 ≤ 10 ms per turn in the mesh, and the mesh at
most 1.5× the in-process p50 (both on the platform overhead). Prints a table, then one JSON line
(the last line).

Run: `.venv/bin/python bench/turn.py` (or `make bench`); `--breakdown` also prints, per turn, the
composition's RPCs by method and SQL statements by text (where the work is).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Not bench/ itself: its queue.py would shadow the standard library's.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from opentelemetry import trace  # noqa: E402
from opentelemetry.sdk.trace import SpanProcessor  # noqa: E402
from opentelemetry.trace import SpanKind  # noqa: E402

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
    database_url: str
    # The processes whose CPU time a turn costs, by label (a service, "postgresql", "composition").
    processes: Callable[[], dict[str, list[int]]]
    # Counts of served RPCs and SQL statements (the composition only; None for the mesh).
    counters: Counters | None = None


@dataclass
class Counters:
    rpcs: int = 0
    sql: int = 0
    transactions: int = 0
    # By method and by statement (its first words), for `--breakdown`.
    by_rpc: collections.Counter[str] = field(default_factory=collections.Counter)
    by_sql: collections.Counter[str] = field(default_factory=collections.Counter)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Figures:
    latencies_ms: list[float]
    model_ms: list[float]
    turns_per_second: float
    failed: int
    cpu_ms_per_turn: dict[str, float]
    rpcs_per_turn: float | None = None
    sql_per_turn: float | None = None
    transactions_per_turn: float | None = None
    rpcs_by_method: dict[str, float] = field(default_factory=dict)
    sql_by_statement: dict[str, float] = field(default_factory=dict)

    @property
    def overhead_ms(self) -> list[float]:
        return [max(0.0, total - model) for total, model in zip(self.latencies_ms, self.model_ms, strict=True)]

    def percentile(self, q: float) -> float:
        return percentile(self.overhead_ms, q)


# ---------------------------------------------------------------------------------------------
# CPU time of processes (Linux /proc): utime + stime, children that exited included
# ---------------------------------------------------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None:
                tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def _descendants(pid: int, tree: dict[int, list[int]]) -> list[int]:
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(tree.get(current, []))
    return out


def cpu_ms(groups: dict[str, list[int]]) -> dict[str, float]:
    out = {}
    for label, pids in groups.items():
        total = 0
        for pid in pids:
            fields = _stat(pid)
            if fields is not None:
                total += sum(int(v) for v in fields[11:15])
        out[label] = total * 1000 / _TICK
    return out


def postgres_pids(folder: Path) -> list[int]:
    """The postmaster under `folder` and its backends."""
    tree = _children()
    pids: list[int] = []
    for pid_file in folder.rglob("postmaster.pid"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            pids += _descendants(int(pid_file.read_text().split()[0]), tree)
    return pids


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
                        # The Operador off, as this bench always ran (initial settings without
                        # `roles` now start with both roles on): it measures the turn, not the Operador.
                        roles=r.RoleSettings(conversador_enabled=True, operador_enabled=False),
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


async def one_turn(stub: gateway_pb2_grpc.GatewayServiceStub, md: Any, org: str) -> tuple[float, bool, str]:
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
    return elapsed, turn.status == gw.TURN_STATUS_DONE and turn.outcome == gw.TURN_OUTCOME_REPLIED, turn.turn_id


async def model_ms(database_url: str, org: str, turn_ids: list[str]) -> dict[str, float]:
    """Each turn's time in model calls, as its execution record in crm keeps it."""
    engine = db.create_engine(database_url, pool_size=1, app_role=False)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                sa.text(
                    "SELECT turn_id, model_duration_ms FROM crm.turn_executions "
                    "WHERE organization_id = :org AND turn_id = ANY(:turns)"
                ),
                {"org": uuid.UUID(org), "turns": turn_ids},
            )
            return {row[0]: float(row[1]) for row in rows}
    finally:
        await engine.dispose()


async def measure(endpoints: Endpoints, turns: int, concurrency: int, warmup: int) -> Figures:
    org = await organisation(endpoints)
    md = (("authorization", f"Bearer {mint_token(endpoints.secret, 'admin')}"),)
    async with grpc.aio.insecure_channel(endpoints.gateway) as channel:
        stub = gateway_pb2_grpc.GatewayServiceStub(channel)
        for _ in range(warmup):
            await one_turn(stub, md, org)
        await asyncio.sleep(1.0)  # let the Operador finish the warm-up's turns
        latencies, ids, failed = [], [], 0
        groups = endpoints.processes()
        cpu_before = cpu_ms(groups)
        counters = endpoints.counters
        counted = (counters.rpcs, counters.sql, counters.transactions) if counters else (0, 0, 0)
        by_rpc = collections.Counter(endpoints.counters.by_rpc) if endpoints.counters else collections.Counter()
        by_sql = collections.Counter(endpoints.counters.by_sql) if endpoints.counters else collections.Counter()
        for _ in range(turns):
            elapsed, ok, turn_id = await one_turn(stub, md, org)
            latencies.append(elapsed)
            ids.append(turn_id)
            failed += 0 if ok else 1
        await asyncio.sleep(1.0)  # the Operador's work after the last turn belongs to the turns too
        cpu_after = cpu_ms(groups)
        cpu = {label: (cpu_after[label] - cpu_before[label]) / turns for label in groups}
        rpcs = sql_count = transactions = None
        rpcs_by_method: dict[str, float] = {}
        sql_by_statement: dict[str, float] = {}
        if endpoints.counters is not None:
            rpcs = (endpoints.counters.rpcs - counted[0]) / turns
            sql_count = (endpoints.counters.sql - counted[1]) / turns
            transactions = (endpoints.counters.transactions - counted[2]) / turns
            rpcs_by_method = {k: v / turns for k, v in (endpoints.counters.by_rpc - by_rpc).most_common()}
            sql_by_statement = {k: v / turns for k, v in (endpoints.counters.by_sql - by_sql).most_common()}
        recorded = await model_ms(endpoints.database_url, org, ids)
        models = [recorded.get(turn_id, 0.0) for turn_id in ids]
        gate = asyncio.Semaphore(concurrency)

        async def limited() -> bool:
            async with gate:
                return (await one_turn(stub, md, org))[1]

        started = time.perf_counter()
        results = await asyncio.gather(*(limited() for _ in range(turns)))
        wall = time.perf_counter() - started
        failed += sum(1 for ok in results if not ok)
    return Figures(
        latencies, models, turns / wall, failed, cpu, rpcs, sql_count, transactions, rpcs_by_method, sql_by_statement
    )


# ---------------------------------------------------------------------------------------------
# The two ways to run the services
# ---------------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def as_mesh(folder: Path) -> AsyncIterator[Endpoints]:
    mesh = await asyncio.to_thread(start_mesh, folder)

    def processes() -> dict[str, list[int]]:
        groups: dict[str, list[int]] = {}
        tree = _children()
        for pid in tree.get(mesh.process.pid, []):
            with contextlib.suppress(OSError):
                words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if b"serve" in words:
                    groups[words[words.index(b"serve") + 1].decode()] = _descendants(pid, tree)
        groups["postgresql"] = postgres_pids(folder)
        return groups

    try:
        yield Endpoints(mesh.addr("gateway"), mesh.addr("crm"), mesh.secret, mesh.database_url, processes)
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
    counters = Counters()

    class CountServed(SpanProcessor):
        def on_end(self, span: Any) -> None:
            if span.kind == SpanKind.SERVER:
                counters.rpcs += 1
                counters.by_rpc[span.name.rsplit(".", 1)[-1]] += 1

    def count(statement: str) -> None:
        text = " ".join(statement.split())
        head = text[:8].upper()
        if head.startswith("BEGIN"):  # it may carry the tenant setting in the same message
            counters.transactions += 1
        elif not head.startswith(("COMMIT", "ROLLBACK")):
            counters.sql += 1
            counters.by_sql[text[:100]] += 1

    # SQLAlchemy's statements (asyncpg runs them as prepared statements, which its query loggers
    # do not see) ...
    def count_sqlalchemy(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        count(statement)

    # ... and what runs on asyncpg's own methods: transactions, and the statements the services
    # send directly under a SQLAlchemy transaction (db.driver_in_transaction).
    def watch_connection(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.driver_connection.add_query_logger(lambda query: count(str(query.query)))

    trace.get_tracer_provider().add_span_processor(CountServed())  # type: ignore[attr-defined]
    sa.event.listen(sa.engine.Engine, "before_cursor_execute", count_sqlalchemy)
    sa.event.listen(sa.pool.Pool, "connect", watch_connection)
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
        def processes() -> dict[str, list[int]]:
            return {"composition": [os.getpid()], "postgresql": postgres_pids(folder)}

        yield Endpoints(
            f"127.0.0.1:{ports['gateway']}", f"127.0.0.1:{ports['crm']}", secret.encode(), url, processes, counters
        )
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", count_sqlalchemy)
        sa.event.remove(sa.pool.Pool, "connect", watch_connection)
        for stop in reversed(stoppers):
            await stop()
        await asyncio.to_thread(postgres.stop)


# ---------------------------------------------------------------------------------------------


def _row(label: str, figures: Figures) -> str:
    return (
        f"{label:<12} {figures.percentile(0.5):>9.1f} {figures.percentile(0.99):>9.1f} "
        f"{percentile(figures.latencies_ms, 0.5):>9.1f} {percentile(figures.latencies_ms, 0.99):>9.1f} "
        f"{statistics.fmean(figures.model_ms):>9.2f} {figures.turns_per_second:>9.1f} {figures.failed:>7}"
    )


def _cpu_table(results: dict[str, Figures]) -> list[str]:
    lines = ["CPU ms per turn (sequential turns; the Operador's work after each turn included)"]
    for label, figures in results.items():
        ordered = sorted(figures.cpu_ms_per_turn.items(), key=lambda kv: -kv[1])
        parts = ", ".join(f"{name} {ms:.1f}" for name, ms in ordered)
        lines.append(f"  {label:<12} total {sum(figures.cpu_ms_per_turn.values()):.1f}: {parts}")
        if figures.rpcs_per_turn is not None:
            lines.append(
                f"  {'':<12} RPCs served per turn {figures.rpcs_per_turn:.1f}, "
                f"SQL statements per turn {figures.sql_per_turn:.1f} "
                f"in {figures.transactions_per_turn:.1f} transactions"
            )
    return lines


def _breakdown(figures: Figures) -> list[str]:
    lines = ["RPCs served per sequential turn, by method (in-process composition)"]
    lines += [f"  {count:6.2f}  {method}" for method, count in figures.rpcs_by_method.items()]
    lines.append("SQL statements per sequential turn, by statement (its first 100 characters)")
    lines += [f"  {count:6.2f}  {statement}" for statement, count in figures.sql_by_statement.items()]
    return lines


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument(
        "--breakdown", action="store_true", help="also print the composition's RPCs by method and SQL by statement"
    )
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
        f"Turns, SubmitInbound → turn finished ({args.turns} sequential turns; turns/s at concurrency "
        f"{args.concurrency}); platform overhead = end-to-end minus the model's time"
    )
    print(
        f"{'':<12} {'ovh p50':>9} {'ovh p99':>9} {'e2e p50':>9} {'e2e p99':>9} {'model ms':>9} "
        f"{'turns/s':>9} {'failed':>7}"
    )
    print(_row("mesh", mesh))
    print(_row("in-process", inproc))
    for line in _cpu_table(results):
        print(line)
    if args.breakdown:
        for line in _breakdown(inproc):
            print(line)
    print(f"mesh / in-process (overhead p50): {ratio:.2f}×   (target ≤ {TARGET_RATIO}×)")
    print(f"mesh overhead p50 per turn: {mesh.percentile(0.5):.1f} ms   (target ≤ {TARGET_P50_MS} ms)")
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    met = mesh.percentile(0.5) <= TARGET_P50_MS and ratio <= TARGET_RATIO and mesh.failed == 0 and inproc.failed == 0
    print(
        json.dumps(
            {
                "bench": "turn",
                "turns": args.turns,
                "concurrency": args.concurrency,
                "mesh_p50_ms": round(mesh.percentile(0.5), 2),
                "mesh_p99_ms": round(mesh.percentile(0.99), 2),
                "mesh_e2e_p50_ms": round(percentile(mesh.latencies_ms, 0.5), 2),
                "mesh_model_mean_ms": round(statistics.fmean(mesh.model_ms), 3),
                "mesh_turns_per_s": round(mesh.turns_per_second, 2),
                "mesh_cpu_ms_per_turn": round(sum(mesh.cpu_ms_per_turn.values()), 1),
                "in_process_p50_ms": round(inproc.percentile(0.5), 2),
                "in_process_p99_ms": round(inproc.percentile(0.99), 2),
                "in_process_e2e_p50_ms": round(percentile(inproc.latencies_ms, 0.5), 2),
                "in_process_turns_per_s": round(inproc.turns_per_second, 2),
                "in_process_cpu_ms_per_turn": round(sum(inproc.cpu_ms_per_turn.values()), 1),
                "rpcs_per_turn": round(inproc.rpcs_per_turn or 0, 1),
                "sql_per_turn": round(inproc.sql_per_turn or 0, 1),
                "transactions_per_turn": round(inproc.transactions_per_turn or 0, 1),
                "load_average_1m": round(os.getloadavg()[0], 2),
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
