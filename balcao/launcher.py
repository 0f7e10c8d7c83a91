"""`balcao up`: the whole mesh on one machine, as separate processes, stopped cleanly.

One launcher per data folder (a file lock); every port is checked before anything starts, so a
second `make up` says what is running instead of fighting over ports. The launcher owns the
embedded PostgreSQL it started and stops it last. Children die with the launcher even when it
is killed (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import asyncio
import ctypes
import fcntl
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from balcao.kit import db
from balcao.kit.embedded_pg import EmbeddedPostgresError
from balcao.kit.mesh import SERVICES, addr_env

SECRET_FILE = "mesh-secret"
START_TIMEOUT = 60.0
ORDER = ["crm", "agenda", "projection", "seguranca", "operador", "conversador", "gateway"]


def read_mesh_secret(data_dir: Path) -> str | None:
    path = data_dir / SECRET_FILE
    return path.read_text().strip() if path.exists() else None


def ensure_mesh_secret(data_dir: Path) -> str:
    """The quick start's secret: the configured one, else one generated into the data folder."""
    configured = os.environ.get("BALCAO_MESH_SECRET")
    if configured:
        return configured
    existing = read_mesh_secret(data_dir)
    if existing:
        return existing
    secret = secrets.token_urlsafe(32)
    path = data_dir / SECRET_FILE
    path.touch(mode=0o600)
    path.write_text(secret + "\n")
    return secret


def service_ports(env: Mapping[str, str]) -> dict[str, list[int]]:
    """The ports each service will listen on, honouring the per-service settings."""
    ports: dict[str, list[int]] = {}
    for name, spec in SERVICES.items():
        grpc_port = int(env.get(f"BALCAO_{name.upper()}_GRPC_PORT", spec.grpc_port))
        ports[name] = [grpc_port]
        if spec.http_port is not None:
            ports[name].append(int(env.get(f"BALCAO_{name.upper()}_HTTP_PORT", spec.http_port)))
    return ports


def _busy(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


def _die_with_parent() -> None:
    # Linux: the child gets SIGTERM when the launcher goes away, however it goes.
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def child_env(base: Mapping[str, str], secret: str, database_url: str, data_dir: Path) -> dict[str, str]:
    env = dict(base)
    env["BALCAO_MESH_SECRET"] = secret
    env["DATABASE_URL"] = database_url
    env["BALCAO_DATA_DIR"] = str(data_dir)
    env["BALCAO_MIGRATE_ON_START"] = "false"
    ports = service_ports(base)
    for name in SERVICES:
        env.setdefault(addr_env(name), f"localhost:{ports[name][0]}")
    return env


class Mesh:
    """Seven child processes and their logs."""

    def __init__(self, env: Mapping[str, str], log_dir: Path) -> None:
        self.env = dict(env)
        self.log_dir = log_dir
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self._logs: list[IO[bytes]] = []

    def start(self) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        for name in ORDER:
            log = open(self.log_dir / f"{name}.log", "ab")
            self._logs.append(log)
            self.processes[name] = subprocess.Popen(
                [sys.executable, "-m", "balcao.cli", "serve", name],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )

    def dead(self) -> list[str]:
        return [name for name, p in self.processes.items() if p.poll() is not None]

    def stop(self, timeout: float = 20.0) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for process in self.processes.values():
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in self._logs:
            log.close()

    def tail(self, name: str, lines: int = 15) -> str:
        path = self.log_dir / f"{name}.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


async def wait_serving(ports: Mapping[str, int], mesh: Mesh, timeout: float) -> None:
    """Return once every service answers SERVING; raise if one dies or time runs out."""

    async def one(name: str, port: int) -> None:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while True:
                if name in mesh.dead():
                    raise RuntimeError(f"{name} exited during start-up:\n{mesh.tail(name)}")
                try:
                    reply = await stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.aio.AioRpcError:
                    pass
                await asyncio.sleep(0.2)

    await asyncio.wait_for(asyncio.gather(*(one(n, p) for n, p in ports.items())), timeout)


def up(data_dir: Path) -> int:
    started_at = time.monotonic()
    data_dir.mkdir(parents=True, exist_ok=True)
    data_dir = data_dir.resolve()
    lock = open(data_dir / "up.lock", "a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        print(
            f"balcao up: o Balcão já está rodando a partir de {data_dir} (pid {lock.read().strip() or '?'}); "
            "pare-o antes com Ctrl-C no terminal dele.",
            file=sys.stderr,
        )
        return 1
    lock.seek(0)
    lock.truncate()
    lock.write(str(os.getpid()))
    lock.flush()

    env = dict(os.environ)
    host = env.get("BALCAO_BIND_HOST", "127.0.0.1")
    ports = service_ports(env)
    busy = [f"{name} ({port})" for name, plist in ports.items() for port in plist if _busy(host, port)]
    if busy:
        print(
            "balcao up: estas portas já estão em uso (outro Balcão está rodando?): "
            + ", ".join(busy),
            file=sys.stderr,
        )
        return 1

    secret = ensure_mesh_secret(data_dir)
    embedded = None
    mesh: Mesh | None = None
    stopping = False

    def on_signal(_sig: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        print("Balcão: iniciando o PostgreSQL…", flush=True)
        database_url, embedded = db.resolve_database_url(env.get("DATABASE_URL"), data_dir)
        for name in ORDER:
            schema = SERVICES[name].schema
            if schema:
                asyncio.run(db.migrate(database_url, name, schema))
        mesh = Mesh(child_env(env, secret, database_url, data_dir), data_dir / "logs")
        mesh.start()
        asyncio.run(wait_serving({n: p[0] for n, p in ports.items()}, mesh, START_TIMEOUT))
        _print_ready(ports, data_dir, time.monotonic() - started_at, embedded is not None)
        while not stopping:
            dead = mesh.dead()
            if dead:
                print(f"balcao up: o serviço {dead[0]} parou inesperadamente:\n{mesh.tail(dead[0])}", file=sys.stderr)
                return 1
            time.sleep(0.3)
        print("\nBalcão: parando…", flush=True)
        return 0
    except (RuntimeError, TimeoutError, OSError, EmbeddedPostgresError) as exc:
        print(f"balcao up: {exc}", file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if mesh is not None:
            mesh.stop()
        if embedded is not None:
            embedded.stop()
        print("Balcão: parado.", flush=True)


def _print_ready(ports: Mapping[str, list[int]], data_dir: Path, seconds: float, embedded: bool) -> None:
    print(f"Balcão no ar em {seconds:.1f}s.")
    for name in ORDER:
        grpc_port, *http = ports[name]
        extra = f"   http://localhost:{http[0]}" if http else ""
        print(f"  {name:<12} grpc localhost:{grpc_port}{extra}")
    where = f"embutido, dados em {data_dir / 'postgres'}" if embedded else "DATABASE_URL"
    print(f"  postgresql   {where}")
    print(f"Logs: {data_dir / 'logs'}/<serviço>.log")
    tools = Path(sys.executable).parent
    try:
        tools = tools.relative_to(Path.cwd())
    except ValueError:
        pass
    print("Experimente:")
    print(f"  {tools}/balcao seed-demo && {tools}/balcao chat --org demo --phone +5511987654321")
    print(
        f"  {tools}/grpcurl -plaintext -H \"authorization: Bearer $({tools}/balcao token gateway)\" "
        f"localhost:{ports['crm'][0]} list"
    )
    print("Ctrl-C para tudo.", flush=True)
