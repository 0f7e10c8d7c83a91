"""Caller identity enforced by every server, seen on the wire."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import descriptor_pool, message_factory

import balcao.agenda.v1.agenda_read_pb2
import balcao.agenda.v1.agenda_write_pb2
import balcao.crm.v1.crm_read_pb2
import balcao.crm.v1.crm_write_pb2  # noqa: F401
from balcao.kit.identity import mint_token
from tests.support.mesh import RunningMesh

WRITE_SERVICES = {
    "crm": "balcao.crm.v1.CrmWriteService",
    "agenda": "balcao.agenda.v1.AgendaWriteService",
}


def _call(channel: grpc.aio.Channel, service: str, method: str, token: str | None) -> grpc.aio.UnaryUnaryCall:
    pool = descriptor_pool.Default()
    descriptor = pool.FindServiceByName(service).methods_by_name[method]
    request_class = message_factory.GetMessageClass(descriptor.input_type)
    response_class = message_factory.GetMessageClass(descriptor.output_type)
    stub = channel.unary_unary(
        f"/{service}/{method}",
        request_serializer=request_class.SerializeToString,
        response_deserializer=response_class.FromString,
    )
    metadata = (("authorization", f"Bearer {token}"),) if token is not None else None
    return stub(request_class(), metadata=metadata, timeout=10)


async def _code(mesh: RunningMesh, owner: str, service: str, method: str, token: str | None) -> grpc.StatusCode:
    async with grpc.aio.insecure_channel(mesh.addr(owner)) as channel:
        try:
            await _call(channel, service, method, token)
        except grpc.aio.AioRpcError as exc:
            return exc.code()
    return grpc.StatusCode.OK


async def test_an_unsigned_call_is_unauthenticated(mesh: RunningMesh) -> None:
    code = await _code(mesh, "crm", "balcao.crm.v1.CrmReadService", "GetOrganization", None)
    assert code == grpc.StatusCode.UNAUTHENTICATED


async def test_a_token_signed_with_another_secret_is_unauthenticated(mesh: RunningMesh) -> None:
    forged = mint_token(b"not-the-mesh-secret-at-all", "gateway")
    code = await _code(mesh, "crm", "balcao.crm.v1.CrmReadService", "GetOrganization", forged)
    assert code == grpc.StatusCode.UNAUTHENTICATED


async def test_an_expired_token_is_unauthenticated(mesh: RunningMesh) -> None:
    expired = mint_token(mesh.secret, "gateway", ttl=1, now=1_000_000)
    code = await _code(mesh, "agenda", "balcao.agenda.v1.AgendaReadService", "ListContactAppointments", expired)
    assert code == grpc.StatusCode.UNAUTHENTICATED


@pytest.mark.parametrize("owner", sorted(WRITE_SERVICES))
async def test_the_conversador_may_call_no_write_rpc(mesh: RunningMesh, owner: str) -> None:
    service = WRITE_SERVICES[owner]
    methods = [m.name for m in descriptor_pool.Default().FindServiceByName(service).methods]
    assert methods
    token = mesh.token("conversador")
    codes = {method: await _code(mesh, owner, service, method, token) for method in methods}
    assert codes == {method: grpc.StatusCode.PERMISSION_DENIED for method in methods}


async def test_the_conversador_may_not_read_crm_or_agenda_directly(mesh: RunningMesh) -> None:
    token = mesh.token("conversador")
    assert await _code(mesh, "crm", "balcao.crm.v1.CrmReadService", "GetContact", token) == (
        grpc.StatusCode.PERMISSION_DENIED
    )
    assert await _code(mesh, "agenda", "balcao.agenda.v1.AgendaReadService", "ListContactAppointments", token) == (
        grpc.StatusCode.PERMISSION_DENIED
    )


async def test_an_allowed_caller_passes_the_identity_check(mesh: RunningMesh) -> None:
    # The Operador may write to crm: the call gets past the identity check to the RPC itself,
    # which refuses the empty request for what it is (no organization_id).
    code = await _code(mesh, "crm", "balcao.crm.v1.CrmWriteService", "UpdateLeadState", mesh.token("operador"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT


async def test_health_and_reflection_need_no_token(mesh: RunningMesh) -> None:
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
