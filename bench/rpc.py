"""Benchmark: the fixed cost of one RPC hop and of one tenant transaction, as the mesh pays them.

One real service (crm, built by its own `server.build` and started with the kit's
`create_server`) runs in this process against a fresh embedded PostgreSQL; the client channel is
opened the way services open theirs (`balcao.kit.channels.open_channel`: every call signed and
traced). Per call, sequentially:

- `health_bare`: `grpc.health.v1.Health/Check` on a plain channel (no interceptors): the floor
  grpc.aio itself costs on this machine;
- `health`: the same RPC on the signed, traced channel (health is open and untraced on the
  server, so this is the client side's fixed cost);
- `get_organization`: `CrmRead.GetOrganization` (identity, tracing on both sides, one tenant
  transaction: `set_config` + one SELECT by primary key);
- `tx_sqlalchemy`: one tenant transaction with that SELECT through the engine the kit builds
  (`balcao.kit.db.create_engine`, as the application role), opened the way the services open
  theirs (`balcao.kit.db.tenant`; on a revision without it, `engine.begin()` + `set_config`);
- `tx_asyncpg`: the same transaction on a raw asyncpg connection (the floor under SQLAlchemy).

Figures per call: wall p50/p99 (µs; the machine is shared, so the load average is printed
beside them), CPU µs of this process (`time.process_time`: client and server together) and of
PostgreSQL (its processes' /proc counters).

A/B in the same session: with `--baseline REV` (default: the merge-base with `main`) the same
measurement runs first on that revision's code (exported with `git archive` to a temporary
folder) and then on this tree, each in its own process, alternating `--rounds` times; the
figures kept are each side's median. Targets: per-RPC CPU (GetOrganization and the health RPC)
at most half the baseline's, and the tenant transaction's CPU no higher than the baseline's.

Run: `.venv/bin/python bench/rpc.py` (or `make bench`). Prints a table, then one JSON line (the
last line).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]
# Not bench/ itself: its queue.py would shadow the standard library's.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench._harness import Callgrind, crm_in_process, postgres_cpu_ms  # noqa: E402

RPC_CPU_RATIO_TARGET = 0.5  # per-RPC CPU at most half the baseline's
TX_CPU_RATIO_TARGET = 1.0  # the transaction must not get dearer
CASES = ("health_bare", "health", "get_organization", "tx_sqlalchemy", "tx_asyncpg")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]




async def _time_calls(
    call: Callable[[], Awaitable[Any]], calls: int, warmup: int, folder: Path, name: str = "",
    callgrind: Callgrind | None = None,
) -> dict[str, float]:
    for _ in range(warmup):
        await call()
    walls: list[float] = []
    pg_before = postgres_cpu_ms(folder)
    if callgrind is not None:
        callgrind.start()
    cpu_before = time.process_time()
    for _ in range(calls):
        started = time.perf_counter()
        await call()
        walls.append(time.perf_counter() - started)
    cpu = time.process_time() - cpu_before
    if callgrind is not None:
        callgrind.stop(name)
    pg = postgres_cpu_ms(folder) - pg_before
    return {
        "wall_p50_us": round(_percentile(walls, 0.5) * 1e6, 1),
        "wall_p99_us": round(_percentile(walls, 0.99) * 1e6, 1),
        "cpu_us": round(cpu / calls * 1e6, 1),
        "postgres_cpu_us": round(pg / calls * 1e3, 1),
    }


async def measure(
    calls: int, warmup: int, only: tuple[str, ...] = CASES, callgrind: bool = False
) -> dict[str, Any]:
    """Every case (or `only` these) once, on the code of the tree this file sits in."""
    import asyncpg
    import grpc
    import sqlalchemy as sa
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from balcao.crm.v1 import crm_read_pb2 as rd
    from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc
    from balcao.crm.v1 import crm_resources_pb2 as r
    from balcao.crm.v1 import crm_write_pb2 as cw
    from balcao.kit import db
    from balcao.kit.channels import open_channel
    from balcao.kit.telemetry import configure_telemetry
    from services.gateway.config import Settings as GatewaySettings
    from services.seguranca.config import Settings as SegurancaSettings

    logging.getLogger().setLevel(logging.WARNING)
    flush = configure_telemetry("crm")
    with tempfile.TemporaryDirectory(prefix="bench-rpc-") as tmp:
        folder = Path(tmp)
        counter = Callgrind(folder) if callgrind else None
        async with crm_in_process(folder) as crm:
            secret, url, engine = crm.secret, crm.database_url, crm.engine
            address = crm.address
            figures: dict[str, Any] = {"event_loop": type(asyncio.get_running_loop()).__module__.split(".")[0]}
            peers = {"mesh_secret": secret, "crm_addr": address, "data_dir": folder}
            gateway = open_channel(GatewaySettings(**peers), "crm")
            seguranca = open_channel(SegurancaSettings(**peers), "crm")
            bare = grpc.aio.insecure_channel(address)
            org = (
                await crm_write_pb2_grpc.CrmWriteServiceStub(gateway).UpsertOrganization(
                    cw.UpsertOrganizationRequest(
                        name="Clínica Bench", time_zone="America/Sao_Paulo", plan=r.Plan(name="Bench")
                    )
                )
            ).organization.organization_id
            org_id = uuid.UUID(org)
            check = health_pb2.HealthCheckRequest()
            bare_health = health_pb2_grpc.HealthStub(bare)
            health = health_pb2_grpc.HealthStub(seguranca)
            read = crm_read_pb2_grpc.CrmReadServiceStub(seguranca)
            get = rd.GetOrganizationRequest(organization_id=org)
            select = sa.text("SELECT * FROM crm.organizations WHERE organization_id = :org")
            set_tenant = sa.text("SELECT set_config('balcao.organization_id', :org, true)")

            kit_tenant = getattr(db, "tenant", None)  # the base revision may predate it

            async def tx_sqlalchemy() -> None:
                if kit_tenant is not None:
                    async with kit_tenant(engine, org_id) as conn:
                        row = (await conn.execute(select, {"org": org})).mappings().first()
                else:  # what the services' tenant helpers did before the kit had one
                    async with engine.begin() as conn:
                        await conn.execute(set_tenant, {"org": org})
                        row = (await conn.execute(select, {"org": org})).mappings().first()
                assert row is not None

            raw = await asyncpg.connect(url)
            await raw.execute(f"SET ROLE {db.APP_ROLE}")

            async def tx_asyncpg() -> None:
                async with raw.transaction():
                    await raw.execute("SELECT set_config('balcao.organization_id', $1, true)", org)
                    row = await raw.fetchrow("SELECT * FROM crm.organizations WHERE organization_id = $1", org)
                assert row is not None

            cases: dict[str, Callable[[], Awaitable[Any]]] = {
                "health_bare": lambda: bare_health.Check(check),
                "health": lambda: health.Check(check),
                "get_organization": lambda: read.GetOrganization(get),
                "tx_sqlalchemy": tx_sqlalchemy,
                "tx_asyncpg": tx_asyncpg,
            }
            reply = await read.GetOrganization(get)
            assert reply.organization.name == "Clínica Bench"
            for name in only:
                figures[name] = await _time_calls(cases[name], calls, warmup, folder, name, counter)
            await raw.close()
            for channel in (gateway, seguranca, bare):
                await channel.close()
    flush()
    return figures


def _export(rev: str, into: Path) -> Path:
    """The tree of `rev` in `into`, with this script and its harness copied in (the revision may
    predate them; they measure, they are not what is measured)."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "bench").mkdir(exist_ok=True)
    (into / "bench" / "rpc.py").write_bytes(HERE.read_bytes())
    (into / "bench" / "_harness.py").write_bytes((HERE.parent / "_harness.py").read_bytes())
    return into / "bench" / "rpc.py"


def _child(script: Path, calls: int, warmup: int, callgrind_dir: Path | None = None) -> dict[str, Any]:
    """One measurement in its own process; under callgrind, each case's instructions per call too."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BALCAO_", "OTEL_"))}
    env["PYTHONWARNINGS"] = "ignore"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, str(script), "--measure", "--calls", str(calls), "--warmup", str(warmup)]
    if callgrind_dir is not None:
        for old in callgrind_dir.glob("cg.*"):
            old.unlink()
        command = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            f"--callgrind-out-file={callgrind_dir}/cg.%p", *command, "--callgrind",
        ]
    done = subprocess.run(command, cwd=script.parents[1], env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{script} failed:\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if callgrind_dir is not None:
        for dump in callgrind_dir.glob("cg.*"):
            text = dump.read_text(errors="replace")
            trigger = next((line for line in text.splitlines() if line.startswith("desc: Trigger:")), "")
            case = trigger.rsplit(" ", 1)[-1]
            summary = next((line for line in text.splitlines() if line.startswith("summary:")), None)
            if case in figures and summary is not None:
                figures[case]["instructions"] = round(int(summary.split()[1]) / calls)
    return figures


def _median(runs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    return {
        case: {key: round(statistics.median(run[case][key] for run in runs), 1) for key in runs[0][case]}
        for case in CASES
    }


def _table(label: str, figures: dict[str, dict[str, float]]) -> list[str]:
    keys = [("wall_p50_us", "wall p50 µs"), ("wall_p99_us", "wall p99 µs"), ("cpu_us", "CPU µs"),
            ("postgres_cpu_us", "PG CPU µs"), ("instructions", "instr/call")]
    keys = [(key, title) for key, title in keys if key in figures[CASES[0]]]
    lines = [f"{label}", f"  {'case':<18}" + "".join(f"{title:>13}" for _key, title in keys)]
    for case in CASES:
        lines.append(f"  {case:<18}" + "".join(f"{figures[case][key]:>13.1f}" for key, _title in keys))
    return lines


def _baseline_rev() -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or "HEAD"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="timed calls per case")
    parser.add_argument("--warmup", type=int, default=200, help="untimed calls per case first")
    parser.add_argument("--rounds", type=int, default=2, help="baseline/current alternations")
    parser.add_argument("--baseline", default=None, help="git revision to compare with (default: merge-base main)")
    parser.add_argument(
        "--callgrind", action="store_true",
        help="also count instructions per call under valgrind (slow: use with --calls 200)",
    )
    parser.add_argument("--measure", action="store_true", help="measure this tree once, print its JSON only")
    parser.add_argument("--only", nargs="*", choices=CASES, default=list(CASES), help="with --measure (profiling)")
    args = parser.parse_args()
    if args.measure:
        from balcao.kit import server as kit_server

        # On the loop the services run on (the base revision may predate `run_loop`).
        runner = getattr(kit_server, "run_loop", asyncio.run)
        print(json.dumps(runner(measure(args.calls, args.warmup, tuple(args.only), args.callgrind))))
        return 0

    rev = args.baseline or _baseline_rev()
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    baseline_runs: list[dict[str, Any]] = []
    current_runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-rpc-base-") as tmp:
        baseline_script = _export(rev, Path(tmp) / "tree")
        counts = Path(tmp) / "callgrind" if args.callgrind else None
        if counts is not None:
            counts.mkdir()
        for _ in range(args.rounds):
            baseline_runs.append(_child(baseline_script, args.calls, args.warmup, counts))
            current_runs.append(_child(HERE, args.calls, args.warmup, counts))
    baseline, current = _median(baseline_runs), _median(current_runs)
    load = round(os.getloadavg()[0], 2)
    # Instructions when counted (they do not depend on the machine's load), CPU time otherwise.
    metric = "instructions" if args.callgrind else "cpu_us"

    def ratio(case: str) -> float:
        return round(current[case][metric] / baseline[case][metric], 3)

    ratios = {case: ratio(case) for case in ("health", "get_organization", "tx_sqlalchemy")}
    met = (
        ratios["get_organization"] <= RPC_CPU_RATIO_TARGET
        and ratios["health"] <= RPC_CPU_RATIO_TARGET
        and ratios["tx_sqlalchemy"] <= TX_CPU_RATIO_TARGET
    )
    lines = [
        f"RPC and transaction fixed costs: {args.calls} sequential calls per case, median of {args.rounds} "
        f"runs per side, load average {load}" + (" (under callgrind: wall and CPU are valgrind's)" if counts else ""),
        *_table(f"baseline ({rev[:12]}, {baseline_runs[0]['event_loop']} loop)", baseline),
        *_table(f"current ({head}, working tree, {current_runs[0]['event_loop']} loop)", current),
        f"{metric} current/baseline: " + ", ".join(f"{case} {value:.2f}" for case, value in ratios.items()),
    ]
    print("\n".join(lines))
    print(
        json.dumps(
            {
                "bench": "rpc",
                "calls_per_case": args.calls,
                "rounds": args.rounds,
                "baseline_rev": rev[:12],
                "event_loop": {"current": current_runs[0]["event_loop"], "baseline": baseline_runs[0]["event_loop"]},
                "metric": metric,
                "current": current,
                "baseline": baseline,
                "ratio_current_over_baseline": ratios,
                "load_average_1m": load,
                "targets": {
                    "get_organization_ratio": RPC_CPU_RATIO_TARGET,
                    "health_ratio": RPC_CPU_RATIO_TARGET,
                    "tx_sqlalchemy_ratio": TX_CPU_RATIO_TARGET,
                },
                "met": met,
            },
            ensure_ascii=False,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
