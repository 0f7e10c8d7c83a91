"""BALCAO_OPERADOR_SCRIPT_DIR is a test hook the production process reads: it changes nothing unless set, and
when set only organisations with a script file get the scripted model."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from balcao.models.scripted import ScriptedProvider
from services.operador.config import Settings
from services.operador.processing import Processor, ScriptLibrary


@pytest.fixture(autouse=True)
def _secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_MESH_SECRET", "a-test-secret-of-enough-length")


def test_unset_means_no_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BALCAO_OPERADOR_SCRIPT_DIR", raising=False)
    assert Settings().script_dir is None
    configured = ScriptedProvider()
    assert Processor(None, configured, None).provider_for(str(uuid.uuid4())) is configured  # type: ignore[arg-type]


def test_set_it_scripts_only_the_organisations_with_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BALCAO_OPERADOR_SCRIPT_DIR", str(tmp_path))
    assert Settings().script_dir == tmp_path
    scripted, other = str(uuid.uuid4()), str(uuid.uuid4())
    (tmp_path / f"{scripted}.json").write_text(json.dumps([{"text": "ok"}]), encoding="utf-8")
    configured = ScriptedProvider()
    processor = Processor(None, configured, ScriptLibrary(tmp_path))  # type: ignore[arg-type]
    assert processor.provider_for(other) is configured
    chosen = processor.provider_for(scripted)
    assert chosen is not configured and isinstance(chosen, ScriptedProvider) and chosen.remaining == 1
