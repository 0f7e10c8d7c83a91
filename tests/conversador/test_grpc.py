"""The conversador over gRPC, started in-process on port 0: wiring, identity, status codes.

`projection` here is FakeProjection served over real gRPC with the mesh's identity checks, so
the production wiring (`server.build`: the channel, the signing, the executor) is what runs.
"""

from __future__ import annotations

import secrets
import socket
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.conversador.v1 import conversador_pb2_grpc
from balcao.kit.identity import allow, mint_token
from balcao.kit.server import Database, Registration, RunningServer, ServiceDefinition, create_server
from balcao.models.base import ModelUnavailable
from balcao.models.scripted import ScriptedProvider, text
from balcao.projection.v1 import projection_pb2, projection_pb2_grpc
from services.conversador import server as conversador_server
from services.conversador.config import Settings
from services.conversador.service import POLICY, Conversador
from services.conversador.tools import ProjectionToolExecutor
from tests.conversador.fakes import CONTACT, ORG, SCOPE, UNIT, FailingStub, FakeProjection, customer, turn_context

SECRET = secrets.token_hex(16)


def metadata(caller: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {mint_token(SECRET.encode(), caller)}"),)


async def start(definition: ServiceDefinition) -> RunningServer:
    running = await create_server(definition, secret=SECRET.encode(), host="127.0.0.1", port=0)
    await running.set_serving(True)
    return running


@pytest.fixture
async def projection() -> AsyncIterator[tuple[FakeProjection, int]]:
    fake = FakeProjection()
    policy = allow(projection_pb2.DESCRIPTOR.services_by_name["ProjectionService"], ["conversador", "gateway"])
    running = await start(
        ServiceDefinition([Registration(fake, projection_pb2_grpc.add_ProjectionServiceServicer_to_server, policy)])
    )
    yield fake, running.port
    await running.server.stop(0)


def settings(projection_port: int) -> Settings:
    return Settings(mesh_secret=SECRET, projection_addr=f"127.0.0.1:{projection_port}", anthropic_api_key=None)


async def serve_production(projection_port: int) -> tuple[RunningServer, Any]:
    definition = conversador_server.build(settings(projection_port), Database())
    assert definition.on_ready is not None
    stop = await definition.on_ready()
    return await start(definition), stop


def draft_request(text_: str, **overrides: Any) -> cv.DraftRequest:
    values: dict[str, Any] = {
        "organization_id": ORG,
        "contact_id": CONTACT,
        "unit_id": UNIT,
        "context": turn_context(),
        "new_messages": [customer(text_)],
    }
    values.update(overrides)
    return cv.DraftRequest(**values)


async def test_a_draft_through_the_production_wiring_reads_through_projection(
    projection: tuple[FakeProjection, int],
) -> None:
    fake, port = projection
    running, stop = await serve_production(port)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = conversador_pb2_grpc.ConversadorServiceStub(channel)
            response = await stub.Draft(draft_request("Quero marcar uma limpeza amanhã"), metadata=metadata("gateway"))
    finally:
        await running.server.stop(0)
        await stop()

    assert response.WhichOneof("result") == "reply"
    assert "quarta-feira, 6 de novembro, 09:00" in response.reply.message
    assert response.reply.used_agenda_tool
    [(name, asked)] = fake.calls
    assert name == "CheckAvailability" and (asked.organization_id, asked.contact_id) == (ORG, CONTACT)
    assert [u.provider for u in response.usage] == ["offline", "offline"]


async def test_only_the_gateway_may_call_the_conversador(projection: tuple[FakeProjection, int]) -> None:
    _, port = projection
    running, stop = await serve_production(port)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = conversador_pb2_grpc.ConversadorServiceStub(channel)
            for caller in ("operador", "seguranca", "admin"):
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await stub.Draft(draft_request("oi"), metadata=metadata(caller))
                assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        await running.server.stop(0)
        await stop()


async def test_an_unreachable_projection_is_unavailable_but_a_turn_without_reads_still_answers() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    running, stop = await serve_production(closed_port)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = conversador_pb2_grpc.ConversadorServiceStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as down:
                await stub.Draft(draft_request("Quero marcar uma limpeza"), metadata=metadata("gateway"))
            assert down.value.code() == grpc.StatusCode.UNAVAILABLE
            greeting = await stub.Draft(draft_request("Oi, boa tarde"), metadata=metadata("gateway"))
            assert greeting.reply.message.startswith("Olá, Maria!")
    finally:
        await running.server.stop(0)
        await stop()


@pytest.fixture
async def scripted_server() -> AsyncIterator[tuple[ScriptedProvider, conversador_pb2_grpc.ConversadorServiceStub]]:
    model = ScriptedProvider()
    executor = ProjectionToolExecutor(FailingStub(grpc.StatusCode.UNAVAILABLE), SCOPE, timeout=1)  # type: ignore[arg-type]
    servicer = Conversador(model, lambda scope: executor)
    running = await start(
        ServiceDefinition(
            [Registration(servicer, conversador_pb2_grpc.add_ConversadorServiceServicer_to_server, POLICY)]
        )
    )
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
    yield model, conversador_pb2_grpc.ConversadorServiceStub(channel)
    await channel.close()
    await running.server.stop(0)


@pytest.mark.parametrize(
    ("overrides", "detail"),
    [
        ({"organization_id": "acme"}, "organization_id must be a UUID"),
        ({"contact_id": ""}, "contact_id must be a UUID"),
        ({"new_messages": []}, "nothing to answer"),
        ({"context": None}, "context is required"),
    ],
)
async def test_a_malformed_draft_is_invalid_argument_and_calls_no_model(
    scripted_server: tuple[ScriptedProvider, Any], overrides: dict[str, Any], detail: str
) -> None:
    model, stub = scripted_server
    request = draft_request("oi", **{k: v for k, v in overrides.items() if v is not None})
    if overrides.get("context", "") is None:
        request.ClearField("context")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.Draft(request, metadata=metadata("gateway"))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert detail in (refused.value.details() or "")
    assert model.requests == []


async def test_an_unavailable_model_or_projection_is_unavailable(scripted_server: tuple[ScriptedProvider, Any]) -> None:
    from balcao.models.scripted import tool_calls

    model, stub = scripted_server
    model.then(ModelUnavailable("anthropic 529"), tool_calls(("list_my_appointments", {})))
    for _ in range(2):
        with pytest.raises(grpc.aio.AioRpcError) as down:
            await stub.Draft(draft_request("tenho consulta?"), metadata=metadata("gateway"))
        assert down.value.code() == grpc.StatusCode.UNAVAILABLE


async def test_close_over_grpc_returns_the_checkpoint(scripted_server: tuple[ScriptedProvider, Any]) -> None:
    model, stub = scripted_server
    model.then(
        text('{"rolling_summary": "Maria quer limpeza.", "commitments": [], "objections": [], "next_action": "marcar"}')
    )
    request = cv.CloseRequest(
        organization_id=ORG, contact_id=CONTACT, sent=cv.SentReply(text="Tenho quarta às 9h.", delivered=True)
    )
    response = await stub.Close(request, metadata=metadata("gateway"))
    assert response.checkpoint.rolling_summary == "Maria quer limpeza."
    assert response.checkpoint.next_action == "marcar"
    assert not response.checkpoint.HasField("declaracao")

    bad = cv.CloseRequest(organization_id=ORG, contact_id=CONTACT)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.Close(bad, metadata=metadata("gateway"))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
