"""Fixtures of the gateway tests.

- `client`: the mesh's own gateway process (offline model), as `balcao chat` reaches it.
- `scripted`: a conversador process of the tests whose model is the local Messages API server
  answered by `ScriptedModel`, beside the mesh; started once.
- `private`: a gateway in the test process on its own database, whose Conversador is the
  scripted one; its recording channel shows exactly what was sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.gateway import support
from tests.gateway.scripted import ScriptedModel, UnitChooser
from tests.support.mesh import RunningMesh
from tests.support.messages_api import messages_api


@pytest.fixture
async def client(mesh: RunningMesh) -> AsyncIterator[support.Client]:
    c = support.Client(mesh, mesh.addr("gateway"))
    yield c
    await c.close()


@dataclass
class Scripted:
    model: ScriptedModel
    conversador: support.ServiceProcess
    chooser: UnitChooser


@pytest.fixture(scope="session")
def scripted_api() -> Iterator[ScriptedModel]:
    with messages_api() as api:
        yield ScriptedModel(api)


@pytest.fixture(scope="session")
async def scripted(
    mesh: RunningMesh, scripted_api: ScriptedModel, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Scripted]:
    folder: Path = tmp_path_factory.mktemp("scripted")
    conversador = support.service_process(
        mesh,
        "conversador",
        folder,
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=scripted_api.api.base_url,
        BALCAO_MODEL_MAX_RETRIES="0",
    )
    conversador.start()
    await conversador.wait_serving()
    yield Scripted(scripted_api, conversador, UnitChooser())
    conversador.stop()


@pytest.fixture(scope="session")
async def private(mesh: RunningMesh, scripted: Scripted) -> AsyncIterator[support.PrivateGateway]:
    gateway = await support.start_gateway(
        mesh, peers={"conversador": scripted.conversador.addr}, model=scripted.chooser
    )
    yield gateway
    await gateway.stop()


@pytest.fixture
async def private_client(mesh: RunningMesh, private: support.PrivateGateway) -> AsyncIterator[support.Client]:
    c = support.Client(mesh, private.addr)
    yield c
    await c.close()
