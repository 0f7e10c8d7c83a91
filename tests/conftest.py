from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.mesh import RunningMesh, start_mesh, stop_mesh


@pytest.fixture(scope="session")
def mesh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningMesh]:
    """The real mesh (seven processes, embedded PostgreSQL), started once per test run."""
    running = start_mesh(tmp_path_factory.mktemp("mesh"))
    yield running
    stop_mesh(running)
