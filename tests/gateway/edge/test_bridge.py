"""The gRPC/HTTP bridge on the real mesh: the mesh's gateway serves its annotated RPCs as JSON.

Every request goes to the gateway process's HTTP port (`mesh.http_port`) with an admin token and
is compared with the same RPC called over gRPC on the same process. Refusals are checked for
their JSON error body and for storing nothing.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import grpc
import httpx2
import pytest
from google.protobuf import json_format
from openapi_spec_validator import validate

from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.gateway.v1 import gateway_pb2_grpc
from services.gateway.edge.bridge import http_rule
from tests.gateway import support
from tests.support.mesh import RunningMesh

SERVICE = gw.DESCRIPTOR.services_by_name["GatewayService"]


class Both:
    """The mesh gateway over HTTP (admin token) and over gRPC, for one organisation."""

    def __init__(self, mesh: RunningMesh, http: httpx2.AsyncClient, stub: Any, org: str) -> None:
        self.mesh, self.http, self.stub, self.org = mesh, http, stub, org
        self.md = support.metadata(mesh)
        self.auth = {"authorization": f"Bearer {mesh.token('admin')}"}

    async def call(self, method: str, path: str, **kwargs: Any) -> httpx2.Response:
        headers = {**self.auth, **kwargs.pop("headers", {})}
        return await self.http.request(method, path, headers=headers, **kwargs)

    async def keys(self) -> list[dict[str, Any]]:
        request = gw.ListWebChannelKeysRequest(organization_id=self.org)
        answer = await self.stub.ListWebChannelKeys(request, metadata=self.md)
        return json_format.MessageToDict(answer, always_print_fields_with_no_presence=True)["keys"]


@pytest.fixture(scope="module")
async def both(mesh: RunningMesh) -> AsyncIterator[Both]:
    org = await support.create_org(mesh)
    async with (
        httpx2.AsyncClient(base_url=f"http://127.0.0.1:{mesh.http_port}", timeout=60) as http,
        grpc.aio.insecure_channel(mesh.addr("gateway")) as channel,
    ):
        yield Both(mesh, http, gateway_pb2_grpc.GatewayServiceStub(channel), org.organization_id)


def grpc_json(message: Any) -> Any:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def assert_error(response: httpx2.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "message"} and body["code"] == code and body["message"], body
    return body


# ---------------------------------------------------------------------------------------------
# Round trips equal to gRPC
# ---------------------------------------------------------------------------------------------


async def test_get_roles_equals_the_grpc_answer(both: Both) -> None:
    response = await both.call("GET", f"/v1/organizations/{both.org}/roles")
    assert response.status_code == 200, response.text
    expected = await both.stub.ListRoles(gw.ListRolesRequest(organization_id=both.org), metadata=both.md)
    assert response.json() == grpc_json(expected)
    assert {role["role"] for role in response.json()["roles"]} >= {"operador"}


async def test_put_role_maps_the_path_and_the_body(both: Both) -> None:
    off = await both.call("PUT", f"/v1/organizations/{both.org}/roles/operador", json={"enabled": False})
    assert off.status_code == 200, off.text
    assert off.json()["role"]["role"] == "operador" and off.json()["role"]["enabled"] is False
    assert "continua registrando o básico" in json.dumps(off.json(), ensure_ascii=False)
    listed = await both.stub.ListRoles(gw.ListRolesRequest(organization_id=both.org), metadata=both.md)
    assert [r.enabled for r in listed.roles if r.role == "operador"] == [False]
    on = await both.call("PUT", f"/v1/organizations/{both.org}/roles/operador", json={"enabled": True})
    assert on.status_code == 200 and on.json()["role"]["enabled"] is True


async def test_issue_a_key_then_list_it_over_http_and_grpc(both: Both) -> None:
    issued = await both.call("POST", f"/v1/organizations/{both.org}/web-channel-keys", json={"label": "site novo"})
    assert issued.status_code == 200, issued.text
    key = issued.json()
    assert key["secret"] and key["key"]["label"] == "site novo"
    listed = await both.call("GET", f"/v1/organizations/{both.org}/web-channel-keys")
    assert listed.status_code == 200
    assert listed.json()["keys"] == await both.keys()
    assert key["key"]["keyId"] in [k["keyId"] for k in listed.json()["keys"]]
    # The key works on the web channel's own route (one source of truth for its path).
    web = await both.http.post(
        "/v1/web/messages",
        json={"message": "oi", "profileId": f"p-{uuid.uuid4().hex[:8]}"},
        headers={"authorization": f"Bearer {key['secret']}"},
    )
    assert web.status_code == 200, web.text
    revoked = await both.call("DELETE", f"/v1/organizations/{both.org}/web-channel-keys/{key['key']['keyId']}")
    assert revoked.status_code == 200 and revoked.json()["key"]["revokedAt"]


async def test_put_channel_instance_takes_the_body_field_and_the_path(both: Both) -> None:
    response = await both.call(
        "PUT",
        f"/v1/organizations/{both.org}/channel-instances/recepcao",
        json={"baseUrl": "https://evolution.example.com.br", "apiKey": "chave-secreta", "webhookSecret": "s" * 24},
    )
    assert response.status_code == 200, response.text
    instance = response.json()["instance"]
    assert instance["instanceName"] == "recepcao" and instance["apiKeySet"] is True
    assert "apiKey" not in instance or not instance["apiKey"]  # secrets never come back
    listed = await both.call("GET", f"/v1/organizations/{both.org}/channel-instances")
    expected = await both.stub.ListChannelInstances(
        gw.ListChannelInstancesRequest(organization_id=both.org), metadata=both.md
    )
    assert listed.json() == grpc_json(expected)


async def test_submit_inbound_then_its_turn_through_the_additional_binding_with_a_query(both: Both) -> None:
    phone = f"+55119{uuid.uuid4().int % 10**8:08d}"
    submitted = await both.call(
        "POST",
        f"/v1/organizations/{both.org}/inbound-messages",
        json={
            "message": {
                "channel": "CHANNEL_TEST",
                "channelInstance": "test",
                "phone": phone,
                "messageId": f"m-{uuid.uuid4().hex}",
                "type": "MESSAGE_TYPE_TEXT",
                "text": "Oi, vocês abrem sábado?",
                "sentAt": "2026-11-29T12:00:00Z",
            }
        },
    )
    assert submitted.status_code == 200, submitted.text
    assert submitted.json()["status"] == "SUBMIT_STATUS_ACCEPTED"
    inbound = submitted.json()["inboundId"]
    # Duration as a query parameter, the inbound id from the additional binding's path.
    turn = await both.call("GET", f"/v1/organizations/{both.org}/inbound-messages/{inbound}/turn?wait=25s")
    assert turn.status_code == 200, turn.text
    body = turn.json()["turn"]
    assert inbound in body["inboundIds"]
    assert body["status"] == "TURN_STATUS_DONE", body
    by_id = await both.call("GET", f"/v1/organizations/{both.org}/turns/{body['turnId']}")
    request = gw.GetTurnRequest(organization_id=both.org, turn_id=body["turnId"])
    assert by_id.json() == grpc_json(await both.stub.GetTurn(request, metadata=both.md))


async def test_run_test_turn_over_http(both: Both) -> None:
    response = await both.call(
        "POST",
        f"/v1/organizations/{both.org}/test",
        json={"messages": ["Oi, qual o horário de vocês?"], "newConversation": True},
    )
    assert response.status_code == 200, response.text
    turn = response.json()["turn"]
    assert turn["status"] == "TURN_STATUS_DONE"
    assert turn["replyParts"] and turn["replyParts"][0]["text"]
    request = gw.RunTestTurnRequest(
        organization_id=both.org, messages=["Oi, qual o horário de vocês?"], new_conversation=True
    )
    expected = await both.stub.RunTestTurn(request, metadata=both.md)
    assert [p["text"] for p in turn["replyParts"]] == [p.text for p in expected.turn.reply_parts]
    assert response.json()["routePt"] == expected.route_pt


# ---------------------------------------------------------------------------------------------
# Refusals: JSON errors, nothing stored
# ---------------------------------------------------------------------------------------------


async def test_without_a_token_is_401_json(both: Both) -> None:
    response = await both.http.get(f"/v1/organizations/{both.org}/roles")
    assert_error(response, 401, "unauthenticated")
    assert response.headers["www-authenticate"] == "Bearer"
    forged = await both.http.get(f"/v1/organizations/{both.org}/roles", headers={"authorization": "Bearer forjado"})
    assert_error(forged, 401, "unauthenticated")
    # gRPC metadata takes printable ASCII only: anything else is refused here, not left hanging.
    for header in ("Bearer ção".encode("latin-1"), b"Bearer " + b"a" * 10_000):
        odd = await both.http.get(f"/v1/organizations/{both.org}/roles", headers={"authorization": header})
        assert_error(odd, 401, "unauthenticated")


async def test_a_service_token_is_403_json(both: Both) -> None:
    response = await both.call(
        "GET", f"/v1/organizations/{both.org}/roles", headers={"authorization": f"Bearer {both.mesh.token('crm')}"}
    )
    assert_error(response, 403, "permission_denied")


async def test_an_unknown_organisation_is_404_json_and_nothing_stored(both: Both) -> None:
    nobody = str(uuid.uuid4())
    response = await both.call("POST", f"/v1/organizations/{nobody}/web-channel-keys", json={"label": "x"})
    assert_error(response, 404, "not_found")
    listed = await both.stub.ListWebChannelKeys(gw.ListWebChannelKeysRequest(organization_id=nobody), metadata=both.md)
    assert list(listed.keys) == []


@pytest.mark.parametrize(
    ("body", "headers", "status", "code"),
    [
        (b'{"label": "meio', {}, 400, "malformed_json"),
        (b'{"label": "a", "segredo": "b"}', {}, 400, "invalid_argument"),  # unknown field
        (b'{"label": 42}', {}, 400, "invalid_argument"),  # wrong type
        (b'["label"]', {}, 400, "invalid_argument"),  # not an object
        (b'{"label": "a"}', {"content-type": "text/plain"}, 415, "unsupported_media_type"),
        (b'{"label": "' + b"a" * (5 * 1024 * 1024) + b'"}', {}, 413, "body_too_large"),
        (b'{"organizationId": "00000000-0000-0000-0000-000000000000", "label": "a"}', {}, 400, "invalid_argument"),
    ],
    ids=["malformed", "unknown-field", "wrong-type", "array", "not-json", "too-large", "path-conflict"],
)
async def test_bad_bodies_are_400_json_and_store_nothing(
    both: Both, body: bytes, headers: dict[str, str], status: int, code: str
) -> None:
    before = await both.keys()
    response = await both.call(
        "POST",
        f"/v1/organizations/{both.org}/web-channel-keys",
        content=body,
        headers={"content-type": "application/json", **headers},
    )
    assert_error(response, status, code)
    assert await both.keys() == before


async def test_bad_query_parameters_are_400_json(both: Both) -> None:
    path = f"/v1/organizations/{both.org}/turns/{uuid.uuid4()}"
    assert_error(await both.call("GET", path + "?segredo=1"), 400, "invalid_argument")
    assert_error(await both.call("GET", path + "?wait=muito"), 400, "invalid_argument")
    assert_error(await both.call("GET", path + "?turnId=outro"), 400, "invalid_argument")  # bound by the path
    assert_error(await both.call("GET", path + "?wait=1s"), 404, "not_found")  # well formed: the RPC answers


async def test_unknown_paths_and_methods_are_json_errors(both: Both) -> None:
    assert_error(await both.call("GET", "/v1/nada"), 404, "not_found")
    wrong = await both.call("DELETE", f"/v1/organizations/{both.org}/roles")
    assert_error(wrong, 405, "method_not_allowed")
    assert wrong.headers["allow"] == "GET, HEAD"


async def test_head_answers_what_get_would_without_the_body(both: Both) -> None:
    path = f"/v1/organizations/{both.org}/roles"
    got, head = await both.call("GET", path), await both.call("HEAD", path)
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-type"] == got.headers["content-type"]
    assert int(head.headers["content-length"]) == len(got.content) > 0
    anonymous = await both.http.head(path)
    assert (anonymous.status_code, anonymous.content) == (401, b"")


# ---------------------------------------------------------------------------------------------
# The OpenAPI document and Swagger UI
# ---------------------------------------------------------------------------------------------


async def test_openapi_is_valid_and_lists_every_annotated_rpc(both: Both) -> None:
    response = await both.http.get("/openapi.json")
    assert response.status_code == 200
    document = response.json()
    validate(document)
    assert document["openapi"].startswith("3.1")
    expected = set()
    for method in SERVICE.methods:
        rule = http_rule(method)
        if rule is None:
            continue
        for one in [rule, *rule.additional_bindings]:
            verb = one.WhichOneof("pattern")
            expected.add((verb, getattr(one, verb)))
    listed = {(verb, path) for path, verbs in document["paths"].items() for verb in verbs}
    assert expected <= listed
    assert ("post", "/webhooks/evolution") in listed  # FastAPI's part, in the same document
    web = document["paths"]["/v1/web/messages"]["post"]
    assert web["security"] == [{"organizationApiKey": []}]
    assert "organizationId" not in web["requestBody"]["content"]["application/json"]["schema"]["properties"]
    roles = document["paths"]["/v1/organizations/{organization_id}/roles/{role}"]["put"]
    assert roles["security"] == [{"adminToken": []}]
    # Descriptions from the proto comments (the descriptor set `make protos` writes with source info).
    get_turn = document["paths"]["/v1/organizations/{organization_id}/turns/{turn_id}"]["get"]
    assert get_turn["summary"].startswith("GetTurn returns a turn's status")
    assert "long poll" in get_turn["description"]
    wait = next(p for p in get_turn["parameters"] if p["name"] == "wait")
    assert "Capped at 30 seconds" in wait["description"]
    metric = document["components"]["schemas"]["balcao.gateway.v1.TurnMetrics"]["properties"]
    assert metric["finished"]["type"] == "string"  # int64 as text, as the JSON mapping writes it
    assert document["components"]["schemas"]["balcao.gateway.v1.TurnStatus"]["enum"][1] == "TURN_STATUS_QUEUED"


async def test_swagger_ui_is_served_from_local_files(both: Both) -> None:
    page = await both.http.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "://" not in page.text  # nothing loaded from elsewhere
    assert "/openapi.json" in page.text
    for asset in ("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css"):
        assert asset in page.text
        served = await both.http.get(asset)
        assert served.status_code == 200 and len(served.content) > 10_000
    assert_error(await both.http.get("/docs/assets/swagger-editor.js"), 404, "not_found")
