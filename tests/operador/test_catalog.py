"""The capability catalog, generated from the write services' descriptors (pure, no mesh)."""

from __future__ import annotations

import pytest

from balcao.agenda.v1 import agenda_write_pb2
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2
from services.operador import catalog


def _method_exists(method: str) -> bool:
    service, rpc = method.split("/")
    for module in (crm_write_pb2, agenda_write_pb2):
        for s in module.DESCRIPTOR.services_by_name.values():
            if s.full_name == service and rpc in s.methods_by_name:
                return True
    return False


def test_every_capability_is_a_real_write_rpc_with_owner_texts() -> None:
    for capability in catalog.CATALOG:
        assert _method_exists(capability.method), capability.method
        assert capability.label_pt and capability.explanation_pt
        assert capability.name != "send_message"


def test_schemas_follow_the_request_messages_and_leave_the_trusted_context_out() -> None:
    for capability in catalog.CATALOG:
        schema = catalog.input_schema(capability)
        properties = set(schema["properties"])
        assert not properties & catalog.CONTEXT_FIELDS, capability.name
        request_fields = {f.name for f in capability.request.fields}
        assert properties - {"promessa", "compromisso", "retorno"} <= request_fields
    book = catalog.input_schema(catalog.BY_NAME["book_appointment"])["properties"]
    assert book["start"]["type"] == "object" and "local" in book["start"]["properties"]
    assert book["duration_minutes"]["type"] == "integer" and book["confirm"]["type"] == "boolean"


def test_descriptions_come_from_the_proto_comments() -> None:
    description = catalog.description(catalog.BY_NAME["reschedule_appointment"])
    assert description.startswith("Moves an appointment to another time")


def test_packages_never_enable_critical_capabilities_and_callbacks_off_hide_only_the_callback() -> None:
    everything = r.OperadorConfig(capability_packages=list(catalog.PACKAGE_KEYS))
    selection = catalog.select(everything, callback_enabled=False)
    assert "take_conversation" not in selection.enabled and "block_contact" not in selection.enabled
    assert "schedule_followup" not in selection.enabled and set(selection.hidden) == {"schedule_followup"}
    assert "cancel_followup" in selection.enabled and "book_appointment" in selection.enabled
    one_by_one = catalog.select(r.OperadorConfig(extra_capabilities=["take_conversation"]), callback_enabled=True)
    assert one_by_one.enabled == ("take_conversation",)


def test_unknown_packages_and_the_cap_are_refused() -> None:
    with pytest.raises(catalog.SelectionError, match="unknown capability package"):
        catalog.select(r.OperadorConfig(capability_packages=["tudo"]), callback_enabled=True)
    with pytest.raises(catalog.SelectionError, match="unknown capabilities"):
        catalog.select(r.OperadorConfig(extra_capabilities=["send_message"]), callback_enabled=True)
    assert catalog.MAX_ENABLED_PER_AGENT == 25
    assert len(catalog.CATALOG) <= catalog.MAX_ENABLED_PER_AGENT  # so today's catalog cannot trip it
