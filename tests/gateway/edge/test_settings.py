"""The edge's settings read the gateway's environment and build the pieces the router takes."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from pydantic_settings import SettingsConfigDict

from services.gateway.edge.settings import EdgeSettings


class GatewaySettings(EdgeSettings):
    """As the gateway's Settings mixes it in: prefix BALCAO_GATEWAY_."""

    model_config = SettingsConfigDict(env_prefix="BALCAO_GATEWAY_", extra="ignore")


def test_environment_reaches_the_router_client_and_enricher(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_GATEWAY_EDGE_WEBHOOK_MAX_BODY_BYTES", str(2 * 1024 * 1024))
    monkeypatch.setenv("BALCAO_GATEWAY_EDGE_EVOLUTION_ATTEMPTS", "5")
    monkeypatch.setenv("BALCAO_GATEWAY_EDGE_GEOCODE_ENABLED", "false")
    settings = GatewaySettings()
    assert settings.limits().webhook_max_body_bytes == 2 * 1024 * 1024
    assert settings.evolution_client().retry.attempts == 5
    assert settings.enricher().geocoder is None


def test_nonsense_is_refused_at_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_GATEWAY_EDGE_EVOLUTION_ATTEMPTS", "0")
    with pytest.raises(ValidationError, match="edge_evolution_attempts"):
        GatewaySettings()
