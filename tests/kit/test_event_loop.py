"""The event loop service processes run on (`balcao serve` → `run_loop`)."""

from __future__ import annotations

import asyncio

import pytest

from balcao.kit.server import EVENT_LOOP_ENV, run_loop


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def test_services_run_on_uvloop_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(EVENT_LOOP_ENV, raising=False)
    assert run_loop(_loop_module()) == "uvloop"
    monkeypatch.setenv(EVENT_LOOP_ENV, "asyncio")
    assert run_loop(_loop_module()) == "asyncio"


def test_an_unknown_loop_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EVENT_LOOP_ENV, "trio")
    with pytest.raises(ValueError, match="BALCAO_EVENT_LOOP"):
        run_loop(_loop_module())
