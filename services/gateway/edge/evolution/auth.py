"""Authenticating an Evolution webhook (reference §3): Evolution signs nothing, so we check what it can send.

An instance must have at least one of:
- a static secret header (`headers: {"x-balcao-webhook-secret": "<secret>"}` on the webhook),
  compared in constant time;
- a `jwt_key` header on the webhook, which makes Evolution (2.3.0+) send
  `Authorization: Bearer <JWT>`, HS256-signed with that key, claims
  `{iat, exp: iat + 600, app: "evolution", action: "webhook"}`. Verified here with the standard
  library: the algorithm must be HS256 (never `none`), the signature must match, `exp` must be
  in the future, `app`/`action` must be Evolution's.
Either one passing is enough. In addition, whenever an event carries a non-empty `apikey` (the
instance token, present only with `AUTHENTICATION_EXPOSE_IN_FETCH_INSTANCES=true`), it must equal
the instance's API key; and Evolution 2.4's `X-Instance-Name` header, when sent, must name the
instance. Any failure: `WebhookUnauthorized`, and the caller stores nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from services.gateway.edge.directory import EvolutionInstance

JWT_LEEWAY_SECONDS = 30
MAX_TOKEN_CHARS = 4096
_B64URL = re.compile(r"^[A-Za-z0-9_-]*$")


class WebhookUnauthorized(Exception):
    """The webhook could not be authenticated; the message says which check failed."""


class InvalidJwt(ValueError):
    pass


def _b64url_decode(part: str) -> bytes:
    if not _B64URL.match(part):
        raise InvalidJwt("the token is not base64url")
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def _b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def mint_webhook_jwt(key: str, *, issued_at: float | None = None, ttl_seconds: int = 600, **claims: Any) -> str:
    """A token as Evolution's webhook sends it (for tests, the benchmark and local tooling)."""
    iat = int(issued_at if issued_at is not None else time.time())
    payload = {"iat": iat, "exp": iat + ttl_seconds, "app": "evolution", "action": "webhook", **claims}
    header = _b64url_encode(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64url_encode(json.dumps(payload, separators=(",", ":")).encode())
    signature = hmac.new(key.encode("utf-8"), f"{header}.{body}".encode("ascii"), hashlib.sha256).digest()
    return f"{header}.{body}.{_b64url_encode(signature)}"


class _VerifiedTokens:
    """Tokens whose signature and claims already checked out, until they expire.

    Evolution mints one token per request with a one-second `iat`, so a busy instance sends the
    same token many times a second; the expiry is still checked on every use.
    """

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._expiry: OrderedDict[tuple[str, str], tuple[float, dict[str, Any]]] = OrderedDict()

    def get(self, key: str, token: str, now: float) -> dict[str, Any] | None:
        found = self._expiry.get((key, token))
        if found is None or now > found[0] + JWT_LEEWAY_SECONDS:
            return None
        self._expiry.move_to_end((key, token))
        return found[1]

    def put(self, key: str, token: str, exp: float, claims: dict[str, Any]) -> None:
        self._expiry[(key, token)] = (exp, claims)
        if len(self._expiry) > self._size:
            self._expiry.popitem(last=False)


_verified = _VerifiedTokens()


def verify_webhook_jwt(token: str, key: str, *, now: float | None = None) -> dict[str, Any]:
    """The claims of a valid Evolution webhook token, or `InvalidJwt` naming the problem."""
    current = time.time() if now is None else now
    known = _verified.get(key, token, current) if key else None
    if known is not None:
        return known
    claims = _verify(token, key, current)
    _verified.put(key, token, float(claims["exp"]), claims)
    return claims


def _verify(token: str, key: str, current: float) -> dict[str, Any]:
    if not key:
        raise InvalidJwt("no JWT key is configured")
    if len(token) > MAX_TOKEN_CHARS:
        raise InvalidJwt("the token is too long")
    parts = token.split(".")
    if len(parts) != 3:
        raise InvalidJwt("the token is not a JWT")
    try:
        header = json.loads(_b64url_decode(parts[0]))
        signature = _b64url_decode(parts[2])
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidJwt("the token is malformed") from exc
    if not isinstance(header, dict) or header.get("alg") != "HS256":
        raise InvalidJwt("the token is not signed with HS256")
    expected = hmac.new(key.encode("utf-8"), f"{parts[0]}.{parts[1]}".encode("ascii"), hashlib.sha256).digest()
    if not hmac.compare_digest(signature, expected):
        raise InvalidJwt("the token's signature does not match")
    try:
        claims = json.loads(_b64url_decode(parts[1]))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidJwt("the token's claims are malformed") from exc
    if not isinstance(claims, dict):
        raise InvalidJwt("the token's claims are malformed")
    exp = claims.get("exp")
    if not isinstance(exp, int | float) or isinstance(exp, bool):
        raise InvalidJwt("the token has no expiry")
    if current > exp + JWT_LEEWAY_SECONDS:
        raise InvalidJwt("the token has expired")
    for name in ("iat", "nbf"):
        value = claims.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > current + JWT_LEEWAY_SECONDS:
            raise InvalidJwt(f"the token's {name} is in the future")
    if claims.get("app") != "evolution" or claims.get("action") != "webhook":
        raise InvalidJwt("the token was not issued for Evolution's webhook")
    return claims


def _equal(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def authenticate_webhook(
    instance: EvolutionInstance,
    headers: Mapping[str, str],
    events: Iterable[dict[str, Any]],
    *,
    now: float | None = None,
) -> str:
    """Check the request for `instance`; returns how it passed ("secret_header" or "jwt")."""
    if not instance.webhook_secret and not instance.jwt_key:
        raise WebhookUnauthorized(f"instance {instance.name!r} has no webhook secret or JWT key configured")
    method = ""
    failure = "no webhook credentials were sent"
    if instance.webhook_secret:
        given = headers.get(instance.webhook_secret_header.lower())
        if given is not None:
            if _equal(given, instance.webhook_secret):
                method = "secret_header"
            else:
                failure = f"the {instance.webhook_secret_header} header does not match"
    if not method and instance.jwt_key:
        authorization = headers.get("authorization", "")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            try:
                verify_webhook_jwt(token.strip(), instance.jwt_key, now=now)
                method = "jwt"
            except InvalidJwt as exc:
                failure = str(exc)
    if not method:
        raise WebhookUnauthorized(failure)
    named = headers.get("x-instance-name")
    if named is not None and named != instance.name:
        raise WebhookUnauthorized("the X-Instance-Name header names another instance")
    for event in events:
        apikey = event.get("apikey")
        if apikey is None or apikey == "":
            continue
        if not isinstance(apikey, str) or not _equal(apikey, instance.api_key):
            raise WebhookUnauthorized("the body's apikey is not this instance's API key")
    return method
