"""The Evolution webhook bodies of shared/fixtures/evolution (rebuilt from Evolution 2.3.6's source)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "evolution"


def fixture_paths() -> list[Path]:
    return sorted(FIXTURES.glob("*.json"))


def load_fixture(prefix: str) -> dict[str, Any]:
    """A fresh copy of the fixture whose file name starts with `prefix` ("01", "09", …)."""
    (path,) = [p for p in fixture_paths() if p.name.startswith(prefix)]
    return copy.deepcopy(json.loads(path.read_text(encoding="utf-8")))
