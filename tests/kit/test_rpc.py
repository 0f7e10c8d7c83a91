"""One hop as the kit makes it: `open_channel` → `create_server`, signed, checked and traced.

A small servicer on a real in-process server (port 0), called through a real channel: who the
servicer sees as its caller, who is refused before it runs, and the spans both sides leave
(one trace, client span child of the caller's span, server span child of the client span).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import grpc
import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.trace import SpanKind, StatusCode

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_read_pb2_grpc, event_queue_pb2_grpc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.kit.channels import open_channel
from balcao.kit.identity import InvalidToken, TokenVerifier, allow, current_caller, mint_token
from balcao.kit.server import Registration, RunningServer, ServiceDefinition, create_server
from services.gateway.config import Settings as GatewaySettings
from services.seguranca.config import Settings as SegurancaSettings

SECRET = secrets.token_urlsafe(32)
READ = rd.DESCRIPTOR.services_by_name["CrmReadService"]
QUEUE = eq.DESCRIPTOR.services_by_name["EventQueueService"]
METHOD = "/balcao.crm.v1.CrmReadService/GetOrganization"


class _Recorder(SpanProcessor):
    """Keeps the spans that end while a test listens (the provider is process-wide)."""

    def __init__(self) -> None:
        self.spans: list[ReadableSpan] | None = None

    def on_end(self, span: ReadableSpan) -> None:
        if self.spans is not None:
            self.spans.append(span)


_RECORDER = _Recorder()


@pytest.fixture
def spans() -> Iterator[list[ReadableSpan]]:
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        trace.set_tracer_provider(TracerProvider())
        provider = trace.get_tracer_provider()
    assert isinstance(provider, TracerProvider)
    if not getattr(provider, "_balcao_test_recorder", False):
        provider.add_span_processor(_RECORDER)
        provider._balcao_test_recorder = True  # type: ignore[attr-defined]
    _RECORDER.spans = []
    yield _RECORDER.spans
    _RECORDER.spans = None


class Read(crm_read_pb2_grpc.CrmReadServiceServicer):
    def __init__(self) -> None:
        self.callers: list[str | None] = []

    async def GetOrganization(self, request: rd.GetOrganizationRequest, context: Any) -> rd.GetOrganizationResponse:
        self.callers.append(current_caller.get())
        if request.organization_id == "missing":
            await context.abort(grpc.StatusCode.NOT_FOUND, "no such organisation")
        if request.organization_id == "broken":
            raise RuntimeError("the servicer broke")
        return rd.GetOrganizationResponse(organization=r.Organization(organization_id=request.organization_id))


class Queue(event_queue_pb2_grpc.EventQueueServiceServicer):
    async def Subscribe(self, request: eq.SubscribeRequest, context: Any) -> AsyncIterator[eq.SubscribeResponse]:
        for kind in ("a", "b"):
            yield eq.SubscribeResponse(kind=f"{kind}:{current_caller.get()}")


@pytest.fixture
async def served() -> AsyncIterator[tuple[RunningServer, Read]]:
    read = Read()
    definition = ServiceDefinition(
        [
            Registration(read, crm_read_pb2_grpc.add_CrmReadServiceServicer_to_server, allow(READ, ["seguranca"])),
            Registration(
                Queue(), event_queue_pb2_grpc.add_EventQueueServiceServicer_to_server, allow(QUEUE, ["gateway"])
            ),
        ]
    )
    running = await create_server(definition, secret=SECRET.encode(), host="127.0.0.1", port=0)
    await running.set_serving(True)
    yield running, read
    await running.server.stop(0)


def _settings(cls: Any, running: RunningServer) -> Any:
    return cls(mesh_secret=SECRET, crm_addr=f"127.0.0.1:{running.port}")


async def test_a_signed_call_reaches_the_servicer_as_its_caller(served: tuple[RunningServer, Read]) -> None:
    running, read = served
    async with open_channel(_settings(SegurancaSettings, running), "crm") as channel:
        stub = crm_read_pb2_grpc.CrmReadServiceStub(channel)
        for org in ("o1", "o2", "o3"):  # the second and third carry a token the server has seen
            reply = await stub.GetOrganization(rd.GetOrganizationRequest(organization_id=org))
            assert reply.organization.organization_id == org
    assert read.callers == ["seguranca", "seguranca", "seguranca"]


async def test_a_caller_not_on_the_list_is_refused_before_the_servicer(served: tuple[RunningServer, Read]) -> None:
    running, read = served
    async with open_channel(_settings(GatewaySettings, running), "crm") as channel:
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await crm_read_pb2_grpc.CrmReadServiceStub(channel).GetOrganization(rd.GetOrganizationRequest())
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert refused.value.details() == f"gateway may not call {METHOD}"
    assert read.callers == []


@pytest.mark.parametrize(
    ("token", "details"),
    [
        (None, "missing caller identity"),
        (mint_token(b"another-secret-of-another-mesh", "seguranca"), "invalid caller identity: bad signature"),
        (mint_token(SECRET.encode(), "seguranca", ttl=1, now=1_000_000), "invalid caller identity: token expired"),
    ],
)
async def test_an_unsigned_forged_or_expired_call_is_unauthenticated(
    served: tuple[RunningServer, Read], token: str | None, details: str
) -> None:
    running, read = served
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        stub = crm_read_pb2_grpc.CrmReadServiceStub(channel)
        for _ in range(2):  # a refused token is refused again, not remembered as good
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.GetOrganization(rd.GetOrganizationRequest(), metadata=metadata)
            assert (refused.value.code(), refused.value.details()) == (grpc.StatusCode.UNAUTHENTICATED, details)
    assert read.callers == []


async def test_one_trace_crosses_the_hop(served: tuple[RunningServer, Read], spans: list[ReadableSpan]) -> None:
    running, _read = served
    async with open_channel(_settings(SegurancaSettings, running), "crm") as channel:
        stub = crm_read_pb2_grpc.CrmReadServiceStub(channel)
        with trace.get_tracer("test").start_as_current_span("turn") as turn:
            await stub.GetOrganization(rd.GetOrganizationRequest(organization_id="o1"))
    by_kind = {span.kind: span for span in spans if span.name == METHOD}
    client, server = by_kind[SpanKind.CLIENT], by_kind[SpanKind.SERVER]
    trace_id = turn.get_span_context().trace_id
    assert client.context.trace_id == server.context.trace_id == trace_id
    assert client.parent is not None and client.parent.span_id == turn.get_span_context().span_id
    assert server.parent is not None and server.parent.span_id == client.context.span_id
    for span in (client, server):
        assert span.attributes is not None
        assert span.attributes["rpc.system"] == "grpc"
        assert span.attributes["rpc.service"] == "balcao.crm.v1.CrmReadService"
        assert span.attributes["rpc.method"] == "GetOrganization"
        assert span.attributes["rpc.grpc.status_code"] == 0
        assert span.status.status_code == StatusCode.UNSET
    assert server.attributes is not None and server.attributes["net.peer.ip"] == "127.0.0.1"


async def test_failed_calls_are_marked_on_both_sides(
    served: tuple[RunningServer, Read], spans: list[ReadableSpan]
) -> None:
    running, _read = served
    async with open_channel(_settings(SegurancaSettings, running), "crm") as channel:
        stub = crm_read_pb2_grpc.CrmReadServiceStub(channel)
        for org, code in (("missing", grpc.StatusCode.NOT_FOUND), ("broken", grpc.StatusCode.UNKNOWN)):
            with pytest.raises(grpc.aio.AioRpcError) as failed:
                await stub.GetOrganization(rd.GetOrganizationRequest(organization_id=org))
            assert failed.value.code() == code
    client = [s for s in spans if s.name == METHOD and s.kind == SpanKind.CLIENT]
    server = [s for s in spans if s.name == METHOD and s.kind == SpanKind.SERVER]
    assert [s.attributes["rpc.grpc.status_code"] for s in client if s.attributes] == [5, 2]
    assert [s.status.status_code for s in client] == [StatusCode.ERROR, StatusCode.ERROR]
    assert [s.attributes["rpc.grpc.status_code"] for s in server if s.attributes] == [5, 2]
    # NOT_FOUND is the caller's business; an exception in the servicer is the server's failure.
    assert [s.status.status_code for s in server] == [StatusCode.UNSET, StatusCode.ERROR]
    assert [e.name for e in server[1].events] == ["exception"]


async def test_a_streaming_call_is_signed_and_traced(
    served: tuple[RunningServer, Read], spans: list[ReadableSpan]
) -> None:
    running, _read = served
    async with open_channel(_settings(GatewaySettings, running), "crm") as channel:
        stream = event_queue_pb2_grpc.EventQueueServiceStub(channel).Subscribe(eq.SubscribeRequest())
        kinds = [message.kind async for message in stream]
    assert kinds == ["a:gateway", "b:gateway"]
    subscribe = [s for s in spans if s.name == "/balcao.crm.v1.EventQueueService/Subscribe"]
    assert sorted(s.kind.name for s in subscribe) == ["CLIENT", "SERVER"]
    client = next(s for s in subscribe if s.kind == SpanKind.CLIENT)
    server = next(s for s in subscribe if s.kind == SpanKind.SERVER)
    assert server.parent is not None and server.parent.span_id == client.context.span_id


def test_a_cached_token_is_refused_once_it_expires() -> None:
    verifier = TokenVerifier(SECRET.encode())
    token = mint_token(SECRET.encode(), "operador", ttl=60, now=1_000_000)
    assert verifier.verify(token, now=1_000_010) == "operador"
    assert verifier.verify(token, now=1_000_080) == "operador"  # within the clock skew
    with pytest.raises(InvalidToken, match="expired"):
        verifier.verify(token, now=1_000_200)
    with pytest.raises(InvalidToken, match="expired"):
        verifier.verify(token, now=1_000_200)


def test_a_forged_token_is_refused_every_time() -> None:
    verifier = TokenVerifier(SECRET.encode())
    good = mint_token(SECRET.encode(), "operador")
    assert verifier.verify(good) == "operador"
    forged = ".".join(["gateway", *good.split(".")[1:]])
    for _ in range(2):
        with pytest.raises(InvalidToken, match="signature"):
            verifier.verify(forged)


class _Peers(crm_read_pb2_grpc.CrmReadServiceServicer):
    """Which client connection (address and port) each call came on."""

    def __init__(self) -> None:
        self.peers: list[str] = []

    async def GetOrganization(self, request: rd.GetOrganizationRequest, context: Any) -> rd.GetOrganizationResponse:
        self.peers.append(context.peer())
        return rd.GetOrganizationResponse(organization=r.Organization(organization_id=request.organization_id))


async def test_an_old_connection_is_closed_so_the_next_calls_open_a_new_one() -> None:
    """A Kubernetes Service balances connections, not calls: a server that ages connections out
    makes every client reconnect now and then, and so reach the replicas added since."""
    peers = _Peers()
    definition = ServiceDefinition(
        [Registration(peers, crm_read_pb2_grpc.add_CrmReadServiceServicer_to_server, allow(READ, ["seguranca"]))]
    )
    running = await create_server(
        definition, secret=SECRET.encode(), host="127.0.0.1", port=0,
        max_connection_age_seconds=0.3, max_connection_age_grace_seconds=0.3,
    )
    await running.set_serving(True)
    try:
        async with open_channel(_settings(SegurancaSettings, running), "crm") as channel:
            stub = crm_read_pb2_grpc.CrmReadServiceStub(channel)
            await stub.GetOrganization(rd.GetOrganizationRequest(organization_id="o1"))
            await stub.GetOrganization(rd.GetOrganizationRequest(organization_id="o2"))
            await asyncio.sleep(1.5)  # past the age and the grace: the server closed the connection
            await stub.GetOrganization(rd.GetOrganizationRequest(organization_id="o3"))
    finally:
        await running.server.stop(0)
    assert peers.peers[0] == peers.peers[1] != peers.peers[2]


def test_connections_age_out_by_default_after_five_minutes_with_five_more_to_finish() -> None:
    settings = SegurancaSettings(mesh_secret=SECRET)
    assert (settings.grpc_max_connection_age_seconds, settings.grpc_max_connection_age_grace_seconds) == (300, 300)
