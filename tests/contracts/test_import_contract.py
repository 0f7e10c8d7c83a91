"""The import contract: the Conversador's code never reaches crm or agenda code or stubs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
    )


def test_the_contracts_hold_on_the_code_as_it_is() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_contract_fails_when_the_conversador_imports_a_write_stub(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "balcao", tree / "balcao", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "services", tree / "services", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    sneaky = tree / "services" / "conversador" / "sneaky.py"
    sneaky.write_text("from balcao.crm.v1 import crm_write_pb2_grpc\n")
    result = _lint(tree)
    assert result.returncode != 0
    assert "services.conversador.sneaky" in result.stdout
    assert "BROKEN" in result.stdout
