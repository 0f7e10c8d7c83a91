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
