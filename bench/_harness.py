"""What the benchmarks share: a free port, one service process on a given database, its health.

Benchmarks start the real service (`balcao serve <name>`) as its own process, the way the mesh
runs it, against an embedded PostgreSQL they own; this module is the part every one of them did
alike.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

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
