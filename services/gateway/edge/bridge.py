"""The gRPC → HTTP/JSON bridge: RPCs annotated with `google.api.http` served as JSON routes.

Nothing here names an RPC or a path. At start-up the bridge reads every method of the service
descriptor, takes its `HttpRule` (the primary binding and its `additional_bindings`) and builds
one route per path template:

- the template (`/v1/organizations/{organization_id}/roles/{role}`, `{field=a/*}`, `*`, `**`,
  `:verb`) becomes a pattern over the raw path; each variable's segment is percent-decoded and
  fills the request field it names (dotted paths reach nested fields);
- `body: "*"` parses the whole JSON body into the request; `body: "field"` parses it into that
  field; without a body every other field may come as a query parameter (`?pageSize=10&status=…`,
  dotted names for nested fields, a repeated field by repeating the parameter);
- the request is parsed with `google.protobuf.json_format` (the proto3 JSON mapping: camelCase or
  proto names, enums by name, int64 as text, Timestamp/Duration/FieldMask as strings); unknown
  fields, wrong types and malformed JSON are refused with 400 before any call is made;
- the call goes through the gateway's own gRPC port, with the HTTP `Authorization: Bearer …`
  forwarded as metadata, so the identity interceptor, the access policy, tracing and the
  servicer's error mapping apply exactly as for a gRPC client;
- the answer is `json_format.MessageToDict` with lowerCamelCase names and zero values printed;
  a gRPC status becomes the standard HTTP status with the edge's error body `{"code", "message"}`.

RPCs served by a hand-written route of the edge (the web channel: its own key, not the admin
token) are excluded by name and listed in the OpenAPI document from the same descriptor, so a
path is never served twice.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote

import grpc
from google.api import annotations_pb2
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor, MethodDescriptor, ServiceDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Match
from starlette.types import Message as AsgiMessage
from starlette.types import Receive, Scope, Send

from balcao.kit.telemetry import client_interceptors
from services.gateway.edge.http import EdgeError, error_response, parse_json, read_body

log = logging.getLogger(__name__)

_VERBS = ("get", "put", "post", "delete", "patch")

# The standard mapping of gRPC status codes to HTTP (google.rpc.Code's documentation).
HTTP_STATUS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.OK: 200,
    grpc.StatusCode.CANCELLED: 499,
    grpc.StatusCode.UNKNOWN: 500,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.FAILED_PRECONDITION: 400,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.INTERNAL: 500,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DATA_LOSS: 500,
    grpc.StatusCode.UNAUTHENTICATED: 401,
}

# Well-known types whose JSON form is a single scalar (so they can be a path or query value).
SCALAR_MESSAGES = frozenset(
    {
        "google.protobuf.Timestamp",
        "google.protobuf.Duration",
        "google.protobuf.FieldMask",
        "google.protobuf.DoubleValue",
        "google.protobuf.FloatValue",
        "google.protobuf.Int64Value",
        "google.protobuf.UInt64Value",
        "google.protobuf.Int32Value",
        "google.protobuf.UInt32Value",
        "google.protobuf.BoolValue",
        "google.protobuf.StringValue",
        "google.protobuf.BytesValue",
    }
)
MAX_AUTHORIZATION_CHARS = 4096
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]+")
_TRUE = frozenset({"true", "1", "t"})
_FALSE = frozenset({"false", "0", "f"})


class BridgeError(EdgeError):
    """A request the bridge refuses before calling anything (always a 4xx)."""


# ---------------------------------------------------------------------------------------------
# Path templates
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PathTemplate:
    """A parsed `google.api.http` path template."""

    template: str
    pattern: re.Pattern[str]
    # (regex group, dotted proto field path), in order of appearance.
    variables: tuple[tuple[str, str], ...]
    # The template as an OpenAPI path (`{field}` for every variable).
    openapi_path: str

    def match(self, raw_path: str) -> dict[str, str] | None:
        """The variables' decoded values when `raw_path` (still percent-encoded) matches."""
        found = self.pattern.fullmatch(raw_path)
        if found is None:
            return None
        values: dict[str, str] = {}
        for group, field_path in self.variables:
            try:
                values[field_path] = unquote(found.group(group), errors="strict")
            except UnicodeDecodeError:
                raise BridgeError(400, "invalid_argument", f"path parameter {field_path} is not UTF-8") from None
        return values


_TOKEN = re.compile(r"\{(?P<var>[^}=]+)(?:=(?P<segs>[^}]*))?\}|(?P<lit>[^/{}]+)|(?P<slash>/)")


def _segments_regex(segments: str) -> str:
    parts = []
    for segment in segments.split("/"):
        if segment == "**":
            parts.append(r"[^?#]+")
        elif segment == "*":
            parts.append(r"[^/?#]+")
        else:
            parts.append(re.escape(segment))
    return "/".join(parts)


def parse_template(template: str) -> PathTemplate:
    """`/v1/{name=orgs/*}/units:publish` → a pattern over the raw path, its variables, its OpenAPI path."""
    if not template.startswith("/"):
        raise ValueError(f"a path template starts with '/': {template!r}")
    path, verb = template, ""
    last = template.rsplit("/", 1)[-1]
    if ":" in last and "}" not in last.split(":", 1)[1]:
        path, verb = template[: len(template) - len(last.split(":", 1)[1]) - 1], last.split(":", 1)[1]
    regex, openapi, variables = [], [], []
    position = 0
    while position < len(path):
        token = _TOKEN.match(path, position)
        if token is None:
            raise ValueError(f"cannot read the path template {template!r} at {position}")
        position = token.end()
        if token.group("slash"):
            regex.append("/")
            openapi.append("/")
        elif token.group("lit") is not None:
            literal = token.group("lit")
            regex.append(_segments_regex(literal) if literal in ("*", "**") else re.escape(literal))
            openapi.append(literal)
        else:
            field_path = token.group("var").strip()
            group = f"v{len(variables)}"
            inner = _segments_regex(token.group("segs")) if token.group("segs") else r"[^/?#]+"
            regex.append(f"(?P<{group}>{inner})")
            openapi.append("{" + field_path + "}")
            variables.append((group, field_path))
    if verb:
        regex.append(re.escape(":" + verb))
        openapi.append(":" + verb)
    return PathTemplate(template, re.compile("".join(regex)), tuple(variables), "".join(openapi))


# ---------------------------------------------------------------------------------------------
# Bindings (one HttpRule, or one of its additional bindings)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Binding:
    method: MethodDescriptor
    verb: str  # upper case: GET, POST, …
    path: PathTemplate
    body: str  # "" (no body), "*" (the whole request) or a top-level field name
    response_body: str  # "" (the whole response) or a top-level field name
    primary: bool  # False for an additional binding

    @property
    def rpc(self) -> str:
        return self.method.name

    @property
    def full_method(self) -> str:
        return f"/{self.method.containing_service.full_name}/{self.method.name}"


def http_rule(method: MethodDescriptor) -> Any | None:
    options = method.GetOptions()
    if not options.HasExtension(annotations_pb2.http):
        return None
    return options.Extensions[annotations_pb2.http]


def rule_path(method: MethodDescriptor) -> tuple[str, str]:
    """(VERB, path template) of a method's primary HttpRule."""
    rule = http_rule(method)
    if rule is None:
        raise LookupError(f"{method.full_name} has no google.api.http option")
    verb = rule.WhichOneof("pattern")
    if verb not in _VERBS:
        raise LookupError(f"{method.full_name}: unsupported HTTP pattern {verb!r}")
    return verb.upper(), getattr(rule, verb)


def bindings_of(service: ServiceDescriptor, *, exclude: Iterable[str] = ()) -> list[Binding]:
    """Every HTTP binding of the service's unary RPCs, primary ones first per method."""
    skipped = set(exclude)
    found: list[Binding] = []
    for method in service.methods:
        rule = http_rule(method)
        if rule is None or method.name in skipped or method.client_streaming or method.server_streaming:
            continue
        for index, one in enumerate([rule, *rule.additional_bindings]):
            verb = one.WhichOneof("pattern")
            if verb not in _VERBS:
                log.warning("HTTP binding skipped", extra={"rpc": method.full_name, "pattern": verb})
                continue
            binding = Binding(
                method=method,
                verb=verb.upper(),
                path=parse_template(getattr(one, verb)),
                body=one.body,
                response_body=one.response_body,
                primary=index == 0,
            )
            _check_binding(binding)
            found.append(binding)
    return found


def _check_binding(binding: Binding) -> None:
    request = binding.method.input_type
    for _, field_path in binding.path.variables:
        leaf = resolve_field(request, field_path.split("."))
        if leaf is None or not _is_scalar_leaf(leaf):
            raise ValueError(f"{binding.method.full_name}: path variable {field_path} is not a scalar field")
    if binding.body not in ("", "*") and binding.body not in request.fields_by_name:
        raise ValueError(f"{binding.method.full_name}: body field {binding.body} does not exist")


def resolve_field(message: Any, names: Sequence[str]) -> FieldDescriptor | None:
    """The field a dotted path names; each step by proto name or JSON name."""
    current = message
    leaf: FieldDescriptor | None = None
    for index, name in enumerate(names):
        if current is None:
            return None
        leaf = current.fields_by_name.get(name) or current.fields_by_camelcase_name.get(name)
        if leaf is None:
            return None
        if index < len(names) - 1:
            if leaf.type != FieldDescriptor.TYPE_MESSAGE or _is_repeated(leaf) or _is_map(leaf):
                return None
            if leaf.message_type.full_name in SCALAR_MESSAGES:
                return None
            current = leaf.message_type
    return leaf


def _is_repeated(f: FieldDescriptor) -> bool:
    return f.is_repeated


def _is_map(f: FieldDescriptor) -> bool:
    return (
        f.type == FieldDescriptor.TYPE_MESSAGE
        and f.message_type.GetOptions().map_entry
        and f.is_repeated
    )


def _is_scalar_leaf(f: FieldDescriptor) -> bool:
    if f.type == FieldDescriptor.TYPE_MESSAGE:
        return f.message_type.full_name in SCALAR_MESSAGES and not _is_repeated(f)
    return not _is_repeated(f)


def query_leaf(f: FieldDescriptor) -> bool:
    """Whether a field can be given as a query parameter (a scalar, an enum, a scalar-like WKT, repeated)."""
    if _is_map(f):
        return False
    if f.type == FieldDescriptor.TYPE_MESSAGE:
        return f.message_type.full_name in SCALAR_MESSAGES
    return True


def _json_value(f: FieldDescriptor, text: str, where: str) -> Any:
    """A query or path value (text) as the JSON value json_format expects for the field."""
    kind = f.type
    if kind == FieldDescriptor.TYPE_MESSAGE and f.message_type.full_name == "google.protobuf.BoolValue":
        kind = FieldDescriptor.TYPE_BOOL
    if kind == FieldDescriptor.TYPE_BOOL:
        lowered = text.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise BridgeError(400, "invalid_argument", f"{where} must be true or false")
    if kind == FieldDescriptor.TYPE_ENUM and text.strip().lstrip("-").isdigit():
        return int(text)
    return text


# ---------------------------------------------------------------------------------------------
# Transcoding one request
# ---------------------------------------------------------------------------------------------


def _set_path(target: dict[str, Any], names: Sequence[str], value: Any) -> None:
    for name in names[:-1]:
        child = target.setdefault(name, {})
        if not isinstance(child, dict):
            raise BridgeError(400, "invalid_argument", f"{'.'.join(names)} conflicts with another parameter")
        target = child
    if names[-1] in target:
        raise BridgeError(400, "invalid_argument", f"{'.'.join(names)} is given twice")
    target[names[-1]] = value


def _canonical(message: Any, names: Sequence[str]) -> list[str]:
    """A dotted path with each step's JSON name (so proto and JSON spellings land in one place)."""
    out, current = [], message
    for name in names:
        f = current.fields_by_name.get(name) or current.fields_by_camelcase_name[name]
        out.append(f.json_name)
        current = f.message_type if f.type == FieldDescriptor.TYPE_MESSAGE else None
    return out


def _parse_into(payload: Any, message: Message, what: str) -> None:
    if not isinstance(payload, dict):
        raise BridgeError(400, "invalid_argument", f"{what} must be a JSON object")
    try:
        json_format.ParseDict(payload, message, ignore_unknown_fields=False)
    except (json_format.ParseError, ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise BridgeError(400, "invalid_argument", _parse_message(exc)) from None


def _parse_message(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 500 else text[:497] + "..."


def _read_field(message: Message, names: Sequence[str]) -> Any:
    current: Any = message
    for name in names:
        descriptor = current.DESCRIPTOR
        f = descriptor.fields_by_name.get(name) or descriptor.fields_by_camelcase_name[name]
        if f.type == FieldDescriptor.TYPE_MESSAGE and not current.HasField(f.name):
            return None
        current = getattr(current, f.name)
    return current


def build_request(
    binding: Binding,
    path_values: dict[str, str],
    query: list[tuple[str, str]],
    body: Any,
) -> Message:
    """The request message of `binding` from the path variables, the query parameters and the body."""
    descriptor = binding.method.input_type
    request: Message = GetMessageClass(descriptor)()
    bound_by_path = {tuple(_canonical(descriptor, p.split("."))) for p in path_values}

    if binding.body == "*":
        _parse_into(body, request, "the body")
    elif binding.body:
        body_field = descriptor.fields_by_name[binding.body]
        if body_field.type == FieldDescriptor.TYPE_MESSAGE and not _is_repeated(body_field):
            if body_field.message_type.full_name in SCALAR_MESSAGES:
                _parse_into({body_field.json_name: body}, request, "the body")
            else:
                _parse_into(body, getattr(request, body_field.name), "the body")
        else:
            _parse_into({body_field.json_name: body}, request, "the body")

    extra: dict[str, Any] = {}
    if query:
        if binding.body == "*":
            raise BridgeError(
                400, "invalid_argument", f"{binding.verb} {binding.path.template} takes no query parameters"
            )
        grouped: dict[tuple[str, ...], list[str]] = {}
        leaves: dict[tuple[str, ...], FieldDescriptor] = {}
        for name, value in query:
            names = name.split(".")
            leaf = resolve_field(descriptor, names)
            if leaf is None or not query_leaf(leaf):
                raise BridgeError(400, "invalid_argument", f"unknown query parameter {name!r}")
            key = tuple(_canonical(descriptor, names))
            if key in bound_by_path:
                raise BridgeError(400, "invalid_argument", f"{name} is given by the path")
            if binding.body and key[0] == descriptor.fields_by_name[binding.body].json_name:
                raise BridgeError(400, "invalid_argument", f"{name} belongs in the body")
            grouped.setdefault(key, []).append(value)
            leaves[key] = leaf
        for key, values in grouped.items():
            leaf = leaves[key]
            where = "query parameter " + ".".join(key)
            if _is_repeated(leaf):
                _set_path(extra, key, [_json_value(leaf, v, where) for v in values])
            elif len(values) > 1:
                raise BridgeError(400, "invalid_argument", f"{where} is given more than once")
            else:
                _set_path(extra, key, _json_value(leaf, values[0], where))

    for field_path, value in path_values.items():
        names = field_path.split(".")
        leaf = resolve_field(descriptor, names)
        assert leaf is not None  # checked when the binding was built
        where = "path parameter " + field_path
        if binding.body == "*":
            present = _read_field(request, names)
            if present not in (None, "", 0, False) and str(present) != value:
                raise BridgeError(400, "invalid_argument", f"{leaf.json_name} in the body differs from the path")
        _set_path(extra, _canonical(descriptor, names), _json_value(leaf, value, where))

    if extra:
        _parse_into(extra, request, "the parameters")
    return request


def response_json(binding: Binding, response: Message) -> Any:
    payload = json_format.MessageToDict(response, always_print_fields_with_no_presence=True)
    if binding.response_body:
        return payload.get(response.DESCRIPTOR.fields_by_name[binding.response_body].json_name)
    return payload


def grpc_error(exc: grpc.aio.AioRpcError) -> JSONResponse:
    code = exc.code()
    status = HTTP_STATUS.get(code, 500)
    message = exc.details() or code.name.lower().replace("_", " ")
    response = error_response(status, code.name.lower(), message)
    if status == 401:
        response.headers["www-authenticate"] = "Bearer"
    return response


# ---------------------------------------------------------------------------------------------
# The bridge and its routes
# ---------------------------------------------------------------------------------------------


@dataclass
class Bridge:
    """Serves `service`'s annotated RPCs as JSON by calling them on the gRPC server at `target`."""

    service: ServiceDescriptor
    target: str  # host:port of this process's own gRPC server
    # RPCs whose path a hand-written route serves (documented in OpenAPI, not routed here).
    served_elsewhere: frozenset[str] = frozenset()
    max_body_bytes: int = 4 * 1024 * 1024
    timeout_seconds: float = 120.0
    bindings: list[Binding] = field(init=False)
    _channel: grpc.aio.Channel | None = field(init=False, default=None)
    _calls: dict[str, Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.bindings = bindings_of(self.service, exclude=self.served_elsewhere)

    def routes(self) -> list[BaseRoute]:
        """One route per path template; the verbs of one template share it (405 names the others)."""
        by_template: dict[str, dict[str, Binding]] = {}
        for binding in self.bindings:
            verbs = by_template.setdefault(binding.path.template, {})
            if binding.verb in verbs:
                raise ValueError(f"{binding.verb} {binding.path.template} is bound twice")
            verbs[binding.verb] = binding
        return [BridgeRoute(self, verbs) for verbs in by_template.values()]

    def _channel_for_calls(self) -> grpc.aio.Channel:
        if self._channel is None:
            self._channel = grpc.aio.insecure_channel(self.target, interceptors=client_interceptors())
        return self._channel

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close()
            self._channel = None

    def _callable(self, binding: Binding) -> Any:
        call = self._calls.get(binding.full_method)
        if call is None:
            output = GetMessageClass(binding.method.output_type)
            call = self._channel_for_calls().unary_unary(
                binding.full_method,
                request_serializer=lambda m: m.SerializeToString(),
                response_deserializer=output.FromString,
            )
            self._calls[binding.full_method] = call
        return call

    async def serve(self, binding: Binding, request: Request, path_values: dict[str, str]) -> Response:
        try:
            body: Any = None
            if binding.body:
                raw = await read_body(request, self.max_body_bytes)
                body = parse_json(raw, request.headers.get("content-type")) if raw.strip() else {}
            query = parse_qsl(request.url.query, keep_blank_values=True, errors="strict")
            message = build_request(binding, path_values, query, body)
        except UnicodeDecodeError:
            return error_response(400, "invalid_argument", "the query string is not UTF-8")
        except ValueError as exc:  # parse_qsl refusing the query string
            return error_response(400, "invalid_argument", f"the query string cannot be read: {exc}")
        except EdgeError as exc:
            return exc.response()
        metadata: list[tuple[str, str]] = []
        authorization = request.headers.get("authorization")
        if authorization:
            # gRPC takes printable ASCII only; with anything else the call would never complete.
            if len(authorization) > MAX_AUTHORIZATION_CHARS or not _PRINTABLE_ASCII.fullmatch(authorization):
                response = error_response(401, "unauthenticated", "the Authorization header is not a valid token")
                response.headers["www-authenticate"] = "Bearer"
                return response
            metadata.append(("authorization", authorization))
        call = self._callable(binding)(message, metadata=metadata, timeout=self.timeout_seconds)
        try:
            # The deadline travels with the call; the outer wait only guards against a call that
            # never resolves at all.
            answer = await asyncio.wait_for(call, self.timeout_seconds + 5)
        except grpc.aio.AioRpcError as exc:
            return grpc_error(exc)
        except TimeoutError:
            call.cancel()
            return error_response(504, "deadline_exceeded", "the call did not finish in time")
        return JSONResponse(response_json(binding, answer))


class BridgeRoute(BaseRoute):
    """A path template and the RPCs bound to it by verb."""

    def __init__(self, bridge: Bridge, verbs: dict[str, Binding]) -> None:
        self.bridge = bridge
        self.verbs = verbs
        self.template = next(iter(verbs.values())).path

    @property
    def path(self) -> str:
        return self.template.template

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http":
            return Match.NONE, {}
        raw = scope.get("raw_path")
        path = raw.decode("latin-1") if isinstance(raw, bytes) else scope["path"]
        path = path.split("?", 1)[0]
        root = scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :]
        try:
            values = self.template.match(path)
        except BridgeError as exc:
            return Match.FULL, {"bridge_error": exc}
        if values is None:
            return Match.NONE, {}
        child = {"bridge_values": values}
        return (Match.FULL if self._binding(scope["method"]) is not None else Match.PARTIAL), child

    def _binding(self, method: str) -> Binding | None:
        """The RPC a method calls; HEAD is GET without the body (as HTTP asks of every GET)."""
        return self.verbs.get("GET" if method == "HEAD" else method)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        error = scope.get("bridge_error")
        binding = self._binding(scope["method"])
        if error is not None:
            response: Response = error.response()
        elif binding is None:
            response = error_response(
                405, "method_not_allowed", f"{scope['method']} is not served at {self.template.template}"
            )
            response.headers["allow"] = ", ".join(sorted({*self.verbs, *(["HEAD"] if "GET" in self.verbs else [])}))
        else:
            try:
                response = await self.bridge.serve(binding, request, scope["bridge_values"])
            except Exception:
                log.exception("the bridge failed while serving a request", extra={"rpc": binding.rpc})
                response = error_response(500, "internal", "the request could not be served; retry later")
        if scope["method"] == "HEAD":
            send = _without_body(send)
        await response(scope, receive, send)


def _without_body(send: Send) -> Send:
    """HEAD's answer: the GET's status and headers (its content-length included), no body."""

    async def head(message: AsgiMessage) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return head


def primary_binding(service: ServiceDescriptor, rpc: str) -> Binding:
    """The primary HTTP binding of one RPC (for documenting a route served elsewhere)."""
    for binding in bindings_of(service):
        if binding.rpc == rpc and binding.primary:
            return binding
    raise LookupError(f"{service.full_name}.{rpc} has no HTTP binding")
