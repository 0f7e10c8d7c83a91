"""A dict as a protobuf `Struct`, built in one constructor call.

`Struct.update` walks the document in Python, field by field; on the hot paths (the Operador's
decision lines, crm's timeline and event messages) that walk is paid on every turn. The result is
the Struct `update` builds, value for value.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2


def as_struct(document: Any) -> struct_pb2.Struct:
    """`document` (a dict, or empty/None for an empty Struct) as a Struct."""
    if not document:
        return struct_pb2.Struct()
    return struct_pb2.Struct(fields={key: _value(item) for key, item in document.items()})


def _value(item: Any) -> struct_pb2.Value:
    # The same mapping as Struct.update: None, bool (before int), str, number, dict, list.
    if item is None:
        return struct_pb2.Value(null_value=struct_pb2.NULL_VALUE)
    if isinstance(item, bool):
        return struct_pb2.Value(bool_value=item)
    if isinstance(item, str):
        return struct_pb2.Value(string_value=item)
    if isinstance(item, (int, float)):
        return struct_pb2.Value(number_value=item)
    if isinstance(item, dict):
        return struct_pb2.Value(struct_value=as_struct(item))
    if isinstance(item, (list, tuple)):
        return struct_pb2.Value(list_value=struct_pb2.ListValue(values=[_value(x) for x in item]))
    fallback = struct_pb2.Struct()
    fallback.update({"v": item})  # anything else: exactly what update does with it (a Struct, or its error)
    return fallback.fields["v"]
