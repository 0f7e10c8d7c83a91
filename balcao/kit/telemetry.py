"""OpenTelemetry tracing and metrics: one trace crosses the mesh; each service's meters export.

The trace exporter is chosen by the standard variables: `OTEL_TRACES_EXPORTER` = `none` (the
default), `console`, or `otlp` (then `OTEL_EXPORTER_OTLP_ENDPOINT` and friends, read by the
exporter itself). `OTEL_SERVICE_NAME` overrides the service name. Spans are recorded only while a
span processor is installed (an exporter, or one a test or bench adds); otherwise they are
created unrecorded, with valid ids that still propagate (`_WhenObserved`).

Metrics (counters and histograms a service records through `opentelemetry.metrics.get_meter`)
are exported over OTLP/gRPC when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
`OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`) is set, unless `OTEL_METRICS_EXPORTER=none`; otherwise
they are kept in the process and exported nowhere.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import grpc
from opentelemetry import metrics, trace
from opentelemetry.instrumentation.grpc import aio_client_interceptors
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SimpleSpanProcessor,
    SpanExporter,
)
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, Sampler, SamplingResult
from opentelemetry.trace import Status, StatusCode


class TelemetryError(Exception):
    pass


def _exporter(kind: str) -> SpanExporter | None:
    if kind in ("", "none"):
        return None
    if kind == "console":
        return ConsoleSpanExporter()
    if kind == "otlp":
        protocol = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or os.environ.get(
            "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"
        )
        if protocol == "grpc":
            from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

            return OTLPSpanExporter()
        raise TelemetryError(f"invalid setting OTEL_EXPORTER_OTLP_PROTOCOL: {protocol!r} (use grpc)")
    raise TelemetryError(f"invalid setting OTEL_TRACES_EXPORTER: {kind!r} (use none, console or otlp)")


def metric_readers() -> list[MetricReader]:
    """OTLP export of the metrics when an OTLP endpoint is configured; none otherwise."""
    if os.environ.get("OTEL_METRICS_EXPORTER", "").strip().lower() == "none":
        return []
    if not (os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or os.environ.get("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")):
        return []
    from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter

    return [PeriodicExportingMetricReader(OTLPMetricExporter())]


class _WhenObserved(Sampler):
    """The configured sampler while a span processor is installed; no recording while none is.

    With no exporter (the default) a finished span goes nowhere, yet recording it (attributes,
    events, timestamps, the processor calls) was a good part of each hop's cost. Unrecorded spans
    keep valid trace and span ids, so logs, the turn's trace id and the propagation across the
    mesh are the same; what changes is the sampled flag they propagate (not set), which matters
    only if some processes export and others do not (the Kubernetes telemetry component
    configures them all alike).
    """

    def __init__(self, configured: Sampler) -> None:
        self.configured = configured
        self.observed = False

    def should_sample(self, *args: Any, **kwargs: Any) -> SamplingResult:
        if self.observed:
            return self.configured.should_sample(*args, **kwargs)
        return ALWAYS_OFF.should_sample(*args, **kwargs)

    def get_description(self) -> str:
        return f"WhenObserved{{{self.configured.get_description()}}}"


class ObservedTracerProvider(TracerProvider):
    """A tracer provider that records spans from the moment someone receives them."""

    def __init__(self, resource: Resource | None = None) -> None:
        # The sampler OTEL_TRACES_SAMPLER names (ParentBased(ALWAYS_ON) by default).
        self._gate = _WhenObserved(TracerProvider(shutdown_on_exit=False).sampler)
        super().__init__(resource=resource, sampler=self._gate, shutdown_on_exit=resource is not None)

    def add_span_processor(self, span_processor: SpanProcessor) -> None:
        super().add_span_processor(span_processor)
        self._gate.observed = True


def configure_telemetry(service: str) -> Callable[[], None]:
    """Install the tracer and meter providers; returns the flush-and-shutdown function."""
    name = os.environ.get("OTEL_SERVICE_NAME") or f"balcao-{service}"
    resource = Resource.create({"service.name": name})
    provider = ObservedTracerProvider(resource)
    meter_provider = MeterProvider(resource=resource, metric_readers=metric_readers())
    metrics.set_meter_provider(meter_provider)
    exporter = _exporter(os.environ.get("OTEL_TRACES_EXPORTER", "none").strip().lower())
    if exporter is not None:
        processor = (
            SimpleSpanProcessor(exporter)
            if isinstance(exporter, ConsoleSpanExporter)
            else BatchSpanProcessor(exporter)
        )
        provider.add_span_processor(processor)
    trace.set_tracer_provider(provider)

    def shutdown() -> None:
        provider.force_flush()
        provider.shutdown()
        meter_provider.shutdown()

    return shutdown


# RPC spans. The kit traces calls itself (the server wraps each handler once, `open_channel`
# wraps each stub's callable) with the span names and attributes of the OpenTelemetry gRPC
# instrumentation: one SERVER span per served call, one CLIENT span per call made, the context
# carried in the metadata by the global propagator (W3C trace context and baggage by default).
RPC_SYSTEM = "rpc.system"
RPC_SERVICE = "rpc.service"
RPC_METHOD = "rpc.method"
RPC_STATUS_CODE = "rpc.grpc.status_code"
# A server span is an error only for the codes that mean the server failed (a refused or
# invalid request is the caller's business); a client span is an error for any code but OK.
SERVER_ERROR_CODES = frozenset(
    {
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.UNIMPLEMENTED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DATA_LOSS,
    }
)
TRACER_NAME = "balcao.kit.rpc"


def rpc_tracer() -> trace.Tracer:
    return trace.get_tracer(TRACER_NAME)


def method_attributes(method: str) -> dict[str, Any]:
    """The attributes every span of `method` (`/package.Service/Method`) starts with."""
    service, _, name = method.lstrip("/").partition("/")
    return {RPC_SYSTEM: "grpc", RPC_STATUS_CODE: grpc.StatusCode.OK.value[0], RPC_METHOD: name, RPC_SERVICE: service}


_peers: dict[str, dict[str, str]] = {}


def peer_attributes(peer: str) -> dict[str, str]:
    """`net.peer.*` of a gRPC peer string (`ipv4:127.0.0.1:57284`, `ipv6:[::1]:57284`)."""
    known = _peers.get(peer)
    if known is not None:
        return known
    attributes: dict[str, str] = {}
    if not peer.startswith("unix:"):
        try:
            ip, port = peer.split(",")[0].split(":", 1)[1].rsplit(":", 1)
        except (IndexError, ValueError):
            pass
        else:
            ip = unquote(ip)
            attributes = {"net.peer.ip": ip, "net.peer.port": port}
            if ip in ("[::1]", "127.0.0.1"):
                attributes["net.peer.name"] = "localhost"
    if len(_peers) >= 1024:
        _peers.clear()
    _peers[peer] = attributes
    return attributes


def end_server_span(span: trace.Span, code: grpc.StatusCode | None, details: str | None) -> None:
    if isinstance(code, grpc.StatusCode) and code is not grpc.StatusCode.OK:
        span.set_attribute(RPC_STATUS_CODE, code.value[0])
        if code in SERVER_ERROR_CODES:
            span.set_status(Status(StatusCode.ERROR, f"{code}:{details}"))
    span.end()


def end_client_span(span: trace.Span, error: grpc.aio.AioRpcError | None) -> None:
    if error is not None:
        span.set_attribute(RPC_STATUS_CODE, error.code().value[0])
        span.set_status(Status(StatusCode.ERROR, error.details()))
    span.end()


def client_interceptors() -> list[grpc.aio.ClientInterceptor]:
    """The OpenTelemetry instrumentation's client interceptors, for channels `open_channel` does not
    make (it traces without interceptors)."""
    return list(aio_client_interceptors())
