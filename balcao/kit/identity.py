"""Caller identity: every call inside the mesh is signed, every server checks who calls.

A token is `<caller>.<issued>.<expires>.<signature>`, the signature an HMAC-SHA256 over the
first three parts with the key from `BALCAO_MESH_SECRET`. Clients attach it as
`authorization: Bearer <token>`; the server interceptor verifies it and then checks the
caller against the allowlist declared next to each servicer (`AccessPolicy`). Health and
reflection are open so that probes and `grpcurl list` work without a token.
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
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


def _refusal(code: grpc.StatusCode, details: str, template: grpc.RpcMethodHandler | None) -> grpc.RpcMethodHandler:
    async def abort_unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(code, details)

    async def abort_stream(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(code, details)
        yield  # pragma: no cover - makes this an async generator

    deserializer = template.request_deserializer if template else None
    serializer = template.response_serializer if template else None
    if template is not None and template.response_streaming and not template.request_streaming:
        return grpc.unary_stream_rpc_method_handler(abort_stream, deserializer, serializer)
    if template is not None and template.request_streaming:
        return grpc.stream_unary_rpc_method_handler(abort_unary, deserializer, serializer)
    return grpc.unary_unary_rpc_method_handler(abort_unary, deserializer, serializer)


class IdentityServerInterceptor(grpc.aio.ServerInterceptor):
    """Checks the caller's signed identity and the per-RPC allowlist before any servicer runs."""

    def __init__(self, secret: bytes, policies: Iterable[AccessPolicy]) -> None:
        self._secret = secret
        self._table: dict[str, frozenset[str]] = {}
        for policy in policies:
            self._table.update(policy.table())

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        method = handler_call_details.method
        service = method.split("/")[1] if method.count("/") >= 2 else ""
        if service in OPEN_SERVICES:
            return await continuation(handler_call_details)
        handler = await continuation(handler_call_details)
        token = _bearer(handler_call_details.invocation_metadata or ())
        if token is None:
            return _refusal(grpc.StatusCode.UNAUTHENTICATED, "missing caller identity", handler)
        try:
            caller = verify_token(self._secret, token)
        except InvalidToken as exc:
            return _refusal(grpc.StatusCode.UNAUTHENTICATED, f"invalid caller identity: {exc}", handler)
        allowed = self._table.get(method)
        if allowed is None or caller not in allowed:
            return _refusal(
                grpc.StatusCode.PERMISSION_DENIED, f"{caller} may not call {method}", handler
            )
        current_caller.set(caller)
        return handler


def _bearer(metadata: Iterable[tuple[str, Any]]) -> str | None:
    for key, value in metadata:
        if key.lower() == "authorization":
            text = value.decode() if isinstance(value, bytes) else str(value)
            if text.lower().startswith("bearer "):
                return text[7:].strip()
    return None


class _TokenCache:
    def __init__(self, secret: bytes, caller: str) -> None:
        self._secret, self._caller = secret, caller
        self._token, self._renew_at = "", 0.0

    def get(self) -> str:
        now = time.time()
        if now >= self._renew_at:
            self._token = mint_token(self._secret, self._caller, now=now)
            self._renew_at = now + SERVICE_TOKEN_TTL / 2
        return self._token


def _with_token(details: grpc.aio.ClientCallDetails, token: str) -> grpc.aio.ClientCallDetails:
    metadata = grpc.aio.Metadata()
    for key, value in details.metadata or ():
        if key.lower() != "authorization":
            metadata.add(key, value)
    metadata.add("authorization", f"Bearer {token}")
    return grpc.aio.ClientCallDetails(
        details.method, details.timeout, metadata, details.credentials, details.wait_for_ready
    )


class _SigningUnaryUnary(grpc.aio.UnaryUnaryClientInterceptor):
    def __init__(self, tokens: _TokenCache) -> None:
        self._tokens = tokens

    async def intercept_unary_unary(self, continuation, client_call_details, request):  # type: ignore[no-untyped-def]
        return await continuation(_with_token(client_call_details, self._tokens.get()), request)


class _SigningUnaryStream(grpc.aio.UnaryStreamClientInterceptor):
    def __init__(self, tokens: _TokenCache) -> None:
        self._tokens = tokens

    async def intercept_unary_stream(self, continuation, client_call_details, request):  # type: ignore[no-untyped-def]
        return await continuation(_with_token(client_call_details, self._tokens.get()), request)


def signing_interceptors(secret: bytes, caller: str) -> list[grpc.aio.ClientInterceptor]:
    """Client interceptors that sign every outgoing call as `caller`."""
    tokens = _TokenCache(secret, caller)
    return [_SigningUnaryUnary(tokens), _SigningUnaryStream(tokens)]
