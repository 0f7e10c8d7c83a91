"""The kit's metrics export: OTLP only when an endpoint is configured, nothing otherwise."""

from __future__ import annotations

import pytest
from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader

from balcao.kit.telemetry import metric_readers


def test_no_endpoint_means_no_export(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_METRICS_EXPORTER"):
        monkeypatch.delenv(name, raising=False)
    assert metric_readers() == []


def test_an_otlp_endpoint_exports_unless_metrics_are_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
    monkeypatch.delenv("OTEL_METRICS_EXPORTER", raising=False)
    readers = metric_readers()
    try:
        assert len(readers) == 1 and isinstance(readers[0], PeriodicExportingMetricReader)
    finally:
        for reader in readers:
            reader.shutdown()
    monkeypatch.setenv("OTEL_METRICS_EXPORTER", "none")
    assert metric_readers() == []


def test_spans_are_recorded_once_someone_receives_them() -> None:
    from opentelemetry import propagate, trace
    from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor

    from balcao.kit.telemetry import ObservedTracerProvider

    provider = ObservedTracerProvider()
    tracer = provider.get_tracer("test")
    with tracer.start_as_current_span("unobserved") as span:
        carrier: dict[str, str] = {}
        propagate.inject(carrier)
        child = tracer.start_span("child")
    # Nobody receives spans: nothing is recorded, but the ids are real and propagate.
    assert not span.is_recording()
    assert span.get_span_context().is_valid
    assert carrier["traceparent"].split("-")[1] == format(span.get_span_context().trace_id, "032x")
    assert child.get_span_context().trace_id == span.get_span_context().trace_id

    ended: list[ReadableSpan] = []

    class Keep(SpanProcessor):
        def on_end(self, span: ReadableSpan) -> None:
            ended.append(span)

    provider.add_span_processor(Keep())
    with tracer.start_as_current_span("observed", attributes={"k": "v"}) as span:
        assert span.is_recording()
    assert [(s.name, dict(s.attributes or {})) for s in ended] == [("observed", {"k": "v"})]
    remote = trace.set_span_in_context(trace.NonRecordingSpan(span.get_span_context()))
    assert tracer.start_span("remote child", context=remote).get_span_context().trace_id == (
        span.get_span_context().trace_id
    )
