import datetime

from balcao.common.v1 import declaracao_pb2 as _declaracao_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ActorKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTOR_KIND_UNSPECIFIED: _ClassVar[ActorKind]
    ACTOR_KIND_RUNTIME: _ClassVar[ActorKind]
    ACTOR_KIND_OPERADOR_MODEL: _ClassVar[ActorKind]
    ACTOR_KIND_OPERADOR_RULES: _ClassVar[ActorKind]
    ACTOR_KIND_SEGURANCA: _ClassVar[ActorKind]
    ACTOR_KIND_PERSON: _ClassVar[ActorKind]
    ACTOR_KIND_SYSTEM: _ClassVar[ActorKind]
    ACTOR_KIND_CONTACT: _ClassVar[ActorKind]

class CrmRefusalCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CRM_REFUSAL_CODE_UNSPECIFIED: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_CALLBACKS_DISABLED: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_CONTACT_OPTED_OUT: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_CONTACT_ANONYMIZED: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_UNKNOWN_STAGE: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_CASE_CLOSED: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_FOLLOW_UP_NOT_PENDING: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_OBLIGATION_ALREADY_RESOLVED: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_NO_ACTIVE_ATTENDANT: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_DUE_IN_THE_PAST: _ClassVar[CrmRefusalCode]
    CRM_REFUSAL_CODE_HUMAN_IN_CONTROL: _ClassVar[CrmRefusalCode]

class DisclosureMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DISCLOSURE_MODE_UNSPECIFIED: _ClassVar[DisclosureMode]
    DISCLOSURE_MODE_INJECT: _ClassVar[DisclosureMode]
    DISCLOSURE_MODE_VETO: _ClassVar[DisclosureMode]

class ControllerActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONTROLLER_ACTION_KIND_UNSPECIFIED: _ClassVar[ControllerActionKind]
    CONTROLLER_ACTION_KIND_ROUTE_TO_UNIT: _ClassVar[ControllerActionKind]
    CONTROLLER_ACTION_KIND_FIXED_REPLY: _ClassVar[ControllerActionKind]
    CONTROLLER_ACTION_KIND_HANDOFF: _ClassVar[ControllerActionKind]
    CONTROLLER_ACTION_KIND_SHOW_MENU: _ClassVar[ControllerActionKind]
    CONTROLLER_ACTION_KIND_OPT_OUT: _ClassVar[ControllerActionKind]
    CONTROLLER_ACTION_KIND_CANCEL_PLAN: _ClassVar[ControllerActionKind]

class AgentVersionStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AGENT_VERSION_STATUS_UNSPECIFIED: _ClassVar[AgentVersionStatus]
    AGENT_VERSION_STATUS_DRAFT: _ClassVar[AgentVersionStatus]
    AGENT_VERSION_STATUS_PUBLISHED: _ClassVar[AgentVersionStatus]
    AGENT_VERSION_STATUS_SUPERSEDED: _ClassVar[AgentVersionStatus]

class Channel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHANNEL_UNSPECIFIED: _ClassVar[Channel]
    CHANNEL_WHATSAPP: _ClassVar[Channel]
    CHANNEL_WEB: _ClassVar[Channel]
    CHANNEL_TEST: _ClassVar[Channel]

class LegalBasis(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGAL_BASIS_UNSPECIFIED: _ClassVar[LegalBasis]
    LEGAL_BASIS_CONTACT_INITIATED: _ClassVar[LegalBasis]
    LEGAL_BASIS_CONSENT: _ClassVar[LegalBasis]
    LEGAL_BASIS_CONTRACT: _ClassVar[LegalBasis]
    LEGAL_BASIS_LEGITIMATE_INTEREST: _ClassVar[LegalBasis]

class AgendaRereadStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AGENDA_REREAD_STATUS_UNSPECIFIED: _ClassVar[AgendaRereadStatus]
    AGENDA_REREAD_STATUS_NOT_NEEDED: _ClassVar[AgendaRereadStatus]
    AGENDA_REREAD_STATUS_READ: _ClassVar[AgendaRereadStatus]
    AGENDA_REREAD_STATUS_UNKNOWN: _ClassVar[AgendaRereadStatus]

class ActivityKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTIVITY_KIND_UNSPECIFIED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_NOTHING_TO_DO: _ClassVar[ActivityKind]
    ACTIVITY_KIND_STAGE_CHANGED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_NOTE_SAVED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_FOLLOW_UP_SCHEDULED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_FOLLOW_UP_CANCELLED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_CASE_OPENED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_CASE_UPDATED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_CASE_CLOSED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_APPOINTMENT_BOOKED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_APPOINTMENT_RESCHEDULED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_APPOINTMENT_CANCELLED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_APPOINTMENT_CONFIRMED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_OBLIGATION_FULFILLED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_OBLIGATION_FAILED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_COULD_NOT_ACT: _ClassVar[ActivityKind]
    ACTIVITY_KIND_OPT_OUT_CHANGED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_HUMAN_CONTROL_CHANGED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_ATTENDANT_ASSIGNED: _ClassVar[ActivityKind]
    ACTIVITY_KIND_OTHER: _ClassVar[ActivityKind]

class HumanCaseStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HUMAN_CASE_STATUS_UNSPECIFIED: _ClassVar[HumanCaseStatus]
    HUMAN_CASE_STATUS_OPEN: _ClassVar[HumanCaseStatus]
    HUMAN_CASE_STATUS_IN_PROGRESS: _ClassVar[HumanCaseStatus]
    HUMAN_CASE_STATUS_WAITING_CUSTOMER: _ClassVar[HumanCaseStatus]
    HUMAN_CASE_STATUS_CLOSED: _ClassVar[HumanCaseStatus]

class HumanCaseReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HUMAN_CASE_REASON_UNSPECIFIED: _ClassVar[HumanCaseReason]
    HUMAN_CASE_REASON_CUSTOMER_ASKED: _ClassVar[HumanCaseReason]
    HUMAN_CASE_REASON_REVIEW_EXHAUSTED: _ClassVar[HumanCaseReason]
    HUMAN_CASE_REASON_OPERADOR_ESCALATION: _ClassVar[HumanCaseReason]
    HUMAN_CASE_REASON_COMPLAINT: _ClassVar[HumanCaseReason]
    HUMAN_CASE_REASON_PROMISED_CONTACT: _ClassVar[HumanCaseReason]
    HUMAN_CASE_REASON_OTHER: _ClassVar[HumanCaseReason]

class CasePriority(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CASE_PRIORITY_UNSPECIFIED: _ClassVar[CasePriority]
    CASE_PRIORITY_LOW: _ClassVar[CasePriority]
    CASE_PRIORITY_NORMAL: _ClassVar[CasePriority]
    CASE_PRIORITY_HIGH: _ClassVar[CasePriority]

class FollowUpStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FOLLOW_UP_STATUS_UNSPECIFIED: _ClassVar[FollowUpStatus]
    FOLLOW_UP_STATUS_PENDING: _ClassVar[FollowUpStatus]
    FOLLOW_UP_STATUS_SENT: _ClassVar[FollowUpStatus]
    FOLLOW_UP_STATUS_SKIPPED: _ClassVar[FollowUpStatus]
    FOLLOW_UP_STATUS_FAILED: _ClassVar[FollowUpStatus]
    FOLLOW_UP_STATUS_CANCELLED: _ClassVar[FollowUpStatus]

class ObligationStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OBLIGATION_STATUS_UNSPECIFIED: _ClassVar[ObligationStatus]
    OBLIGATION_STATUS_OPEN: _ClassVar[ObligationStatus]
    OBLIGATION_STATUS_FULFILLED: _ClassVar[ObligationStatus]
    OBLIGATION_STATUS_FAILED: _ClassVar[ObligationStatus]

class CentralItemKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CENTRAL_ITEM_KIND_UNSPECIFIED: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_JOB_DEAD: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_SEND_FAILED: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_TURN_FAILED: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_OPERADOR_BLOCKED: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_OBLIGATION_FAILED: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_UNMAPPED_ERROR: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_LGPD_BLOCK: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_SUSPICIOUS_CONTACT: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_CONFIGURATION: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_INTEGRATION_ERROR: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_HANDOFF: _ClassVar[CentralItemKind]
    CENTRAL_ITEM_KIND_OTHER: _ClassVar[CentralItemKind]

class CentralItemSeverity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CENTRAL_ITEM_SEVERITY_UNSPECIFIED: _ClassVar[CentralItemSeverity]
    CENTRAL_ITEM_SEVERITY_INFO: _ClassVar[CentralItemSeverity]
    CENTRAL_ITEM_SEVERITY_WARNING: _ClassVar[CentralItemSeverity]
    CENTRAL_ITEM_SEVERITY_CRITICAL: _ClassVar[CentralItemSeverity]

class CentralItemStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CENTRAL_ITEM_STATUS_UNSPECIFIED: _ClassVar[CentralItemStatus]
    CENTRAL_ITEM_STATUS_OPEN: _ClassVar[CentralItemStatus]
    CENTRAL_ITEM_STATUS_ACKNOWLEDGED: _ClassVar[CentralItemStatus]
    CENTRAL_ITEM_STATUS_RESOLVED: _ClassVar[CentralItemStatus]
    CENTRAL_ITEM_STATUS_DISMISSED: _ClassVar[CentralItemStatus]

class KnowledgeKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KNOWLEDGE_KIND_UNSPECIFIED: _ClassVar[KnowledgeKind]
    KNOWLEDGE_KIND_ARTICLE: _ClassVar[KnowledgeKind]
    KNOWLEDGE_KIND_SKILL_REFERENCE: _ClassVar[KnowledgeKind]

class TurnTrigger(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_TRIGGER_UNSPECIFIED: _ClassVar[TurnTrigger]
    TURN_TRIGGER_INBOUND: _ClassVar[TurnTrigger]
    TURN_TRIGGER_FOLLOW_UP: _ClassVar[TurnTrigger]
    TURN_TRIGGER_PROACTIVE: _ClassVar[TurnTrigger]
    TURN_TRIGGER_TEST: _ClassVar[TurnTrigger]

class TurnOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_OUTCOME_UNSPECIFIED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_REPLIED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_FIXED_REPLY: _ClassVar[TurnOutcome]
    TURN_OUTCOME_PLAN_EXPIRED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_SCREENED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_HELD_FOR_HUMAN: _ClassVar[TurnOutcome]
    TURN_OUTCOME_HANDED_OFF: _ClassVar[TurnOutcome]
    TURN_OUTCOME_SILENCED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_NOT_DELIVERED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_FAILED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_OPTED_OUT: _ClassVar[TurnOutcome]

class OperadorOutcomeStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OPERADOR_OUTCOME_STATUS_UNSPECIFIED: _ClassVar[OperadorOutcomeStatus]
    OPERADOR_OUTCOME_STATUS_ACTED: _ClassVar[OperadorOutcomeStatus]
    OPERADOR_OUTCOME_STATUS_NOTHING_TO_DO: _ClassVar[OperadorOutcomeStatus]
    OPERADOR_OUTCOME_STATUS_COULD_NOT_ACT: _ClassVar[OperadorOutcomeStatus]
    OPERADOR_OUTCOME_STATUS_SKIPPED_HUMAN_IN_CONTROL: _ClassVar[OperadorOutcomeStatus]
    OPERADOR_OUTCOME_STATUS_FAILED: _ClassVar[OperadorOutcomeStatus]
    OPERADOR_OUTCOME_STATUS_DEAD: _ClassVar[OperadorOutcomeStatus]

class EventStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_STATUS_UNSPECIFIED: _ClassVar[EventStatus]
    EVENT_STATUS_PENDING: _ClassVar[EventStatus]
    EVENT_STATUS_LEASED: _ClassVar[EventStatus]
    EVENT_STATUS_DONE: _ClassVar[EventStatus]
    EVENT_STATUS_DEAD: _ClassVar[EventStatus]
ACTOR_KIND_UNSPECIFIED: ActorKind
ACTOR_KIND_RUNTIME: ActorKind
ACTOR_KIND_OPERADOR_MODEL: ActorKind
ACTOR_KIND_OPERADOR_RULES: ActorKind
ACTOR_KIND_SEGURANCA: ActorKind
ACTOR_KIND_PERSON: ActorKind
ACTOR_KIND_SYSTEM: ActorKind
ACTOR_KIND_CONTACT: ActorKind
CRM_REFUSAL_CODE_UNSPECIFIED: CrmRefusalCode
CRM_REFUSAL_CODE_CALLBACKS_DISABLED: CrmRefusalCode
CRM_REFUSAL_CODE_CONTACT_OPTED_OUT: CrmRefusalCode
CRM_REFUSAL_CODE_CONTACT_ANONYMIZED: CrmRefusalCode
CRM_REFUSAL_CODE_UNKNOWN_STAGE: CrmRefusalCode
CRM_REFUSAL_CODE_CASE_CLOSED: CrmRefusalCode
CRM_REFUSAL_CODE_FOLLOW_UP_NOT_PENDING: CrmRefusalCode
CRM_REFUSAL_CODE_OBLIGATION_ALREADY_RESOLVED: CrmRefusalCode
CRM_REFUSAL_CODE_NO_ACTIVE_ATTENDANT: CrmRefusalCode
CRM_REFUSAL_CODE_DUE_IN_THE_PAST: CrmRefusalCode
CRM_REFUSAL_CODE_HUMAN_IN_CONTROL: CrmRefusalCode
DISCLOSURE_MODE_UNSPECIFIED: DisclosureMode
DISCLOSURE_MODE_INJECT: DisclosureMode
DISCLOSURE_MODE_VETO: DisclosureMode
CONTROLLER_ACTION_KIND_UNSPECIFIED: ControllerActionKind
CONTROLLER_ACTION_KIND_ROUTE_TO_UNIT: ControllerActionKind
CONTROLLER_ACTION_KIND_FIXED_REPLY: ControllerActionKind
CONTROLLER_ACTION_KIND_HANDOFF: ControllerActionKind
CONTROLLER_ACTION_KIND_SHOW_MENU: ControllerActionKind
CONTROLLER_ACTION_KIND_OPT_OUT: ControllerActionKind
CONTROLLER_ACTION_KIND_CANCEL_PLAN: ControllerActionKind
AGENT_VERSION_STATUS_UNSPECIFIED: AgentVersionStatus
AGENT_VERSION_STATUS_DRAFT: AgentVersionStatus
AGENT_VERSION_STATUS_PUBLISHED: AgentVersionStatus
AGENT_VERSION_STATUS_SUPERSEDED: AgentVersionStatus
CHANNEL_UNSPECIFIED: Channel
CHANNEL_WHATSAPP: Channel
CHANNEL_WEB: Channel
CHANNEL_TEST: Channel
LEGAL_BASIS_UNSPECIFIED: LegalBasis
LEGAL_BASIS_CONTACT_INITIATED: LegalBasis
LEGAL_BASIS_CONSENT: LegalBasis
LEGAL_BASIS_CONTRACT: LegalBasis
LEGAL_BASIS_LEGITIMATE_INTEREST: LegalBasis
AGENDA_REREAD_STATUS_UNSPECIFIED: AgendaRereadStatus
AGENDA_REREAD_STATUS_NOT_NEEDED: AgendaRereadStatus
AGENDA_REREAD_STATUS_READ: AgendaRereadStatus
AGENDA_REREAD_STATUS_UNKNOWN: AgendaRereadStatus
ACTIVITY_KIND_UNSPECIFIED: ActivityKind
ACTIVITY_KIND_NOTHING_TO_DO: ActivityKind
ACTIVITY_KIND_STAGE_CHANGED: ActivityKind
ACTIVITY_KIND_NOTE_SAVED: ActivityKind
ACTIVITY_KIND_FOLLOW_UP_SCHEDULED: ActivityKind
ACTIVITY_KIND_FOLLOW_UP_CANCELLED: ActivityKind
ACTIVITY_KIND_CASE_OPENED: ActivityKind
ACTIVITY_KIND_CASE_UPDATED: ActivityKind
ACTIVITY_KIND_CASE_CLOSED: ActivityKind
ACTIVITY_KIND_APPOINTMENT_BOOKED: ActivityKind
ACTIVITY_KIND_APPOINTMENT_RESCHEDULED: ActivityKind
ACTIVITY_KIND_APPOINTMENT_CANCELLED: ActivityKind
ACTIVITY_KIND_APPOINTMENT_CONFIRMED: ActivityKind
ACTIVITY_KIND_OBLIGATION_FULFILLED: ActivityKind
ACTIVITY_KIND_OBLIGATION_FAILED: ActivityKind
ACTIVITY_KIND_COULD_NOT_ACT: ActivityKind
ACTIVITY_KIND_OPT_OUT_CHANGED: ActivityKind
ACTIVITY_KIND_HUMAN_CONTROL_CHANGED: ActivityKind
ACTIVITY_KIND_ATTENDANT_ASSIGNED: ActivityKind
ACTIVITY_KIND_OTHER: ActivityKind
HUMAN_CASE_STATUS_UNSPECIFIED: HumanCaseStatus
HUMAN_CASE_STATUS_OPEN: HumanCaseStatus
HUMAN_CASE_STATUS_IN_PROGRESS: HumanCaseStatus
HUMAN_CASE_STATUS_WAITING_CUSTOMER: HumanCaseStatus
HUMAN_CASE_STATUS_CLOSED: HumanCaseStatus
HUMAN_CASE_REASON_UNSPECIFIED: HumanCaseReason
HUMAN_CASE_REASON_CUSTOMER_ASKED: HumanCaseReason
HUMAN_CASE_REASON_REVIEW_EXHAUSTED: HumanCaseReason
HUMAN_CASE_REASON_OPERADOR_ESCALATION: HumanCaseReason
HUMAN_CASE_REASON_COMPLAINT: HumanCaseReason
HUMAN_CASE_REASON_PROMISED_CONTACT: HumanCaseReason
HUMAN_CASE_REASON_OTHER: HumanCaseReason
CASE_PRIORITY_UNSPECIFIED: CasePriority
CASE_PRIORITY_LOW: CasePriority
CASE_PRIORITY_NORMAL: CasePriority
CASE_PRIORITY_HIGH: CasePriority
FOLLOW_UP_STATUS_UNSPECIFIED: FollowUpStatus
FOLLOW_UP_STATUS_PENDING: FollowUpStatus
FOLLOW_UP_STATUS_SENT: FollowUpStatus
FOLLOW_UP_STATUS_SKIPPED: FollowUpStatus
FOLLOW_UP_STATUS_FAILED: FollowUpStatus
FOLLOW_UP_STATUS_CANCELLED: FollowUpStatus
OBLIGATION_STATUS_UNSPECIFIED: ObligationStatus
OBLIGATION_STATUS_OPEN: ObligationStatus
OBLIGATION_STATUS_FULFILLED: ObligationStatus
OBLIGATION_STATUS_FAILED: ObligationStatus
CENTRAL_ITEM_KIND_UNSPECIFIED: CentralItemKind
CENTRAL_ITEM_KIND_JOB_DEAD: CentralItemKind
CENTRAL_ITEM_KIND_SEND_FAILED: CentralItemKind
CENTRAL_ITEM_KIND_TURN_FAILED: CentralItemKind
CENTRAL_ITEM_KIND_OPERADOR_BLOCKED: CentralItemKind
CENTRAL_ITEM_KIND_OBLIGATION_FAILED: CentralItemKind
CENTRAL_ITEM_KIND_UNMAPPED_ERROR: CentralItemKind
CENTRAL_ITEM_KIND_LGPD_BLOCK: CentralItemKind
CENTRAL_ITEM_KIND_SUSPICIOUS_CONTACT: CentralItemKind
CENTRAL_ITEM_KIND_CONFIGURATION: CentralItemKind
CENTRAL_ITEM_KIND_INTEGRATION_ERROR: CentralItemKind
CENTRAL_ITEM_KIND_HANDOFF: CentralItemKind
CENTRAL_ITEM_KIND_OTHER: CentralItemKind
CENTRAL_ITEM_SEVERITY_UNSPECIFIED: CentralItemSeverity
CENTRAL_ITEM_SEVERITY_INFO: CentralItemSeverity
CENTRAL_ITEM_SEVERITY_WARNING: CentralItemSeverity
CENTRAL_ITEM_SEVERITY_CRITICAL: CentralItemSeverity
CENTRAL_ITEM_STATUS_UNSPECIFIED: CentralItemStatus
CENTRAL_ITEM_STATUS_OPEN: CentralItemStatus
CENTRAL_ITEM_STATUS_ACKNOWLEDGED: CentralItemStatus
CENTRAL_ITEM_STATUS_RESOLVED: CentralItemStatus
CENTRAL_ITEM_STATUS_DISMISSED: CentralItemStatus
KNOWLEDGE_KIND_UNSPECIFIED: KnowledgeKind
KNOWLEDGE_KIND_ARTICLE: KnowledgeKind
KNOWLEDGE_KIND_SKILL_REFERENCE: KnowledgeKind
TURN_TRIGGER_UNSPECIFIED: TurnTrigger
TURN_TRIGGER_INBOUND: TurnTrigger
TURN_TRIGGER_FOLLOW_UP: TurnTrigger
TURN_TRIGGER_PROACTIVE: TurnTrigger
TURN_TRIGGER_TEST: TurnTrigger
TURN_OUTCOME_UNSPECIFIED: TurnOutcome
TURN_OUTCOME_REPLIED: TurnOutcome
TURN_OUTCOME_FIXED_REPLY: TurnOutcome
TURN_OUTCOME_PLAN_EXPIRED: TurnOutcome
TURN_OUTCOME_SCREENED: TurnOutcome
TURN_OUTCOME_HELD_FOR_HUMAN: TurnOutcome
TURN_OUTCOME_HANDED_OFF: TurnOutcome
TURN_OUTCOME_SILENCED: TurnOutcome
TURN_OUTCOME_NOT_DELIVERED: TurnOutcome
TURN_OUTCOME_FAILED: TurnOutcome
TURN_OUTCOME_OPTED_OUT: TurnOutcome
OPERADOR_OUTCOME_STATUS_UNSPECIFIED: OperadorOutcomeStatus
OPERADOR_OUTCOME_STATUS_ACTED: OperadorOutcomeStatus
OPERADOR_OUTCOME_STATUS_NOTHING_TO_DO: OperadorOutcomeStatus
OPERADOR_OUTCOME_STATUS_COULD_NOT_ACT: OperadorOutcomeStatus
OPERADOR_OUTCOME_STATUS_SKIPPED_HUMAN_IN_CONTROL: OperadorOutcomeStatus
OPERADOR_OUTCOME_STATUS_FAILED: OperadorOutcomeStatus
OPERADOR_OUTCOME_STATUS_DEAD: OperadorOutcomeStatus
EVENT_STATUS_UNSPECIFIED: EventStatus
EVENT_STATUS_PENDING: EventStatus
EVENT_STATUS_LEASED: EventStatus
EVENT_STATUS_DONE: EventStatus
EVENT_STATUS_DEAD: EventStatus

class Actor(_message.Message):
    __slots__ = ("kind", "name")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    kind: ActorKind
    name: str
    def __init__(self, kind: _Optional[_Union[ActorKind, str]] = ..., name: _Optional[str] = ...) -> None: ...

class Money(_message.Message):
    __slots__ = ("amount_minor", "currency")
    AMOUNT_MINOR_FIELD_NUMBER: _ClassVar[int]
    CURRENCY_FIELD_NUMBER: _ClassVar[int]
    amount_minor: int
    currency: str
    def __init__(self, amount_minor: _Optional[int] = ..., currency: _Optional[str] = ...) -> None: ...

class CrmRefusal(_message.Message):
    __slots__ = ("code", "message_pt")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_PT_FIELD_NUMBER: _ClassVar[int]
    code: CrmRefusalCode
    message_pt: str
    def __init__(self, code: _Optional[_Union[CrmRefusalCode, str]] = ..., message_pt: _Optional[str] = ...) -> None: ...

class Organization(_message.Message):
    __slots__ = ("organization_id", "name", "time_zone", "plan", "settings", "settings_version", "created_at", "updated_at")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    name: str
    time_zone: str
    plan: Plan
    settings: OrganizationSettings
    settings_version: int
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., name: _Optional[str] = ..., time_zone: _Optional[str] = ..., plan: _Optional[_Union[Plan, _Mapping]] = ..., settings: _Optional[_Union[OrganizationSettings, _Mapping]] = ..., settings_version: _Optional[int] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Plan(_message.Message):
    __slots__ = ("name", "expires_at")
    NAME_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    name: str
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, name: _Optional[str] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class OrganizationSettings(_message.Message):
    __slots__ = ("roles", "seguranca", "followup", "internal_vocabulary_additions", "stages", "categoria_stages", "reply_catalog", "menu", "hashtags", "controller", "runtime", "pacing", "business", "commercial", "attendants")
    class ReplyCatalogEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ROLES_FIELD_NUMBER: _ClassVar[int]
    SEGURANCA_FIELD_NUMBER: _ClassVar[int]
    FOLLOWUP_FIELD_NUMBER: _ClassVar[int]
    INTERNAL_VOCABULARY_ADDITIONS_FIELD_NUMBER: _ClassVar[int]
    STAGES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIA_STAGES_FIELD_NUMBER: _ClassVar[int]
    REPLY_CATALOG_FIELD_NUMBER: _ClassVar[int]
    MENU_FIELD_NUMBER: _ClassVar[int]
    HASHTAGS_FIELD_NUMBER: _ClassVar[int]
    CONTROLLER_FIELD_NUMBER: _ClassVar[int]
    RUNTIME_FIELD_NUMBER: _ClassVar[int]
    PACING_FIELD_NUMBER: _ClassVar[int]
    BUSINESS_FIELD_NUMBER: _ClassVar[int]
    COMMERCIAL_FIELD_NUMBER: _ClassVar[int]
    ATTENDANTS_FIELD_NUMBER: _ClassVar[int]
    roles: RoleSettings
    seguranca: SegurancaSettings
    followup: FollowUpSettings
    internal_vocabulary_additions: _containers.RepeatedScalarFieldContainer[str]
    stages: _containers.RepeatedCompositeFieldContainer[StageDefinition]
    categoria_stages: _containers.RepeatedCompositeFieldContainer[CategoriaStageRule]
    reply_catalog: _containers.ScalarMap[str, str]
    menu: Menu
    hashtags: _containers.RepeatedCompositeFieldContainer[HashtagRule]
    controller: ControllerSettings
    runtime: RuntimeSettings
    pacing: PacingSettings
    business: BusinessProfile
    commercial: CommercialFacts
    attendants: _containers.RepeatedCompositeFieldContainer[Attendant]
    def __init__(self, roles: _Optional[_Union[RoleSettings, _Mapping]] = ..., seguranca: _Optional[_Union[SegurancaSettings, _Mapping]] = ..., followup: _Optional[_Union[FollowUpSettings, _Mapping]] = ..., internal_vocabulary_additions: _Optional[_Iterable[str]] = ..., stages: _Optional[_Iterable[_Union[StageDefinition, _Mapping]]] = ..., categoria_stages: _Optional[_Iterable[_Union[CategoriaStageRule, _Mapping]]] = ..., reply_catalog: _Optional[_Mapping[str, str]] = ..., menu: _Optional[_Union[Menu, _Mapping]] = ..., hashtags: _Optional[_Iterable[_Union[HashtagRule, _Mapping]]] = ..., controller: _Optional[_Union[ControllerSettings, _Mapping]] = ..., runtime: _Optional[_Union[RuntimeSettings, _Mapping]] = ..., pacing: _Optional[_Union[PacingSettings, _Mapping]] = ..., business: _Optional[_Union[BusinessProfile, _Mapping]] = ..., commercial: _Optional[_Union[CommercialFacts, _Mapping]] = ..., attendants: _Optional[_Iterable[_Union[Attendant, _Mapping]]] = ...) -> None: ...

class RoleSettings(_message.Message):
    __slots__ = ("conversador_enabled", "operador_enabled")
    CONVERSADOR_ENABLED_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_ENABLED_FIELD_NUMBER: _ClassVar[int]
    conversador_enabled: bool
    operador_enabled: bool
    def __init__(self, conversador_enabled: _Optional[bool] = ..., operador_enabled: _Optional[bool] = ...) -> None: ...

class SegurancaSettings(_message.Message):
    __slots__ = ("gates_enabled", "inbound_classifier_enabled", "disclosure_mode", "disclosure_text")
    class GatesEnabledEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: bool
        def __init__(self, key: _Optional[str] = ..., value: _Optional[bool] = ...) -> None: ...
    GATES_ENABLED_FIELD_NUMBER: _ClassVar[int]
    INBOUND_CLASSIFIER_ENABLED_FIELD_NUMBER: _ClassVar[int]
    DISCLOSURE_MODE_FIELD_NUMBER: _ClassVar[int]
    DISCLOSURE_TEXT_FIELD_NUMBER: _ClassVar[int]
    gates_enabled: _containers.ScalarMap[str, bool]
    inbound_classifier_enabled: bool
    disclosure_mode: DisclosureMode
    disclosure_text: str
    def __init__(self, gates_enabled: _Optional[_Mapping[str, bool]] = ..., inbound_classifier_enabled: _Optional[bool] = ..., disclosure_mode: _Optional[_Union[DisclosureMode, str]] = ..., disclosure_text: _Optional[str] = ...) -> None: ...

class FollowUpSettings(_message.Message):
    __slots__ = ("callback_enabled",)
    CALLBACK_ENABLED_FIELD_NUMBER: _ClassVar[int]
    callback_enabled: bool
    def __init__(self, callback_enabled: _Optional[bool] = ...) -> None: ...

class StageDefinition(_message.Message):
    __slots__ = ("key", "label", "position", "terminal")
    KEY_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_FIELD_NUMBER: _ClassVar[int]
    key: str
    label: str
    position: int
    terminal: bool
    def __init__(self, key: _Optional[str] = ..., label: _Optional[str] = ..., position: _Optional[int] = ..., terminal: _Optional[bool] = ...) -> None: ...

class CategoriaStageRule(_message.Message):
    __slots__ = ("categoria", "stage_key")
    CATEGORIA_FIELD_NUMBER: _ClassVar[int]
    STAGE_KEY_FIELD_NUMBER: _ClassVar[int]
    categoria: _declaracao_pb2.Categoria
    stage_key: str
    def __init__(self, categoria: _Optional[_Union[_declaracao_pb2.Categoria, str]] = ..., stage_key: _Optional[str] = ...) -> None: ...

class Menu(_message.Message):
    __slots__ = ("header", "options")
    HEADER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    header: str
    options: _containers.RepeatedCompositeFieldContainer[MenuOption]
    def __init__(self, header: _Optional[str] = ..., options: _Optional[_Iterable[_Union[MenuOption, _Mapping]]] = ...) -> None: ...

class MenuOption(_message.Message):
    __slots__ = ("number", "label", "action")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    number: str
    label: str
    action: ControllerAction
    def __init__(self, number: _Optional[str] = ..., label: _Optional[str] = ..., action: _Optional[_Union[ControllerAction, _Mapping]] = ...) -> None: ...

class HashtagRule(_message.Message):
    __slots__ = ("tag", "action")
    TAG_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    tag: str
    action: ControllerAction
    def __init__(self, tag: _Optional[str] = ..., action: _Optional[_Union[ControllerAction, _Mapping]] = ...) -> None: ...

class ControllerAction(_message.Message):
    __slots__ = ("kind", "unit_id", "reply_key")
    KIND_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    REPLY_KEY_FIELD_NUMBER: _ClassVar[int]
    kind: ControllerActionKind
    unit_id: str
    reply_key: str
    def __init__(self, kind: _Optional[_Union[ControllerActionKind, str]] = ..., unit_id: _Optional[str] = ..., reply_key: _Optional[str] = ...) -> None: ...

class ControllerSettings(_message.Message):
    __slots__ = ("handoff_phrases", "opt_out_phrases", "opt_in_phrases")
    HANDOFF_PHRASES_FIELD_NUMBER: _ClassVar[int]
    OPT_OUT_PHRASES_FIELD_NUMBER: _ClassVar[int]
    OPT_IN_PHRASES_FIELD_NUMBER: _ClassVar[int]
    handoff_phrases: _containers.RepeatedScalarFieldContainer[str]
    opt_out_phrases: _containers.RepeatedScalarFieldContainer[str]
    opt_in_phrases: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, handoff_phrases: _Optional[_Iterable[str]] = ..., opt_out_phrases: _Optional[_Iterable[str]] = ..., opt_in_phrases: _Optional[_Iterable[str]] = ...) -> None: ...

class RuntimeSettings(_message.Message):
    __slots__ = ("debounce_ms", "debounce_cap_ms", "human_reply_pause_minutes", "accept_groups")
    DEBOUNCE_MS_FIELD_NUMBER: _ClassVar[int]
    DEBOUNCE_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    HUMAN_REPLY_PAUSE_MINUTES_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_GROUPS_FIELD_NUMBER: _ClassVar[int]
    debounce_ms: int
    debounce_cap_ms: int
    human_reply_pause_minutes: int
    accept_groups: bool
    def __init__(self, debounce_ms: _Optional[int] = ..., debounce_cap_ms: _Optional[int] = ..., human_reply_pause_minutes: _Optional[int] = ..., accept_groups: _Optional[bool] = ...) -> None: ...

class PacingSettings(_message.Message):
    __slots__ = ("quiet_hours_start", "quiet_hours_end", "daily_cap_per_number", "warmup_initial_daily_cap", "warmup_days", "per_contact_min_interval_seconds")
    QUIET_HOURS_START_FIELD_NUMBER: _ClassVar[int]
    QUIET_HOURS_END_FIELD_NUMBER: _ClassVar[int]
    DAILY_CAP_PER_NUMBER_FIELD_NUMBER: _ClassVar[int]
    WARMUP_INITIAL_DAILY_CAP_FIELD_NUMBER: _ClassVar[int]
    WARMUP_DAYS_FIELD_NUMBER: _ClassVar[int]
    PER_CONTACT_MIN_INTERVAL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    quiet_hours_start: str
    quiet_hours_end: str
    daily_cap_per_number: int
    warmup_initial_daily_cap: int
    warmup_days: int
    per_contact_min_interval_seconds: int
    def __init__(self, quiet_hours_start: _Optional[str] = ..., quiet_hours_end: _Optional[str] = ..., daily_cap_per_number: _Optional[int] = ..., warmup_initial_daily_cap: _Optional[int] = ..., warmup_days: _Optional[int] = ..., per_contact_min_interval_seconds: _Optional[int] = ...) -> None: ...

class BusinessProfile(_message.Message):
    __slots__ = ("display_name", "description", "address", "opening_hours_text", "public_phones", "public_emails", "websites", "public_documents")
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    OPENING_HOURS_TEXT_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_PHONES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_EMAILS_FIELD_NUMBER: _ClassVar[int]
    WEBSITES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    display_name: str
    description: str
    address: str
    opening_hours_text: str
    public_phones: _containers.RepeatedScalarFieldContainer[str]
    public_emails: _containers.RepeatedScalarFieldContainer[str]
    websites: _containers.RepeatedScalarFieldContainer[str]
    public_documents: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, display_name: _Optional[str] = ..., description: _Optional[str] = ..., address: _Optional[str] = ..., opening_hours_text: _Optional[str] = ..., public_phones: _Optional[_Iterable[str]] = ..., public_emails: _Optional[_Iterable[str]] = ..., websites: _Optional[_Iterable[str]] = ..., public_documents: _Optional[_Iterable[str]] = ...) -> None: ...

class CommercialFacts(_message.Message):
    __slots__ = ("prices", "offers", "free_items", "guarantees")
    PRICES_FIELD_NUMBER: _ClassVar[int]
    OFFERS_FIELD_NUMBER: _ClassVar[int]
    FREE_ITEMS_FIELD_NUMBER: _ClassVar[int]
    GUARANTEES_FIELD_NUMBER: _ClassVar[int]
    prices: _containers.RepeatedCompositeFieldContainer[PriceEntry]
    offers: _containers.RepeatedCompositeFieldContainer[Offer]
    free_items: _containers.RepeatedScalarFieldContainer[str]
    guarantees: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, prices: _Optional[_Iterable[_Union[PriceEntry, _Mapping]]] = ..., offers: _Optional[_Iterable[_Union[Offer, _Mapping]]] = ..., free_items: _Optional[_Iterable[str]] = ..., guarantees: _Optional[_Iterable[str]] = ...) -> None: ...

class PriceEntry(_message.Message):
    __slots__ = ("item", "price", "conditions", "max_instalments")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    CONDITIONS_FIELD_NUMBER: _ClassVar[int]
    MAX_INSTALMENTS_FIELD_NUMBER: _ClassVar[int]
    item: str
    price: Money
    conditions: str
    max_instalments: int
    def __init__(self, item: _Optional[str] = ..., price: _Optional[_Union[Money, _Mapping]] = ..., conditions: _Optional[str] = ..., max_instalments: _Optional[int] = ...) -> None: ...

class Offer(_message.Message):
    __slots__ = ("subject", "description", "discount_percent", "discount_amount", "valid_until")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISCOUNT_PERCENT_FIELD_NUMBER: _ClassVar[int]
    DISCOUNT_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    VALID_UNTIL_FIELD_NUMBER: _ClassVar[int]
    subject: str
    description: str
    discount_percent: int
    discount_amount: Money
    valid_until: _timestamp_pb2.Timestamp
    def __init__(self, subject: _Optional[str] = ..., description: _Optional[str] = ..., discount_percent: _Optional[int] = ..., discount_amount: _Optional[_Union[Money, _Mapping]] = ..., valid_until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Attendant(_message.Message):
    __slots__ = ("attendant_id", "name", "active")
    ATTENDANT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    attendant_id: str
    name: str
    active: bool
    def __init__(self, attendant_id: _Optional[str] = ..., name: _Optional[str] = ..., active: _Optional[bool] = ...) -> None: ...

class AgentVersion(_message.Message):
    __slots__ = ("version_id", "organization_id", "number", "status", "configuration", "saved_by", "note", "created_at", "published_at")
    VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CONFIGURATION_FIELD_NUMBER: _ClassVar[int]
    SAVED_BY_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_AT_FIELD_NUMBER: _ClassVar[int]
    version_id: str
    organization_id: str
    number: int
    status: AgentVersionStatus
    configuration: AgentConfiguration
    saved_by: Actor
    note: str
    created_at: _timestamp_pb2.Timestamp
    published_at: _timestamp_pb2.Timestamp
    def __init__(self, version_id: _Optional[str] = ..., organization_id: _Optional[str] = ..., number: _Optional[int] = ..., status: _Optional[_Union[AgentVersionStatus, str]] = ..., configuration: _Optional[_Union[AgentConfiguration, _Mapping]] = ..., saved_by: _Optional[_Union[Actor, _Mapping]] = ..., note: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., published_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AgentConfiguration(_message.Message):
    __slots__ = ("units", "default_unit_id")
    UNITS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    units: _containers.RepeatedCompositeFieldContainer[UnitConfig]
    default_unit_id: str
    def __init__(self, units: _Optional[_Iterable[_Union[UnitConfig, _Mapping]]] = ..., default_unit_id: _Optional[str] = ...) -> None: ...

class UnitConfig(_message.Message):
    __slots__ = ("unit_id", "name", "description", "conversador", "operador", "resource_ids")
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CONVERSADOR_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_IDS_FIELD_NUMBER: _ClassVar[int]
    unit_id: str
    name: str
    description: str
    conversador: ConversadorConfig
    operador: OperadorConfig
    resource_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, unit_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., conversador: _Optional[_Union[ConversadorConfig, _Mapping]] = ..., operador: _Optional[_Union[OperadorConfig, _Mapping]] = ..., resource_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class ConversadorConfig(_message.Message):
    __slots__ = ("voice", "instructions", "model", "max_steps")
    VOICE_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MAX_STEPS_FIELD_NUMBER: _ClassVar[int]
    voice: str
    instructions: str
    model: str
    max_steps: int
    def __init__(self, voice: _Optional[str] = ..., instructions: _Optional[str] = ..., model: _Optional[str] = ..., max_steps: _Optional[int] = ...) -> None: ...

class OperadorConfig(_message.Message):
    __slots__ = ("capability_packages", "extra_capabilities", "disabled_capabilities", "instructions", "model")
    CAPABILITY_PACKAGES_FIELD_NUMBER: _ClassVar[int]
    EXTRA_CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    DISABLED_CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    capability_packages: _containers.RepeatedScalarFieldContainer[str]
    extra_capabilities: _containers.RepeatedScalarFieldContainer[str]
    disabled_capabilities: _containers.RepeatedScalarFieldContainer[str]
    instructions: str
    model: str
    def __init__(self, capability_packages: _Optional[_Iterable[str]] = ..., extra_capabilities: _Optional[_Iterable[str]] = ..., disabled_capabilities: _Optional[_Iterable[str]] = ..., instructions: _Optional[str] = ..., model: _Optional[str] = ...) -> None: ...

class Contact(_message.Message):
    __slots__ = ("contact_id", "organization_id", "phone_e164", "whatsapp_jids", "web_profile_id", "name", "email", "cpf", "channel", "opted_out", "opted_out_at", "blocked", "anonymized", "human_in_control", "human_control_until", "assigned_attendant_id", "legal_basis", "created_at", "updated_at")
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    PHONE_E164_FIELD_NUMBER: _ClassVar[int]
    WHATSAPP_JIDS_FIELD_NUMBER: _ClassVar[int]
    WEB_PROFILE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    CPF_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    OPTED_OUT_FIELD_NUMBER: _ClassVar[int]
    OPTED_OUT_AT_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_FIELD_NUMBER: _ClassVar[int]
    ANONYMIZED_FIELD_NUMBER: _ClassVar[int]
    HUMAN_IN_CONTROL_FIELD_NUMBER: _ClassVar[int]
    HUMAN_CONTROL_UNTIL_FIELD_NUMBER: _ClassVar[int]
    ASSIGNED_ATTENDANT_ID_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BASIS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    contact_id: str
    organization_id: str
    phone_e164: str
    whatsapp_jids: _containers.RepeatedScalarFieldContainer[str]
    web_profile_id: str
    name: str
    email: str
    cpf: str
    channel: Channel
    opted_out: bool
    opted_out_at: _timestamp_pb2.Timestamp
    blocked: bool
    anonymized: bool
    human_in_control: bool
    human_control_until: _timestamp_pb2.Timestamp
    assigned_attendant_id: str
    legal_basis: LegalBasis
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, contact_id: _Optional[str] = ..., organization_id: _Optional[str] = ..., phone_e164: _Optional[str] = ..., whatsapp_jids: _Optional[_Iterable[str]] = ..., web_profile_id: _Optional[str] = ..., name: _Optional[str] = ..., email: _Optional[str] = ..., cpf: _Optional[str] = ..., channel: _Optional[_Union[Channel, str]] = ..., opted_out: _Optional[bool] = ..., opted_out_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., blocked: _Optional[bool] = ..., anonymized: _Optional[bool] = ..., human_in_control: _Optional[bool] = ..., human_control_until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., assigned_attendant_id: _Optional[str] = ..., legal_basis: _Optional[_Union[LegalBasis, str]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class LeadState(_message.Message):
    __slots__ = ("contact_id", "stage_key", "stage_label", "reason", "source_turn_id", "updated_by", "updated_at")
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    STAGE_KEY_FIELD_NUMBER: _ClassVar[int]
    STAGE_LABEL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_BY_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    contact_id: str
    stage_key: str
    stage_label: str
    reason: str
    source_turn_id: str
    updated_by: Actor
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, contact_id: _Optional[str] = ..., stage_key: _Optional[str] = ..., stage_label: _Optional[str] = ..., reason: _Optional[str] = ..., source_turn_id: _Optional[str] = ..., updated_by: _Optional[_Union[Actor, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CheckpointContent(_message.Message):
    __slots__ = ("rolling_summary", "commitments", "objections", "next_action", "declaracao", "agenda_reread")
    ROLLING_SUMMARY_FIELD_NUMBER: _ClassVar[int]
    COMMITMENTS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_ACTION_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    AGENDA_REREAD_FIELD_NUMBER: _ClassVar[int]
    rolling_summary: str
    commitments: _containers.RepeatedScalarFieldContainer[str]
    objections: _containers.RepeatedScalarFieldContainer[str]
    next_action: str
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    agenda_reread: AgendaRereadStatus
    def __init__(self, rolling_summary: _Optional[str] = ..., commitments: _Optional[_Iterable[str]] = ..., objections: _Optional[_Iterable[str]] = ..., next_action: _Optional[str] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., agenda_reread: _Optional[_Union[AgendaRereadStatus, str]] = ...) -> None: ...

class LeadCheckpoint(_message.Message):
    __slots__ = ("contact_id", "seq", "turn_id", "unit_id", "content", "created_at")
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    contact_id: str
    seq: int
    turn_id: str
    unit_id: str
    content: CheckpointContent
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, contact_id: _Optional[str] = ..., seq: _Optional[int] = ..., turn_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., content: _Optional[_Union[CheckpointContent, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class LeadNote(_message.Message):
    __slots__ = ("note_id", "contact_id", "key", "title", "body", "author", "source_turn_id", "created_at", "updated_at")
    NOTE_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    note_id: str
    contact_id: str
    key: str
    title: str
    body: str
    author: Actor
    source_turn_id: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, note_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., key: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., author: _Optional[_Union[Actor, _Mapping]] = ..., source_turn_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class LeadActivity(_message.Message):
    __slots__ = ("activity_id", "contact_id", "kind", "actor", "summary_pt", "turn_id", "event_id", "details", "occurred_at")
    ACTIVITY_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_PT_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    activity_id: str
    contact_id: str
    kind: ActivityKind
    actor: Actor
    summary_pt: str
    turn_id: str
    event_id: str
    details: _struct_pb2.Struct
    occurred_at: _timestamp_pb2.Timestamp
    def __init__(self, activity_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., kind: _Optional[_Union[ActivityKind, str]] = ..., actor: _Optional[_Union[Actor, _Mapping]] = ..., summary_pt: _Optional[str] = ..., turn_id: _Optional[str] = ..., event_id: _Optional[str] = ..., details: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class HumanCase(_message.Message):
    __slots__ = ("case_id", "contact_id", "status", "reason", "reason_text", "summary", "declaracao", "priority", "assigned_attendant_id", "opened_by", "source_turn_id", "resolution", "updates", "opened_at", "closed_at")
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    REASON_TEXT_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    ASSIGNED_ATTENDANT_ID_FIELD_NUMBER: _ClassVar[int]
    OPENED_BY_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    UPDATES_FIELD_NUMBER: _ClassVar[int]
    OPENED_AT_FIELD_NUMBER: _ClassVar[int]
    CLOSED_AT_FIELD_NUMBER: _ClassVar[int]
    case_id: str
    contact_id: str
    status: HumanCaseStatus
    reason: HumanCaseReason
    reason_text: str
    summary: str
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    priority: CasePriority
    assigned_attendant_id: str
    opened_by: Actor
    source_turn_id: str
    resolution: str
    updates: _containers.RepeatedCompositeFieldContainer[CaseUpdate]
    opened_at: _timestamp_pb2.Timestamp
    closed_at: _timestamp_pb2.Timestamp
    def __init__(self, case_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., status: _Optional[_Union[HumanCaseStatus, str]] = ..., reason: _Optional[_Union[HumanCaseReason, str]] = ..., reason_text: _Optional[str] = ..., summary: _Optional[str] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., priority: _Optional[_Union[CasePriority, str]] = ..., assigned_attendant_id: _Optional[str] = ..., opened_by: _Optional[_Union[Actor, _Mapping]] = ..., source_turn_id: _Optional[str] = ..., resolution: _Optional[str] = ..., updates: _Optional[_Iterable[_Union[CaseUpdate, _Mapping]]] = ..., opened_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., closed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CaseUpdate(_message.Message):
    __slots__ = ("update_id", "text", "author", "customer_facing", "created_at")
    UPDATE_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_FACING_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    update_id: str
    text: str
    author: Actor
    customer_facing: bool
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, update_id: _Optional[str] = ..., text: _Optional[str] = ..., author: _Optional[_Union[Actor, _Mapping]] = ..., customer_facing: _Optional[bool] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class FollowUp(_message.Message):
    __slots__ = ("follow_up_id", "contact_id", "due_at", "reason", "status", "callback", "fixed_text", "obligation_id", "source_turn_id", "executed_turn_id", "outcome_detail", "scheduled_by", "created_at", "finished_at")
    FOLLOW_UP_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    DUE_AT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CALLBACK_FIELD_NUMBER: _ClassVar[int]
    FIXED_TEXT_FIELD_NUMBER: _ClassVar[int]
    OBLIGATION_ID_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    EXECUTED_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_DETAIL_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    follow_up_id: str
    contact_id: str
    due_at: _timestamp_pb2.Timestamp
    reason: str
    status: FollowUpStatus
    callback: bool
    fixed_text: str
    obligation_id: str
    source_turn_id: str
    executed_turn_id: str
    outcome_detail: str
    scheduled_by: Actor
    created_at: _timestamp_pb2.Timestamp
    finished_at: _timestamp_pb2.Timestamp
    def __init__(self, follow_up_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., due_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., reason: _Optional[str] = ..., status: _Optional[_Union[FollowUpStatus, str]] = ..., callback: _Optional[bool] = ..., fixed_text: _Optional[str] = ..., obligation_id: _Optional[str] = ..., source_turn_id: _Optional[str] = ..., executed_turn_id: _Optional[str] = ..., outcome_detail: _Optional[str] = ..., scheduled_by: _Optional[_Union[Actor, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Obligation(_message.Message):
    __slots__ = ("obligation_id", "contact_id", "turn_id", "checkpoint_seq", "promise_index", "o_que", "prazo", "status", "resolution", "evidence", "resolved_by", "created_at", "resolved_at")
    OBLIGATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_SEQ_FIELD_NUMBER: _ClassVar[int]
    PROMISE_INDEX_FIELD_NUMBER: _ClassVar[int]
    O_QUE_FIELD_NUMBER: _ClassVar[int]
    PRAZO_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_AT_FIELD_NUMBER: _ClassVar[int]
    obligation_id: str
    contact_id: str
    turn_id: str
    checkpoint_seq: int
    promise_index: int
    o_que: str
    prazo: _timestamp_pb2.Timestamp
    status: ObligationStatus
    resolution: str
    evidence: _containers.RepeatedCompositeFieldContainer[EvidenceRef]
    resolved_by: Actor
    created_at: _timestamp_pb2.Timestamp
    resolved_at: _timestamp_pb2.Timestamp
    def __init__(self, obligation_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., checkpoint_seq: _Optional[int] = ..., promise_index: _Optional[int] = ..., o_que: _Optional[str] = ..., prazo: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[ObligationStatus, str]] = ..., resolution: _Optional[str] = ..., evidence: _Optional[_Iterable[_Union[EvidenceRef, _Mapping]]] = ..., resolved_by: _Optional[_Union[Actor, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., resolved_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class EvidenceRef(_message.Message):
    __slots__ = ("kind", "id")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    kind: str
    id: str
    def __init__(self, kind: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class ObligationStats(_message.Message):
    __slots__ = ("declared", "open", "fulfilled", "failed", "overdue")
    DECLARED_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    FULFILLED_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    OVERDUE_FIELD_NUMBER: _ClassVar[int]
    declared: int
    open: int
    fulfilled: int
    failed: int
    overdue: int
    def __init__(self, declared: _Optional[int] = ..., open: _Optional[int] = ..., fulfilled: _Optional[int] = ..., failed: _Optional[int] = ..., overdue: _Optional[int] = ...) -> None: ...

class CentralItem(_message.Message):
    __slots__ = ("central_item_id", "kind", "severity", "status", "title_pt", "body_pt", "code", "contact_id", "turn_id", "event_id", "details", "raised_by", "resolution", "resolved_by", "occurrences", "created_at", "resolved_at")
    CENTRAL_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TITLE_PT_FIELD_NUMBER: _ClassVar[int]
    BODY_PT_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    RAISED_BY_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_BY_FIELD_NUMBER: _ClassVar[int]
    OCCURRENCES_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_AT_FIELD_NUMBER: _ClassVar[int]
    central_item_id: str
    kind: CentralItemKind
    severity: CentralItemSeverity
    status: CentralItemStatus
    title_pt: str
    body_pt: str
    code: str
    contact_id: str
    turn_id: str
    event_id: str
    details: _struct_pb2.Struct
    raised_by: Actor
    resolution: str
    resolved_by: Actor
    occurrences: int
    created_at: _timestamp_pb2.Timestamp
    resolved_at: _timestamp_pb2.Timestamp
    def __init__(self, central_item_id: _Optional[str] = ..., kind: _Optional[_Union[CentralItemKind, str]] = ..., severity: _Optional[_Union[CentralItemSeverity, str]] = ..., status: _Optional[_Union[CentralItemStatus, str]] = ..., title_pt: _Optional[str] = ..., body_pt: _Optional[str] = ..., code: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., event_id: _Optional[str] = ..., details: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., raised_by: _Optional[_Union[Actor, _Mapping]] = ..., resolution: _Optional[str] = ..., resolved_by: _Optional[_Union[Actor, _Mapping]] = ..., occurrences: _Optional[int] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., resolved_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class KnowledgeArticle(_message.Message):
    __slots__ = ("article_id", "title", "body", "kind", "unit_id", "when_useful", "published", "updated_by", "created_at", "updated_at")
    ARTICLE_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    WHEN_USEFUL_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    article_id: str
    title: str
    body: str
    kind: KnowledgeKind
    unit_id: str
    when_useful: str
    published: bool
    updated_by: Actor
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, article_id: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., kind: _Optional[_Union[KnowledgeKind, str]] = ..., unit_id: _Optional[str] = ..., when_useful: _Optional[str] = ..., published: _Optional[bool] = ..., updated_by: _Optional[_Union[Actor, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class KnowledgeHit(_message.Message):
    __slots__ = ("article", "rank", "snippet")
    ARTICLE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    SNIPPET_FIELD_NUMBER: _ClassVar[int]
    article: KnowledgeArticle
    rank: float
    snippet: str
    def __init__(self, article: _Optional[_Union[KnowledgeArticle, _Mapping]] = ..., rank: _Optional[float] = ..., snippet: _Optional[str] = ...) -> None: ...

class TurnStats(_message.Message):
    __slots__ = ("finished", "by_outcome", "vetoes_by_gate", "revisions_per_turn", "failed", "operador_actions_per_turn", "operador_could_not_act", "tokens")
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    BY_OUTCOME_FIELD_NUMBER: _ClassVar[int]
    VETOES_BY_GATE_FIELD_NUMBER: _ClassVar[int]
    REVISIONS_PER_TURN_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_ACTIONS_PER_TURN_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_COULD_NOT_ACT_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    finished: int
    by_outcome: _containers.RepeatedCompositeFieldContainer[TurnOutcomeCount]
    vetoes_by_gate: _containers.RepeatedCompositeFieldContainer[GateVetoCount]
    revisions_per_turn: float
    failed: int
    operador_actions_per_turn: float
    operador_could_not_act: int
    tokens: ModelUsage
    def __init__(self, finished: _Optional[int] = ..., by_outcome: _Optional[_Iterable[_Union[TurnOutcomeCount, _Mapping]]] = ..., vetoes_by_gate: _Optional[_Iterable[_Union[GateVetoCount, _Mapping]]] = ..., revisions_per_turn: _Optional[float] = ..., failed: _Optional[int] = ..., operador_actions_per_turn: _Optional[float] = ..., operador_could_not_act: _Optional[int] = ..., tokens: _Optional[_Union[ModelUsage, _Mapping]] = ...) -> None: ...

class TurnOutcomeCount(_message.Message):
    __slots__ = ("outcome", "count")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    outcome: TurnOutcome
    count: int
    def __init__(self, outcome: _Optional[_Union[TurnOutcome, str]] = ..., count: _Optional[int] = ...) -> None: ...

class GateVetoCount(_message.Message):
    __slots__ = ("gate", "count")
    GATE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    gate: str
    count: int
    def __init__(self, gate: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class TurnExecution(_message.Message):
    __slots__ = ("turn_id", "organization_id", "contact_id", "unit_id", "agent_version_id", "trigger", "trigger_ref", "outcome", "test", "trace_id", "inbound", "route", "screening", "drafts", "sent", "closing", "checkpoint_seq", "usage", "steps", "operador", "error", "started_at", "finished_at")
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_REF_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TEST_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    INBOUND_FIELD_NUMBER: _ClassVar[int]
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    SCREENING_FIELD_NUMBER: _ClassVar[int]
    DRAFTS_FIELD_NUMBER: _ClassVar[int]
    SENT_FIELD_NUMBER: _ClassVar[int]
    CLOSING_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_SEQ_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    organization_id: str
    contact_id: str
    unit_id: str
    agent_version_id: str
    trigger: TurnTrigger
    trigger_ref: str
    outcome: TurnOutcome
    test: bool
    trace_id: str
    inbound: _containers.RepeatedCompositeFieldContainer[InboundRef]
    route: ControllerDecision
    screening: ScreeningRecord
    drafts: _containers.RepeatedCompositeFieldContainer[DraftAttempt]
    sent: _containers.RepeatedCompositeFieldContainer[SentPart]
    closing: CheckpointContent
    checkpoint_seq: int
    usage: _containers.RepeatedCompositeFieldContainer[ModelUsage]
    steps: _containers.RepeatedCompositeFieldContainer[TurnStep]
    operador: OperadorOutcome
    error: str
    started_at: _timestamp_pb2.Timestamp
    finished_at: _timestamp_pb2.Timestamp
    def __init__(self, turn_id: _Optional[str] = ..., organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., agent_version_id: _Optional[str] = ..., trigger: _Optional[_Union[TurnTrigger, str]] = ..., trigger_ref: _Optional[str] = ..., outcome: _Optional[_Union[TurnOutcome, str]] = ..., test: _Optional[bool] = ..., trace_id: _Optional[str] = ..., inbound: _Optional[_Iterable[_Union[InboundRef, _Mapping]]] = ..., route: _Optional[_Union[ControllerDecision, _Mapping]] = ..., screening: _Optional[_Union[ScreeningRecord, _Mapping]] = ..., drafts: _Optional[_Iterable[_Union[DraftAttempt, _Mapping]]] = ..., sent: _Optional[_Iterable[_Union[SentPart, _Mapping]]] = ..., closing: _Optional[_Union[CheckpointContent, _Mapping]] = ..., checkpoint_seq: _Optional[int] = ..., usage: _Optional[_Iterable[_Union[ModelUsage, _Mapping]]] = ..., steps: _Optional[_Iterable[_Union[TurnStep, _Mapping]]] = ..., operador: _Optional[_Union[OperadorOutcome, _Mapping]] = ..., error: _Optional[str] = ..., started_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class TurnExecutionSummary(_message.Message):
    __slots__ = ("turn_id", "contact_id", "unit_id", "trigger", "outcome", "test", "trace_id", "inbound_preview", "sent_preview", "veto_count", "operador_status", "started_at", "finished_at")
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TEST_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    INBOUND_PREVIEW_FIELD_NUMBER: _ClassVar[int]
    SENT_PREVIEW_FIELD_NUMBER: _ClassVar[int]
    VETO_COUNT_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_STATUS_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    contact_id: str
    unit_id: str
    trigger: TurnTrigger
    outcome: TurnOutcome
    test: bool
    trace_id: str
    inbound_preview: str
    sent_preview: str
    veto_count: int
    operador_status: OperadorOutcomeStatus
    started_at: _timestamp_pb2.Timestamp
    finished_at: _timestamp_pb2.Timestamp
    def __init__(self, turn_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., trigger: _Optional[_Union[TurnTrigger, str]] = ..., outcome: _Optional[_Union[TurnOutcome, str]] = ..., test: _Optional[bool] = ..., trace_id: _Optional[str] = ..., inbound_preview: _Optional[str] = ..., sent_preview: _Optional[str] = ..., veto_count: _Optional[int] = ..., operador_status: _Optional[_Union[OperadorOutcomeStatus, str]] = ..., started_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class InboundRef(_message.Message):
    __slots__ = ("inbound_message_id", "text", "received_at")
    INBOUND_MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_AT_FIELD_NUMBER: _ClassVar[int]
    inbound_message_id: str
    text: str
    received_at: _timestamp_pb2.Timestamp
    def __init__(self, inbound_message_id: _Optional[str] = ..., text: _Optional[str] = ..., received_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ControllerDecision(_message.Message):
    __slots__ = ("action", "reason", "used_model")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    USED_MODEL_FIELD_NUMBER: _ClassVar[int]
    action: ControllerAction
    reason: str
    used_model: bool
    def __init__(self, action: _Optional[_Union[ControllerAction, _Mapping]] = ..., reason: _Optional[str] = ..., used_model: _Optional[bool] = ...) -> None: ...

class ScreeningRecord(_message.Message):
    __slots__ = ("level", "rule", "classifier_used")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    CLASSIFIER_USED_FIELD_NUMBER: _ClassVar[int]
    level: str
    rule: str
    classifier_used: bool
    def __init__(self, level: _Optional[str] = ..., rule: _Optional[str] = ..., classifier_used: _Optional[bool] = ...) -> None: ...

class DraftAttempt(_message.Message):
    __slots__ = ("attempt", "text", "declaracao", "review")
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    text: str
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    review: ReviewRecord
    def __init__(self, attempt: _Optional[int] = ..., text: _Optional[str] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., review: _Optional[_Union[ReviewRecord, _Mapping]] = ...) -> None: ...

class ReviewRecord(_message.Message):
    __slots__ = ("verdict", "vetoes", "gates", "chain_version", "wait_seconds")
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    VETOES_FIELD_NUMBER: _ClassVar[int]
    GATES_FIELD_NUMBER: _ClassVar[int]
    CHAIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    WAIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    verdict: str
    vetoes: _containers.RepeatedCompositeFieldContainer[VetoRecord]
    gates: _containers.RepeatedCompositeFieldContainer[GateTraceLine]
    chain_version: str
    wait_seconds: int
    def __init__(self, verdict: _Optional[str] = ..., vetoes: _Optional[_Iterable[_Union[VetoRecord, _Mapping]]] = ..., gates: _Optional[_Iterable[_Union[GateTraceLine, _Mapping]]] = ..., chain_version: _Optional[str] = ..., wait_seconds: _Optional[int] = ...) -> None: ...

class VetoRecord(_message.Message):
    __slots__ = ("gate", "code", "guidance")
    GATE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    GUIDANCE_FIELD_NUMBER: _ClassVar[int]
    gate: str
    code: str
    guidance: str
    def __init__(self, gate: _Optional[str] = ..., code: _Optional[str] = ..., guidance: _Optional[str] = ...) -> None: ...

class GateTraceLine(_message.Message):
    __slots__ = ("gate", "result")
    GATE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    gate: str
    result: str
    def __init__(self, gate: _Optional[str] = ..., result: _Optional[str] = ...) -> None: ...

class SentPart(_message.Message):
    __slots__ = ("part_index", "text", "provider_message_id", "sent_at")
    PART_INDEX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    SENT_AT_FIELD_NUMBER: _ClassVar[int]
    part_index: int
    text: str
    provider_message_id: str
    sent_at: _timestamp_pb2.Timestamp
    def __init__(self, part_index: _Optional[int] = ..., text: _Optional[str] = ..., provider_message_id: _Optional[str] = ..., sent_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ModelUsage(_message.Message):
    __slots__ = ("purpose", "provider", "model", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "duration_ms")
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_READ_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_WRITE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    DURATION_MS_FIELD_NUMBER: _ClassVar[int]
    purpose: str
    provider: str
    model: str
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    duration_ms: int
    def __init__(self, purpose: _Optional[str] = ..., provider: _Optional[str] = ..., model: _Optional[str] = ..., input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cache_read_tokens: _Optional[int] = ..., cache_write_tokens: _Optional[int] = ..., duration_ms: _Optional[int] = ...) -> None: ...

class TurnStep(_message.Message):
    __slots__ = ("name", "status", "detail", "started_at", "duration_ms")
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    DURATION_MS_FIELD_NUMBER: _ClassVar[int]
    name: str
    status: str
    detail: str
    started_at: _timestamp_pb2.Timestamp
    duration_ms: int
    def __init__(self, name: _Optional[str] = ..., status: _Optional[str] = ..., detail: _Optional[str] = ..., started_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., duration_ms: _Optional[int] = ...) -> None: ...

class OperadorOutcome(_message.Message):
    __slots__ = ("status", "used_model", "actions", "summary_pt", "event_id", "usage", "finished_at")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    USED_MODEL_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_PT_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    status: OperadorOutcomeStatus
    used_model: bool
    actions: _containers.RepeatedScalarFieldContainer[str]
    summary_pt: str
    event_id: str
    usage: _containers.RepeatedCompositeFieldContainer[ModelUsage]
    finished_at: _timestamp_pb2.Timestamp
    def __init__(self, status: _Optional[_Union[OperadorOutcomeStatus, str]] = ..., used_model: _Optional[bool] = ..., actions: _Optional[_Iterable[str]] = ..., summary_pt: _Optional[str] = ..., event_id: _Optional[str] = ..., usage: _Optional[_Iterable[_Union[ModelUsage, _Mapping]]] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("event_id", "organization_id", "kind", "contact_id", "payload", "dedup_key", "status", "attempts", "max_attempts", "available_at", "lease", "last_error", "traceparent", "created_at", "finished_at")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    DEDUP_KEY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    MAX_ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_AT_FIELD_NUMBER: _ClassVar[int]
    LEASE_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    TRACEPARENT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    organization_id: str
    kind: str
    contact_id: str
    payload: _struct_pb2.Struct
    dedup_key: str
    status: EventStatus
    attempts: int
    max_attempts: int
    available_at: _timestamp_pb2.Timestamp
    lease: Lease
    last_error: str
    traceparent: str
    created_at: _timestamp_pb2.Timestamp
    finished_at: _timestamp_pb2.Timestamp
    def __init__(self, event_id: _Optional[str] = ..., organization_id: _Optional[str] = ..., kind: _Optional[str] = ..., contact_id: _Optional[str] = ..., payload: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., dedup_key: _Optional[str] = ..., status: _Optional[_Union[EventStatus, str]] = ..., attempts: _Optional[int] = ..., max_attempts: _Optional[int] = ..., available_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., lease: _Optional[_Union[Lease, _Mapping]] = ..., last_error: _Optional[str] = ..., traceparent: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Lease(_message.Message):
    __slots__ = ("consumer", "token", "expires_at")
    CONSUMER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    consumer: str
    token: str
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, consumer: _Optional[str] = ..., token: _Optional[str] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
