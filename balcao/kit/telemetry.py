"""OpenTelemetry tracing and metrics: one trace crosses the mesh; each service's meters export.

The trace exporter is chosen by the standard variables: `OTEL_TRACES_EXPORTER` = `none` (the
default), `console`, or `otlp` (then `OTEL_EXPORTER_OTLP_ENDPOINT` and friends, read by the
exporter itself). `OTEL_SERVICE_NAME` overrides the service name.

Metrics (counters and histograms a service records through `opentelemetry.metrics.get_meter`)
are exported over OTLP/gRPC when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
`OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`) is set, unless `OTEL_METRICS_EXPORTER=none`; otherwise
they are kept in the process and exported nowhere.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import grpc
from opentelemetry import metrics, trace
from opentelemetry.instrumentation.grpc import aio_client_interceptors, aio_server_interceptor
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SimpleSpanProcessor,
    SpanExporter,
)


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


def configure_telemetry(service: str) -> Callable[[], None]:
    """Install the tracer and meter providers; returns the flush-and-shutdown function."""
    name = os.environ.get("OTEL_SERVICE_NAME") or f"balcao-{service}"
    resource = Resource.create({"service.name": name})
    provider = TracerProvider(resource=resource)
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


# Not traced: probes and reflection are noise, and the instrumentation only understands
# streaming handlers written as async generators (the health servicer's Watch is not one).
UNTRACED_SERVICES = ("grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection")


def _traced(details: grpc.HandlerCallDetails) -> bool:
    """Whether a call is traced: one prefix test per call (the instrumentation's own `service_name`
    filters parse the method path with `os.path` and protocol `isinstance` checks on every call)."""
    method = details.method
    if isinstance(method, bytes):
        method = method.decode()
    return not method.startswith(_UNTRACED_PREFIXES)


_UNTRACED_PREFIXES = tuple(f"/{name}/" for name in UNTRACED_SERVICES)


def server_interceptors() -> list[grpc.aio.ServerInterceptor]:
    return [aio_server_interceptor(filter_=_traced)]


def client_interceptors() -> list[grpc.aio.ClientInterceptor]:
    return list(aio_client_interceptors())
