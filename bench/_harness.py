"""What the benchmarks share: a free port, one service process on a given database, its health,
PostgreSQL's CPU, and callgrind's counting switched on for the measured part only.

Benchmarks start the real service (`balcao serve <name>`) as its own process, the way the mesh
runs it, against an embedded PostgreSQL they own; this module is the part every one of them did
alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_service(
    name: str, folder: Path, database_url: str, secret: str, port: int, *, pool_size: int = 10
) -> subprocess.Popen[bytes]:
    """`balcao serve <name>` on `database_url`, quiet, its stderr in `<folder>/<name>.log`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BALCAO_")}
    env.update(
        {
            "DATABASE_URL": database_url,
            "BALCAO_MESH_SECRET": secret,
            f"BALCAO_{name.upper()}_GRPC_PORT": str(port),
            "BALCAO_DATA_DIR": str(folder),
            "BALCAO_LOG_LEVEL": "WARNING",
            "BALCAO_DATABASE_POOL_SIZE": str(pool_size),
            "PYTHONWARNINGS": "ignore",
        }
    )
    with open(folder / f"{name}.log", "wb") as log:
        # The child keeps its own copy of the descriptor.
        return subprocess.Popen(
            [sys.executable, "-m", "balcao.cli", "serve", name],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )


async def wait_serving(
    address: str, process: subprocess.Popen[bytes], name: str, timeout: float = 90.0
) -> None:
    deadline = time.monotonic() + timeout
    async with grpc.aio.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited during start-up")
            try:
                reply = await health.Check(health_pb2.HealthCheckRequest(), timeout=2)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.aio.AioRpcError:
                pass
            await asyncio.sleep(0.2)
    raise TimeoutError(f"{name} did not report SERVING in time")


_TICK = os.sysconf("SC_CLK_TCK")


def postgres_cpu_ms(folder: Path) -> float:
    """CPU of the postmaster under `folder` and its backends (utime+stime, with dead children)."""
    total = 0
    for pid_file in folder.rglob("postmaster.pid"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            root = int(pid_file.read_text().split()[0])
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                with contextlib.suppress(OSError):
                    text = (entry / "stat").read_text()
                    fields = text[text.rindex(")") + 2 :].split()
                    if int(entry.name) == root or int(fields[1]) == root:
                        total += sum(int(v) for v in fields[11:15])
    return total * 1000 / _TICK


class Callgrind:
    """Callgrind client requests (no-ops when not run under callgrind): count one part only."""

    SOURCE = (
        "#include <valgrind/callgrind.h>\n"
        "void bench_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_TOGGLE_COLLECT; }\n"
        "void bench_stop(const char *name) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_DUMP_STATS_AT(name); }\n"
    )

    def __init__(self, folder: Path) -> None:
        import ctypes

        source, library = folder / "cg.c", folder / "libcg.so"
        source.write_text(self.SOURCE)
        subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(library), str(source)], check=True)
        self._lib = ctypes.CDLL(str(library))

    def start(self) -> None:
        self._lib.bench_start()

    def stop(self, name: str) -> None:
        self._lib.bench_stop(name.encode())


@dataclass
class InProcessCrm:
    """crm served by its own `server.build` in this process, on an embedded PostgreSQL."""

    address: str
    secret: str
    database_url: str
    engine: Any  # the AsyncEngine crm's servicers use


@contextlib.asynccontextmanager
async def crm_in_process(folder: Path) -> AsyncIterator[InProcessCrm]:
    """A fresh embedded PostgreSQL under `folder`, crm migrated and served on a free port (the
    kit's `create_server`, its workers started), all stopped on exit."""
    from balcao.kit import db
    from balcao.kit.embedded_pg import EmbeddedPostgres
    from balcao.kit.server import Database, create_server
    from services.crm import server as crm_server
    from services.crm.config import Settings as CrmSettings

    postgres = EmbeddedPostgres(folder / "pg")
    await asyncio.to_thread(postgres.start)
    try:
        url = postgres.url
        await db.migrate(url, "crm", "crm")
        secret = secrets.token_urlsafe(32)
        settings = CrmSettings(
            mesh_secret=secret, grpc_port=0, database_url=url, migrate_on_start=False, data_dir=folder
        )
        database = Database()
        engine = db.create_engine(url, pool_size=10)
        await db.wait_until_ready(engine)
        database.attach(engine)
        definition = crm_server.build(settings, database)
        running = await create_server(definition, secret=secret.encode(), host="127.0.0.1", port=0)
        stop_worker = await definition.on_ready() if definition.on_ready else None
        await running.set_serving(True)
        try:
            yield InProcessCrm(f"127.0.0.1:{running.port}", secret, url, engine)
        finally:
            if stop_worker is not None:
                await stop_worker()
            await running.server.stop(0)
            await database.dispose()
    finally:
        await asyncio.to_thread(postgres.stop)
