"""The real mesh, as a person with grpcurl sees it: every service listed and SERVING."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import descriptor_pool

import balcao.agenda.v1.agenda_read_pb2
import balcao.agenda.v1.agenda_write_pb2
import balcao.conversador.v1.conversador_pb2
import balcao.crm.v1.crm_read_pb2
import balcao.crm.v1.crm_write_pb2
import balcao.crm.v1.event_queue_pb2
import balcao.gateway.v1.gateway_pb2
import balcao.operador.v1.operador_pb2
import balcao.projection.v1.projection_pb2
import balcao.seguranca.v1.seguranca_pb2  # noqa: F401
from balcao.kit.mesh import SERVICES
from tests.support.mesh import RunningMesh

GRPCURL = str(Path(sys.executable).parent / "grpcurl")

# What each process must expose, by the contracts' full names.
EXPECTED = {
    "gateway": ["balcao.gateway.v1.GatewayService"],
    "conversador": ["balcao.conversador.v1.ConversadorService"],
    "projection": ["balcao.projection.v1.ProjectionService"],
    "seguranca": ["balcao.seguranca.v1.SegurancaService"],
    "operador": ["balcao.operador.v1.OperadorService"],
    "crm": ["balcao.crm.v1.CrmReadService", "balcao.crm.v1.CrmWriteService", "balcao.crm.v1.EventQueueService"],
    "agenda": ["balcao.agenda.v1.AgendaReadService", "balcao.agenda.v1.AgendaWriteService"],
}


def grpcurl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([GRPCURL, "-plaintext", *args], capture_output=True, text=True, timeout=30, check=False)


def test_every_service_of_the_design_is_expected() -> None:
    assert set(EXPECTED) == set(SERVICES)
    pool = descriptor_pool.Default()
    for names in EXPECTED.values():
        for name in names:
            assert pool.FindServiceByName(name).methods


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_grpcurl_lists_the_service_by_reflection(mesh: RunningMesh, service: str) -> None:
    result = grpcurl(mesh.addr(service), "list")
    assert result.returncode == 0, result.stderr
    listed = set(result.stdout.split())
    assert listed == {*EXPECTED[service], "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"}


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_grpcurl_describes_every_rpc_of_the_contract(mesh: RunningMesh, service: str) -> None:
    pool = descriptor_pool.Default()
    for name in EXPECTED[service]:
        result = grpcurl(mesh.addr(service), "list", name)
        assert result.returncode == 0, result.stderr
        expected = {f"{name}.{m.name}" for m in pool.FindServiceByName(name).methods}
        assert set(result.stdout.split()) == expected


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_health_check_answers_serving(mesh: RunningMesh, service: str) -> None:
    result = grpcurl(mesh.addr(service), "grpc.health.v1.Health/Check")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"status": "SERVING"}
    for name in EXPECTED[service]:
        named = grpcurl("-d", json.dumps({"service": name}), mesh.addr(service), "grpc.health.v1.Health/Check")
        assert json.loads(named.stdout) == {"status": "SERVING"}


def test_the_gateway_answers_http(mesh: RunningMesh) -> None:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{mesh.http_port}/healthz", timeout=5) as reply:
        assert reply.status == 200
        assert json.load(reply) == {"status": "ok"}
