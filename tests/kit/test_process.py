"""A service process from the outside: start-up errors, SIGTERM, in-flight calls."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from balcao.kit.identity import mint_token
from balcao.operador.v1 import operador_pb2, operador_pb2_grpc
from tests.support.mesh import free_port

SECRET = "process-test-secret-0123456789"
ROOT = Path(__file__).resolve().parents[2]


def _env(port: int, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BALCAO_")}
    env.update(
        BALCAO_MESH_SECRET=SECRET,
        BALCAO_OPERADOR_GRPC_PORT=str(port),
        BALCAO_STOP_GRACE_SECONDS="5",
        PYTHONWARNINGS="ignore",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


async def _wait_serving(stub: health_pb2_grpc.HealthStub, process: subprocess.Popen[bytes]) -> None:
    for _ in range(150):
        assert process.poll() is None, "the service exited during start-up"
        try:
            reply = await stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
            if reply.status == health_pb2.HealthCheckResponse.SERVING:
                return
        except grpc.aio.AioRpcError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError("the service never reported SERVING")


def test_a_missing_required_setting_stops_the_service_with_one_line() -> None:
    env = _env(free_port())
    del env["BALCAO_MESH_SECRET"]
    result = subprocess.run(
        [sys.executable, "-m", "balcao.cli", "serve", "crm"], env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["balcao crm: missing setting BALCAO_MESH_SECRET"]


def test_an_invalid_setting_is_named() -> None:
    env = _env(free_port(), BALCAO_STOP_GRACE_SECONDS="soon")
    result = subprocess.run(
        [sys.executable, "-m", "balcao.cli", "serve", "operador"], env=env, capture_output=True,
        text=True, timeout=60, check=False,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("balcao operador: invalid setting BALCAO_STOP_GRACE_SECONDS")


@pytest.mark.parametrize(
    "command",
    [["-m", "balcao.cli", "serve", "operador"], [str(ROOT / "tests/support/slow_operador.py")]],
    ids=["operador", "slow-operador"],
)
async def test_sigterm_reports_not_serving_finishes_in_flight_calls_and_exits_zero(command: list[str]) -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, *command], env=_env(port), stdout=subprocess.DEVNULL)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            await _wait_serving(health, process)
            watch = health.Watch(health_pb2.HealthCheckRequest())
            first = await watch.read()
            assert first.status == health_pb2.HealthCheckResponse.SERVING

            operador = operador_pb2_grpc.OperadorServiceStub(channel)
            metadata = (("authorization", f"Bearer {mint_token(SECRET.encode(), 'gateway')}"),)
            in_flight = asyncio.ensure_future(
                operador.GetStatus(operador_pb2.GetStatusRequest(), metadata=metadata, timeout=10)
            )
            await asyncio.sleep(0.5)
            process.send_signal(signal.SIGTERM)

            update = await watch.read()
            assert update.status == health_pb2.HealthCheckResponse.NOT_SERVING
            if "slow" in command[-1]:
                # Two seconds of work that began before the signal still gets its answer.
                reply = await in_flight
                assert isinstance(reply, operador_pb2.GetStatusResponse)
            else:
                in_flight.cancel()
        assert await asyncio.to_thread(process.wait, 30) == 0
    finally:
        if process.poll() is None:
            process.kill()


async def test_a_service_that_does_not_migrate_waits_for_the_schema_before_serving(data_folder: Path) -> None:
    """As in Kubernetes: the Job migrates, the service stays NOT_SERVING until it has."""
    from balcao.kit.embedded_pg import EmbeddedPostgres

    server = EmbeddedPostgres(data_folder / "db")
    await asyncio.to_thread(server.start)
    port = free_port()
    env = _env(port, DATABASE_URL=server.url, BALCAO_MIGRATE_ON_START="false")
    env["BALCAO_AGENDA_GRPC_PORT"] = str(port)
    process = subprocess.Popen([sys.executable, "-m", "balcao.cli", "serve", "agenda"], env=env,
                               stdout=subprocess.DEVNULL)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            liveness = None
            for _ in range(100):
                try:
                    liveness = await health.Check(health_pb2.HealthCheckRequest(service="liveness"), timeout=1)
                    break
                except grpc.aio.AioRpcError:
                    await asyncio.sleep(0.1)
            assert liveness is not None and liveness.status == health_pb2.HealthCheckResponse.SERVING
            await asyncio.sleep(1.5)
            ready = await health.Check(health_pb2.HealthCheckRequest(), timeout=1)
            assert ready.status == health_pb2.HealthCheckResponse.NOT_SERVING
            assert process.poll() is None

            migrate = await asyncio.to_thread(
                subprocess.run, [sys.executable, "-m", "balcao.cli", "migrate", "--service", "agenda"],
                env=env, capture_output=True, text=True, timeout=120, check=False,
            )
            assert migrate.returncode == 0, migrate.stderr
            await _wait_serving(health, process)
        process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(process.wait, 30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        await asyncio.to_thread(server.stop)
