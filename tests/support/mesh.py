"""Start the real mesh with `balcao up` in a temporary folder on free ports, and stop it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from balcao.kit.identity import mint_token
from balcao.kit.mesh import SERVICES


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mesh_env(data_dir: Path, ports: dict[str, int], http_port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BALCAO_") and k != "DATABASE_URL"}
    env["BALCAO_DATA_DIR"] = str(data_dir)
    for name, port in ports.items():
        env[f"BALCAO_{name.upper()}_GRPC_PORT"] = str(port)
    env["BALCAO_GATEWAY_HTTP_PORT"] = str(http_port)
    env["PYTHONWARNINGS"] = "ignore"
    # Tests script the Operador's model per organisation by writing `<org>.json` files here.
    env["BALCAO_OPERADOR_SCRIPT_DIR"] = str(data_dir / "operador-scripts")
    return env


@dataclass
class RunningMesh:
    data_dir: Path
    ports: dict[str, int]
    http_port: int
    process: subprocess.Popen[str]
    output: list[str] = field(default_factory=list)

    @property
    def secret(self) -> bytes:
        return (self.data_dir / "mesh-secret").read_text().strip().encode()

    def token(self, caller: str, ttl: int = 600) -> str:
        return mint_token(self.secret, caller, ttl=ttl)

    def addr(self, service: str) -> str:
        return f"127.0.0.1:{self.ports[service]}"

    @property
    def database_url(self) -> str:
        port = (self.data_dir / "postgres.port").read_text().strip()
        return f"postgresql://postgres@127.0.0.1:{port}/balcao"

    def text(self) -> str:
        return "".join(self.output)


def start_mesh(data_dir: Path, timeout: float = 90.0) -> RunningMesh:
    ports = {name: free_port() for name in SERVICES}
    http_port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "balcao.cli", "up"],
        env=mesh_env(data_dir, ports, http_port),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    mesh = RunningMesh(data_dir, ports, http_port, process)
    ready = threading.Event()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            mesh.output.append(line)
            if line.startswith("Balcão no ar"):
                ready.set()

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + timeout
    while not ready.wait(0.2):
        if process.poll() is not None or time.monotonic() > deadline:
            stop_mesh(mesh)
            raise RuntimeError(f"the mesh did not start:\n{mesh.text()}")
    return mesh


def stop_mesh(mesh: RunningMesh, timeout: float = 60.0) -> int:
    if mesh.process.poll() is None:
        mesh.process.send_signal(signal.SIGINT)
    try:
        return mesh.process.wait(timeout)
    except subprocess.TimeoutExpired:
        mesh.process.kill()
        return mesh.process.wait()
