"""Fixtures of the projection tests that talk to the mesh."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.projection.seeding import Mesh
from tests.support.mesh import RunningMesh


@pytest.fixture(scope="module")
async def stubs(mesh: RunningMesh) -> AsyncIterator[Mesh]:
    """Stubs of the mesh's services, signed per caller, and the seeding helpers."""
    stubs = Mesh(mesh)
    yield stubs
    await stubs.close()
