from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.mesh import RunningMesh, start_mesh, stop_mesh


@pytest.fixture(scope="session")
def mesh() -> Iterator[RunningMesh]:
    """The real mesh (seven processes, embedded PostgreSQL), started once per test run.

    Its folder is not under pytest's basetemp: pytest prunes old basetemp folders when
    another session starts, which would pull the data folder from under a running PostgreSQL.
    """
    folder = Path(tempfile.mkdtemp(prefix="balcao-mesh-"))
    running = start_mesh(folder / "data")
    try:
        yield running
    finally:
        stop_mesh(running)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def data_folder() -> Iterator[Path]:
    """A folder for a PostgreSQL data directory, outside pytest's basetemp.

    The embedded server runs as another user when the tests run as root; pytest resets its
    basetemp root to mode 0700 whenever another session starts, which would lock that user out.
    """
    folder = Path(tempfile.mkdtemp(prefix="balcao-test-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
