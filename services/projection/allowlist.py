"""The allowlist: per raw message type, the fields projection may read (DESIGN.md §3 rule 1).

Allowlist, never denylist. `allowed(raw)` returns a copy of a raw crm/agenda message in which
every field the table does not name is gone, recursively, and unknown fields (a column added
to the wire that this build does not know) are discarded. A message type absent from the
table comes out empty. Every projection function starts from `allowed(...)`, so a new
column stays invisible until someone adds it here, on purpose, in review.

Each entry says how the field is used:
- TEXT: its words may reach the Conversador (then the identifier scan still checks them);
- FACT: it shapes the words (an enum, an instant, a flag, an amount) but is rendered by
  projection, never copied;
- JOIN: read only to match records (a stage key to its label, a resource to its place, a
  slot to its handle); its value never reaches any output.
A `Struct` field lists the keys it keeps as "<field>.<key>"; only string values survive.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from typing import TypeVar

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import Descriptor, FileDescriptor
from google.protobuf.message import Message

from balcao.agenda.v1 import agenda_read_pb2
from balcao.crm.v1 import crm_read_pb2


class Use(enum.Enum):
    TEXT = "text"
    FACT = "fact"
    JOIN = "join"


T, F, J = Use.TEXT, Use.FACT, Use.JOIN

_CRM = "balcao.crm.v1."
_AGENDA = "balcao.agenda.v1."

PROJECTABLE: Mapping[str, Mapping[str, Use]] = {
    # --- shared well-known types ---------------------------------------------------------
    "google.protobuf.Timestamp": {"seconds": F, "nanos": F},
    # --- crm: read responses --------------------------------------------------------------
    _CRM + "GetOrganizationResponse": {"organization": F},
    _CRM + "GetContactResponse": {"contact": F},
    _CRM + "GetLeadStateResponse": {"found": F, "lead_state": F},
    _CRM + "LatestCheckpointResponse": {"found": F, "checkpoint": F},
    _CRM + "ListHumanCasesResponse": {"cases": F},
    _CRM + "ListFollowUpsResponse": {"follow_ups": F},
    _CRM + "ListActivitiesResponse": {"activities": F},
    _CRM + "ListLeadNotesResponse": {"notes": F, "next_page_token": F},
    _CRM + "SearchKnowledgeResponse": {"hits": F},
    _CRM + "GetSkillReferenceResponse": {"found": F, "reference": F},
    _CRM + "ListKnowledgeArticlesResponse": {"articles": F},
    _CRM + "GetAgentConfigurationResponse": {"found": F, "version": F},
    # --- crm: organisation ----------------------------------------------------------------
    _CRM + "Organization": {"name": T, "time_zone": F, "settings": F},
    _CRM + "OrganizationSettings": {"stages": F, "business": F, "commercial": F},
    _CRM + "StageDefinition": {"key": J, "label": T, "terminal": F},
    _CRM + "BusinessProfile": {
        "display_name": T,
        "description": T,
        "address": T,
        "opening_hours_text": T,
        "public_phones": F,
        "public_emails": T,
        "websites": T,
        "public_documents": T,
    },
    _CRM + "CommercialFacts": {"prices": F, "offers": F, "free_items": T, "guarantees": T},
    _CRM + "PriceEntry": {"item": T, "price": F, "conditions": T, "max_instalments": F},
    _CRM + "Money": {"amount_minor": F, "currency": F},
    _CRM + "Offer": {"subject": T, "description": T, "valid_until": F},
    # --- crm: the lead --------------------------------------------------------------------
    _CRM + "Contact": {"name": T, "channel": F, "anonymized": F},
    _CRM + "LeadState": {"stage_key": J, "stage_label": T},
    _CRM + "LeadCheckpoint": {"content": F, "created_at": F},
    _CRM + "CheckpointContent": {"rolling_summary": T, "commitments": T, "objections": T, "next_action": T},
    _CRM + "HumanCase": {"status": F, "reason": F, "reason_text": T, "updates": F, "opened_at": F},
    _CRM + "CaseUpdate": {"text": T, "customer_facing": F, "created_at": F},
    _CRM + "FollowUp": {"due_at": F, "reason": T, "status": F, "callback": F},
    _CRM + "LeadActivity": {
        "kind": F,
        "summary_pt": T,
        "details": F,
        # The error code an activity records; rendered as its consequence, never copied.
        "details.code": F,
        "details.error_code": F,
        "details.refusal_code": F,
        "occurred_at": F,
    },
    _CRM + "LeadNote": {"key": J, "title": T, "body": T, "author": F, "updated_at": F, "created_at": F},
    _CRM + "Actor": {"kind": F},
    # --- crm: knowledge and the agent configuration ---------------------------------------
    _CRM + "KnowledgeHit": {"article": F, "snippet": T},
    _CRM + "KnowledgeArticle": {
        "title": T,
        "body": T,
        "kind": F,
        "unit_id": J,
        "when_useful": T,
        "published": F,
    },
    _CRM + "AgentVersion": {"configuration": F},
    _CRM + "AgentConfiguration": {"units": F, "default_unit_id": J},
    _CRM + "UnitConfig": {"unit_id": J, "name": T, "conversador": F, "resource_ids": J},
    _CRM + "ConversadorConfig": {"voice": T, "instructions": T},
    # --- agenda ---------------------------------------------------------------------------
    _AGENDA + "ListContactAppointmentsResponse": {
        "appointments": F,
        "truncated": F,
        "total_count": F,
        "as_of": F,
    },
    _AGENDA + "CheckAvailabilityResponse": {"slots": F, "truncated": F, "refusal": F},
    _AGENDA + "ListServicesResponse": {"services": F},
    _AGENDA + "ListResourcesResponse": {"resources": F},
    _AGENDA + "Appointment": {
        "resource_name": T,
        "service_name": T,
        "start_time": F,
        "end_time": F,
        "time_zone": F,
        "labels": F,
        "status": F,
        "place": F,
        "video_call_status": F,
    },
    _AGENDA + "LocalTimeLabels": {"start_label": T, "start_iso": T, "end_iso": T, "time_zone": F},
    _AGENDA + "Place": {"kind": F, "name": T, "address": T, "instructions": T},
    _AGENDA + "Slot": {
        "resource_id": J,
        "resource_name": T,
        "service_id": J,
        "start_time": F,
        "end_time": F,
        "labels": F,
    },
    _AGENDA + "Refusal": {"code": F, "alternatives": F},
    _AGENDA + "BookableService": {
        "service_id": J,
        "name": T,
        "active": F,
        "duration_minutes": F,
        "place": F,
    },
    _AGENDA + "Resource": {
        "resource_id": J,
        "name": T,
        "active": F,
        "place": F,
        "service_ids": J,
        "time_zone": F,
    },
}

M = TypeVar("M", bound=Message)

_STRUCT = "google.protobuf.Struct"


# --- the table compiled into a schema ---------------------------------------------------------
#
# The table is compiled once into a second set of descriptors (a private pool) in which every
# raw message type declares only its allowed fields (a type the table does not list declares
# none). `allowed()` re-reads a raw message through that schema: whatever the schema does not
# declare arrives as an unknown field and is discarded, all in protobuf's C code, then the
# result is read back into the raw type. Only `Struct` keys are filtered by hand.

_RAW_FILES = (crm_read_pb2.DESCRIPTOR, agenda_read_pb2.DESCRIPTOR)


def _filter_message(proto: descriptor_pb2.DescriptorProto, descriptor: Descriptor) -> None:
    if descriptor.GetOptions().map_entry:
        return  # a map's entry type stays valid; no map field is ever kept
    table = PROJECTABLE.get(descriptor.full_name, {})
    kept = []
    for field in proto.field:
        real = descriptor.fields_by_name[field.name]
        is_map = real.message_type is not None and real.message_type.GetOptions().map_entry
        if field.name in table and not is_map:
            kept.append(field)
    # Oneofs left without a member disappear; the others are renumbered.
    used = sorted({f.oneof_index for f in kept if f.HasField("oneof_index")})
    renumber = {old: new for new, old in enumerate(used)}
    oneofs = [proto.oneof_decl[i] for i in used]
    for field in kept:
        if field.HasField("oneof_index"):
            field.oneof_index = renumber[field.oneof_index]
    del proto.field[:]
    proto.field.extend(kept)
    del proto.oneof_decl[:]
    proto.oneof_decl.extend(oneofs)
    for nested in proto.nested_type:
        _filter_message(nested, descriptor.nested_types_by_name[nested.name])


def _add_file(pool: descriptor_pool.DescriptorPool, file: FileDescriptor, seen: set[str]) -> None:
    if file.name in seen:
        return
    seen.add(file.name)
    for dependency in file.dependencies:
        _add_file(pool, dependency, seen)
    proto = descriptor_pb2.FileDescriptorProto()
    file.CopyToProto(proto)
    if not proto.package.startswith("google.protobuf"):  # Timestamp and Struct stay whole
        for message in proto.message_type:
            _filter_message(message, file.message_types_by_name[message.name])
    pool.Add(proto)


def _schema() -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()
    seen: set[str] = set()
    for file in _RAW_FILES:
        _add_file(pool, file, seen)
    return pool


_SCHEMA = _schema()


@functools.cache
def _schema_class(full_name: str) -> type[Message] | None:
    try:
        return message_factory.GetMessageClass(_SCHEMA.FindMessageTypeByName(full_name))
    except KeyError:
        return None


def allowed(raw: M) -> M:
    """A copy of `raw` holding only the fields the table allows (recursively).

    A field the table does not name, a column this build does not know, and everything in a
    type the table does not list are gone.
    """
    schema = _schema_class(raw.DESCRIPTOR.full_name)
    if schema is None:
        return type(raw)()
    view = schema.FromString(raw.SerializeToString())
    view.DiscardUnknownFields()
    out = type(raw).FromString(view.SerializeToString())
    if _reaches_struct(raw.DESCRIPTOR):
        _filter_structs(out)
    return out


@functools.cache
def _reaches_struct(descriptor: Descriptor) -> bool:
    """Whether an allowed Struct field can be found under this type (Structs need key filtering)."""
    return _reaches(descriptor, frozenset())


def _reaches(descriptor: Descriptor, visiting: frozenset[str]) -> bool:
    table = PROJECTABLE.get(descriptor.full_name, {})
    for field in descriptor.fields:
        if field.name not in table or field.message_type is None:
            continue
        if field.message_type.full_name == _STRUCT:
            return True
        if field.message_type.full_name not in visiting and _reaches(
            field.message_type, visiting | {descriptor.full_name}
        ):
            return True
    return False


def _filter_structs(message: Message) -> None:
    table = PROJECTABLE.get(message.DESCRIPTOR.full_name, {})
    for field, value in message.ListFields():
        if field.message_type is None or field.name not in table:
            continue
        if field.message_type.full_name == _STRUCT:
            _filter_struct(value, table, field.name)
        elif _reaches_struct(field.message_type):
            for item in value if field.is_repeated else [value]:
                _filter_structs(item)


def _filter_struct(struct: Message, table: Mapping[str, Use], name: str) -> None:
    fields = struct.fields  # type: ignore[attr-defined]
    for key in list(fields):
        value = fields[key]
        if f"{name}.{key}" not in table or value.WhichOneof("kind") != "string_value":
            del fields[key]
