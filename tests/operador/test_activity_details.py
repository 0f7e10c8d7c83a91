"""The decision activity's details become the same Struct that Struct.update builds."""

from __future__ import annotations

import pytest
from google.protobuf import struct_pb2

from services.operador.run import as_struct, struct_of


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


@pytest.mark.parametrize("details", [
    {"modo": "registro_basico", "acoes": ["update_lead_state"], "chamadas_ao_modelo": 0},
    {"modo": "registro_basico", "acoes": [], "chamadas_ao_modelo": 0, "declaracao": "não registrada"},
    {"flag": True}, {"flag": 1}, {"flag": 1.0}, {"lista": [True, 1, None]}, {"lista": [1, 1, None]},
    {"aninhado": {"a": [1]}},  # not flat: built every time
])
def test_a_remembered_struct_is_the_one_built_for_the_same_document(details: dict[str, object]) -> None:
    for _ in range(2):  # the second time from the memory
        assert struct_of(details) == as_struct(details)
