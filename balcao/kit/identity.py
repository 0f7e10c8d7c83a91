"""Caller identity: every call inside the mesh is signed, every server checks who calls.

A token is `<caller>.<issued>.<expires>.<signature>`, the signature an HMAC-SHA256 over the
first three parts with the key from `BALCAO_MESH_SECRET`. Clients attach it as
`authorization: Bearer <token>`; the kit's server (`balcao.kit.handlers`, through `CallerCheck`)
verifies it — once per token, `TokenVerifier` remembers it until it expires — and then checks
the caller against the allowlist declared next to each servicer (`AccessPolicy`). Health and
reflection are open so that probes and `grpcurl list` work without a token.
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf.descriptor import ServiceDescriptor

from balcao.kit.mesh import CALLERS

# Tokens a service mints for its own calls live this long; people ask for longer ones.
SERVICE_TOKEN_TTL = 300
# Clock skew tolerated between two machines of the mesh.
CLOCK_SKEW = 30
OPEN_SERVICES = frozenset(
    {
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
        "grpc.reflection.v1.ServerReflection",
    }
)

current_caller: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "current_caller", default=None
)


class InvalidToken(Exception):
    """The token is malformed, expired, or not signed with the mesh secret."""


def _sign(secret: bytes, payload: str) -> str:
    digest = hmac.new(secret, payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def mint_token(secret: bytes, caller: str, ttl: int = SERVICE_TOKEN_TTL, now: float | None = None) -> str:
    if caller not in CALLERS:
        raise ValueError(f"unknown caller {caller!r}; known callers: {', '.join(sorted(CALLERS))}")
    issued = int(now if now is not None else time.time())
    payload = f"{caller}.{issued}.{issued + ttl}"
    return f"{payload}.{_sign(secret, payload)}"


def verify_token(secret: bytes, token: str, now: float | None = None) -> str:
    """Return the caller named by a valid token, or raise `InvalidToken`."""
    parts = token.split(".")
    if len(parts) != 4:
        raise InvalidToken("malformed token")
    caller, issued_s, expires_s, signature = parts
    payload = f"{caller}.{issued_s}.{expires_s}"
    if not hmac.compare_digest(_sign(secret, payload), signature):
        raise InvalidToken("bad signature")
    try:
        issued, expires = int(issued_s), int(expires_s)
    except ValueError:
        raise InvalidToken("malformed token") from None
    moment = now if now is not None else time.time()
    if issued > moment + CLOCK_SKEW:
        raise InvalidToken("token issued in the future")
    if expires < moment - CLOCK_SKEW:
        raise InvalidToken("token expired")
    if caller not in CALLERS:
        raise InvalidToken("unknown caller")
    return caller


@dataclass(frozen=True)
class AccessPolicy:
    """Which callers may call each RPC of one gRPC service.

    Built from the generated service descriptor, so every RPC of the contract is covered:
    `default` applies to all of them, `rpcs` overrides single methods by name.
    """

    service: ServiceDescriptor
    default: frozenset[str]
    rpcs: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        known = {m.name for m in self.service.methods}
        unknown = set(self.rpcs) - known
        if unknown:
            raise ValueError(f"{self.service.full_name} has no RPC named {sorted(unknown)}")
        for callers in [self.default, *self.rpcs.values()]:
            strangers = set(callers) - CALLERS
            if strangers:
                raise ValueError(f"unknown callers {sorted(strangers)}")

    def table(self) -> dict[str, frozenset[str]]:
        return {
            f"/{self.service.full_name}/{m.name}": frozenset(self.rpcs.get(m.name, self.default))
            for m in self.service.methods
        }


def allow(service: ServiceDescriptor, default: Iterable[str], **rpcs: Iterable[str]) -> AccessPolicy:
    return AccessPolicy(service, frozenset(default), {k: frozenset(v) for k, v in rpcs.items()})


class TokenVerifier:
    """`verify_token` with a memory: a token that verified once is not signed again until it expires.

    Services reuse one token for minutes, so nearly every call carries a token this server has
    already checked; the cache keeps the caller and the token's window, and every call still
    checks that window against the clock (an expired token is refused even when cached). Only
    tokens that verified are kept, so a forged one is signed-checked on each call.
    """

    MAX_ENTRIES = 4096

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._known: dict[str, tuple[str, int, int]] = {}

    def verify(self, token: str, now: float | None = None) -> str:
        moment = now if now is not None else time.time()
        known = self._known.get(token)
        if known is None:
            caller = verify_token(self._secret, token, now=moment)
            _caller, issued_s, expires_s, _signature = token.split(".")
            if len(self._known) >= self.MAX_ENTRIES:
                self._known.clear()
            self._known[token] = (caller, int(issued_s), int(expires_s))
            return caller
        caller, issued, expires = known
        if expires < moment - CLOCK_SKEW:
            del self._known[token]
            raise InvalidToken("token expired")
        if issued > moment + CLOCK_SKEW:  # only when the clock went back since the first check
            raise InvalidToken("token issued in the future")
        return caller


class CallerCheck:
    """Who may call what, for one server: the per-RPC allowlists and the verified-token cache.

    `refusal(method, metadata)` returns `None` and sets `current_caller` when the call may go
    on, or the status and details to abort it with (the kit's server does this before any
    servicer runs; health and reflection are open and never reach it).
    """

    def __init__(self, secret: bytes, policies: Iterable[AccessPolicy]) -> None:
        self._tokens = TokenVerifier(secret)
        self._table: dict[str, frozenset[str]] = {}
        for policy in policies:
            self._table.update(policy.table())

    def allowed(self, method: str) -> frozenset[str] | None:
        return self._table.get(method)

    def refusal(
        self, method: str, allowed: frozenset[str] | None, token: str | None
    ) -> tuple[grpc.StatusCode, str] | None:
        if token is None:
            return grpc.StatusCode.UNAUTHENTICATED, "missing caller identity"
        try:
            caller = self._tokens.verify(token)
        except InvalidToken as exc:
            return grpc.StatusCode.UNAUTHENTICATED, f"invalid caller identity: {exc}"
        if allowed is None or caller not in allowed:
            return grpc.StatusCode.PERMISSION_DENIED, f"{caller} may not call {method}"
        current_caller.set(caller)
        return None


def bearer(value: str | bytes | None) -> str | None:
    """The token of an `authorization: Bearer <token>` value, or None."""
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else str(value)
    if text[:7].lower() == "bearer ":
        return text[7:].strip()
    return None


class TokenCache:
    """The token this service signs its calls with, minted again at half its lifetime."""

    def __init__(self, secret: bytes, caller: str) -> None:
        self._secret, self._caller = secret, caller
        self._header, self._renew_at = "", 0.0

    def header(self) -> str:
        """The `authorization` value: `Bearer <token>`."""
        now = time.time()
        if now >= self._renew_at:
            self._header = f"Bearer {mint_token(self._secret, self._caller, now=now)}"
            self._renew_at = now + SERVICE_TOKEN_TTL / 2
        return self._header


def signed_metadata(header: str, metadata: Iterable[tuple[str, Any]] | None) -> list[tuple[str, Any]]:
    """The call's metadata with this service's `authorization` (any other one is dropped)."""
    out = [("authorization", header)]
    if metadata:
        out.extend(item for item in metadata if item[0].lower() != "authorization")
    return out


def _with_token(details: grpc.aio.ClientCallDetails, header: str) -> grpc.aio.ClientCallDetails:
    return grpc.aio.ClientCallDetails(
        details.method,
        details.timeout,
        grpc.aio.Metadata(*signed_metadata(header, details.metadata)),
        details.credentials,
        details.wait_for_ready,
    )


class _SigningUnaryUnary(grpc.aio.UnaryUnaryClientInterceptor):
    def __init__(self, tokens: TokenCache) -> None:
        self._tokens = tokens

    async def intercept_unary_unary(self, continuation, client_call_details, request):  # type: ignore[no-untyped-def]
        return await continuation(_with_token(client_call_details, self._tokens.header()), request)


class _SigningUnaryStream(grpc.aio.UnaryStreamClientInterceptor):
    def __init__(self, tokens: TokenCache) -> None:
        self._tokens = tokens

    async def intercept_unary_stream(self, continuation, client_call_details, request):  # type: ignore[no-untyped-def]
        return await continuation(_with_token(client_call_details, self._tokens.header()), request)


def signing_interceptors(secret: bytes, caller: str) -> list[grpc.aio.ClientInterceptor]:
    """Client interceptors that sign every outgoing call as `caller` (for channels the kit does not
    open; `balcao.kit.channels.open_channel` signs without interceptors)."""
    tokens = TokenCache(secret, caller)
    return [_SigningUnaryUnary(tokens), _SigningUnaryStream(tokens)]
