"""How the bridge reads path templates and builds a request from path, query and body (no server).

Templates and bindings beyond the ones gateway.proto uses today (`{field=a/*}`, `**`, `:verb`,
a repeated query parameter) are built here on gateway messages, so the rules hold for the next
annotation too.
"""

from __future__ import annotations

import grpc
import pytest

from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.edge.bridge import (
    HTTP_STATUS,
    Binding,
    BridgeError,
    bindings_of,
    build_request,
    parse_template,
    primary_binding,
)

SERVICE = gw.DESCRIPTOR.services_by_name["GatewayService"]


def binding(rpc: str, verb: str, template: str, body: str = "") -> Binding:
    """A binding the protos do not declare (yet), on one of the gateway's methods."""
    method = SERVICE.methods_by_name[rpc]
    return Binding(method, verb, parse_template(template), body, response_body="", primary=True)


# ---------------------------------------------------------------------------------------------
# Templates
# ---------------------------------------------------------------------------------------------


def test_a_plain_template_matches_one_segment_per_variable_and_decodes_it() -> None:
    template = parse_template("/v1/organizations/{organization_id}/roles/{role}")
    assert template.openapi_path == "/v1/organizations/{organization_id}/roles/{role}"
    assert template.match("/v1/organizations/abc/roles/oper%C3%A1dor") == {
        "organization_id": "abc",
        "role": "operádor",
    }
    assert template.match("/v1/organizations/a/b/roles/x") is None
    assert template.match("/v1/organizations/abc/roles/") is None
    assert template.match("/v1/organizations/abc/roles/x/extra") is None


def test_an_encoded_slash_stays_inside_its_segment() -> None:
    template = parse_template("/v1/organizations/{organization_id}/units")
    assert template.match("/v1/organizations/a%2Fb/units") == {"organization_id": "a/b"}


def test_invalid_utf8_in_a_segment_is_a_400() -> None:
    template = parse_template("/v1/organizations/{organization_id}")
    with pytest.raises(BridgeError) as caught:
        template.match("/v1/organizations/%FF")
    assert caught.value.status == 400


def test_variables_with_segments_wildcards_and_a_verb() -> None:
    template = parse_template("/v1/{organization_id=orgs/*}/turns/{turn_id}:cancel")
    assert template.openapi_path == "/v1/{organization_id}/turns/{turn_id}:cancel"
    assert template.match("/v1/orgs/o1/turns/t1:cancel") == {"organization_id": "orgs/o1", "turn_id": "t1"}
    assert template.match("/v1/orgs/o1/turns/t1") is None
    rest = parse_template("/v1/files/{organization_id=**}")
    assert rest.match("/v1/files/a/b/c") == {"organization_id": "a/b/c"}


def test_every_annotated_rpc_of_the_gateway_has_bindings_with_scalar_path_variables() -> None:
    bindings = bindings_of(SERVICE)
    annotated = {b.rpc for b in bindings}
    assert {"ListRoles", "SetRoleEnabled", "GetTurn", "SubmitWebMessage"} <= annotated
    assert "StartProactiveTurn" not in annotated  # no google.api.http option: gRPC only
    assert [b.path.template for b in bindings if b.rpc == "GetTurn"] == [
        "/v1/organizations/{organization_id}/turns/{turn_id}",
        "/v1/organizations/{organization_id}/inbound-messages/{inbound_id}/turn",
    ]
    assert "SubmitWebMessage" not in {b.rpc for b in bindings_of(SERVICE, exclude={"SubmitWebMessage"})}


# ---------------------------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------------------------


def test_path_and_query_fill_the_request_with_the_json_mapping() -> None:
    request = build_request(
        primary_binding(SERVICE, "ListCentralItems"),
        {"organization_id": "org-1"},
        [("status", "CENTRAL_ITEM_STATUS_RESOLVED"), ("min_severity", "2"), ("pageSize", "10")],
        None,
    )
    assert request == gw.ListCentralItemsRequest(
        organization_id="org-1",
        status=gw.CENTRAL_ITEM_STATUS_RESOLVED,
        min_severity=gw.CENTRAL_ITEM_SEVERITY_WARNING,
        page_size=10,
    )


def test_well_known_types_come_as_their_json_strings() -> None:
    ids = {"organization_id": "o", "turn_id": "t"}
    turn = build_request(primary_binding(SERVICE, "GetTurn"), ids, [("wait", "1.5s")], None)
    assert turn.wait.ToMilliseconds() == 1500
    metrics = build_request(
        primary_binding(SERVICE, "GetMetrics"), {"organization_id": "o"}, [("since", "2026-11-29T12:00:00-03:00")], None
    )
    assert metrics.since.ToJsonString() == "2026-11-29T15:00:00Z"
    update = build_request(
        primary_binding(SERVICE, "UpdateKnowledgeArticle"),
        {"organization_id": "o", "article_id": "a"},
        [],
        {"article": {"title": "Horários"}, "updateMask": "title,body"},
    )
    assert list(update.update_mask.paths) == ["title", "body"] and update.article.title == "Horários"


def test_a_repeated_query_parameter_and_a_nested_one() -> None:
    repeated = build_request(
        binding("RunTestTurn", "GET", "/v1/organizations/{organization_id}/test"),
        {"organization_id": "o"},
        [("messages", "oi"), ("messages", "tudo bem?"), ("newConversation", "true"), ("run_operador", "0")],
        None,
    )
    assert list(repeated.messages) == ["oi", "tudo bem?"] and repeated.new_conversation and not repeated.run_operador
    nested = build_request(
        binding("StartProactiveTurn", "GET", "/v1/organizations/{organization_id}/proactive"),
        {"organization_id": "o"},
        [("trigger.kind", "TRIGGER_KIND_SCHEDULED"), ("trigger.reason_pt", "lembrete")],
        None,
    )
    assert nested.trigger.kind == gw.TRIGGER_KIND_SCHEDULED and nested.trigger.reason_pt == "lembrete"


def test_a_body_field_rule_parses_the_body_into_that_field() -> None:
    request = build_request(
        primary_binding(SERVICE, "SetChannelInstance"),
        {"organization_id": "o", "instance_name": "recepcao"},
        [],
        {"baseUrl": "https://evo.example", "api_key": "k"},
    )
    assert request.instance_name == "recepcao"
    assert request.instance.base_url == "https://evo.example" and request.instance.api_key == "k"


@pytest.mark.parametrize(
    ("rpc", "query", "body", "needle"),
    [
        ("ListCentralItems", [("nada", "1")], None, "unknown query parameter"),
        ("ListCentralItems", [("pageSize", "muitos")], None, "pageSize"),
        ("ListCentralItems", [("pageSize", "1"), ("pageSize", "2")], None, "more than once"),
        ("ListCentralItems", [("status", "CENTRAL_ITEM_STATUS_NENHUM")], None, "status"),
        ("ListCentralItems", [("organizationId", "outra")], None, "given by the path"),
        ("SetRoleEnabled", [], {"enabled": "sim"}, "enabled"),
        ("SetRoleEnabled", [], {"enabled": True, "extra": 1}, "extra"),
        ("SetRoleEnabled", [("enabled", "true")], {}, "no query parameters"),
        ("SetRoleEnabled", [], {"role": "conversador", "enabled": True}, "differs from the path"),
        ("SetChannelInstance", [("instance.baseUrl", "x")], {}, "belongs in the body"),
        ("SetChannelInstance", [], ["not", "an", "object"], "JSON object"),
        ("GetTurn", [("wait", "amanhã")], None, "wait"),
        ("RunTestTurn", [], {"messages": "oi"}, "messages"),
    ],
)
def test_bad_parameters_are_refused_with_400_naming_the_field(
    rpc: str, query: list[tuple[str, str]], body: object, needle: str
) -> None:
    chosen = primary_binding(SERVICE, rpc)
    values = {name: "x" for _, name in chosen.path.variables}
    if rpc == "SetRoleEnabled":
        values["role"] = "operador"
    with pytest.raises(BridgeError) as caught:
        build_request(chosen, values, query, body)
    assert caught.value.status == 400
    assert needle in caught.value.message


def test_a_body_repeating_the_path_value_is_accepted() -> None:
    chosen = primary_binding(SERVICE, "SetRoleEnabled")
    ids = {"organization_id": "o", "role": "operador"}
    request = build_request(chosen, ids, [], {"role": "operador", "enabled": True})
    assert request.role == "operador" and request.enabled


def test_grpc_status_codes_map_to_the_standard_http_statuses() -> None:
    assert HTTP_STATUS[grpc.StatusCode.INVALID_ARGUMENT] == 400
    assert HTTP_STATUS[grpc.StatusCode.UNAUTHENTICATED] == 401
    assert HTTP_STATUS[grpc.StatusCode.PERMISSION_DENIED] == 403
    assert HTTP_STATUS[grpc.StatusCode.NOT_FOUND] == 404
    assert HTTP_STATUS[grpc.StatusCode.ALREADY_EXISTS] == HTTP_STATUS[grpc.StatusCode.ABORTED] == 409
    assert HTTP_STATUS[grpc.StatusCode.FAILED_PRECONDITION] == 400
    assert HTTP_STATUS[grpc.StatusCode.RESOURCE_EXHAUSTED] == 429
    assert HTTP_STATUS[grpc.StatusCode.UNIMPLEMENTED] == 501
    assert HTTP_STATUS[grpc.StatusCode.UNAVAILABLE] == 503
    assert HTTP_STATUS[grpc.StatusCode.DEADLINE_EXCEEDED] == 504
    assert set(HTTP_STATUS) == set(grpc.StatusCode)
