"""Client channels to peers: signed with the caller's identity and traced.

`open_channel` returns a `MeshChannel`: a grpc.aio channel without client interceptors whose
multi-callables (what generated stubs hold) add, per call, this service's `authorization`
(a token minted once and reused until half its lifetime) and the trace context of a CLIENT
span, and end that span when the call's outcome is awaited. An aio interceptor chain would cost
an extra task and a metadata copy per interceptor on every call; the span and the metadata are
the same as with the OpenTelemetry instrumentation.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator
from typing import Any

import grpc
from opentelemetry import propagate, trace
from opentelemetry.trace import SpanKind

from balcao.kit.identity import TokenCache, signed_metadata
from balcao.kit.settings import ServiceSettings
from balcao.kit.telemetry import end_client_span, method_attributes, rpc_tracer


def open_channel(settings: ServiceSettings, peer: str) -> MeshChannel:
    """A channel to `peer` at its configured address, every call signed as this service."""
    return MeshChannel(
        grpc.aio.insecure_channel(settings.peer_addr(peer)),
        TokenCache(settings.mesh_secret.get_secret_value().encode(), settings.service_name),
    )


class _Calls:
    """What every multi-callable of one channel shares."""

    __slots__ = ("tokens", "tracer")

    def __init__(self, tokens: TokenCache, tracer: trace.Tracer) -> None:
        self.tokens, self.tracer = tokens, tracer

    def start(self, method: str, attributes: dict[str, Any], metadata: Any) -> tuple[trace.Span, list[tuple[str, Any]]]:
        span = self.tracer.start_span(method, kind=SpanKind.CLIENT, attributes=attributes)
        carrier: dict[str, str] = {}
        propagate.inject(carrier, context=trace.set_span_in_context(span))
        signed = signed_metadata(self.tokens.header(), metadata)
        signed.extend(carrier.items())
        return span, signed


def _method_name(method: str | bytes) -> str:
    return method.decode() if isinstance(method, bytes) else method


class _TracedUnaryCall:
    """The call as grpc.aio returns it, whose awaiting ends the CLIENT span."""

    __slots__ = ("_call", "_span")

    def __init__(self, call: Any, span: trace.Span) -> None:
        self._call, self._span = call, span

    def __await__(self) -> Generator[Any, None, Any]:
        error: grpc.aio.AioRpcError | None = None
        try:
            return (yield from self._call.__await__())
        except grpc.aio.AioRpcError as exc:
            error = exc
            raise
        finally:
            span, self._span = self._span, None
            if span is not None:
                end_client_span(span, error)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._call, name)


class _TracedStreamCall:
    """A response-streaming call whose iteration ends the CLIENT span."""

    __slots__ = ("_call", "_span")

    def __init__(self, call: Any, span: trace.Span) -> None:
        self._call, self._span = call, span

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._responses()

    async def _responses(self) -> AsyncIterator[Any]:
        error: grpc.aio.AioRpcError | None = None
        try:
            async for response in self._call:
                yield response
        except grpc.aio.AioRpcError as exc:
            error = exc
            raise
        finally:
            span, self._span = self._span, None
            if span is not None:
                end_client_span(span, error)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._call, name)


class _MultiCallable:
    __slots__ = ("_attributes", "_calls", "_inner", "_method", "_wrap")

    def __init__(self, inner: Any, method: str, calls: _Calls, wrap: type) -> None:
        self._inner, self._method, self._calls, self._wrap = inner, method, calls, wrap
        self._attributes = method_attributes(method)

    def __call__(self, request: Any, *, metadata: Any = None, **kwargs: Any) -> Any:
        span, signed = self._calls.start(self._method, self._attributes, metadata)
        try:
            call = self._inner(request, metadata=signed, **kwargs)
        except BaseException:
            span.end()
            raise
        return self._wrap(call, span)


class MeshChannel(grpc.aio.Channel):
    """A grpc.aio channel whose every call is signed as this service and traced."""

    def __init__(self, channel: grpc.aio.Channel, tokens: TokenCache) -> None:
        self._channel = channel
        self._calls = _Calls(tokens, rpc_tracer())

    def unary_unary(self, method: str, *args: Any, **kwargs: Any) -> Any:
        inner = self._channel.unary_unary(method, *args, **kwargs)
        return _MultiCallable(inner, _method_name(method), self._calls, _TracedUnaryCall)

    def unary_stream(self, method: str, *args: Any, **kwargs: Any) -> Any:
        inner = self._channel.unary_stream(method, *args, **kwargs)
        return _MultiCallable(inner, _method_name(method), self._calls, _TracedStreamCall)

    def stream_unary(self, method: str, *args: Any, **kwargs: Any) -> Any:
        inner = self._channel.stream_unary(method, *args, **kwargs)
        return _MultiCallable(inner, _method_name(method), self._calls, _TracedUnaryCall)

    def stream_stream(self, method: str, *args: Any, **kwargs: Any) -> Any:
        inner = self._channel.stream_stream(method, *args, **kwargs)
        return _MultiCallable(inner, _method_name(method), self._calls, _TracedStreamCall)

    async def __aenter__(self) -> MeshChannel:
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self._channel.close(None)

    async def close(self, grace: float | None = None) -> None:
        await self._channel.close(grace)

    def get_state(self, try_to_connect: bool = False) -> grpc.ChannelConnectivity:
        return self._channel.get_state(try_to_connect)

    async def wait_for_state_change(self, last_observed_state: grpc.ChannelConnectivity) -> None:
        await self._channel.wait_for_state_change(last_observed_state)

    async def channel_ready(self) -> None:
        await self._channel.channel_ready()
