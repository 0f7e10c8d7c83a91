"""Fixtures of the admin surface's tests: the mesh's own gateway, called with the admin token."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from typing import Any

import grpc
import pytest

from tests.gateway import support
from tests.support.mesh import RunningMesh


@pytest.fixture
async def admin(mesh: RunningMesh) -> AsyncIterator[support.Client]:
    c = support.Client(mesh, mesh.addr("gateway"))
    yield c
    await c.close()


async def refused(call: Awaitable[Any]) -> grpc.aio.AioRpcError:
    """The error a call ends with; the test fails when it succeeds."""
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    return error.value
