import datetime

from balcao.common.v1 import declaracao_pb2 as _declaracao_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Channel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHANNEL_UNSPECIFIED: _ClassVar[Channel]
    CHANNEL_WHATSAPP: _ClassVar[Channel]
    CHANNEL_WEB: _ClassVar[Channel]
    CHANNEL_TEST: _ClassVar[Channel]

class MessageType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MESSAGE_TYPE_UNSPECIFIED: _ClassVar[MessageType]
    MESSAGE_TYPE_TEXT: _ClassVar[MessageType]
    MESSAGE_TYPE_IMAGE: _ClassVar[MessageType]
    MESSAGE_TYPE_AUDIO: _ClassVar[MessageType]
    MESSAGE_TYPE_VIDEO: _ClassVar[MessageType]
    MESSAGE_TYPE_DOCUMENT: _ClassVar[MessageType]
    MESSAGE_TYPE_LOCATION: _ClassVar[MessageType]
    MESSAGE_TYPE_REACTION: _ClassVar[MessageType]
    MESSAGE_TYPE_STICKER: _ClassVar[MessageType]
    MESSAGE_TYPE_CONTACT: _ClassVar[MessageType]
    MESSAGE_TYPE_BUTTON_REPLY: _ClassVar[MessageType]
    MESSAGE_TYPE_LIST_REPLY: _ClassVar[MessageType]
    MESSAGE_TYPE_OTHER: _ClassVar[MessageType]

class SubmitStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUBMIT_STATUS_UNSPECIFIED: _ClassVar[SubmitStatus]
    SUBMIT_STATUS_ACCEPTED: _ClassVar[SubmitStatus]
    SUBMIT_STATUS_DUPLICATE: _ClassVar[SubmitStatus]
    SUBMIT_STATUS_RECORDED: _ClassVar[SubmitStatus]

class TriggerKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRIGGER_KIND_UNSPECIFIED: _ClassVar[TriggerKind]
    TRIGGER_KIND_FOLLOWUP_DUE: _ClassVar[TriggerKind]
    TRIGGER_KIND_OBLIGATION_FULFILLED: _ClassVar[TriggerKind]
    TRIGGER_KIND_OBLIGATION_FAILED: _ClassVar[TriggerKind]
    TRIGGER_KIND_SCHEDULED: _ClassVar[TriggerKind]

class TurnStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_STATUS_UNSPECIFIED: _ClassVar[TurnStatus]
    TURN_STATUS_QUEUED: _ClassVar[TurnStatus]
    TURN_STATUS_RUNNING: _ClassVar[TurnStatus]
    TURN_STATUS_WAITING: _ClassVar[TurnStatus]
    TURN_STATUS_RETRYING: _ClassVar[TurnStatus]
    TURN_STATUS_DONE: _ClassVar[TurnStatus]
    TURN_STATUS_FAILED: _ClassVar[TurnStatus]

class TurnOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_OUTCOME_UNSPECIFIED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_REPLIED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_HOLDING_REPLY: _ClassVar[TurnOutcome]
    TURN_OUTCOME_FIXED_REPLY: _ClassVar[TurnOutcome]
    TURN_OUTCOME_PLAN_EXPIRED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_HANDOFF: _ClassVar[TurnOutcome]
    TURN_OUTCOME_OPT_OUT_CONFIRMED: _ClassVar[TurnOutcome]
    TURN_OUTCOME_SAFE_REPLY: _ClassVar[TurnOutcome]
    TURN_OUTCOME_SILENT: _ClassVar[TurnOutcome]
    TURN_OUTCOME_NOT_DELIVERED: _ClassVar[TurnOutcome]

class ConfigVersion(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONFIG_VERSION_UNSPECIFIED: _ClassVar[ConfigVersion]
    CONFIG_VERSION_DRAFT: _ClassVar[ConfigVersion]
    CONFIG_VERSION_PUBLISHED: _ClassVar[ConfigVersion]

class HashtagAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HASHTAG_ACTION_UNSPECIFIED: _ClassVar[HashtagAction]
    HASHTAG_ACTION_ROUTE_TO_UNIT: _ClassVar[HashtagAction]
    HASHTAG_ACTION_FIXED_REPLY: _ClassVar[HashtagAction]
    HASHTAG_ACTION_HANDOFF: _ClassVar[HashtagAction]
    HASHTAG_ACTION_MENU: _ClassVar[HashtagAction]

class DisclosureMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DISCLOSURE_MODE_UNSPECIFIED: _ClassVar[DisclosureMode]
    DISCLOSURE_MODE_INJECT: _ClassVar[DisclosureMode]
    DISCLOSURE_MODE_VETO: _ClassVar[DisclosureMode]

class CapabilityRisk(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CAPABILITY_RISK_UNSPECIFIED: _ClassVar[CapabilityRisk]
    CAPABILITY_RISK_SAFE: _ClassVar[CapabilityRisk]
    CAPABILITY_RISK_ATTENTION: _ClassVar[CapabilityRisk]
    CAPABILITY_RISK_CRITICAL: _ClassVar[CapabilityRisk]

class KnowledgeKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KNOWLEDGE_KIND_UNSPECIFIED: _ClassVar[KnowledgeKind]
    KNOWLEDGE_KIND_ARTICLE: _ClassVar[KnowledgeKind]
    KNOWLEDGE_KIND_SKILL_REFERENCE: _ClassVar[KnowledgeKind]

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

class ConversationOwner(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONVERSATION_OWNER_UNSPECIFIED: _ClassVar[ConversationOwner]
    CONVERSATION_OWNER_AGENT: _ClassVar[ConversationOwner]
    CONVERSATION_OWNER_PERSON: _ClassVar[ConversationOwner]
CHANNEL_UNSPECIFIED: Channel
CHANNEL_WHATSAPP: Channel
CHANNEL_WEB: Channel
CHANNEL_TEST: Channel
MESSAGE_TYPE_UNSPECIFIED: MessageType
MESSAGE_TYPE_TEXT: MessageType
MESSAGE_TYPE_IMAGE: MessageType
MESSAGE_TYPE_AUDIO: MessageType
MESSAGE_TYPE_VIDEO: MessageType
MESSAGE_TYPE_DOCUMENT: MessageType
MESSAGE_TYPE_LOCATION: MessageType
MESSAGE_TYPE_REACTION: MessageType
MESSAGE_TYPE_STICKER: MessageType
MESSAGE_TYPE_CONTACT: MessageType
MESSAGE_TYPE_BUTTON_REPLY: MessageType
MESSAGE_TYPE_LIST_REPLY: MessageType
MESSAGE_TYPE_OTHER: MessageType
SUBMIT_STATUS_UNSPECIFIED: SubmitStatus
SUBMIT_STATUS_ACCEPTED: SubmitStatus
SUBMIT_STATUS_DUPLICATE: SubmitStatus
SUBMIT_STATUS_RECORDED: SubmitStatus
TRIGGER_KIND_UNSPECIFIED: TriggerKind
TRIGGER_KIND_FOLLOWUP_DUE: TriggerKind
TRIGGER_KIND_OBLIGATION_FULFILLED: TriggerKind
TRIGGER_KIND_OBLIGATION_FAILED: TriggerKind
TRIGGER_KIND_SCHEDULED: TriggerKind
TURN_STATUS_UNSPECIFIED: TurnStatus
TURN_STATUS_QUEUED: TurnStatus
TURN_STATUS_RUNNING: TurnStatus
TURN_STATUS_WAITING: TurnStatus
TURN_STATUS_RETRYING: TurnStatus
TURN_STATUS_DONE: TurnStatus
TURN_STATUS_FAILED: TurnStatus
TURN_OUTCOME_UNSPECIFIED: TurnOutcome
TURN_OUTCOME_REPLIED: TurnOutcome
TURN_OUTCOME_HOLDING_REPLY: TurnOutcome
TURN_OUTCOME_FIXED_REPLY: TurnOutcome
TURN_OUTCOME_PLAN_EXPIRED: TurnOutcome
TURN_OUTCOME_HANDOFF: TurnOutcome
TURN_OUTCOME_OPT_OUT_CONFIRMED: TurnOutcome
TURN_OUTCOME_SAFE_REPLY: TurnOutcome
TURN_OUTCOME_SILENT: TurnOutcome
TURN_OUTCOME_NOT_DELIVERED: TurnOutcome
CONFIG_VERSION_UNSPECIFIED: ConfigVersion
CONFIG_VERSION_DRAFT: ConfigVersion
CONFIG_VERSION_PUBLISHED: ConfigVersion
HASHTAG_ACTION_UNSPECIFIED: HashtagAction
HASHTAG_ACTION_ROUTE_TO_UNIT: HashtagAction
HASHTAG_ACTION_FIXED_REPLY: HashtagAction
HASHTAG_ACTION_HANDOFF: HashtagAction
HASHTAG_ACTION_MENU: HashtagAction
DISCLOSURE_MODE_UNSPECIFIED: DisclosureMode
DISCLOSURE_MODE_INJECT: DisclosureMode
DISCLOSURE_MODE_VETO: DisclosureMode
CAPABILITY_RISK_UNSPECIFIED: CapabilityRisk
CAPABILITY_RISK_SAFE: CapabilityRisk
CAPABILITY_RISK_ATTENTION: CapabilityRisk
CAPABILITY_RISK_CRITICAL: CapabilityRisk
KNOWLEDGE_KIND_UNSPECIFIED: KnowledgeKind
KNOWLEDGE_KIND_ARTICLE: KnowledgeKind
KNOWLEDGE_KIND_SKILL_REFERENCE: KnowledgeKind
CENTRAL_ITEM_SEVERITY_UNSPECIFIED: CentralItemSeverity
CENTRAL_ITEM_SEVERITY_INFO: CentralItemSeverity
CENTRAL_ITEM_SEVERITY_WARNING: CentralItemSeverity
CENTRAL_ITEM_SEVERITY_CRITICAL: CentralItemSeverity
CENTRAL_ITEM_STATUS_UNSPECIFIED: CentralItemStatus
CENTRAL_ITEM_STATUS_OPEN: CentralItemStatus
CENTRAL_ITEM_STATUS_ACKNOWLEDGED: CentralItemStatus
CENTRAL_ITEM_STATUS_RESOLVED: CentralItemStatus
CENTRAL_ITEM_STATUS_DISMISSED: CentralItemStatus
CONVERSATION_OWNER_UNSPECIFIED: ConversationOwner
CONVERSATION_OWNER_AGENT: ConversationOwner
CONVERSATION_OWNER_PERSON: ConversationOwner

class SubmitInboundRequest(_message.Message):
    __slots__ = ("organization_id", "message")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    message: InboundMessage
    def __init__(self, organization_id: _Optional[str] = ..., message: _Optional[_Union[InboundMessage, _Mapping]] = ...) -> None: ...

class SubmitInboundResponse(_message.Message):
    __slots__ = ("status", "inbound_id", "contact_id")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    INBOUND_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    status: SubmitStatus
    inbound_id: str
    contact_id: str
    def __init__(self, status: _Optional[_Union[SubmitStatus, str]] = ..., inbound_id: _Optional[str] = ..., contact_id: _Optional[str] = ...) -> None: ...

class InboundMessage(_message.Message):
    __slots__ = ("channel", "channel_instance", "phone", "jid", "message_id", "type", "text", "media", "location", "sent_at", "sender_name", "quoted_text", "from_business", "profile_id")
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_INSTANCE_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    JID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    MEDIA_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    SENT_AT_FIELD_NUMBER: _ClassVar[int]
    SENDER_NAME_FIELD_NUMBER: _ClassVar[int]
    QUOTED_TEXT_FIELD_NUMBER: _ClassVar[int]
    FROM_BUSINESS_FIELD_NUMBER: _ClassVar[int]
    PROFILE_ID_FIELD_NUMBER: _ClassVar[int]
    channel: Channel
    channel_instance: str
    phone: str
    jid: str
    message_id: str
    type: MessageType
    text: str
    media: Media
    location: Location
    sent_at: _timestamp_pb2.Timestamp
    sender_name: str
    quoted_text: str
    from_business: bool
    profile_id: str
    def __init__(self, channel: _Optional[_Union[Channel, str]] = ..., channel_instance: _Optional[str] = ..., phone: _Optional[str] = ..., jid: _Optional[str] = ..., message_id: _Optional[str] = ..., type: _Optional[_Union[MessageType, str]] = ..., text: _Optional[str] = ..., media: _Optional[_Union[Media, _Mapping]] = ..., location: _Optional[_Union[Location, _Mapping]] = ..., sent_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., sender_name: _Optional[str] = ..., quoted_text: _Optional[str] = ..., from_business: _Optional[bool] = ..., profile_id: _Optional[str] = ...) -> None: ...

class Media(_message.Message):
    __slots__ = ("mime_type", "content", "fetch_from_provider", "file_name", "duration_seconds", "voice_note")
    MIME_TYPE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    FETCH_FROM_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    DURATION_SECONDS_FIELD_NUMBER: _ClassVar[int]
    VOICE_NOTE_FIELD_NUMBER: _ClassVar[int]
    mime_type: str
    content: bytes
    fetch_from_provider: bool
    file_name: str
    duration_seconds: int
    voice_note: bool
    def __init__(self, mime_type: _Optional[str] = ..., content: _Optional[bytes] = ..., fetch_from_provider: _Optional[bool] = ..., file_name: _Optional[str] = ..., duration_seconds: _Optional[int] = ..., voice_note: _Optional[bool] = ...) -> None: ...

class Location(_message.Message):
    __slots__ = ("latitude", "longitude", "name", "address")
    LATITUDE_FIELD_NUMBER: _ClassVar[int]
    LONGITUDE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    latitude: float
    longitude: float
    name: str
    address: str
    def __init__(self, latitude: _Optional[float] = ..., longitude: _Optional[float] = ..., name: _Optional[str] = ..., address: _Optional[str] = ...) -> None: ...

class SubmitWebMessageRequest(_message.Message):
    __slots__ = ("organization_id", "message", "media_base64", "media_type", "media_mime_type", "phone", "profile_id", "message_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    MEDIA_BASE64_FIELD_NUMBER: _ClassVar[int]
    MEDIA_TYPE_FIELD_NUMBER: _ClassVar[int]
    MEDIA_MIME_TYPE_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PROFILE_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    message: str
    media_base64: bytes
    media_type: str
    media_mime_type: str
    phone: str
    profile_id: str
    message_id: str
    def __init__(self, organization_id: _Optional[str] = ..., message: _Optional[str] = ..., media_base64: _Optional[bytes] = ..., media_type: _Optional[str] = ..., media_mime_type: _Optional[str] = ..., phone: _Optional[str] = ..., profile_id: _Optional[str] = ..., message_id: _Optional[str] = ...) -> None: ...

class SubmitWebMessageResponse(_message.Message):
    __slots__ = ("status", "turn_id", "turn")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    status: SubmitStatus
    turn_id: str
    turn: TurnResult
    def __init__(self, status: _Optional[_Union[SubmitStatus, str]] = ..., turn_id: _Optional[str] = ..., turn: _Optional[_Union[TurnResult, _Mapping]] = ...) -> None: ...

class GetTurnRequest(_message.Message):
    __slots__ = ("organization_id", "turn_id", "inbound_id", "wait")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    INBOUND_ID_FIELD_NUMBER: _ClassVar[int]
    WAIT_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    turn_id: str
    inbound_id: str
    wait: _duration_pb2.Duration
    def __init__(self, organization_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., inbound_id: _Optional[str] = ..., wait: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class GetTurnResponse(_message.Message):
    __slots__ = ("turn",)
    TURN_FIELD_NUMBER: _ClassVar[int]
    turn: TurnResult
    def __init__(self, turn: _Optional[_Union[TurnResult, _Mapping]] = ...) -> None: ...

class RunTestTurnRequest(_message.Message):
    __slots__ = ("organization_id", "messages", "test_phone", "config", "new_conversation", "run_operador")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    TEST_PHONE_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    NEW_CONVERSATION_FIELD_NUMBER: _ClassVar[int]
    RUN_OPERADOR_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    messages: _containers.RepeatedScalarFieldContainer[str]
    test_phone: str
    config: ConfigVersion
    new_conversation: bool
    run_operador: bool
    def __init__(self, organization_id: _Optional[str] = ..., messages: _Optional[_Iterable[str]] = ..., test_phone: _Optional[str] = ..., config: _Optional[_Union[ConfigVersion, str]] = ..., new_conversation: _Optional[bool] = ..., run_operador: _Optional[bool] = ...) -> None: ...

class RunTestTurnResponse(_message.Message):
    __slots__ = ("turn", "route_pt", "review_trace", "operador", "config")
    TURN_FIELD_NUMBER: _ClassVar[int]
    ROUTE_PT_FIELD_NUMBER: _ClassVar[int]
    REVIEW_TRACE_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    turn: TurnResult
    route_pt: str
    review_trace: _containers.RepeatedCompositeFieldContainer[GateTrace]
    operador: OperadorOutcome
    config: ConfigVersion
    def __init__(self, turn: _Optional[_Union[TurnResult, _Mapping]] = ..., route_pt: _Optional[str] = ..., review_trace: _Optional[_Iterable[_Union[GateTrace, _Mapping]]] = ..., operador: _Optional[_Union[OperadorOutcome, _Mapping]] = ..., config: _Optional[_Union[ConfigVersion, str]] = ...) -> None: ...

class StartProactiveTurnRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "trigger", "idempotency_key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    trigger: ProactiveTrigger
    idempotency_key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., trigger: _Optional[_Union[ProactiveTrigger, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class StartProactiveTurnResponse(_message.Message):
    __slots__ = ("turn_id", "duplicate")
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    duplicate: bool
    def __init__(self, turn_id: _Optional[str] = ..., duplicate: _Optional[bool] = ...) -> None: ...

class ProactiveTrigger(_message.Message):
    __slots__ = ("kind", "reason_pt", "fixed_text", "source_event_id", "followup_id", "obligation_id")
    KIND_FIELD_NUMBER: _ClassVar[int]
    REASON_PT_FIELD_NUMBER: _ClassVar[int]
    FIXED_TEXT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    FOLLOWUP_ID_FIELD_NUMBER: _ClassVar[int]
    OBLIGATION_ID_FIELD_NUMBER: _ClassVar[int]
    kind: TriggerKind
    reason_pt: str
    fixed_text: str
    source_event_id: str
    followup_id: str
    obligation_id: str
    def __init__(self, kind: _Optional[_Union[TriggerKind, str]] = ..., reason_pt: _Optional[str] = ..., fixed_text: _Optional[str] = ..., source_event_id: _Optional[str] = ..., followup_id: _Optional[str] = ..., obligation_id: _Optional[str] = ...) -> None: ...

class TurnResult(_message.Message):
    __slots__ = ("turn_id", "contact_id", "status", "outcome", "reply_parts", "declaracao", "vetoes", "trace_id", "inbound_ids", "started_at", "finished_at", "waiting_until", "detail_pt")
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    REPLY_PARTS_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    VETOES_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    INBOUND_IDS_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    WAITING_UNTIL_FIELD_NUMBER: _ClassVar[int]
    DETAIL_PT_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    contact_id: str
    status: TurnStatus
    outcome: TurnOutcome
    reply_parts: _containers.RepeatedCompositeFieldContainer[ReplyPart]
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    vetoes: _containers.RepeatedCompositeFieldContainer[TurnVeto]
    trace_id: str
    inbound_ids: _containers.RepeatedScalarFieldContainer[str]
    started_at: _timestamp_pb2.Timestamp
    finished_at: _timestamp_pb2.Timestamp
    waiting_until: _timestamp_pb2.Timestamp
    detail_pt: str
    def __init__(self, turn_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., status: _Optional[_Union[TurnStatus, str]] = ..., outcome: _Optional[_Union[TurnOutcome, str]] = ..., reply_parts: _Optional[_Iterable[_Union[ReplyPart, _Mapping]]] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., vetoes: _Optional[_Iterable[_Union[TurnVeto, _Mapping]]] = ..., trace_id: _Optional[str] = ..., inbound_ids: _Optional[_Iterable[str]] = ..., started_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., waiting_until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., detail_pt: _Optional[str] = ...) -> None: ...

class ReplyPart(_message.Message):
    __slots__ = ("text", "sent_at", "provider_message_id")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SENT_AT_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    text: str
    sent_at: _timestamp_pb2.Timestamp
    provider_message_id: str
    def __init__(self, text: _Optional[str] = ..., sent_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., provider_message_id: _Optional[str] = ...) -> None: ...

class TurnVeto(_message.Message):
    __slots__ = ("attempt", "gate", "code", "guidance_pt")
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    GATE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    GUIDANCE_PT_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    gate: str
    code: str
    guidance_pt: str
    def __init__(self, attempt: _Optional[int] = ..., gate: _Optional[str] = ..., code: _Optional[str] = ..., guidance_pt: _Optional[str] = ...) -> None: ...

class Organization(_message.Message):
    __slots__ = ("organization_id", "name", "time_zone", "plan_expires_at", "created_at", "business", "conversation", "sending", "stage_labels", "followup_callback_enabled", "internal_vocabulary_additions")
    class StageLabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    PLAN_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    BUSINESS_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_FIELD_NUMBER: _ClassVar[int]
    SENDING_FIELD_NUMBER: _ClassVar[int]
    STAGE_LABELS_FIELD_NUMBER: _ClassVar[int]
    FOLLOWUP_CALLBACK_ENABLED_FIELD_NUMBER: _ClassVar[int]
    INTERNAL_VOCABULARY_ADDITIONS_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    name: str
    time_zone: str
    plan_expires_at: _timestamp_pb2.Timestamp
    created_at: _timestamp_pb2.Timestamp
    business: BusinessProfile
    conversation: ConversationRules
    sending: SendingPolicy
    stage_labels: _containers.ScalarMap[str, str]
    followup_callback_enabled: bool
    internal_vocabulary_additions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, organization_id: _Optional[str] = ..., name: _Optional[str] = ..., time_zone: _Optional[str] = ..., plan_expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., business: _Optional[_Union[BusinessProfile, _Mapping]] = ..., conversation: _Optional[_Union[ConversationRules, _Mapping]] = ..., sending: _Optional[_Union[SendingPolicy, _Mapping]] = ..., stage_labels: _Optional[_Mapping[str, str]] = ..., followup_callback_enabled: _Optional[bool] = ..., internal_vocabulary_additions: _Optional[_Iterable[str]] = ...) -> None: ...

class BusinessProfile(_message.Message):
    __slots__ = ("opening_hours", "addresses", "public_contacts", "commercial_facts", "facts")
    OPENING_HOURS_FIELD_NUMBER: _ClassVar[int]
    ADDRESSES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_CONTACTS_FIELD_NUMBER: _ClassVar[int]
    COMMERCIAL_FACTS_FIELD_NUMBER: _ClassVar[int]
    FACTS_FIELD_NUMBER: _ClassVar[int]
    opening_hours: str
    addresses: _containers.RepeatedScalarFieldContainer[str]
    public_contacts: _containers.RepeatedCompositeFieldContainer[PublicContact]
    commercial_facts: _containers.RepeatedCompositeFieldContainer[CommercialFact]
    facts: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, opening_hours: _Optional[str] = ..., addresses: _Optional[_Iterable[str]] = ..., public_contacts: _Optional[_Iterable[_Union[PublicContact, _Mapping]]] = ..., commercial_facts: _Optional[_Iterable[_Union[CommercialFact, _Mapping]]] = ..., facts: _Optional[_Iterable[str]] = ...) -> None: ...

class PublicContact(_message.Message):
    __slots__ = ("kind", "value")
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    kind: str
    value: str
    def __init__(self, kind: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...

class CommercialFact(_message.Message):
    __slots__ = ("kind", "subject", "text", "amount_cents", "percent", "instalments")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_CENTS_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    INSTALMENTS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    subject: str
    text: str
    amount_cents: int
    percent: int
    instalments: int
    def __init__(self, kind: _Optional[str] = ..., subject: _Optional[str] = ..., text: _Optional[str] = ..., amount_cents: _Optional[int] = ..., percent: _Optional[int] = ..., instalments: _Optional[int] = ...) -> None: ...

class ConversationRules(_message.Message):
    __slots__ = ("reply_catalog", "menu", "hashtags", "handoff_phrases", "opt_out_phrases", "debounce_seconds", "human_reply_pause_minutes", "groups_enabled")
    class ReplyCatalogEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REPLY_CATALOG_FIELD_NUMBER: _ClassVar[int]
    MENU_FIELD_NUMBER: _ClassVar[int]
    HASHTAGS_FIELD_NUMBER: _ClassVar[int]
    HANDOFF_PHRASES_FIELD_NUMBER: _ClassVar[int]
    OPT_OUT_PHRASES_FIELD_NUMBER: _ClassVar[int]
    DEBOUNCE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    HUMAN_REPLY_PAUSE_MINUTES_FIELD_NUMBER: _ClassVar[int]
    GROUPS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    reply_catalog: _containers.ScalarMap[str, str]
    menu: _containers.RepeatedCompositeFieldContainer[MenuOption]
    hashtags: _containers.RepeatedCompositeFieldContainer[Hashtag]
    handoff_phrases: _containers.RepeatedScalarFieldContainer[str]
    opt_out_phrases: _containers.RepeatedScalarFieldContainer[str]
    debounce_seconds: int
    human_reply_pause_minutes: int
    groups_enabled: bool
    def __init__(self, reply_catalog: _Optional[_Mapping[str, str]] = ..., menu: _Optional[_Iterable[_Union[MenuOption, _Mapping]]] = ..., hashtags: _Optional[_Iterable[_Union[Hashtag, _Mapping]]] = ..., handoff_phrases: _Optional[_Iterable[str]] = ..., opt_out_phrases: _Optional[_Iterable[str]] = ..., debounce_seconds: _Optional[int] = ..., human_reply_pause_minutes: _Optional[int] = ..., groups_enabled: _Optional[bool] = ...) -> None: ...

class MenuOption(_message.Message):
    __slots__ = ("number", "label", "unit_id", "reply_key")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    REPLY_KEY_FIELD_NUMBER: _ClassVar[int]
    number: int
    label: str
    unit_id: str
    reply_key: str
    def __init__(self, number: _Optional[int] = ..., label: _Optional[str] = ..., unit_id: _Optional[str] = ..., reply_key: _Optional[str] = ...) -> None: ...

class Hashtag(_message.Message):
    __slots__ = ("tag", "action", "unit_id", "reply_key")
    TAG_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    REPLY_KEY_FIELD_NUMBER: _ClassVar[int]
    tag: str
    action: HashtagAction
    unit_id: str
    reply_key: str
    def __init__(self, tag: _Optional[str] = ..., action: _Optional[_Union[HashtagAction, str]] = ..., unit_id: _Optional[str] = ..., reply_key: _Optional[str] = ...) -> None: ...

class SendingPolicy(_message.Message):
    __slots__ = ("quiet_hours_start", "quiet_hours_end", "daily_cap_per_number", "min_seconds_between_messages", "disclosure")
    QUIET_HOURS_START_FIELD_NUMBER: _ClassVar[int]
    QUIET_HOURS_END_FIELD_NUMBER: _ClassVar[int]
    DAILY_CAP_PER_NUMBER_FIELD_NUMBER: _ClassVar[int]
    MIN_SECONDS_BETWEEN_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    DISCLOSURE_FIELD_NUMBER: _ClassVar[int]
    quiet_hours_start: str
    quiet_hours_end: str
    daily_cap_per_number: int
    min_seconds_between_messages: int
    disclosure: DisclosureMode
    def __init__(self, quiet_hours_start: _Optional[str] = ..., quiet_hours_end: _Optional[str] = ..., daily_cap_per_number: _Optional[int] = ..., min_seconds_between_messages: _Optional[int] = ..., disclosure: _Optional[_Union[DisclosureMode, str]] = ...) -> None: ...

class ListOrganizationsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListOrganizationsResponse(_message.Message):
    __slots__ = ("organizations", "next_page_token")
    ORGANIZATIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organizations: _containers.RepeatedCompositeFieldContainer[Organization]
    next_page_token: str
    def __init__(self, organizations: _Optional[_Iterable[_Union[Organization, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class CreateOrganizationRequest(_message.Message):
    __slots__ = ("organization", "given_mask")
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    GIVEN_MASK_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    given_mask: _field_mask_pb2.FieldMask
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ..., given_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ...) -> None: ...

class CreateOrganizationResponse(_message.Message):
    __slots__ = ("organization",)
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ...) -> None: ...

class GetOrganizationRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class GetOrganizationResponse(_message.Message):
    __slots__ = ("organization",)
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ...) -> None: ...

class UpdateOrganizationRequest(_message.Message):
    __slots__ = ("organization_id", "organization", "update_mask")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    organization: Organization
    update_mask: _field_mask_pb2.FieldMask
    def __init__(self, organization_id: _Optional[str] = ..., organization: _Optional[_Union[Organization, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ...) -> None: ...

class UpdateOrganizationResponse(_message.Message):
    __slots__ = ("organization", "refusal_pt")
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_PT_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    refusal_pt: str
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ..., refusal_pt: _Optional[str] = ...) -> None: ...

class Unit(_message.Message):
    __slots__ = ("unit_id", "name", "subjects", "voice", "instructions", "default_unit", "version")
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SUBJECTS_FIELD_NUMBER: _ClassVar[int]
    VOICE_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_UNIT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    unit_id: str
    name: str
    subjects: str
    voice: str
    instructions: str
    default_unit: bool
    version: ConfigVersion
    def __init__(self, unit_id: _Optional[str] = ..., name: _Optional[str] = ..., subjects: _Optional[str] = ..., voice: _Optional[str] = ..., instructions: _Optional[str] = ..., default_unit: _Optional[bool] = ..., version: _Optional[_Union[ConfigVersion, str]] = ...) -> None: ...

class ListUnitsRequest(_message.Message):
    __slots__ = ("organization_id", "version")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    version: ConfigVersion
    def __init__(self, organization_id: _Optional[str] = ..., version: _Optional[_Union[ConfigVersion, str]] = ...) -> None: ...

class ListUnitsResponse(_message.Message):
    __slots__ = ("units",)
    UNITS_FIELD_NUMBER: _ClassVar[int]
    units: _containers.RepeatedCompositeFieldContainer[Unit]
    def __init__(self, units: _Optional[_Iterable[_Union[Unit, _Mapping]]] = ...) -> None: ...

class CreateUnitRequest(_message.Message):
    __slots__ = ("organization_id", "unit")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    unit: Unit
    def __init__(self, organization_id: _Optional[str] = ..., unit: _Optional[_Union[Unit, _Mapping]] = ...) -> None: ...

class CreateUnitResponse(_message.Message):
    __slots__ = ("unit",)
    UNIT_FIELD_NUMBER: _ClassVar[int]
    unit: Unit
    def __init__(self, unit: _Optional[_Union[Unit, _Mapping]] = ...) -> None: ...

class UpdateUnitRequest(_message.Message):
    __slots__ = ("organization_id", "unit_id", "unit", "update_mask")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    unit_id: str
    unit: Unit
    update_mask: _field_mask_pb2.FieldMask
    def __init__(self, organization_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., unit: _Optional[_Union[Unit, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ...) -> None: ...

class UpdateUnitResponse(_message.Message):
    __slots__ = ("unit",)
    UNIT_FIELD_NUMBER: _ClassVar[int]
    unit: Unit
    def __init__(self, unit: _Optional[_Union[Unit, _Mapping]] = ...) -> None: ...

class ListUnitCapabilitiesRequest(_message.Message):
    __slots__ = ("organization_id", "unit_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    unit_id: str
    def __init__(self, organization_id: _Optional[str] = ..., unit_id: _Optional[str] = ...) -> None: ...

class ListUnitCapabilitiesResponse(_message.Message):
    __slots__ = ("capabilities",)
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    capabilities: UnitCapabilities
    def __init__(self, capabilities: _Optional[_Union[UnitCapabilities, _Mapping]] = ...) -> None: ...

class UnitCapabilities(_message.Message):
    __slots__ = ("capabilities", "selected_packages", "max_enabled", "enabled_count")
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    SELECTED_PACKAGES_FIELD_NUMBER: _ClassVar[int]
    MAX_ENABLED_FIELD_NUMBER: _ClassVar[int]
    ENABLED_COUNT_FIELD_NUMBER: _ClassVar[int]
    capabilities: _containers.RepeatedCompositeFieldContainer[UnitCapability]
    selected_packages: _containers.RepeatedScalarFieldContainer[str]
    max_enabled: int
    enabled_count: int
    def __init__(self, capabilities: _Optional[_Iterable[_Union[UnitCapability, _Mapping]]] = ..., selected_packages: _Optional[_Iterable[str]] = ..., max_enabled: _Optional[int] = ..., enabled_count: _Optional[int] = ...) -> None: ...

class UnitCapability(_message.Message):
    __slots__ = ("name", "label_pt", "explanation_pt", "risk", "package", "enabled", "hidden_reason_pt")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LABEL_PT_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_PT_FIELD_NUMBER: _ClassVar[int]
    RISK_FIELD_NUMBER: _ClassVar[int]
    PACKAGE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_REASON_PT_FIELD_NUMBER: _ClassVar[int]
    name: str
    label_pt: str
    explanation_pt: str
    risk: CapabilityRisk
    package: str
    enabled: bool
    hidden_reason_pt: str
    def __init__(self, name: _Optional[str] = ..., label_pt: _Optional[str] = ..., explanation_pt: _Optional[str] = ..., risk: _Optional[_Union[CapabilityRisk, str]] = ..., package: _Optional[str] = ..., enabled: _Optional[bool] = ..., hidden_reason_pt: _Optional[str] = ...) -> None: ...

class SetUnitCapabilitiesRequest(_message.Message):
    __slots__ = ("organization_id", "unit_id", "packages", "critical_capabilities")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    PACKAGES_FIELD_NUMBER: _ClassVar[int]
    CRITICAL_CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    unit_id: str
    packages: _containers.RepeatedScalarFieldContainer[str]
    critical_capabilities: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, organization_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., packages: _Optional[_Iterable[str]] = ..., critical_capabilities: _Optional[_Iterable[str]] = ...) -> None: ...

class SetUnitCapabilitiesResponse(_message.Message):
    __slots__ = ("capabilities", "refusal_pt")
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_PT_FIELD_NUMBER: _ClassVar[int]
    capabilities: UnitCapabilities
    refusal_pt: str
    def __init__(self, capabilities: _Optional[_Union[UnitCapabilities, _Mapping]] = ..., refusal_pt: _Optional[str] = ...) -> None: ...

class PublishConfigurationRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class PublishConfigurationResponse(_message.Message):
    __slots__ = ("published_version", "published_at")
    PUBLISHED_VERSION_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_AT_FIELD_NUMBER: _ClassVar[int]
    published_version: int
    published_at: _timestamp_pb2.Timestamp
    def __init__(self, published_version: _Optional[int] = ..., published_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ChannelInstance(_message.Message):
    __slots__ = ("instance_name", "channel", "base_url", "api_key", "api_key_set", "webhook_secret", "webhook_secret_set", "sender_number", "webhook_url", "allow_groups", "allow_broadcasts", "allow_newsletters", "webhook_secret_header", "jwt_key", "jwt_key_set")
    INSTANCE_NAME_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    API_KEY_SET_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_SECRET_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_SECRET_SET_FIELD_NUMBER: _ClassVar[int]
    SENDER_NUMBER_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_URL_FIELD_NUMBER: _ClassVar[int]
    ALLOW_GROUPS_FIELD_NUMBER: _ClassVar[int]
    ALLOW_BROADCASTS_FIELD_NUMBER: _ClassVar[int]
    ALLOW_NEWSLETTERS_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_SECRET_HEADER_FIELD_NUMBER: _ClassVar[int]
    JWT_KEY_FIELD_NUMBER: _ClassVar[int]
    JWT_KEY_SET_FIELD_NUMBER: _ClassVar[int]
    instance_name: str
    channel: Channel
    base_url: str
    api_key: str
    api_key_set: bool
    webhook_secret: str
    webhook_secret_set: bool
    sender_number: str
    webhook_url: str
    allow_groups: bool
    allow_broadcasts: bool
    allow_newsletters: bool
    webhook_secret_header: str
    jwt_key: str
    jwt_key_set: bool
    def __init__(self, instance_name: _Optional[str] = ..., channel: _Optional[_Union[Channel, str]] = ..., base_url: _Optional[str] = ..., api_key: _Optional[str] = ..., api_key_set: _Optional[bool] = ..., webhook_secret: _Optional[str] = ..., webhook_secret_set: _Optional[bool] = ..., sender_number: _Optional[str] = ..., webhook_url: _Optional[str] = ..., allow_groups: _Optional[bool] = ..., allow_broadcasts: _Optional[bool] = ..., allow_newsletters: _Optional[bool] = ..., webhook_secret_header: _Optional[str] = ..., jwt_key: _Optional[str] = ..., jwt_key_set: _Optional[bool] = ...) -> None: ...

class ListChannelInstancesRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class ListChannelInstancesResponse(_message.Message):
    __slots__ = ("instances",)
    INSTANCES_FIELD_NUMBER: _ClassVar[int]
    instances: _containers.RepeatedCompositeFieldContainer[ChannelInstance]
    def __init__(self, instances: _Optional[_Iterable[_Union[ChannelInstance, _Mapping]]] = ...) -> None: ...

class SetChannelInstanceRequest(_message.Message):
    __slots__ = ("organization_id", "instance_name", "instance")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_NAME_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    instance_name: str
    instance: ChannelInstance
    def __init__(self, organization_id: _Optional[str] = ..., instance_name: _Optional[str] = ..., instance: _Optional[_Union[ChannelInstance, _Mapping]] = ...) -> None: ...

class SetChannelInstanceResponse(_message.Message):
    __slots__ = ("instance", "refusal_pt")
    INSTANCE_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_PT_FIELD_NUMBER: _ClassVar[int]
    instance: ChannelInstance
    refusal_pt: str
    def __init__(self, instance: _Optional[_Union[ChannelInstance, _Mapping]] = ..., refusal_pt: _Optional[str] = ...) -> None: ...

class WebChannelKey(_message.Message):
    __slots__ = ("key_id", "label", "prefix", "created_at", "last_used_at", "revoked_at")
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_USED_AT_FIELD_NUMBER: _ClassVar[int]
    REVOKED_AT_FIELD_NUMBER: _ClassVar[int]
    key_id: str
    label: str
    prefix: str
    created_at: _timestamp_pb2.Timestamp
    last_used_at: _timestamp_pb2.Timestamp
    revoked_at: _timestamp_pb2.Timestamp
    def __init__(self, key_id: _Optional[str] = ..., label: _Optional[str] = ..., prefix: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_used_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., revoked_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListWebChannelKeysRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class ListWebChannelKeysResponse(_message.Message):
    __slots__ = ("keys",)
    KEYS_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[WebChannelKey]
    def __init__(self, keys: _Optional[_Iterable[_Union[WebChannelKey, _Mapping]]] = ...) -> None: ...

class IssueWebChannelKeyRequest(_message.Message):
    __slots__ = ("organization_id", "label")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    label: str
    def __init__(self, organization_id: _Optional[str] = ..., label: _Optional[str] = ...) -> None: ...

class IssueWebChannelKeyResponse(_message.Message):
    __slots__ = ("key", "secret")
    KEY_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    key: WebChannelKey
    secret: str
    def __init__(self, key: _Optional[_Union[WebChannelKey, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class RevokeWebChannelKeyRequest(_message.Message):
    __slots__ = ("organization_id", "key_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    key_id: str
    def __init__(self, organization_id: _Optional[str] = ..., key_id: _Optional[str] = ...) -> None: ...

class RevokeWebChannelKeyResponse(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: WebChannelKey
    def __init__(self, key: _Optional[_Union[WebChannelKey, _Mapping]] = ...) -> None: ...

class RoleState(_message.Message):
    __slots__ = ("role", "label_pt", "explanation_pt", "enabled", "switchable", "consequence_pt")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    LABEL_PT_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_PT_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    SWITCHABLE_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_PT_FIELD_NUMBER: _ClassVar[int]
    role: str
    label_pt: str
    explanation_pt: str
    enabled: bool
    switchable: bool
    consequence_pt: str
    def __init__(self, role: _Optional[str] = ..., label_pt: _Optional[str] = ..., explanation_pt: _Optional[str] = ..., enabled: _Optional[bool] = ..., switchable: _Optional[bool] = ..., consequence_pt: _Optional[str] = ...) -> None: ...

class ListRolesRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class ListRolesResponse(_message.Message):
    __slots__ = ("roles",)
    ROLES_FIELD_NUMBER: _ClassVar[int]
    roles: _containers.RepeatedCompositeFieldContainer[RoleState]
    def __init__(self, roles: _Optional[_Iterable[_Union[RoleState, _Mapping]]] = ...) -> None: ...

class SetRoleEnabledRequest(_message.Message):
    __slots__ = ("organization_id", "role", "enabled")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    role: str
    enabled: bool
    def __init__(self, organization_id: _Optional[str] = ..., role: _Optional[str] = ..., enabled: _Optional[bool] = ...) -> None: ...

class SetRoleEnabledResponse(_message.Message):
    __slots__ = ("role", "refusal_pt")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_PT_FIELD_NUMBER: _ClassVar[int]
    role: RoleState
    refusal_pt: str
    def __init__(self, role: _Optional[_Union[RoleState, _Mapping]] = ..., refusal_pt: _Optional[str] = ...) -> None: ...

class GateState(_message.Message):
    __slots__ = ("position", "name", "label_pt", "explanation_pt", "switchable", "enabled", "uses_model")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    LABEL_PT_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_PT_FIELD_NUMBER: _ClassVar[int]
    SWITCHABLE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    USES_MODEL_FIELD_NUMBER: _ClassVar[int]
    position: int
    name: str
    label_pt: str
    explanation_pt: str
    switchable: bool
    enabled: bool
    uses_model: bool
    def __init__(self, position: _Optional[int] = ..., name: _Optional[str] = ..., label_pt: _Optional[str] = ..., explanation_pt: _Optional[str] = ..., switchable: _Optional[bool] = ..., enabled: _Optional[bool] = ..., uses_model: _Optional[bool] = ...) -> None: ...

class ListGatesRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class ListGatesResponse(_message.Message):
    __slots__ = ("chain_version", "gates", "inbound_classifier_enabled")
    CHAIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    GATES_FIELD_NUMBER: _ClassVar[int]
    INBOUND_CLASSIFIER_ENABLED_FIELD_NUMBER: _ClassVar[int]
    chain_version: int
    gates: _containers.RepeatedCompositeFieldContainer[GateState]
    inbound_classifier_enabled: bool
    def __init__(self, chain_version: _Optional[int] = ..., gates: _Optional[_Iterable[_Union[GateState, _Mapping]]] = ..., inbound_classifier_enabled: _Optional[bool] = ...) -> None: ...

class SetGateEnabledRequest(_message.Message):
    __slots__ = ("organization_id", "gate", "enabled")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    GATE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    gate: str
    enabled: bool
    def __init__(self, organization_id: _Optional[str] = ..., gate: _Optional[str] = ..., enabled: _Optional[bool] = ...) -> None: ...

class SetGateEnabledResponse(_message.Message):
    __slots__ = ("gate", "consequence_pt", "refusal_pt")
    GATE_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_PT_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_PT_FIELD_NUMBER: _ClassVar[int]
    gate: GateState
    consequence_pt: str
    refusal_pt: str
    def __init__(self, gate: _Optional[_Union[GateState, _Mapping]] = ..., consequence_pt: _Optional[str] = ..., refusal_pt: _Optional[str] = ...) -> None: ...

class SetInboundClassifierEnabledRequest(_message.Message):
    __slots__ = ("organization_id", "enabled")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    enabled: bool
    def __init__(self, organization_id: _Optional[str] = ..., enabled: _Optional[bool] = ...) -> None: ...

class SetInboundClassifierEnabledResponse(_message.Message):
    __slots__ = ("enabled", "consequence_pt")
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_PT_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    consequence_pt: str
    def __init__(self, enabled: _Optional[bool] = ..., consequence_pt: _Optional[str] = ...) -> None: ...

class KnowledgeArticle(_message.Message):
    __slots__ = ("article_id", "title", "body", "kind", "unit_id", "when_useful", "created_at", "updated_at")
    ARTICLE_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    WHEN_USEFUL_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    article_id: str
    title: str
    body: str
    kind: KnowledgeKind
    unit_id: str
    when_useful: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, article_id: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., kind: _Optional[_Union[KnowledgeKind, str]] = ..., unit_id: _Optional[str] = ..., when_useful: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListKnowledgeArticlesRequest(_message.Message):
    __slots__ = ("organization_id", "query", "unit_id", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    query: str
    unit_id: str
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., query: _Optional[str] = ..., unit_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListKnowledgeArticlesResponse(_message.Message):
    __slots__ = ("articles", "next_page_token")
    ARTICLES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    articles: _containers.RepeatedCompositeFieldContainer[KnowledgeArticle]
    next_page_token: str
    def __init__(self, articles: _Optional[_Iterable[_Union[KnowledgeArticle, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class CreateKnowledgeArticleRequest(_message.Message):
    __slots__ = ("organization_id", "article")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ARTICLE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    article: KnowledgeArticle
    def __init__(self, organization_id: _Optional[str] = ..., article: _Optional[_Union[KnowledgeArticle, _Mapping]] = ...) -> None: ...

class CreateKnowledgeArticleResponse(_message.Message):
    __slots__ = ("article",)
    ARTICLE_FIELD_NUMBER: _ClassVar[int]
    article: KnowledgeArticle
    def __init__(self, article: _Optional[_Union[KnowledgeArticle, _Mapping]] = ...) -> None: ...

class UpdateKnowledgeArticleRequest(_message.Message):
    __slots__ = ("organization_id", "article_id", "article", "update_mask")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ARTICLE_ID_FIELD_NUMBER: _ClassVar[int]
    ARTICLE_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    article_id: str
    article: KnowledgeArticle
    update_mask: _field_mask_pb2.FieldMask
    def __init__(self, organization_id: _Optional[str] = ..., article_id: _Optional[str] = ..., article: _Optional[_Union[KnowledgeArticle, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ...) -> None: ...

class UpdateKnowledgeArticleResponse(_message.Message):
    __slots__ = ("article",)
    ARTICLE_FIELD_NUMBER: _ClassVar[int]
    article: KnowledgeArticle
    def __init__(self, article: _Optional[_Union[KnowledgeArticle, _Mapping]] = ...) -> None: ...

class DeleteKnowledgeArticleRequest(_message.Message):
    __slots__ = ("organization_id", "article_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ARTICLE_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    article_id: str
    def __init__(self, organization_id: _Optional[str] = ..., article_id: _Optional[str] = ...) -> None: ...

class DeleteKnowledgeArticleResponse(_message.Message):
    __slots__ = ("deleted",)
    DELETED_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    def __init__(self, deleted: _Optional[bool] = ...) -> None: ...

class CentralItem(_message.Message):
    __slots__ = ("central_item_id", "kind", "severity", "status", "title_pt", "body_pt", "contact_id", "contact_name", "turn_id", "created_at", "resolved_at", "resolution_note")
    CENTRAL_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TITLE_PT_FIELD_NUMBER: _ClassVar[int]
    BODY_PT_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_NAME_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_AT_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_NOTE_FIELD_NUMBER: _ClassVar[int]
    central_item_id: str
    kind: str
    severity: CentralItemSeverity
    status: CentralItemStatus
    title_pt: str
    body_pt: str
    contact_id: str
    contact_name: str
    turn_id: str
    created_at: _timestamp_pb2.Timestamp
    resolved_at: _timestamp_pb2.Timestamp
    resolution_note: str
    def __init__(self, central_item_id: _Optional[str] = ..., kind: _Optional[str] = ..., severity: _Optional[_Union[CentralItemSeverity, str]] = ..., status: _Optional[_Union[CentralItemStatus, str]] = ..., title_pt: _Optional[str] = ..., body_pt: _Optional[str] = ..., contact_id: _Optional[str] = ..., contact_name: _Optional[str] = ..., turn_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., resolved_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., resolution_note: _Optional[str] = ...) -> None: ...

class ListCentralItemsRequest(_message.Message):
    __slots__ = ("organization_id", "status", "min_severity", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MIN_SEVERITY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    status: CentralItemStatus
    min_severity: CentralItemSeverity
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., status: _Optional[_Union[CentralItemStatus, str]] = ..., min_severity: _Optional[_Union[CentralItemSeverity, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListCentralItemsResponse(_message.Message):
    __slots__ = ("items", "next_page_token")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CentralItem]
    next_page_token: str
    def __init__(self, items: _Optional[_Iterable[_Union[CentralItem, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ResolveCentralItemRequest(_message.Message):
    __slots__ = ("organization_id", "central_item_id", "note")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CENTRAL_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    central_item_id: str
    note: str
    def __init__(self, organization_id: _Optional[str] = ..., central_item_id: _Optional[str] = ..., note: _Optional[str] = ...) -> None: ...

class ResolveCentralItemResponse(_message.Message):
    __slots__ = ("item",)
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item: CentralItem
    def __init__(self, item: _Optional[_Union[CentralItem, _Mapping]] = ...) -> None: ...

class SetConversationOwnerRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "owner", "note")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    owner: ConversationOwner
    note: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., owner: _Optional[_Union[ConversationOwner, str]] = ..., note: _Optional[str] = ...) -> None: ...

class SetConversationOwnerResponse(_message.Message):
    __slots__ = ("owner", "consequence_pt")
    OWNER_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_PT_FIELD_NUMBER: _ClassVar[int]
    owner: ConversationOwner
    consequence_pt: str
    def __init__(self, owner: _Optional[_Union[ConversationOwner, str]] = ..., consequence_pt: _Optional[str] = ...) -> None: ...

class ListExecutionsRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "outcome", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    outcome: TurnOutcome
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., outcome: _Optional[_Union[TurnOutcome, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListExecutionsResponse(_message.Message):
    __slots__ = ("executions", "next_page_token")
    EXECUTIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    executions: _containers.RepeatedCompositeFieldContainer[ExecutionSummary]
    next_page_token: str
    def __init__(self, executions: _Optional[_Iterable[_Union[ExecutionSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ExecutionSummary(_message.Message):
    __slots__ = ("turn_id", "contact_id", "contact_name", "status", "outcome", "started_at", "veto_count", "sent_preview", "trace_id")
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    VETO_COUNT_FIELD_NUMBER: _ClassVar[int]
    SENT_PREVIEW_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    contact_id: str
    contact_name: str
    status: TurnStatus
    outcome: TurnOutcome
    started_at: _timestamp_pb2.Timestamp
    veto_count: int
    sent_preview: str
    trace_id: str
    def __init__(self, turn_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., contact_name: _Optional[str] = ..., status: _Optional[_Union[TurnStatus, str]] = ..., outcome: _Optional[_Union[TurnOutcome, str]] = ..., started_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., veto_count: _Optional[int] = ..., sent_preview: _Optional[str] = ..., trace_id: _Optional[str] = ...) -> None: ...

class GetExecutionRequest(_message.Message):
    __slots__ = ("organization_id", "turn_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    turn_id: str
    def __init__(self, organization_id: _Optional[str] = ..., turn_id: _Optional[str] = ...) -> None: ...

class GetExecutionResponse(_message.Message):
    __slots__ = ("execution",)
    EXECUTION_FIELD_NUMBER: _ClassVar[int]
    execution: ExecutionRecord
    def __init__(self, execution: _Optional[_Union[ExecutionRecord, _Mapping]] = ...) -> None: ...

class ExecutionRecord(_message.Message):
    __slots__ = ("turn", "inbound_texts", "trigger", "screening", "route_pt", "attempts", "closing", "usage", "operador")
    TURN_FIELD_NUMBER: _ClassVar[int]
    INBOUND_TEXTS_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    SCREENING_FIELD_NUMBER: _ClassVar[int]
    ROUTE_PT_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CLOSING_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_FIELD_NUMBER: _ClassVar[int]
    turn: TurnResult
    inbound_texts: _containers.RepeatedScalarFieldContainer[str]
    trigger: ProactiveTrigger
    screening: ScreeningRecord
    route_pt: str
    attempts: _containers.RepeatedCompositeFieldContainer[DraftAttempt]
    closing: ClosingRecord
    usage: _containers.RepeatedCompositeFieldContainer[ModelUsage]
    operador: OperadorOutcome
    def __init__(self, turn: _Optional[_Union[TurnResult, _Mapping]] = ..., inbound_texts: _Optional[_Iterable[str]] = ..., trigger: _Optional[_Union[ProactiveTrigger, _Mapping]] = ..., screening: _Optional[_Union[ScreeningRecord, _Mapping]] = ..., route_pt: _Optional[str] = ..., attempts: _Optional[_Iterable[_Union[DraftAttempt, _Mapping]]] = ..., closing: _Optional[_Union[ClosingRecord, _Mapping]] = ..., usage: _Optional[_Iterable[_Union[ModelUsage, _Mapping]]] = ..., operador: _Optional[_Union[OperadorOutcome, _Mapping]] = ...) -> None: ...

class ScreeningRecord(_message.Message):
    __slots__ = ("verdict", "level", "matched_rule", "classifier_ran")
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MATCHED_RULE_FIELD_NUMBER: _ClassVar[int]
    CLASSIFIER_RAN_FIELD_NUMBER: _ClassVar[int]
    verdict: str
    level: str
    matched_rule: str
    classifier_ran: bool
    def __init__(self, verdict: _Optional[str] = ..., level: _Optional[str] = ..., matched_rule: _Optional[str] = ..., classifier_ran: _Optional[bool] = ...) -> None: ...

class DraftAttempt(_message.Message):
    __slots__ = ("attempt", "message", "declaracao", "review")
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    message: str
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    review: ReviewRecord
    def __init__(self, attempt: _Optional[int] = ..., message: _Optional[str] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., review: _Optional[_Union[ReviewRecord, _Mapping]] = ...) -> None: ...

class ReviewRecord(_message.Message):
    __slots__ = ("decision", "trace", "vetoes", "wait_until", "chain_version")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    VETOES_FIELD_NUMBER: _ClassVar[int]
    WAIT_UNTIL_FIELD_NUMBER: _ClassVar[int]
    CHAIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    decision: str
    trace: _containers.RepeatedCompositeFieldContainer[GateTrace]
    vetoes: _containers.RepeatedCompositeFieldContainer[TurnVeto]
    wait_until: _timestamp_pb2.Timestamp
    chain_version: int
    def __init__(self, decision: _Optional[str] = ..., trace: _Optional[_Iterable[_Union[GateTrace, _Mapping]]] = ..., vetoes: _Optional[_Iterable[_Union[TurnVeto, _Mapping]]] = ..., wait_until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., chain_version: _Optional[int] = ...) -> None: ...

class GateTrace(_message.Message):
    __slots__ = ("position", "gate", "status", "code", "rewrote_body", "category_counts")
    class CategoryCountsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    POSITION_FIELD_NUMBER: _ClassVar[int]
    GATE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    REWROTE_BODY_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_COUNTS_FIELD_NUMBER: _ClassVar[int]
    position: int
    gate: str
    status: str
    code: str
    rewrote_body: bool
    category_counts: _containers.ScalarMap[str, int]
    def __init__(self, position: _Optional[int] = ..., gate: _Optional[str] = ..., status: _Optional[str] = ..., code: _Optional[str] = ..., rewrote_body: _Optional[bool] = ..., category_counts: _Optional[_Mapping[str, int]] = ...) -> None: ...

class ClosingRecord(_message.Message):
    __slots__ = ("checkpoint_seq", "rolling_summary", "commitments", "objections", "next_action", "agenda_reread", "failure")
    CHECKPOINT_SEQ_FIELD_NUMBER: _ClassVar[int]
    ROLLING_SUMMARY_FIELD_NUMBER: _ClassVar[int]
    COMMITMENTS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_ACTION_FIELD_NUMBER: _ClassVar[int]
    AGENDA_REREAD_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    checkpoint_seq: int
    rolling_summary: str
    commitments: _containers.RepeatedScalarFieldContainer[str]
    objections: _containers.RepeatedScalarFieldContainer[str]
    next_action: str
    agenda_reread: str
    failure: str
    def __init__(self, checkpoint_seq: _Optional[int] = ..., rolling_summary: _Optional[str] = ..., commitments: _Optional[_Iterable[str]] = ..., objections: _Optional[_Iterable[str]] = ..., next_action: _Optional[str] = ..., agenda_reread: _Optional[str] = ..., failure: _Optional[str] = ...) -> None: ...

class ModelUsage(_message.Message):
    __slots__ = ("purpose", "provider", "model", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_READ_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_WRITE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    purpose: str
    provider: str
    model: str
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    def __init__(self, purpose: _Optional[str] = ..., provider: _Optional[str] = ..., model: _Optional[str] = ..., input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cache_read_tokens: _Optional[int] = ..., cache_write_tokens: _Optional[int] = ...) -> None: ...

class OperadorOutcome(_message.Message):
    __slots__ = ("outcome", "summary_pt", "actions_pt")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_PT_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_PT_FIELD_NUMBER: _ClassVar[int]
    outcome: str
    summary_pt: str
    actions_pt: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, outcome: _Optional[str] = ..., summary_pt: _Optional[str] = ..., actions_pt: _Optional[_Iterable[str]] = ...) -> None: ...

class GetMetricsRequest(_message.Message):
    __slots__ = ("organization_id", "since")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    since: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetMetricsResponse(_message.Message):
    __slots__ = ("since", "turns", "operador", "tokens")
    SINCE_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    OPERADOR_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    since: _timestamp_pb2.Timestamp
    turns: TurnMetrics
    operador: OperadorMetrics
    tokens: TokenTotals
    def __init__(self, since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., turns: _Optional[_Union[TurnMetrics, _Mapping]] = ..., operador: _Optional[_Union[OperadorMetrics, _Mapping]] = ..., tokens: _Optional[_Union[TokenTotals, _Mapping]] = ...) -> None: ...

class TurnMetrics(_message.Message):
    __slots__ = ("finished", "by_outcome", "vetoes_by_gate", "revisions_per_turn", "failed")
    class ByOutcomeEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class VetoesByGateEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    BY_OUTCOME_FIELD_NUMBER: _ClassVar[int]
    VETOES_BY_GATE_FIELD_NUMBER: _ClassVar[int]
    REVISIONS_PER_TURN_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    finished: int
    by_outcome: _containers.ScalarMap[str, int]
    vetoes_by_gate: _containers.ScalarMap[str, int]
    revisions_per_turn: float
    failed: int
    def __init__(self, finished: _Optional[int] = ..., by_outcome: _Optional[_Mapping[str, int]] = ..., vetoes_by_gate: _Optional[_Mapping[str, int]] = ..., revisions_per_turn: _Optional[float] = ..., failed: _Optional[int] = ...) -> None: ...

class OperadorMetrics(_message.Message):
    __slots__ = ("actions_per_turn", "promises_declared", "promises_fulfilled", "promises_failed", "turns_could_not_act", "events_dead")
    ACTIONS_PER_TURN_FIELD_NUMBER: _ClassVar[int]
    PROMISES_DECLARED_FIELD_NUMBER: _ClassVar[int]
    PROMISES_FULFILLED_FIELD_NUMBER: _ClassVar[int]
    PROMISES_FAILED_FIELD_NUMBER: _ClassVar[int]
    TURNS_COULD_NOT_ACT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_DEAD_FIELD_NUMBER: _ClassVar[int]
    actions_per_turn: float
    promises_declared: int
    promises_fulfilled: int
    promises_failed: int
    turns_could_not_act: int
    events_dead: int
    def __init__(self, actions_per_turn: _Optional[float] = ..., promises_declared: _Optional[int] = ..., promises_fulfilled: _Optional[int] = ..., promises_failed: _Optional[int] = ..., turns_could_not_act: _Optional[int] = ..., events_dead: _Optional[int] = ...) -> None: ...

class TokenTotals(_message.Message):
    __slots__ = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_READ_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_WRITE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    def __init__(self, input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cache_read_tokens: _Optional[int] = ..., cache_write_tokens: _Optional[int] = ...) -> None: ...
