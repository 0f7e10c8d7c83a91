"""Rule 1: allowlist, never denylist. What the table does not name does not pass."""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import FileDescriptor
from google.protobuf.json_format import MessageToJson
from google.protobuf.message import Message

import balcao.agenda.v1.agenda_read_pb2
import balcao.crm.v1.crm_read_pb2  # noqa: F401  (registers the raw types in the default pool)
from balcao.crm.v1 import crm_resources_pb2 as C
from services.projection.allowlist import PROJECTABLE, Use, allowed
from services.projection.findings import Findings
from services.projection.lead import project_lead_context
from tests.projection import samples


def _text(message: Message) -> str:
    return MessageToJson(message, ensure_ascii=False)


def test_every_entry_names_a_real_type_and_field() -> None:
    pool = descriptor_pool.Default()
    for type_name, fields in PROJECTABLE.items():
        descriptor = pool.FindMessageTypeByName(type_name)
        for name in fields:
            assert name.split(".")[0] in descriptor.fields_by_name, f"{type_name}.{name}"


def test_no_id_field_is_projectable_as_text() -> None:
    text_fields = [(t, f) for t, fields in PROJECTABLE.items() for f, use in fields.items() if use is Use.TEXT]
    assert text_fields
    assert not [(t, f) for t, f in text_fields if f.endswith("_id") or f.endswith("_ids") or f == "key"]


def test_a_field_the_table_does_not_name_is_cleared() -> None:
    contact = allowed(samples.contact())
    assert contact.name == "Ana Paula"
    assert contact.phone_e164 == ""
    assert list(contact.whatsapp_jids) == []
    assert contact.cpf == "" and contact.email == "" and contact.contact_id == ""


def test_a_nested_message_keeps_only_its_own_allowed_fields() -> None:
    organization = allowed(samples.organization())
    assert organization.settings.business.display_name == "Clínica Sorriso"
    assert organization.organization_id == ""
    assert len(organization.settings.reply_catalog) == 0
    assert len(organization.settings.attendants) == 0
    assert list(organization.settings.internal_vocabulary_additions) == []
    assert not organization.settings.HasField("seguranca")


def test_a_struct_keeps_only_the_listed_string_keys() -> None:
    activity = samples.activity("linha", code="unsafe_url:https_required")
    activity.details.update({"error_code": 42})
    kept = allowed(activity)
    assert dict(kept.details.fields.items()).keys() == {"code"}
    assert kept.details.fields["code"].string_value == "unsafe_url:https_required"


def _add_file(pool: descriptor_pool.DescriptorPool, file: FileDescriptor, seen: set[str]) -> None:
    if file.name in seen:
        return
    seen.add(file.name)
    for dependency in file.dependencies:
        _add_file(pool, dependency, seen)
    proto = descriptor_pb2.FileDescriptorProto()
    file.CopyToProto(proto)
    pool.Add(proto)


def _checkpoint_with_a_new_column() -> type[Message]:
    """`balcao.crm.v1.CheckpointContent` as a newer crm would send it: one more field."""
    pool = descriptor_pool.DescriptorPool()
    seen = {C.DESCRIPTOR.name}
    for dependency in C.DESCRIPTOR.dependencies:
        _add_file(pool, dependency, seen)
    file_proto = descriptor_pb2.FileDescriptorProto()
    C.DESCRIPTOR.CopyToProto(file_proto)
    content = next(m for m in file_proto.message_type if m.name == "CheckpointContent")
    content.field.add(
        name="operador_scratchpad",
        number=99,
        type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
        label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
    )
    pool.Add(file_proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("balcao.crm.v1.CheckpointContent"))


def test_a_new_field_added_to_a_raw_message_does_not_pass() -> None:
    newer = _checkpoint_with_a_new_column()
    raw = newer(rolling_summary="Ana quer clarear os dentes.", operador_scratchpad="ligar webhook interno XPTO")

    # The filter itself, on the newer type: the undeclared field is cleared, the declared one stays.
    filtered = allowed(raw)
    assert filtered.operador_scratchpad == ""  # type: ignore[attr-defined]
    assert filtered.rolling_summary == "Ana quer clarear os dentes."  # type: ignore[attr-defined]

    # And end to end: the newer crm's bytes reach this build's projection, which never shows the field.
    lead = samples.raw_lead()
    lead.checkpoint.checkpoint.content.Clear()
    lead.checkpoint.checkpoint.content.MergeFromString(raw.SerializeToString())
    projected = project_lead_context(lead, Findings())
    assert projected.lead.memory.rolling_summary == "Ana quer clarear os dentes."
    assert "XPTO" not in _text(projected)
    assert "XPTO" not in str(projected)


def test_a_message_type_not_in_the_table_comes_out_empty() -> None:
    obligation = C.Obligation(obligation_id=samples.new_id(), o_que="vou verificar com a equipe", resolution="ok")
    assert "balcao.crm.v1.Obligation" not in PROJECTABLE
    assert allowed(obligation) == C.Obligation()


def test_a_field_of_an_unlisted_type_inside_a_listed_one_is_emptied() -> None:
    # HumanCase.declaracao is a common.v1 type the table does not list: nothing of it passes.
    case = samples.human_case()
    case.declaracao.intencoes.add(o_que="quer reembolso", evidencia="quero meu dinheiro de volta")
    assert not allowed(case).HasField("declaracao")
