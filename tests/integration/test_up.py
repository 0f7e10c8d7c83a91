"""`balcao up` (what `make up` runs): one per data folder, and Ctrl-C leaves nothing behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.mesh import RunningMesh, mesh_env, start_mesh, stop_mesh


def _processes_mentioning(text: str) -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if text in cmdline:
            found.append(f"{pid}: {cmdline}")
    return found


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def test_a_second_up_says_so_and_ctrl_c_stops_everything(data_folder: Path) -> None:
    data_dir = data_folder / "quickstart"
    mesh: RunningMesh = start_mesh(data_dir)
    try:
        assert "Balcão no ar" in mesh.text()
        children = _children(mesh.process.pid)
        assert len(children) == 7
        postgres = _processes_mentioning(str(data_dir / "postgres"))
        assert postgres, "the embedded PostgreSQL should run from the data folder"

        second = subprocess.run(
            [sys.executable, "-m", "balcao.cli", "up"],
            env=mesh_env(data_dir, mesh.ports, mesh.http_port),
            capture_output=True, text=True, timeout=60, check=False,
        )
        assert second.returncode != 0
        assert "já está rodando" in second.stderr

        other_folder = subprocess.run(
            [sys.executable, "-m", "balcao.cli", "up"],
            env=mesh_env(data_folder / "elsewhere", mesh.ports, mesh.http_port),
            capture_output=True, text=True, timeout=60, check=False,
        )
        assert other_folder.returncode != 0
        assert "já estão em uso" in other_folder.stderr
    finally:
        code = stop_mesh(mesh)
    assert code == 0, mesh.text()
    assert "Balcão: parado." in mesh.text()
    for child in children:
        assert not Path(f"/proc/{child}").exists() or _is_zombie(child)
    assert _processes_mentioning(str(data_dir / "postgres")) == [], mesh.text()


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True
