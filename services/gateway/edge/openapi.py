"""The OpenAPI 3.1 part of the bridge, generated from the same descriptors the bridge serves.

Each HTTP binding becomes an operation: the path template's variables are path parameters, the
fields a client may put in the query string are query parameters (dotted names for nested
fields), the body rule picks the request body, and every message and enum the operations reach
becomes a component schema written as the proto3 JSON mapping writes it: lowerCamelCase names,
int64 as decimal text, enums by name, Timestamp as RFC 3339, Duration as `"1.5s"`, FieldMask as
a comma-separated list, wrappers as their value, maps as objects, repeated fields as arrays.
Descriptions come from the proto comments when the descriptor carries them (`comments`).

`merge` adds the result to the document FastAPI builds for its own routes (the Evolution webhook),
so `/openapi.json` is ONE document listing everything the gateway serves over HTTP.
"""

from __future__ import annotations

import importlib.resources
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor, FileDescriptor

from services.gateway.edge.bridge import Binding, query_leaf

log = logging.getLogger(__name__)
SOURCE_INFO_SUFFIX = "_source.binpb"  # written by `make protos` beside the _pb2 module

ERROR_SCHEMA = {
    "type": "object",
    "description": "Every error of the gateway's HTTP side.",
    "required": ["code", "message"],
    "properties": {
        "code": {"type": "string", "description": "A stable snake_case code (`not_found`, `invalid_argument`, …)."},
        "message": {"type": "string", "description": "What went wrong, for a developer."},
    },
}
ADMIN_SCHEME = "adminToken"
ORG_KEY_SCHEME = "organizationApiKey"
SECURITY_SCHEMES = {
    ADMIN_SCHEME: {
        "type": "http",
        "scheme": "bearer",
        "description": "An admin caller token (`balcao token admin`), sent as `Authorization: Bearer <token>`.",
    },
    ORG_KEY_SCHEME: {
        "type": "http",
        "scheme": "bearer",
        "description": "An organisation's web channel API key (IssueWebChannelKey), as `Authorization: Bearer <key>`.",
    },
}
_ERROR_STATUSES = {
    "400": "Invalid request: malformed JSON, an unknown field, a wrong type or an invalid value",
    "401": "No caller identity, or an invalid one",
    "403": "The caller may not call this",
    "404": "The organisation or the resource does not exist",
    "413": "The body is larger than the limit",
    "415": "The body is not JSON",
    "429": "Too many requests",
    "501": "Not implemented yet",
    "503": "The gateway or one of its peers is unavailable; retry later",
}
_INT64 = {
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_SFIXED64,
}
_UINT64 = {FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64}
_INT32 = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SFIXED32}
_UINT32 = {FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32}
_FLOATS = {FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT}
_WRAPPED = {
    "google.protobuf.DoubleValue": FieldDescriptor.TYPE_DOUBLE,
    "google.protobuf.FloatValue": FieldDescriptor.TYPE_FLOAT,
    "google.protobuf.Int64Value": FieldDescriptor.TYPE_INT64,
    "google.protobuf.UInt64Value": FieldDescriptor.TYPE_UINT64,
    "google.protobuf.Int32Value": FieldDescriptor.TYPE_INT32,
    "google.protobuf.UInt32Value": FieldDescriptor.TYPE_UINT32,
    "google.protobuf.BoolValue": FieldDescriptor.TYPE_BOOL,
    "google.protobuf.StringValue": FieldDescriptor.TYPE_STRING,
    "google.protobuf.BytesValue": FieldDescriptor.TYPE_BYTES,
}
_SPECIAL: dict[str, dict[str, Any]] = {
    "google.protobuf.Timestamp": {
        "type": "string",
        "format": "date-time",
        "description": "RFC 3339, e.g. 2026-11-29T14:00:00Z",
    },
    "google.protobuf.Duration": {
        "type": "string",
        "pattern": r"^-?[0-9]+(\.[0-9]{1,9})?s$",
        "description": "Seconds with an `s` suffix, e.g. `1.5s`",
    },
    "google.protobuf.FieldMask": {
        "type": "string",
        "description": "Field paths in lowerCamelCase separated by commas, e.g. `title,body`",
    },
    "google.protobuf.Struct": {"type": "object"},
    "google.protobuf.Value": {},
    "google.protobuf.ListValue": {"type": "array", "items": {}},
    "google.protobuf.Empty": {"type": "object", "additionalProperties": False},
    "google.protobuf.Any": {"type": "object", "required": ["@type"], "properties": {"@type": {"type": "string"}}},
}


def scalar_schema(kind: int) -> dict[str, Any]:
    if kind in _INT64:
        return {"type": "string", "format": "int64", "pattern": "^-?[0-9]+$"}
    if kind in _UINT64:
        return {"type": "string", "format": "uint64", "pattern": "^[0-9]+$"}
    if kind in _INT32:
        return {"type": "integer", "format": "int32", "minimum": -(2**31), "maximum": 2**31 - 1}
    if kind in _UINT32:
        return {"type": "integer", "minimum": 0, "maximum": 2**32 - 1}
    if kind in _FLOATS:
        return {
            "anyOf": [
                {"type": "number", "format": "double" if kind == FieldDescriptor.TYPE_DOUBLE else "float"},
                {"type": "string", "enum": ["NaN", "Infinity", "-Infinity"]},
            ]
        }
    if kind == FieldDescriptor.TYPE_BOOL:
        return {"type": "boolean"}
    if kind == FieldDescriptor.TYPE_BYTES:
        return {"type": "string", "format": "byte", "contentEncoding": "base64"}
    return {"type": "string"}


def _ref(full_name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{full_name}"}


@dataclass
class SchemaBuilder:
    """Component schemas for the messages and enums reached, with the comments when known."""

    comments: Mapping[str, str] = field(default_factory=dict)
    components: dict[str, dict[str, Any]] = field(default_factory=dict)

    def _describe(self, schema: dict[str, Any], full_name: str) -> dict[str, Any]:
        text = self.comments.get(full_name)
        if text:
            schema["description"] = text
        return schema

    def enum(self, enum: EnumDescriptor) -> dict[str, str]:
        if enum.full_name not in self.components:
            schema: dict[str, Any] = {"type": "string", "enum": [v.name for v in enum.values]}
            notes = [(v.name, self.comments.get(f"{enum.full_name}.{v.name}")) for v in enum.values]
            lines = [f"- `{name}`: {text}" for name, text in notes if text]
            description = self.comments.get(enum.full_name, "")
            if lines:
                description = (description + "\n\n" if description else "") + "\n".join(lines)
            if description:
                schema["description"] = description
            self.components[enum.full_name] = schema
        return _ref(enum.full_name)

    def message(self, message: Descriptor) -> dict[str, Any]:
        name = message.full_name
        if name in _WRAPPED:
            return scalar_schema(_WRAPPED[name])
        if name in _SPECIAL:
            return dict(_SPECIAL[name])
        if name not in self.components:
            self.components[name] = {}  # placeholder first: recursive messages refer to themselves
            self.components[name] = self.object(message)
        return _ref(name)

    def object(
        self,
        message: Descriptor,
        *,
        exclude: Iterable[str] = (),
        extra: Mapping[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The message as a JSON object schema; `exclude` drops top-level fields (by proto name)."""
        skipped = set(exclude)
        properties: dict[str, Any] = {}
        for f in message.fields:
            if f.name in skipped:
                continue
            properties[f.json_name] = self._describe(self.field(f), f.full_name)
        properties.update(extra or {})
        schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
        groups = [
            [f.json_name for f in oneof.fields if f.name not in skipped]
            for oneof in message.oneofs
            if not _synthetic(oneof)
        ]
        pairs = [[a, b] for group in groups for i, a in enumerate(group) for b in group[i + 1 :]]
        if pairs:
            schema["not"] = {"anyOf": [{"required": pair} for pair in pairs]}
        return self._describe(schema, message.full_name)

    def field(self, f: FieldDescriptor) -> dict[str, Any]:
        if f.type == FieldDescriptor.TYPE_MESSAGE and f.message_type.GetOptions().map_entry:
            key, value = f.message_type.fields_by_name["key"], f.message_type.fields_by_name["value"]
            schema: dict[str, Any] = {"type": "object", "additionalProperties": self.single(value)}
            if key.type in _INT32 | _UINT32 | _INT64 | _UINT64:
                schema["propertyNames"] = {"pattern": "^-?[0-9]+$"}
            elif key.type == FieldDescriptor.TYPE_BOOL:
                schema["propertyNames"] = {"enum": ["true", "false"]}
            return schema
        if f.is_repeated:
            return {"type": "array", "items": self.single(f)}
        return self.single(f)

    def single(self, f: FieldDescriptor) -> dict[str, Any]:
        if f.type == FieldDescriptor.TYPE_MESSAGE:
            return self.message(f.message_type)
        if f.type == FieldDescriptor.TYPE_ENUM:
            return self.enum(f.enum_type)
        return scalar_schema(f.type)


def _synthetic(oneof: Any) -> bool:
    """A proto3 `optional` field's own oneof (`_name` holding only `name`)."""
    fields = list(oneof.fields)
    return len(fields) == 1 and oneof.name == "_" + fields[0].name


def _query_parameters(
    builder: SchemaBuilder, message: Descriptor, prefix: str, skip: set[str], depth: int = 0
) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for f in message.fields:
        name = prefix + f.json_name
        if name in skip:
            continue
        if query_leaf(f):
            parameter: dict[str, Any] = {"name": name, "in": "query", "required": False, "schema": builder.field(f)}
            if f.is_repeated:
                parameter.update(style="form", explode=True)
            text = builder.comments.get(f.full_name)
            if text:
                parameter["description"] = text
            found.append(parameter)
        elif (
            f.type == FieldDescriptor.TYPE_MESSAGE
            and not f.is_repeated
            and depth < 2
            and f.message_type.full_name != message.full_name
        ):
            found += _query_parameters(builder, f.message_type, name + ".", skip, depth + 1)
    return found


def _json_path(message: Descriptor, dotted: str) -> str:
    names, current = [], message
    for part in dotted.split("."):
        f = current.fields_by_name.get(part) or current.fields_by_camelcase_name[part]
        names.append(f.json_name)
        current = f.message_type
    return ".".join(names)


def _errors() -> dict[str, Any]:
    reference = {"application/json": {"schema": _ref("Error")}}
    answers = {status: {"description": text, "content": reference} for status, text in _ERROR_STATUSES.items()}
    answers["default"] = {"description": "Any other error", "content": reference}
    return answers


@dataclass(frozen=True)
class Documented:
    """An RPC whose route is hand-written elsewhere, documented from its descriptor."""

    binding: Binding
    security: str
    # Top-level request fields the route sets itself (not sent by the client).
    hidden_fields: frozenset[str] = frozenset()
    # Properties the route adds to the response beside the message's.
    extra_response: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    # Status codes the route answers besides 200.
    statuses: tuple[str, ...] = ()


def operation(
    builder: SchemaBuilder,
    binding: Binding,
    *,
    security: str = ADMIN_SCHEME,
    hidden_fields: Iterable[str] = (),
    extra_response: Mapping[str, dict[str, Any]] | None = None,
    operation_id: str | None = None,
) -> dict[str, Any]:
    request = binding.method.input_type
    hidden = set(hidden_fields)
    path_fields = [p for _, p in binding.path.variables]
    parameters: list[dict[str, Any]] = []
    for field_path in path_fields:
        leaf = _leaf(request, field_path)
        parameter = {"name": field_path, "in": "path", "required": True, "schema": builder.field(leaf)}
        text = builder.comments.get(leaf.full_name)
        if text:
            parameter["description"] = text
        parameters.append(parameter)
    skip = {_json_path(request, p) for p in path_fields} | {request.fields_by_name[h].json_name for h in hidden}
    if binding.body != "*":
        query_message_skip = set(skip)
        if binding.body:
            query_message_skip.add(request.fields_by_name[binding.body].json_name)
        parameters += _query_parameters(builder, request, "", query_message_skip)

    rpc_comment = builder.comments.get(binding.method.full_name, "")
    summary = " ".join(rpc_comment.split()).split(". ", 1)[0].rstrip(".") if rpc_comment else binding.rpc
    if len(summary) > 120:
        summary = summary[:117].rsplit(" ", 1)[0] + "…"
    op: dict[str, Any] = {
        "operationId": operation_id or binding.rpc,
        "summary": summary,
        "tags": [binding.method.containing_service.name],
        "description": (rpc_comment + "\n\n" if rpc_comment else "") + f"gRPC: `{binding.full_method}`.",
        "parameters": parameters,
        "security": [{security: []}],
    }
    if binding.body == "*":
        top_level_path = {p for p in path_fields if "." not in p} | hidden
        schema = builder.object(request, exclude=top_level_path)
        schema.pop("description", None)
        op["requestBody"] = {"required": False, "content": {"application/json": {"schema": schema}}}
    elif binding.body:
        op["requestBody"] = {
            "required": False,
            "content": {"application/json": {"schema": builder.field(request.fields_by_name[binding.body])}},
        }
    response = binding.method.output_type
    if binding.response_body:
        out_schema = builder.field(response.fields_by_name[binding.response_body])
    elif extra_response:
        out_schema = builder.object(response, extra=extra_response)
    else:
        out_schema = builder.message(response)
    op["responses"] = {
        "200": {"description": "OK", "content": {"application/json": {"schema": out_schema}}},
        **_errors(),
    }
    return op


def _leaf(message: Descriptor, dotted: str) -> FieldDescriptor:
    current, leaf = message, None
    for part in dotted.split("."):
        leaf = current.fields_by_name.get(part) or current.fields_by_camelcase_name[part]
        current = leaf.message_type
    assert leaf is not None
    return leaf


def document(
    bindings: Iterable[Binding],
    *,
    documented: Iterable[Documented] = (),
    comments: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """`paths` and `components` for the bridged bindings and the hand-written routes described."""
    builder = SchemaBuilder(dict(comments or {}))
    paths: dict[str, dict[str, Any]] = {}
    seen: dict[str, int] = {}

    def add(binding: Binding, op: dict[str, Any]) -> None:
        verbs = paths.setdefault(binding.path.openapi_path, {})
        verb = binding.verb.lower()
        if verb in verbs:
            raise ValueError(f"{binding.verb} {binding.path.openapi_path} is documented twice")
        verbs[verb] = op

    for binding in bindings:
        seen[binding.rpc] = seen.get(binding.rpc, 0) + 1
        operation_id = binding.rpc if seen[binding.rpc] == 1 else f"{binding.rpc}_{seen[binding.rpc]}"
        add(binding, operation(builder, binding, operation_id=operation_id))
    for item in documented:
        add(
            item.binding,
            operation(
                builder,
                item.binding,
                security=item.security,
                hidden_fields=item.hidden_fields,
                extra_response=item.extra_response,
            ),
        )
    builder.components["Error"] = ERROR_SCHEMA
    return {
        "paths": paths,
        "components": {"schemas": builder.components, "securitySchemes": SECURITY_SCHEMES},
    }


def merge(base: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """Add `part`'s paths and components to `base` (FastAPI's document); a path in both is an error."""
    paths = base.setdefault("paths", {})
    for path, verbs in part["paths"].items():
        mine = paths.setdefault(path, {})
        for verb, op in verbs.items():
            if verb in mine:
                raise ValueError(f"{verb.upper()} {path} is served twice")
            mine[verb] = op
    components = base.setdefault("components", {})
    for kind, items in part["components"].items():
        target = components.setdefault(kind, {})
        for name, schema in items.items():
            if name in target and target[name] != schema:
                raise ValueError(f"component {kind}/{name} is defined twice")
            target[name] = schema
    return base


# ---------------------------------------------------------------------------------------------
# Proto comments
# ---------------------------------------------------------------------------------------------


def proto_comments(file: FileDescriptor) -> dict[str, str]:
    """Leading comments by full name (messages, fields, enums, `Enum.VALUE`, services, methods).

    The generated `_pb2` modules carry no source info, so the comments come from the descriptor
    set `make protos` writes beside them (`<name>_source.binpb`); without it, no descriptions.
    """
    path = PurePosixPath(file.name)
    package = ".".join(path.parent.parts)
    try:
        raw = (importlib.resources.files(package) / (path.stem + SOURCE_INFO_SUFFIX)).read_bytes()
    except (FileNotFoundError, ModuleNotFoundError):
        log.info("no source info for %s: the OpenAPI document has no descriptions", file.name)
        return {}
    found = descriptor_pb2.FileDescriptorSet.FromString(raw)
    proto = next((f for f in found.file if f.name == file.name), None)
    if proto is None:
        return {}
    texts = {
        tuple(location.path): _comment_text(location.leading_comments)
        for location in proto.source_code_info.location
        if location.leading_comments.strip()
    }
    prefix = f"{proto.package}." if proto.package else ""
    comments: dict[str, str] = {}

    def enums(items: Any, at: tuple[int, ...], scope: str) -> None:
        for i, enum in enumerate(items):
            name = scope + enum.name
            _put(comments, name, texts.get((*at, i)))
            for j, value in enumerate(enum.value):
                _put(comments, f"{name}.{value.name}", texts.get((*at, i, 2, j)))

    def messages(items: Any, at: tuple[int, ...], scope: str) -> None:
        for i, message in enumerate(items):
            name = scope + message.name
            _put(comments, name, texts.get((*at, i)))
            for j, one in enumerate(message.field):
                _put(comments, f"{name}.{one.name}", texts.get((*at, i, 2, j)))
            messages(message.nested_type, (*at, i, 3), name + ".")
            enums(message.enum_type, (*at, i, 4), name + ".")

    messages(proto.message_type, (4,), prefix)
    enums(proto.enum_type, (5,), prefix)
    for i, service in enumerate(proto.service):
        name = prefix + service.name
        _put(comments, name, texts.get((6, i)))
        for j, method in enumerate(service.method):
            _put(comments, f"{name}.{method.name}", texts.get((6, i, 2, j)))
    return comments


def _put(comments: dict[str, str], name: str, text: str | None) -> None:
    if text:
        comments[name] = text


def _comment_text(raw: str) -> str:
    """A proto comment as Markdown: each line without its leading space, wrapped lines kept."""
    lines = [line[1:] if line.startswith(" ") else line for line in raw.strip("\n").split("\n")]
    return "\n".join(line.rstrip() for line in lines).strip()
