"""Only Evolution, holding the instance's secret, gets a webhook in: a secret header or an HS256 JWT, plus apikey."""

from __future__ import annotations

import base64
import json
import time

import pytest

from services.gateway.edge.directory import EvolutionInstance
from services.gateway.edge.evolution.auth import (
    InvalidJwt,
    WebhookUnauthorized,
    authenticate_webhook,
    mint_webhook_jwt,
    verify_webhook_jwt,
)

KEY = "c2VjcmV0LWtleS1mb3ItZXZvbHV0aW9uLWp3dA"
TOKEN = "B5F4E3A2-1C0D-4E9F-8A7B-6C5D4E3F2A1B"
EVENT = {"event": "messages.upsert", "instance": "atendimento", "apikey": TOKEN}


def instance(**overrides: object) -> EvolutionInstance:
    fields: dict[str, object] = {
        "name": "atendimento",
        "organization_id": "6f1d3c1e-8a55-4c55-9a59-3a0c2d0e5b11",
        "base_url": "http://127.0.0.1:1",
        "api_key": TOKEN,
        "webhook_secret": "s3cr3t-header-value",
        "jwt_key": KEY,
    }
    fields.update(overrides)
    return EvolutionInstance(**fields)  # type: ignore[arg-type]


def b64(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


# --- JWT ------------------------------------------------------------------------------------


def test_a_token_as_evolution_mints_it_verifies() -> None:
    claims = verify_webhook_jwt(mint_webhook_jwt(KEY), KEY)
    assert (claims["app"], claims["action"]) == ("evolution", "webhook")
    assert claims["exp"] - claims["iat"] == 600


def test_a_published_hs256_vector_passes_the_signature_check() -> None:
    # jwt.io's HS256 example, signed with "your-256-bit-secret": the signature matches, so the
    # check goes on to the claims (which are not Evolution's: no expiry).
    token = (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    )
    with pytest.raises(InvalidJwt, match="expiry"):
        verify_webhook_jwt(token, "your-256-bit-secret")
    with pytest.raises(InvalidJwt, match="signature"):
        verify_webhook_jwt(token, "your-256-bit-secreT")


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        (lambda: mint_webhook_jwt("another-key"), "signature"),
        (lambda: mint_webhook_jwt(KEY, issued_at=time.time() - 3600), "expired"),
        (lambda: mint_webhook_jwt(KEY, issued_at=time.time() + 3600), "future"),
        (lambda: mint_webhook_jwt(KEY, app="someone-else"), "Evolution"),
        (lambda: mint_webhook_jwt(KEY, action="login"), "Evolution"),
        (lambda: f"{b64({'alg': 'none', 'typ': 'JWT'})}.{mint_webhook_jwt(KEY).split('.')[1]}.", "HS256"),
        (lambda: f"{b64({'alg': 'HS512'})}.{mint_webhook_jwt(KEY).split('.')[1]}.AAAA", "HS256"),
        (lambda: "not-a-jwt", "not a JWT"),
        (lambda: "a.b.c!", "malformed"),
        (lambda: "x" * 5000, "too long"),
    ],
)
def test_bad_tokens_are_refused_with_the_reason(token: object, problem: str) -> None:
    with pytest.raises(InvalidJwt, match=problem):
        verify_webhook_jwt(token(), KEY)  # type: ignore[operator]


def test_a_tampered_payload_breaks_the_signature() -> None:
    header, _, signature = mint_webhook_jwt(KEY).split(".")
    forged = b64({"iat": int(time.time()), "exp": int(time.time()) + 10**6, "app": "evolution", "action": "webhook"})
    with pytest.raises(InvalidJwt, match="signature"):
        verify_webhook_jwt(f"{header}.{forged}.{signature}", KEY)


def test_a_token_without_expiry_is_refused() -> None:
    with pytest.raises(InvalidJwt, match="expiry"):
        verify_webhook_jwt(mint_webhook_jwt(KEY, exp=None), KEY)


# --- the webhook request ----------------------------------------------------------------------


def test_secret_header_passes() -> None:
    assert authenticate_webhook(instance(), {"x-balcao-webhook-secret": "s3cr3t-header-value"}, [EVENT]) == (
        "secret_header"
    )


def test_jwt_passes() -> None:
    headers = {"authorization": f"Bearer {mint_webhook_jwt(KEY)}"}
    assert authenticate_webhook(instance(), headers, [EVENT]) == "jwt"


@pytest.mark.parametrize(
    ("headers", "problem"),
    [
        ({}, "no webhook credentials"),
        ({"x-balcao-webhook-secret": "wrong"}, "does not match"),
        ({"x-balcao-webhook-secret": "s3cr3t-header-valu"}, "does not match"),
        ({"authorization": "Bearer " + mint_webhook_jwt("wrong-key")}, "signature"),
        ({"authorization": "Basic czNjcjN0"}, "no webhook credentials"),
    ],
)
def test_wrong_or_missing_credentials_are_refused(headers: dict[str, str], problem: str) -> None:
    with pytest.raises(WebhookUnauthorized, match=problem):
        authenticate_webhook(instance(), headers, [EVENT])


def test_the_bodys_apikey_must_be_the_instances_when_present() -> None:
    good = {"x-balcao-webhook-secret": "s3cr3t-header-value"}
    with pytest.raises(WebhookUnauthorized, match="apikey"):
        authenticate_webhook(instance(), good, [{**EVENT, "apikey": "someone-elses-token"}])
    with pytest.raises(WebhookUnauthorized, match="apikey"):
        authenticate_webhook(instance(), good, [EVENT, {**EVENT, "apikey": 12345}])
    # Absent or null (Evolution without AUTHENTICATION_EXPOSE_IN_FETCH_INSTANCES): not compared.
    assert authenticate_webhook(instance(), good, [{**EVENT, "apikey": None}, {"instance": "atendimento"}])


def test_an_instance_without_any_secret_accepts_nothing() -> None:
    with pytest.raises(WebhookUnauthorized, match="no webhook secret"):
        authenticate_webhook(instance(webhook_secret="", jwt_key=""), {"authorization": "Bearer x"}, [EVENT])


def test_only_the_configured_mechanism_counts() -> None:
    only_jwt = instance(webhook_secret="")
    with pytest.raises(WebhookUnauthorized):
        authenticate_webhook(only_jwt, {"x-balcao-webhook-secret": "s3cr3t-header-value"}, [EVENT])
    only_header = instance(jwt_key="")
    with pytest.raises(WebhookUnauthorized):
        authenticate_webhook(only_header, {"authorization": f"Bearer {mint_webhook_jwt(KEY)}"}, [EVENT])


def test_a_custom_header_name() -> None:
    custom = instance(webhook_secret_header="X-Webhook-Token")
    assert authenticate_webhook(custom, {"x-webhook-token": "s3cr3t-header-value"}, [EVENT]) == "secret_header"


def test_evolution_2_4_instance_name_header_must_agree() -> None:
    headers = {"x-balcao-webhook-secret": "s3cr3t-header-value", "x-instance-name": "outra"}
    with pytest.raises(WebhookUnauthorized, match="X-Instance-Name"):
        authenticate_webhook(instance(), headers, [EVENT])
