"""What runs around every servicer method: the caller check and the SERVER span, in one wrapper.

The kit's server does not use gRPC server interceptors for this. An aio interceptor chain runs
per call (a coroutine per interceptor, and the tracing one builds a new method handler and a
proxy context per call). Instead each registered method handler is wrapped once, when the
service is added to the server, by a function that per call:

1. reads the invocation metadata once (the bearer token, the trace context, the user agent);
2. starts the SERVER span, child of the caller's span (same name and attributes as the
   OpenTelemetry gRPC instrumentation), and makes it current;
3. checks the caller (`CallerCheck`: signed token, verified-token cache, per-RPC allowlist) and
   aborts with UNAUTHENTICATED / PERMISSION_DENIED before the servicer runs;
4. runs the servicer with `current_caller` set, then ends the span with the call's status.

Streaming handlers may be async generators or coroutines that write with `context.write`.
Health and reflection are registered directly on the server: open and untraced.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

import grpc
from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.trace import SpanKind

from balcao.kit.identity import CallerCheck, bearer
from balcao.kit.telemetry import end_server_span, method_attributes, peer_attributes, rpc_tracer

_AbortError = grpc.aio.AbortError


class _Guard:
    """Per-method constants, computed once at registration."""

    __slots__ = ("allowed", "attributes", "check", "method", "tracer")

    def __init__(self, method: str, check: CallerCheck, tracer: trace.Tracer) -> None:
        self.method = method
        self.check = check
        self.tracer = tracer
        self.allowed = check.allowed(method)
        self.attributes = method_attributes(method)

    def enter(self, context: grpc.aio.ServicerContext) -> tuple[trace.Span, object, str | None]:
        """Start the span (current from now on); return it, the context token and the bearer."""
        carrier: dict[str, Any] = {}
        for key, value in context.invocation_metadata() or ():
            carrier[key] = value
        attributes = {**self.attributes, **peer_attributes(context.peer())}
        agent = carrier.get("user-agent")
        if agent is not None:
            attributes["rpc.user_agent"] = agent
        parent = propagate.extract(carrier)
        span = self.tracer.start_span(self.method, context=parent, kind=SpanKind.SERVER, attributes=attributes)
        token = otel_context.attach(trace.set_span_in_context(span, parent))
        return span, token, bearer(carrier.get("authorization"))

    async def admit(self, context: grpc.aio.ServicerContext, token: str | None) -> None:
        refusal = self.check.refusal(self.method, self.allowed, token)
        if refusal is not None:
            await context.abort(*refusal)


def _leave(span: trace.Span, token: object, context: grpc.aio.ServicerContext, error: BaseException | None) -> None:
    code = context.code()
    if error is not None and not isinstance(error, _AbortError):
        span.record_exception(error)
        if code is None and isinstance(error, Exception):
            code = grpc.StatusCode.UNKNOWN
    end_server_span(span, code, context.details())
    otel_context.detach(token)


def _unary_response(guard: _Guard, behavior: Callable[..., Any]) -> Callable[..., Any]:
    async def handle(request: Any, context: grpc.aio.ServicerContext) -> Any:
        span, token, bearer_token = guard.enter(context)
        error: BaseException | None = None
        try:
            await guard.admit(context, bearer_token)
            return await behavior(request, context)
        except BaseException as exc:
            error = exc
            raise
        finally:
            _leave(span, token, context, error)

    return handle


def _stream_response(guard: _Guard, behavior: Callable[..., Any]) -> Callable[..., Any]:
    async def handle(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        span, token, bearer_token = guard.enter(context)
        error: BaseException | None = None
        try:
            await guard.admit(context, bearer_token)
            result = behavior(request, context)
            if hasattr(result, "__aiter__"):
                async for item in result:
                    yield item
            else:  # a coroutine that writes with context.write
                await result
        except BaseException as exc:
            error = exc
            raise
        finally:
            _leave(span, token, context, error)

    return handle


def guard_handler(method: str, handler: grpc.RpcMethodHandler, check: CallerCheck, tracer: trace.Tracer) -> Any:
    """`handler` with the caller check and the SERVER span around its behaviour."""
    guard = _Guard(method, check, tracer)
    kwargs = {
        "request_deserializer": handler.request_deserializer,
        "response_serializer": handler.response_serializer,
    }
    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(_stream_response(guard, handler.stream_stream), **kwargs)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(_unary_response(guard, handler.stream_unary), **kwargs)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(_stream_response(guard, handler.unary_stream), **kwargs)
    return grpc.unary_unary_rpc_method_handler(_unary_response(guard, handler.unary_unary), **kwargs)


class _GuardedGenericHandler(grpc.GenericRpcHandler):
    """A generic handler whose answers are guarded (wrapped once per method, on first use)."""

    def __init__(self, inner: grpc.GenericRpcHandler, check: CallerCheck, tracer: trace.Tracer) -> None:
        self._inner, self._check, self._tracer = inner, check, tracer
        self._wrapped: dict[str, Any] = {}

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> Any:
        method = handler_call_details.method
        wrapped = self._wrapped.get(method)
        if wrapped is None:
            handler = self._inner.service(handler_call_details)
            if handler is None:
                return None
            wrapped = self._wrapped[method] = guard_handler(method, handler, self._check, self._tracer)
        return wrapped


class _Collector:
    """Stands in for the server while a generated `add_*Servicer_to_server` registers a servicer."""

    def __init__(self) -> None:
        self.generic: list[grpc.GenericRpcHandler] = []
        self.registered: dict[str, dict[str, grpc.RpcMethodHandler]] = {}

    def add_generic_rpc_handlers(self, handlers: Iterable[grpc.GenericRpcHandler]) -> None:
        self.generic.extend(handlers)

    def add_registered_method_handlers(self, service: str, handlers: dict[str, grpc.RpcMethodHandler]) -> None:
        self.registered[service] = dict(handlers)


def register(
    server: grpc.aio.Server,
    add_to_server: Callable[[Any, Any], None],
    servicer: Any,
    check: CallerCheck | None = None,
    tracer: trace.Tracer | None = None,
) -> None:
    """Add `servicer` to `server` as generic handlers, guarded when a `check` is given.

    Never as grpc.aio "registered methods": the aio server keeps one pending request per
    registered method and waits on all of them (`asyncio.wait`) for every call it accepts, so
    a service with 70 RPCs paid ~70 future callbacks per call. Generic handlers are one dict
    lookup per call.
    """
    collected = _Collector()
    add_to_server(servicer, collected)
    tracer = tracer if tracer is not None else rpc_tracer()
    handlers: list[grpc.GenericRpcHandler] = []
    for service, methods in collected.registered.items():
        if check is not None:
            methods = {name: guard_handler(f"/{service}/{name}", h, check, tracer) for name, h in methods.items()}
        handlers.append(grpc.method_handlers_generic_handler(service, methods))
    if not collected.registered:  # generated code that only adds generic handlers
        handlers.extend(
            _GuardedGenericHandler(h, check, tracer) if check is not None else h for h in collected.generic
        )
    server.add_generic_rpc_handlers(tuple(handlers))
