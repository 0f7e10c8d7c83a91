"""Caller identity: tokens and allowlists, without a network."""

from __future__ import annotations

import pytest

from balcao.kit.identity import AccessPolicy, InvalidToken, allow, mint_token, verify_token
from balcao.kit.mesh import CALLERS

SECRET = b"a-secret-of-the-mesh-for-tests"


def test_a_token_names_its_caller() -> None:
    assert verify_token(SECRET, mint_token(SECRET, "conversador")) == "conversador"


def test_a_token_signed_with_another_secret_is_refused() -> None:
    token = mint_token(b"another-secret-entirely-here", "gateway")
    with pytest.raises(InvalidToken, match="signature"):
        verify_token(SECRET, token)


def test_a_token_whose_caller_was_changed_is_refused() -> None:
    _caller, *rest = mint_token(SECRET, "conversador").split(".")
    with pytest.raises(InvalidToken):
        verify_token(SECRET, ".".join(["operador", *rest]))


def test_an_expired_token_is_refused() -> None:
    token = mint_token(SECRET, "gateway", ttl=60, now=1_000_000)
    assert verify_token(SECRET, token, now=1_000_030) == "gateway"
    with pytest.raises(InvalidToken, match="expired"):
        verify_token(SECRET, token, now=1_000_200)


@pytest.mark.parametrize("token", ["", "abc", "a.b.c", "gateway.x.y.z"])
def test_garbage_is_refused(token: str) -> None:
    with pytest.raises(InvalidToken):
        verify_token(SECRET, token)


def test_only_mesh_services_get_tokens() -> None:
    with pytest.raises(ValueError, match="unknown caller"):
        mint_token(SECRET, "intruder")
    assert "conversador" in CALLERS


def test_a_policy_covers_every_rpc_of_the_contract() -> None:
    from grpc_health.v1 import health_pb2

    service = health_pb2.DESCRIPTOR.services_by_name["Health"]
    policy = allow(service, ["gateway"], Watch=["operador"])
    table = policy.table()
    assert set(table) == {f"/grpc.health.v1.Health/{m.name}" for m in service.methods}
    assert table["/grpc.health.v1.Health/Watch"] == {"operador"}
    assert table["/grpc.health.v1.Health/Check"] == {"gateway"}


def test_a_policy_naming_a_missing_rpc_or_caller_fails_at_start() -> None:
    from grpc_health.v1 import health_pb2

    service = health_pb2.DESCRIPTOR.services_by_name["Health"]
    with pytest.raises(ValueError, match="no RPC"):
        AccessPolicy(service, frozenset({"gateway"}), {"Nope": frozenset({"gateway"})})
    with pytest.raises(ValueError, match="unknown callers"):
        allow(service, ["stranger"])
