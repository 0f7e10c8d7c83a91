import datetime

from balcao.common.v1 import declaracao_pb2 as _declaracao_pb2
from balcao.crm.v1 import crm_resources_pb2 as _crm_resources_pb2
from balcao.crm.v1 import event_queue_pb2 as _event_queue_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TurnBasicsStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_BASICS_STATUS_UNSPECIFIED: _ClassVar[TurnBasicsStatus]
    TURN_BASICS_STATUS_APPLIED: _ClassVar[TurnBasicsStatus]
    TURN_BASICS_STATUS_REPLAYED: _ClassVar[TurnBasicsStatus]
    TURN_BASICS_STATUS_NOT_APPLIED: _ClassVar[TurnBasicsStatus]
TURN_BASICS_STATUS_UNSPECIFIED: TurnBasicsStatus
TURN_BASICS_STATUS_APPLIED: TurnBasicsStatus
TURN_BASICS_STATUS_REPLAYED: TurnBasicsStatus
TURN_BASICS_STATUS_NOT_APPLIED: TurnBasicsStatus

class UpsertOrganizationRequest(_message.Message):
    __slots__ = ("organization_id", "name", "time_zone", "plan", "initial_settings")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    INITIAL_SETTINGS_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    name: str
    time_zone: str
    plan: _crm_resources_pb2.Plan
    initial_settings: _crm_resources_pb2.OrganizationSettings
    def __init__(self, organization_id: _Optional[str] = ..., name: _Optional[str] = ..., time_zone: _Optional[str] = ..., plan: _Optional[_Union[_crm_resources_pb2.Plan, _Mapping]] = ..., initial_settings: _Optional[_Union[_crm_resources_pb2.OrganizationSettings, _Mapping]] = ...) -> None: ...

class UpsertOrganizationResponse(_message.Message):
    __slots__ = ("organization", "created")
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    organization: _crm_resources_pb2.Organization
    created: bool
    def __init__(self, organization: _Optional[_Union[_crm_resources_pb2.Organization, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...

class UpdateOrganizationSettingsRequest(_message.Message):
    __slots__ = ("organization_id", "settings", "update_mask", "expected_settings_version")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SETTINGS_VERSION_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    settings: _crm_resources_pb2.OrganizationSettings
    update_mask: _field_mask_pb2.FieldMask
    expected_settings_version: int
    def __init__(self, organization_id: _Optional[str] = ..., settings: _Optional[_Union[_crm_resources_pb2.OrganizationSettings, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_settings_version: _Optional[int] = ...) -> None: ...

class UpdateOrganizationSettingsResponse(_message.Message):
    __slots__ = ("organization", "consequences_pt")
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCES_PT_FIELD_NUMBER: _ClassVar[int]
    organization: _crm_resources_pb2.Organization
    consequences_pt: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, organization: _Optional[_Union[_crm_resources_pb2.Organization, _Mapping]] = ..., consequences_pt: _Optional[_Iterable[str]] = ...) -> None: ...

class UpsertContactRequest(_message.Message):
    __slots__ = ("organization_id", "phone", "default_region", "whatsapp_jid", "web_profile_id", "name", "email", "cpf", "channel", "legal_basis", "idempotency_key", "fill_empty_only")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_REGION_FIELD_NUMBER: _ClassVar[int]
    WHATSAPP_JID_FIELD_NUMBER: _ClassVar[int]
    WEB_PROFILE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    CPF_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BASIS_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    FILL_EMPTY_ONLY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    phone: str
    default_region: str
    whatsapp_jid: str
    web_profile_id: str
    name: str
    email: str
    cpf: str
    channel: _crm_resources_pb2.Channel
    legal_basis: _crm_resources_pb2.LegalBasis
    idempotency_key: str
    fill_empty_only: bool
    def __init__(self, organization_id: _Optional[str] = ..., phone: _Optional[str] = ..., default_region: _Optional[str] = ..., whatsapp_jid: _Optional[str] = ..., web_profile_id: _Optional[str] = ..., name: _Optional[str] = ..., email: _Optional[str] = ..., cpf: _Optional[str] = ..., channel: _Optional[_Union[_crm_resources_pb2.Channel, str]] = ..., legal_basis: _Optional[_Union[_crm_resources_pb2.LegalBasis, str]] = ..., idempotency_key: _Optional[str] = ..., fill_empty_only: _Optional[bool] = ...) -> None: ...

class UpsertContactResponse(_message.Message):
    __slots__ = ("contact", "created", "replayed")
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    contact: _crm_resources_pb2.Contact
    created: bool
    replayed: bool
    def __init__(self, contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ..., created: _Optional[bool] = ..., replayed: _Optional[bool] = ...) -> None: ...

class SetContactOptOutRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "opted_out", "reason", "source_turn_id", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    OPTED_OUT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    opted_out: bool
    reason: str
    source_turn_id: str
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., opted_out: _Optional[bool] = ..., reason: _Optional[str] = ..., source_turn_id: _Optional[str] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class SetContactOptOutResponse(_message.Message):
    __slots__ = ("contact", "replayed")
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    contact: _crm_resources_pb2.Contact
    replayed: bool
    def __init__(self, contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class SetContactBlockedRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "blocked", "reason", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    blocked: bool
    reason: str
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., blocked: _Optional[bool] = ..., reason: _Optional[str] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class SetContactBlockedResponse(_message.Message):
    __slots__ = ("contact", "replayed")
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    contact: _crm_resources_pb2.Contact
    replayed: bool
    def __init__(self, contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class SetHumanControlRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "human_in_control", "until", "reason", "actor", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    HUMAN_IN_CONTROL_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    human_in_control: bool
    until: _timestamp_pb2.Timestamp
    reason: str
    actor: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., human_in_control: _Optional[bool] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., reason: _Optional[str] = ..., actor: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class SetHumanControlResponse(_message.Message):
    __slots__ = ("contact", "replayed")
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    contact: _crm_resources_pb2.Contact
    replayed: bool
    def __init__(self, contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class AnonymizeContactRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "reason", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    reason: str
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., reason: _Optional[str] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class AnonymizeContactResponse(_message.Message):
    __slots__ = ("contact", "replayed")
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    contact: _crm_resources_pb2.Contact
    replayed: bool
    def __init__(self, contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class AssignAttendantRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "attendant_id", "reason", "source_turn_id", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    ATTENDANT_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    attendant_id: str
    reason: str
    source_turn_id: str
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., attendant_id: _Optional[str] = ..., reason: _Optional[str] = ..., source_turn_id: _Optional[str] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class AssignAttendantResponse(_message.Message):
    __slots__ = ("contact", "attendant", "refusal", "replayed")
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    ATTENDANT_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    contact: _crm_resources_pb2.Contact
    attendant: _crm_resources_pb2.Attendant
    refusal: _crm_resources_pb2.CrmRefusal
    replayed: bool
    def __init__(self, contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ..., attendant: _Optional[_Union[_crm_resources_pb2.Attendant, _Mapping]] = ..., refusal: _Optional[_Union[_crm_resources_pb2.CrmRefusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class UpdateLeadStateRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "stage_key", "reason", "categoria", "source_turn_id", "actor", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    STAGE_KEY_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CATEGORIA_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    stage_key: str
    reason: str
    categoria: _declaracao_pb2.Categoria
    source_turn_id: str
    actor: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., stage_key: _Optional[str] = ..., reason: _Optional[str] = ..., categoria: _Optional[_Union[_declaracao_pb2.Categoria, str]] = ..., source_turn_id: _Optional[str] = ..., actor: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class UpdateLeadStateResponse(_message.Message):
    __slots__ = ("lead_state", "refusal", "replayed")
    LEAD_STATE_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    lead_state: _crm_resources_pb2.LeadState
    refusal: _crm_resources_pb2.CrmRefusal
    replayed: bool
    def __init__(self, lead_state: _Optional[_Union[_crm_resources_pb2.LeadState, _Mapping]] = ..., refusal: _Optional[_Union[_crm_resources_pb2.CrmRefusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class SaveLeadNoteRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "key", "title", "body", "source_turn_id", "author", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    key: str
    title: str
    body: str
    source_turn_id: str
    author: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., key: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., source_turn_id: _Optional[str] = ..., author: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class SaveLeadNoteResponse(_message.Message):
    __slots__ = ("note", "replayed")
    NOTE_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    note: _crm_resources_pb2.LeadNote
    replayed: bool
    def __init__(self, note: _Optional[_Union[_crm_resources_pb2.LeadNote, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class RecordActivityRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "kind", "actor", "summary_pt", "turn_id", "event_id", "details", "occurred_at", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_PT_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    kind: _crm_resources_pb2.ActivityKind
    actor: _crm_resources_pb2.Actor
    summary_pt: str
    turn_id: str
    event_id: str
    details: _struct_pb2.Struct
    occurred_at: _timestamp_pb2.Timestamp
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., kind: _Optional[_Union[_crm_resources_pb2.ActivityKind, str]] = ..., actor: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., summary_pt: _Optional[str] = ..., turn_id: _Optional[str] = ..., event_id: _Optional[str] = ..., details: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class RecordActivityResponse(_message.Message):
    __slots__ = ("activity", "replayed")
    ACTIVITY_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    activity: _crm_resources_pb2.LeadActivity
    replayed: bool
    def __init__(self, activity: _Optional[_Union[_crm_resources_pb2.LeadActivity, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class OpenHumanCaseRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "reason", "reason_text", "summary", "declaracao", "priority", "take_conversation", "source_turn_id", "opened_by", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    REASON_TEXT_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    TAKE_CONVERSATION_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    OPENED_BY_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    reason: _crm_resources_pb2.HumanCaseReason
    reason_text: str
    summary: str
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    priority: _crm_resources_pb2.CasePriority
    take_conversation: bool
    source_turn_id: str
    opened_by: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., reason: _Optional[_Union[_crm_resources_pb2.HumanCaseReason, str]] = ..., reason_text: _Optional[str] = ..., summary: _Optional[str] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., priority: _Optional[_Union[_crm_resources_pb2.CasePriority, str]] = ..., take_conversation: _Optional[bool] = ..., source_turn_id: _Optional[str] = ..., opened_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class OpenHumanCaseResponse(_message.Message):
    __slots__ = ("human_case", "already_open", "central_item_id", "replayed")
    HUMAN_CASE_FIELD_NUMBER: _ClassVar[int]
    ALREADY_OPEN_FIELD_NUMBER: _ClassVar[int]
    CENTRAL_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    human_case: _crm_resources_pb2.HumanCase
    already_open: bool
    central_item_id: str
    replayed: bool
    def __init__(self, human_case: _Optional[_Union[_crm_resources_pb2.HumanCase, _Mapping]] = ..., already_open: _Optional[bool] = ..., central_item_id: _Optional[str] = ..., replayed: _Optional[bool] = ...) -> None: ...

class ProvideCaseUpdateRequest(_message.Message):
    __slots__ = ("organization_id", "case_id", "text", "customer_facing", "new_status", "author", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_FACING_FIELD_NUMBER: _ClassVar[int]
    NEW_STATUS_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    case_id: str
    text: str
    customer_facing: bool
    new_status: _crm_resources_pb2.HumanCaseStatus
    author: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., case_id: _Optional[str] = ..., text: _Optional[str] = ..., customer_facing: _Optional[bool] = ..., new_status: _Optional[_Union[_crm_resources_pb2.HumanCaseStatus, str]] = ..., author: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class ProvideCaseUpdateResponse(_message.Message):
    __slots__ = ("human_case", "update", "refusal", "replayed")
    HUMAN_CASE_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    human_case: _crm_resources_pb2.HumanCase
    update: _crm_resources_pb2.CaseUpdate
    refusal: _crm_resources_pb2.CrmRefusal
    replayed: bool
    def __init__(self, human_case: _Optional[_Union[_crm_resources_pb2.HumanCase, _Mapping]] = ..., update: _Optional[_Union[_crm_resources_pb2.CaseUpdate, _Mapping]] = ..., refusal: _Optional[_Union[_crm_resources_pb2.CrmRefusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class CloseHumanCaseRequest(_message.Message):
    __slots__ = ("organization_id", "case_id", "resolution", "return_conversation", "closed_by", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    RETURN_CONVERSATION_FIELD_NUMBER: _ClassVar[int]
    CLOSED_BY_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    case_id: str
    resolution: str
    return_conversation: bool
    closed_by: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., case_id: _Optional[str] = ..., resolution: _Optional[str] = ..., return_conversation: _Optional[bool] = ..., closed_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class CloseHumanCaseResponse(_message.Message):
    __slots__ = ("human_case", "refusal", "replayed")
    HUMAN_CASE_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    human_case: _crm_resources_pb2.HumanCase
    refusal: _crm_resources_pb2.CrmRefusal
    replayed: bool
    def __init__(self, human_case: _Optional[_Union[_crm_resources_pb2.HumanCase, _Mapping]] = ..., refusal: _Optional[_Union[_crm_resources_pb2.CrmRefusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class ScheduleFollowUpRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "due_at", "reason", "callback", "fixed_text", "obligation_id", "source_turn_id", "scheduled_by", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    DUE_AT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CALLBACK_FIELD_NUMBER: _ClassVar[int]
    FIXED_TEXT_FIELD_NUMBER: _ClassVar[int]
    OBLIGATION_ID_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_BY_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    due_at: _timestamp_pb2.Timestamp
    reason: str
    callback: bool
    fixed_text: str
    obligation_id: str
    source_turn_id: str
    scheduled_by: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., due_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., reason: _Optional[str] = ..., callback: _Optional[bool] = ..., fixed_text: _Optional[str] = ..., obligation_id: _Optional[str] = ..., source_turn_id: _Optional[str] = ..., scheduled_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class ScheduleFollowUpResponse(_message.Message):
    __slots__ = ("follow_up", "event_id", "refusal", "replayed")
    FOLLOW_UP_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    follow_up: _crm_resources_pb2.FollowUp
    event_id: str
    refusal: _crm_resources_pb2.CrmRefusal
    replayed: bool
    def __init__(self, follow_up: _Optional[_Union[_crm_resources_pb2.FollowUp, _Mapping]] = ..., event_id: _Optional[str] = ..., refusal: _Optional[_Union[_crm_resources_pb2.CrmRefusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class CancelFollowUpRequest(_message.Message):
    __slots__ = ("organization_id", "follow_up_id", "reason", "actor", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_UP_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    follow_up_id: str
    reason: str
    actor: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., follow_up_id: _Optional[str] = ..., reason: _Optional[str] = ..., actor: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class CancelFollowUpResponse(_message.Message):
    __slots__ = ("follow_up", "refusal", "replayed")
    FOLLOW_UP_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    follow_up: _crm_resources_pb2.FollowUp
    refusal: _crm_resources_pb2.CrmRefusal
    replayed: bool
    def __init__(self, follow_up: _Optional[_Union[_crm_resources_pb2.FollowUp, _Mapping]] = ..., refusal: _Optional[_Union[_crm_resources_pb2.CrmRefusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class RecordFollowUpOutcomeRequest(_message.Message):
    __slots__ = ("organization_id", "follow_up_id", "status", "detail", "turn_id", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_UP_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    follow_up_id: str
    status: _crm_resources_pb2.FollowUpStatus
    detail: str
    turn_id: str
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., follow_up_id: _Optional[str] = ..., status: _Optional[_Union[_crm_resources_pb2.FollowUpStatus, str]] = ..., detail: _Optional[str] = ..., turn_id: _Optional[str] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class RecordFollowUpOutcomeResponse(_message.Message):
    __slots__ = ("follow_up", "refusal", "replayed")
    FOLLOW_UP_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    follow_up: _crm_resources_pb2.FollowUp
    refusal: _crm_resources_pb2.CrmRefusal
    replayed: bool
    def __init__(self, follow_up: _Optional[_Union[_crm_resources_pb2.FollowUp, _Mapping]] = ..., refusal: _Optional[_Union[_crm_resources_pb2.CrmRefusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class ResolveObligationRequest(_message.Message):
    __slots__ = ("organization_id", "obligation_id", "outcome", "resolution", "evidence", "request_proactive_turn", "resolved_by", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    OBLIGATION_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_PROACTIVE_TURN_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_BY_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    obligation_id: str
    outcome: _crm_resources_pb2.ObligationStatus
    resolution: str
    evidence: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.EvidenceRef]
    request_proactive_turn: bool
    resolved_by: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., obligation_id: _Optional[str] = ..., outcome: _Optional[_Union[_crm_resources_pb2.ObligationStatus, str]] = ..., resolution: _Optional[str] = ..., evidence: _Optional[_Iterable[_Union[_crm_resources_pb2.EvidenceRef, _Mapping]]] = ..., request_proactive_turn: _Optional[bool] = ..., resolved_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class ResolveObligationResponse(_message.Message):
    __slots__ = ("obligation", "proactive_event_id", "refusal", "replayed")
    OBLIGATION_FIELD_NUMBER: _ClassVar[int]
    PROACTIVE_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    obligation: _crm_resources_pb2.Obligation
    proactive_event_id: str
    refusal: _crm_resources_pb2.CrmRefusal
    replayed: bool
    def __init__(self, obligation: _Optional[_Union[_crm_resources_pb2.Obligation, _Mapping]] = ..., proactive_event_id: _Optional[str] = ..., refusal: _Optional[_Union[_crm_resources_pb2.CrmRefusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class RaiseCentralItemRequest(_message.Message):
    __slots__ = ("organization_id", "kind", "severity", "title_pt", "body_pt", "code", "contact_id", "turn_id", "event_id", "details", "dedup_key", "raised_by", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    TITLE_PT_FIELD_NUMBER: _ClassVar[int]
    BODY_PT_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    DEDUP_KEY_FIELD_NUMBER: _ClassVar[int]
    RAISED_BY_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    kind: _crm_resources_pb2.CentralItemKind
    severity: _crm_resources_pb2.CentralItemSeverity
    title_pt: str
    body_pt: str
    code: str
    contact_id: str
    turn_id: str
    event_id: str
    details: _struct_pb2.Struct
    dedup_key: str
    raised_by: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., kind: _Optional[_Union[_crm_resources_pb2.CentralItemKind, str]] = ..., severity: _Optional[_Union[_crm_resources_pb2.CentralItemSeverity, str]] = ..., title_pt: _Optional[str] = ..., body_pt: _Optional[str] = ..., code: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., event_id: _Optional[str] = ..., details: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., dedup_key: _Optional[str] = ..., raised_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class RaiseCentralItemResponse(_message.Message):
    __slots__ = ("item", "deduplicated", "replayed")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    DEDUPLICATED_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    item: _crm_resources_pb2.CentralItem
    deduplicated: bool
    replayed: bool
    def __init__(self, item: _Optional[_Union[_crm_resources_pb2.CentralItem, _Mapping]] = ..., deduplicated: _Optional[bool] = ..., replayed: _Optional[bool] = ...) -> None: ...

class ResolveCentralItemRequest(_message.Message):
    __slots__ = ("organization_id", "central_item_id", "status", "resolution", "resolved_by")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CENTRAL_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_BY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    central_item_id: str
    status: _crm_resources_pb2.CentralItemStatus
    resolution: str
    resolved_by: _crm_resources_pb2.Actor
    def __init__(self, organization_id: _Optional[str] = ..., central_item_id: _Optional[str] = ..., status: _Optional[_Union[_crm_resources_pb2.CentralItemStatus, str]] = ..., resolution: _Optional[str] = ..., resolved_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ...) -> None: ...

class ResolveCentralItemResponse(_message.Message):
    __slots__ = ("item",)
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item: _crm_resources_pb2.CentralItem
    def __init__(self, item: _Optional[_Union[_crm_resources_pb2.CentralItem, _Mapping]] = ...) -> None: ...

class UpsertKnowledgeArticleRequest(_message.Message):
    __slots__ = ("organization_id", "article_id", "title", "body", "kind", "unit_id", "when_useful", "published", "updated_by")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ARTICLE_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    WHEN_USEFUL_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_BY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    article_id: str
    title: str
    body: str
    kind: _crm_resources_pb2.KnowledgeKind
    unit_id: str
    when_useful: str
    published: bool
    updated_by: _crm_resources_pb2.Actor
    def __init__(self, organization_id: _Optional[str] = ..., article_id: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., kind: _Optional[_Union[_crm_resources_pb2.KnowledgeKind, str]] = ..., unit_id: _Optional[str] = ..., when_useful: _Optional[str] = ..., published: _Optional[bool] = ..., updated_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ...) -> None: ...

class UpsertKnowledgeArticleResponse(_message.Message):
    __slots__ = ("article", "created")
    ARTICLE_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    article: _crm_resources_pb2.KnowledgeArticle
    created: bool
    def __init__(self, article: _Optional[_Union[_crm_resources_pb2.KnowledgeArticle, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...

class DeleteKnowledgeArticleRequest(_message.Message):
    __slots__ = ("organization_id", "article_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ARTICLE_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    article_id: str
    def __init__(self, organization_id: _Optional[str] = ..., article_id: _Optional[str] = ...) -> None: ...

class DeleteKnowledgeArticleResponse(_message.Message):
    __slots__ = ("article",)
    ARTICLE_FIELD_NUMBER: _ClassVar[int]
    article: _crm_resources_pb2.KnowledgeArticle
    def __init__(self, article: _Optional[_Union[_crm_resources_pb2.KnowledgeArticle, _Mapping]] = ...) -> None: ...

class SaveAgentDraftRequest(_message.Message):
    __slots__ = ("organization_id", "configuration", "note", "base_version_id", "saved_by")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIGURATION_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    BASE_VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    SAVED_BY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    configuration: _crm_resources_pb2.AgentConfiguration
    note: str
    base_version_id: str
    saved_by: _crm_resources_pb2.Actor
    def __init__(self, organization_id: _Optional[str] = ..., configuration: _Optional[_Union[_crm_resources_pb2.AgentConfiguration, _Mapping]] = ..., note: _Optional[str] = ..., base_version_id: _Optional[str] = ..., saved_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ...) -> None: ...

class SaveAgentDraftResponse(_message.Message):
    __slots__ = ("version",)
    VERSION_FIELD_NUMBER: _ClassVar[int]
    version: _crm_resources_pb2.AgentVersion
    def __init__(self, version: _Optional[_Union[_crm_resources_pb2.AgentVersion, _Mapping]] = ...) -> None: ...

class PublishAgentVersionRequest(_message.Message):
    __slots__ = ("organization_id", "version_id", "published_by", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_BY_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    version_id: str
    published_by: _crm_resources_pb2.Actor
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., version_id: _Optional[str] = ..., published_by: _Optional[_Union[_crm_resources_pb2.Actor, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class PublishAgentVersionResponse(_message.Message):
    __slots__ = ("version", "superseded_version_id", "replayed")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDED_VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    version: _crm_resources_pb2.AgentVersion
    superseded_version_id: str
    replayed: bool
    def __init__(self, version: _Optional[_Union[_crm_resources_pb2.AgentVersion, _Mapping]] = ..., superseded_version_id: _Optional[str] = ..., replayed: _Optional[bool] = ...) -> None: ...

class CloseTurnRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "turn_id", "unit_id", "checkpoint", "execution", "traceparent", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    EXECUTION_FIELD_NUMBER: _ClassVar[int]
    TRACEPARENT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    turn_id: str
    unit_id: str
    checkpoint: _crm_resources_pb2.CheckpointContent
    execution: _crm_resources_pb2.TurnExecution
    traceparent: str
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., checkpoint: _Optional[_Union[_crm_resources_pb2.CheckpointContent, _Mapping]] = ..., execution: _Optional[_Union[_crm_resources_pb2.TurnExecution, _Mapping]] = ..., traceparent: _Optional[str] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class CloseTurnResponse(_message.Message):
    __slots__ = ("seq", "obligation_ids", "event_id", "replayed")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    OBLIGATION_IDS_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    seq: int
    obligation_ids: _containers.RepeatedScalarFieldContainer[str]
    event_id: str
    replayed: bool
    def __init__(self, seq: _Optional[int] = ..., obligation_ids: _Optional[_Iterable[str]] = ..., event_id: _Optional[str] = ..., replayed: _Optional[bool] = ...) -> None: ...

class RecordTurnExecutionRequest(_message.Message):
    __slots__ = ("organization_id", "execution")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EXECUTION_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    execution: _crm_resources_pb2.TurnExecution
    def __init__(self, organization_id: _Optional[str] = ..., execution: _Optional[_Union[_crm_resources_pb2.TurnExecution, _Mapping]] = ...) -> None: ...

class RecordTurnExecutionResponse(_message.Message):
    __slots__ = ("turn_id",)
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    def __init__(self, turn_id: _Optional[str] = ...) -> None: ...

class RecordOperadorOutcomeRequest(_message.Message):
    __slots__ = ("organization_id", "turn_id", "outcome", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    turn_id: str
    outcome: _crm_resources_pb2.OperadorOutcome
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., outcome: _Optional[_Union[_crm_resources_pb2.OperadorOutcome, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class RecordOperadorOutcomeResponse(_message.Message):
    __slots__ = ("replayed",)
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    replayed: bool
    def __init__(self, replayed: _Optional[bool] = ...) -> None: ...

class RegisterTurnBasicsRequest(_message.Message):
    __slots__ = ("turns",)
    TURNS_FIELD_NUMBER: _ClassVar[int]
    turns: _containers.RepeatedCompositeFieldContainer[TurnBasics]
    def __init__(self, turns: _Optional[_Iterable[_Union[TurnBasics, _Mapping]]] = ...) -> None: ...

class TurnBasics(_message.Message):
    __slots__ = ("organization_id", "event_id", "writes", "lease_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    WRITES_FIELD_NUMBER: _ClassVar[int]
    LEASE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    event_id: str
    writes: _containers.RepeatedCompositeFieldContainer[TurnBasicsWrite]
    lease_token: str
    def __init__(self, organization_id: _Optional[str] = ..., event_id: _Optional[str] = ..., writes: _Optional[_Iterable[_Union[TurnBasicsWrite, _Mapping]]] = ..., lease_token: _Optional[str] = ...) -> None: ...

class TurnBasicsWrite(_message.Message):
    __slots__ = ("update_lead_state", "schedule_follow_up", "resolve_obligation", "raise_central_item", "record_activity", "record_operador_outcome")
    UPDATE_LEAD_STATE_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_FOLLOW_UP_FIELD_NUMBER: _ClassVar[int]
    RESOLVE_OBLIGATION_FIELD_NUMBER: _ClassVar[int]
    RAISE_CENTRAL_ITEM_FIELD_NUMBER: _ClassVar[int]
    RECORD_ACTIVITY_FIELD_NUMBER: _ClassVar[int]
    RECORD_OPERADOR_OUTCOME_FIELD_NUMBER: _ClassVar[int]
    update_lead_state: UpdateLeadStateRequest
    schedule_follow_up: ScheduleFollowUpRequest
    resolve_obligation: ResolveObligationRequest
    raise_central_item: RaiseCentralItemRequest
    record_activity: RecordActivityRequest
    record_operador_outcome: RecordOperadorOutcomeRequest
    def __init__(self, update_lead_state: _Optional[_Union[UpdateLeadStateRequest, _Mapping]] = ..., schedule_follow_up: _Optional[_Union[ScheduleFollowUpRequest, _Mapping]] = ..., resolve_obligation: _Optional[_Union[ResolveObligationRequest, _Mapping]] = ..., raise_central_item: _Optional[_Union[RaiseCentralItemRequest, _Mapping]] = ..., record_activity: _Optional[_Union[RecordActivityRequest, _Mapping]] = ..., record_operador_outcome: _Optional[_Union[RecordOperadorOutcomeRequest, _Mapping]] = ...) -> None: ...

class RegisterTurnBasicsResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[TurnBasicsResult]
    def __init__(self, results: _Optional[_Iterable[_Union[TurnBasicsResult, _Mapping]]] = ...) -> None: ...

class TurnBasicsResult(_message.Message):
    __slots__ = ("event_id", "status", "detail", "completion")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    status: TurnBasicsStatus
    detail: str
    completion: _event_queue_pb2.LeaseOutcome
    def __init__(self, event_id: _Optional[str] = ..., status: _Optional[_Union[TurnBasicsStatus, str]] = ..., detail: _Optional[str] = ..., completion: _Optional[_Union[_event_queue_pb2.LeaseOutcome, str]] = ...) -> None: ...
