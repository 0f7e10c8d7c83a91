"""The decision activity's details become the same Struct that Struct.update builds."""

from __future__ import annotations

import pytest
from google.protobuf import struct_pb2

from services.operador.run import as_struct


def test_details_become_the_struct_update_builds() -> None:
    details = {"event_id": "e1", "acoes": ["UpdateLeadState", "RecordActivity"], "modo": "basic", "promessas": 2,
               "taxa": 0.5, "modelo": False, "nada": None, "declaracao": {"problema": "", "itens": [1, {"a": []}]},
               "vazio": {}, "tupla": (1, "x")}
    expected = struct_pb2.Struct()
    expected.update(details)
    assert as_struct(details) == expected
    assert as_struct({}) == struct_pb2.Struct()


def test_a_value_a_struct_cannot_hold_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        as_struct({"a": object()})
