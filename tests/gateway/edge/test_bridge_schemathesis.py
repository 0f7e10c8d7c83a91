"""schemathesis over the mesh gateway's `/openapi.json`: no request it generates gets a 5xx.

Every operation of the document (the bridged admin RPCs, the web channel, the Evolution webhook)
is called with generated data, valid and invalid, and the admin token; a third of the valid cases
name a real organisation, so generated bodies reach the RPCs' own logic and storage rather than
stopping at the id check. Runs are bounded and
reproducible: a few examples per operation, derandomized. An RPC the servicer does not implement
yet answers 501 (UNIMPLEMENTED) with the JSON error body; that is accepted only while the servicer
really lacks the method, so the test tightens by itself when the method lands. Successful answers
are also checked against the response schemas the document declares.

schemathesis' pytest plugin does not run under pytest 9, so each operation's strategy is driven
by Hypothesis directly (the same strategies and checks the plugin uses).
"""

from __future__ import annotations

import uuid
from typing import Any

import grpc
import httpx2
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error, response_schema_conformance

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import crm_write_pb2_grpc
from balcao.gateway.v1 import gateway_pb2_grpc
from services.gateway.edge.bridge import Bridge
from services.gateway.edge.directory import StaticDirectory
from services.gateway.edge.http import WEB_MESSAGE_RPC, Edge
from services.gateway.http import SERVICE, create_app
from services.gateway.service import Gateway
from tests.gateway import support
from tests.gateway.edge.runtime_double import RuntimeSinkDouble
from tests.support.mesh import RunningMesh

MAX_EXAMPLES = 10  # per operation and kind of case (valid, invalid, valid with a real organisation)


def _local_document() -> dict[str, Any]:
    """The document this code serves (built without a server), to name the test cases."""
    bridge = Bridge(SERVICE, "127.0.0.1:9", served_elsewhere=frozenset({WEB_MESSAGE_RPC}))
    return create_app(Edge(StaticDirectory([], []), RuntimeSinkDouble()), bridge).openapi()


LABELS = sorted(f"{verb.upper()} {path}" for path, verbs in _local_document()["paths"].items() for verb in verbs)


def unimplemented_rpcs() -> set[str]:
    base = gateway_pb2_grpc.GatewayServiceServicer
    return {name for name in dir(base) if name[:1].isupper() and getattr(Gateway, name) is getattr(base, name)}


@pytest.fixture(scope="module")
def gateway_openapi(mesh: RunningMesh) -> Any:
    base_url = f"http://127.0.0.1:{mesh.http_port}"
    document = httpx2.get(f"{base_url}/openapi.json", timeout=30).json()
    served = sorted(f"{verb.upper()} {path}" for path, verbs in document["paths"].items() for verb in verbs)
    assert served == LABELS  # the mesh serves the document this code builds
    schema = schemathesis.openapi.from_dict(document)
    schema.config.update(base_url=base_url)
    return schema


@pytest.fixture(scope="module")
def real_org(mesh: RunningMesh) -> str:
    """An organisation with a published unit, made through crm with a blocking channel.

    (The test is synchronous; an asyncio gRPC channel left on the session loop while it blocks
    makes gRPC's poller spin.)
    """
    md = support.metadata(mesh, "gateway")
    with grpc.insecure_channel(mesh.addr("crm")) as channel:
        write = crm_write_pb2_grpc.CrmWriteServiceStub(channel)
        created = write.UpsertOrganization(
            cw.UpsertOrganizationRequest(
                name=support.org_name("Clínica Fuzz"),
                time_zone="America/Sao_Paulo",
                plan=r.Plan(name="Teste"),
                initial_settings=r.OrganizationSettings(runtime=r.RuntimeSettings(debounce_ms=1)),
            ),
            metadata=md,
        )
        org = created.organization.organization_id
        unit = r.UnitConfig(unit_id=str(uuid.uuid4()), name="Recepção", description="agendamentos e informações")
        draft = write.SaveAgentDraft(
            cw.SaveAgentDraftRequest(
                organization_id=org,
                configuration=r.AgentConfiguration(units=[unit], default_unit_id=unit.unit_id),
            ),
            metadata=md,
        )
        write.PublishAgentVersion(
            cw.PublishAgentVersionRequest(organization_id=org, version_id=draft.version.version_id), metadata=md
        )
    return org


def with_org(case: schemathesis.Case, organization_id: str) -> schemathesis.Case:
    if not case.path_parameters or "organization_id" not in case.path_parameters:
        return case
    case.path_parameters = {**case.path_parameters, "organization_id": organization_id}
    return case


@pytest.mark.parametrize("label", LABELS)
def test_no_generated_request_gets_a_server_error(
    gateway_openapi: Any, mesh: RunningMesh, real_org: str, label: str
) -> None:
    operation = gateway_openapi.find_operation_by_label(label)
    assert operation is not None, label
    rpc = (operation.definition.raw or {}).get("operationId", "").split("_", 1)[0]
    lacking = rpc in unimplemented_rpcs()
    token = mesh.token("admin", ttl=3600)
    positive = operation.as_strategy(GenerationMode.POSITIVE)
    strategy = st.one_of(
        positive,
        operation.as_strategy(GenerationMode.NEGATIVE),
        positive.map(lambda case: with_org(case, real_org)),
    )

    statuses: list[int] = []

    @given(case=strategy)
    @settings(
        max_examples=MAX_EXAMPLES * 3,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: schemathesis.Case) -> None:
        headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        response = case.call(headers=headers, timeout=60)
        statuses.append(response.status_code)
        if response.status_code == 501 and lacking:
            assert response.json()["code"] == "unimplemented"
            return
        checks = [not_a_server_error]
        if 200 <= response.status_code < 300:
            checks.append(response_schema_conformance)
        case.validate_response(response, checks=checks)

    run()
    if operation.definition.raw.get("security") == [{"adminToken": []}]:
        # The admin token opened the door: the generated requests reached the RPC, not only the check.
        assert any(code not in (401, 403) for code in statuses), statuses
