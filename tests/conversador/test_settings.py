"""The Conversador's settings: one peer (projection), the model's variables, the seeds' knobs."""

from __future__ import annotations

import pytest

from balcao.kit.settings import SettingsError, load_settings
from services.conversador.config import Settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_MESH_SECRET", "s" * 32)
    for name in ("ANTHROPIC_API_KEY", "ROLLING_SUMMARY_MAX_TOKENS", "PRUNE_TOOL_RESULTS_MIN_RESULT_TOKENS"):
        monkeypatch.delenv(name, raising=False)


def test_the_conversador_has_no_crm_or_agenda_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_CRM_ADDR", "crm:50055")
    monkeypatch.setenv("BALCAO_AGENDA_ADDR", "agenda:50056")
    settings = load_settings(Settings)
    addresses = {name for name in Settings.model_fields if name.endswith("_addr")}
    assert addresses == {"projection_addr"}
    for peer in ("crm", "agenda", "operador", "seguranca", "gateway"):
        with pytest.raises(LookupError):
            settings.peer_addr(peer)
    assert "crm" not in settings.model_dump_json() and "agenda:50056" not in settings.model_dump_json()


def test_the_seed_knobs_read_their_own_names_and_the_prefixed_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(Settings)
    assert settings.prune_tool_results_min_result_tokens == 200
    assert settings.rolling_summary_max_tokens is None
    monkeypatch.setenv("PRUNE_TOOL_RESULTS_MIN_RESULT_TOKENS", "120")
    monkeypatch.setenv("BALCAO_CONVERSADOR_ROLLING_SUMMARY_MAX_TOKENS", "700")
    settings = load_settings(Settings)
    assert (settings.prune_tool_results_min_result_tokens, settings.rolling_summary_max_tokens) == (120, 700)


def test_a_bad_knob_stops_the_service_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROLLING_SUMMARY_MAX_TOKENS", "muitos")
    with pytest.raises(SettingsError, match="BALCAO_CONVERSADOR_ROLLING_SUMMARY_MAX_TOKENS"):
        load_settings(Settings)
