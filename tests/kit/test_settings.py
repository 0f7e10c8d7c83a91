"""Settings: read once from the environment; a bad value is one clear line."""

from __future__ import annotations

import pytest

from balcao.kit.settings import SettingsError, load_settings
from services.conversador.config import Settings as ConversadorSettings
from services.crm.config import Settings as CrmSettings

SECRET = "s" * 32


def test_defaults_are_the_fixed_ports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_MESH_SECRET", SECRET)
    settings = load_settings(CrmSettings)
    assert settings.grpc_port == 50055
    assert settings.bind_host == "127.0.0.1"
    assert settings.database_url is None


def test_each_service_reads_its_own_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_MESH_SECRET", SECRET)
    monkeypatch.setenv("BALCAO_CRM_GRPC_PORT", "6000")
    monkeypatch.setenv("BALCAO_PROJECTION_ADDR", "projection.internal:7000")
    assert load_settings(CrmSettings).grpc_port == 6000
    conversador = load_settings(ConversadorSettings)
    assert conversador.grpc_port == 50051
    assert conversador.peer_addr("projection") == "projection.internal:7000"


def test_the_conversador_has_no_address_for_crm_or_agenda(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_MESH_SECRET", SECRET)
    monkeypatch.setenv("BALCAO_CRM_ADDR", "crm:50055")
    conversador = load_settings(ConversadorSettings)
    for peer in ("crm", "agenda", "operador"):
        with pytest.raises(LookupError):
            conversador.peer_addr(peer)


def test_a_missing_secret_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BALCAO_MESH_SECRET", raising=False)
    with pytest.raises(SettingsError) as caught:
        load_settings(CrmSettings)
    assert caught.value.message == "missing setting BALCAO_MESH_SECRET"


def test_an_invalid_port_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_MESH_SECRET", SECRET)
    monkeypatch.setenv("BALCAO_CRM_GRPC_PORT", "not-a-port")
    with pytest.raises(SettingsError) as caught:
        load_settings(CrmSettings)
    assert caught.value.message.startswith("invalid setting BALCAO_CRM_GRPC_PORT")
    assert "\n" not in caught.value.message
