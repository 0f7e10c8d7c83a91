import datetime

from balcao.common.v1 import declaracao_pb2 as _declaracao_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GateStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GATE_STATUS_UNSPECIFIED: _ClassVar[GateStatus]
    GATE_STATUS_PASSED: _ClassVar[GateStatus]
    GATE_STATUS_VETOED: _ClassVar[GateStatus]
    GATE_STATUS_SKIPPED_NOT_APPLICABLE: _ClassVar[GateStatus]
    GATE_STATUS_SKIPPED_DISABLED: _ClassVar[GateStatus]
    GATE_STATUS_WAITED: _ClassVar[GateStatus]
    GATE_STATUS_REVIEWER_FAILED: _ClassVar[GateStatus]

class Gate(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GATE_UNSPECIFIED: _ClassVar[Gate]
    GATE_STOP: _ClassVar[Gate]
    GATE_LGPD: _ClassVar[Gate]
    GATE_PACING: _ClassVar[Gate]
    GATE_MESSAGING_WINDOW: _ClassVar[Gate]
    GATE_REPETITION: _ClassVar[Gate]
    GATE_COMMERCIAL_PROMISE: _ClassVar[Gate]
    GATE_SEMANTIC_PROMISE: _ClassVar[Gate]
    GATE_CASE_PROMISE: _ClassVar[Gate]
    GATE_UNBACKED_CLAIM: _ClassVar[Gate]
    GATE_INTERNAL_VOCABULARY: _ClassVar[Gate]
    GATE_THIRD_PARTY_DATA: _ClassVar[Gate]
    GATE_DISCLOSURE: _ClassVar[Gate]
    GATE_FORMAT: _ClassVar[Gate]

class OutboundKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OUTBOUND_KIND_UNSPECIFIED: _ClassVar[OutboundKind]
    OUTBOUND_KIND_REPLY: _ClassVar[OutboundKind]
    OUTBOUND_KIND_FOLLOWUP: _ClassVar[OutboundKind]
    OUTBOUND_KIND_PROACTIVE: _ClassVar[OutboundKind]
    OUTBOUND_KIND_HANDOFF: _ClassVar[OutboundKind]
    OUTBOUND_KIND_HOLDING_REPLY: _ClassVar[OutboundKind]
    OUTBOUND_KIND_FIXED_REPLY: _ClassVar[OutboundKind]
    OUTBOUND_KIND_SAFE_REPLY: _ClassVar[OutboundKind]
    OUTBOUND_KIND_OPT_OUT_CONFIRMATION: _ClassVar[OutboundKind]

class PublicContactKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PUBLIC_CONTACT_KIND_UNSPECIFIED: _ClassVar[PublicContactKind]
    PUBLIC_CONTACT_KIND_PHONE: _ClassVar[PublicContactKind]
    PUBLIC_CONTACT_KIND_EMAIL: _ClassVar[PublicContactKind]
    PUBLIC_CONTACT_KIND_WEBSITE: _ClassVar[PublicContactKind]
    PUBLIC_CONTACT_KIND_DOCUMENT: _ClassVar[PublicContactKind]

class CommercialFactKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COMMERCIAL_FACT_KIND_UNSPECIFIED: _ClassVar[CommercialFactKind]
    COMMERCIAL_FACT_KIND_PRICE: _ClassVar[CommercialFactKind]
    COMMERCIAL_FACT_KIND_DISCOUNT: _ClassVar[CommercialFactKind]
    COMMERCIAL_FACT_KIND_INSTALMENTS: _ClassVar[CommercialFactKind]
    COMMERCIAL_FACT_KIND_FREE: _ClassVar[CommercialFactKind]
    COMMERCIAL_FACT_KIND_GUARANTEE: _ClassVar[CommercialFactKind]
    COMMERCIAL_FACT_KIND_OFFER: _ClassVar[CommercialFactKind]

class ScreenVerdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCREEN_VERDICT_UNSPECIFIED: _ClassVar[ScreenVerdict]
    SCREEN_VERDICT_CLEAN: _ClassVar[ScreenVerdict]
    SCREEN_VERDICT_SUSPICIOUS: _ClassVar[ScreenVerdict]
    SCREEN_VERDICT_INJECTION: _ClassVar[ScreenVerdict]

class ThreatLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    THREAT_LEVEL_UNSPECIFIED: _ClassVar[ThreatLevel]
    THREAT_LEVEL_NONE: _ClassVar[ThreatLevel]
    THREAT_LEVEL_LOW: _ClassVar[ThreatLevel]
    THREAT_LEVEL_HIGH: _ClassVar[ThreatLevel]
GATE_STATUS_UNSPECIFIED: GateStatus
GATE_STATUS_PASSED: GateStatus
GATE_STATUS_VETOED: GateStatus
GATE_STATUS_SKIPPED_NOT_APPLICABLE: GateStatus
GATE_STATUS_SKIPPED_DISABLED: GateStatus
GATE_STATUS_WAITED: GateStatus
GATE_STATUS_REVIEWER_FAILED: GateStatus
GATE_UNSPECIFIED: Gate
GATE_STOP: Gate
GATE_LGPD: Gate
GATE_PACING: Gate
GATE_MESSAGING_WINDOW: Gate
GATE_REPETITION: Gate
GATE_COMMERCIAL_PROMISE: Gate
GATE_SEMANTIC_PROMISE: Gate
GATE_CASE_PROMISE: Gate
GATE_UNBACKED_CLAIM: Gate
GATE_INTERNAL_VOCABULARY: Gate
GATE_THIRD_PARTY_DATA: Gate
GATE_DISCLOSURE: Gate
GATE_FORMAT: Gate
OUTBOUND_KIND_UNSPECIFIED: OutboundKind
OUTBOUND_KIND_REPLY: OutboundKind
OUTBOUND_KIND_FOLLOWUP: OutboundKind
OUTBOUND_KIND_PROACTIVE: OutboundKind
OUTBOUND_KIND_HANDOFF: OutboundKind
OUTBOUND_KIND_HOLDING_REPLY: OutboundKind
OUTBOUND_KIND_FIXED_REPLY: OutboundKind
OUTBOUND_KIND_SAFE_REPLY: OutboundKind
OUTBOUND_KIND_OPT_OUT_CONFIRMATION: OutboundKind
PUBLIC_CONTACT_KIND_UNSPECIFIED: PublicContactKind
PUBLIC_CONTACT_KIND_PHONE: PublicContactKind
PUBLIC_CONTACT_KIND_EMAIL: PublicContactKind
PUBLIC_CONTACT_KIND_WEBSITE: PublicContactKind
PUBLIC_CONTACT_KIND_DOCUMENT: PublicContactKind
COMMERCIAL_FACT_KIND_UNSPECIFIED: CommercialFactKind
COMMERCIAL_FACT_KIND_PRICE: CommercialFactKind
COMMERCIAL_FACT_KIND_DISCOUNT: CommercialFactKind
COMMERCIAL_FACT_KIND_INSTALMENTS: CommercialFactKind
COMMERCIAL_FACT_KIND_FREE: CommercialFactKind
COMMERCIAL_FACT_KIND_GUARANTEE: CommercialFactKind
COMMERCIAL_FACT_KIND_OFFER: CommercialFactKind
SCREEN_VERDICT_UNSPECIFIED: ScreenVerdict
SCREEN_VERDICT_CLEAN: ScreenVerdict
SCREEN_VERDICT_SUSPICIOUS: ScreenVerdict
SCREEN_VERDICT_INJECTION: ScreenVerdict
THREAT_LEVEL_UNSPECIFIED: ThreatLevel
THREAT_LEVEL_NONE: ThreatLevel
THREAT_LEVEL_LOW: ThreatLevel
THREAT_LEVEL_HIGH: ThreatLevel

class ReviewOutboundRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "turn_id", "kind", "attempt", "draft", "declaracao", "contact", "channel", "organization", "history", "evidence", "organization_updated_at")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    DRAFT_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    turn_id: str
    kind: OutboundKind
    attempt: int
    draft: str
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    contact: ContactFacts
    channel: ChannelFacts
    organization: OrganizationFacts
    history: SendingHistory
    evidence: Evidence
    organization_updated_at: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., kind: _Optional[_Union[OutboundKind, str]] = ..., attempt: _Optional[int] = ..., draft: _Optional[str] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., contact: _Optional[_Union[ContactFacts, _Mapping]] = ..., channel: _Optional[_Union[ChannelFacts, _Mapping]] = ..., organization: _Optional[_Union[OrganizationFacts, _Mapping]] = ..., history: _Optional[_Union[SendingHistory, _Mapping]] = ..., evidence: _Optional[_Union[Evidence, _Mapping]] = ..., organization_updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ReviewOutboundResponse(_message.Message):
    __slots__ = ("approved", "wait", "vetoed", "trace", "chain_version")
    APPROVED_FIELD_NUMBER: _ClassVar[int]
    WAIT_FIELD_NUMBER: _ClassVar[int]
    VETOED_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    CHAIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    approved: Approval
    wait: PacingWait
    vetoed: Rejection
    trace: _containers.RepeatedCompositeFieldContainer[TraceLine]
    chain_version: int
    def __init__(self, approved: _Optional[_Union[Approval, _Mapping]] = ..., wait: _Optional[_Union[PacingWait, _Mapping]] = ..., vetoed: _Optional[_Union[Rejection, _Mapping]] = ..., trace: _Optional[_Iterable[_Union[TraceLine, _Mapping]]] = ..., chain_version: _Optional[int] = ...) -> None: ...

class Approval(_message.Message):
    __slots__ = ("body", "parts", "body_rewritten")
    BODY_FIELD_NUMBER: _ClassVar[int]
    PARTS_FIELD_NUMBER: _ClassVar[int]
    BODY_REWRITTEN_FIELD_NUMBER: _ClassVar[int]
    body: str
    parts: _containers.RepeatedScalarFieldContainer[str]
    body_rewritten: bool
    def __init__(self, body: _Optional[str] = ..., parts: _Optional[_Iterable[str]] = ..., body_rewritten: _Optional[bool] = ...) -> None: ...

class PacingWait(_message.Message):
    __slots__ = ("until", "code", "reason_pt")
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    REASON_PT_FIELD_NUMBER: _ClassVar[int]
    until: _timestamp_pb2.Timestamp
    code: str
    reason_pt: str
    def __init__(self, until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., code: _Optional[str] = ..., reason_pt: _Optional[str] = ...) -> None: ...

class Rejection(_message.Message):
    __slots__ = ("vetoes", "revisable")
    VETOES_FIELD_NUMBER: _ClassVar[int]
    REVISABLE_FIELD_NUMBER: _ClassVar[int]
    vetoes: _containers.RepeatedCompositeFieldContainer[Veto]
    revisable: bool
    def __init__(self, vetoes: _Optional[_Iterable[_Union[Veto, _Mapping]]] = ..., revisable: _Optional[bool] = ...) -> None: ...

class Veto(_message.Message):
    __slots__ = ("gate", "code", "guidance_pt", "revisable", "central_item_pt")
    GATE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    GUIDANCE_PT_FIELD_NUMBER: _ClassVar[int]
    REVISABLE_FIELD_NUMBER: _ClassVar[int]
    CENTRAL_ITEM_PT_FIELD_NUMBER: _ClassVar[int]
    gate: Gate
    code: str
    guidance_pt: str
    revisable: bool
    central_item_pt: str
    def __init__(self, gate: _Optional[_Union[Gate, str]] = ..., code: _Optional[str] = ..., guidance_pt: _Optional[str] = ..., revisable: _Optional[bool] = ..., central_item_pt: _Optional[str] = ...) -> None: ...

class TraceLine(_message.Message):
    __slots__ = ("gate", "position", "status", "code", "rewrote_body", "category_counts", "elapsed")
    class CategoryCountsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    GATE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    REWROTE_BODY_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_COUNTS_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_FIELD_NUMBER: _ClassVar[int]
    gate: Gate
    position: int
    status: GateStatus
    code: str
    rewrote_body: bool
    category_counts: _containers.ScalarMap[str, int]
    elapsed: _duration_pb2.Duration
    def __init__(self, gate: _Optional[_Union[Gate, str]] = ..., position: _Optional[int] = ..., status: _Optional[_Union[GateStatus, str]] = ..., code: _Optional[str] = ..., rewrote_body: _Optional[bool] = ..., category_counts: _Optional[_Mapping[str, int]] = ..., elapsed: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class ContactFacts(_message.Message):
    __slots__ = ("phone", "name", "email", "cpf", "opted_out", "blocked", "human_owned", "anonymised", "first_contact", "legal_basis_recorded", "human_case_open", "opt_out_confirmation_sent", "last_inbound_at")
    PHONE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    CPF_FIELD_NUMBER: _ClassVar[int]
    OPTED_OUT_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_FIELD_NUMBER: _ClassVar[int]
    HUMAN_OWNED_FIELD_NUMBER: _ClassVar[int]
    ANONYMISED_FIELD_NUMBER: _ClassVar[int]
    FIRST_CONTACT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BASIS_RECORDED_FIELD_NUMBER: _ClassVar[int]
    HUMAN_CASE_OPEN_FIELD_NUMBER: _ClassVar[int]
    OPT_OUT_CONFIRMATION_SENT_FIELD_NUMBER: _ClassVar[int]
    LAST_INBOUND_AT_FIELD_NUMBER: _ClassVar[int]
    phone: str
    name: str
    email: str
    cpf: str
    opted_out: bool
    blocked: bool
    human_owned: bool
    anonymised: bool
    first_contact: bool
    legal_basis_recorded: bool
    human_case_open: bool
    opt_out_confirmation_sent: bool
    last_inbound_at: _timestamp_pb2.Timestamp
    def __init__(self, phone: _Optional[str] = ..., name: _Optional[str] = ..., email: _Optional[str] = ..., cpf: _Optional[str] = ..., opted_out: _Optional[bool] = ..., blocked: _Optional[bool] = ..., human_owned: _Optional[bool] = ..., anonymised: _Optional[bool] = ..., first_contact: _Optional[bool] = ..., legal_basis_recorded: _Optional[bool] = ..., human_case_open: _Optional[bool] = ..., opt_out_confirmation_sent: _Optional[bool] = ..., last_inbound_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ChannelFacts(_message.Message):
    __slots__ = ("name", "has_service_window", "max_text_chars", "sender")
    NAME_FIELD_NUMBER: _ClassVar[int]
    HAS_SERVICE_WINDOW_FIELD_NUMBER: _ClassVar[int]
    MAX_TEXT_CHARS_FIELD_NUMBER: _ClassVar[int]
    SENDER_FIELD_NUMBER: _ClassVar[int]
    name: str
    has_service_window: bool
    max_text_chars: int
    sender: str
    def __init__(self, name: _Optional[str] = ..., has_service_window: _Optional[bool] = ..., max_text_chars: _Optional[int] = ..., sender: _Optional[str] = ...) -> None: ...

class OrganizationFacts(_message.Message):
    __slots__ = ("time_zone", "public_contacts", "authorised_commercial_facts")
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_CONTACTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORISED_COMMERCIAL_FACTS_FIELD_NUMBER: _ClassVar[int]
    time_zone: str
    public_contacts: _containers.RepeatedCompositeFieldContainer[PublicContact]
    authorised_commercial_facts: _containers.RepeatedCompositeFieldContainer[CommercialFact]
    def __init__(self, time_zone: _Optional[str] = ..., public_contacts: _Optional[_Iterable[_Union[PublicContact, _Mapping]]] = ..., authorised_commercial_facts: _Optional[_Iterable[_Union[CommercialFact, _Mapping]]] = ...) -> None: ...

class PublicContact(_message.Message):
    __slots__ = ("kind", "value")
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    kind: PublicContactKind
    value: str
    def __init__(self, kind: _Optional[_Union[PublicContactKind, str]] = ..., value: _Optional[str] = ...) -> None: ...

class CommercialFact(_message.Message):
    __slots__ = ("kind", "subject", "text", "amount_cents", "percent", "instalments")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_CENTS_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    INSTALMENTS_FIELD_NUMBER: _ClassVar[int]
    kind: CommercialFactKind
    subject: str
    text: str
    amount_cents: int
    percent: int
    instalments: int
    def __init__(self, kind: _Optional[_Union[CommercialFactKind, str]] = ..., subject: _Optional[str] = ..., text: _Optional[str] = ..., amount_cents: _Optional[int] = ..., percent: _Optional[int] = ..., instalments: _Optional[int] = ...) -> None: ...

class SendingHistory(_message.Message):
    __slots__ = ("from_sender", "to_contact", "sent_today_from_sender", "sender_active_since")
    FROM_SENDER_FIELD_NUMBER: _ClassVar[int]
    TO_CONTACT_FIELD_NUMBER: _ClassVar[int]
    SENT_TODAY_FROM_SENDER_FIELD_NUMBER: _ClassVar[int]
    SENDER_ACTIVE_SINCE_FIELD_NUMBER: _ClassVar[int]
    from_sender: _containers.RepeatedCompositeFieldContainer[SentMessage]
    to_contact: _containers.RepeatedCompositeFieldContainer[SentMessage]
    sent_today_from_sender: int
    sender_active_since: _timestamp_pb2.Timestamp
    def __init__(self, from_sender: _Optional[_Iterable[_Union[SentMessage, _Mapping]]] = ..., to_contact: _Optional[_Iterable[_Union[SentMessage, _Mapping]]] = ..., sent_today_from_sender: _Optional[int] = ..., sender_active_since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SentMessage(_message.Message):
    __slots__ = ("text", "sent_at")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SENT_AT_FIELD_NUMBER: _ClassVar[int]
    text: str
    sent_at: _timestamp_pb2.Timestamp
    def __init__(self, text: _Optional[str] = ..., sent_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Evidence(_message.Message):
    __slots__ = ("evidencias_agendamento", "tool_results", "agenda_readable", "agenda_consulted")
    EVIDENCIAS_AGENDAMENTO_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULTS_FIELD_NUMBER: _ClassVar[int]
    AGENDA_READABLE_FIELD_NUMBER: _ClassVar[int]
    AGENDA_CONSULTED_FIELD_NUMBER: _ClassVar[int]
    evidencias_agendamento: _containers.RepeatedCompositeFieldContainer[ConfirmedBooking]
    tool_results: _containers.RepeatedCompositeFieldContainer[ToolEvidence]
    agenda_readable: bool
    agenda_consulted: bool
    def __init__(self, evidencias_agendamento: _Optional[_Iterable[_Union[ConfirmedBooking, _Mapping]]] = ..., tool_results: _Optional[_Iterable[_Union[ToolEvidence, _Mapping]]] = ..., agenda_readable: _Optional[bool] = ..., agenda_consulted: _Optional[bool] = ...) -> None: ...

class ConfirmedBooking(_message.Message):
    __slots__ = ("starts_at", "ends_at", "time_zone", "local_label", "service", "professional", "place")
    STARTS_AT_FIELD_NUMBER: _ClassVar[int]
    ENDS_AT_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    LOCAL_LABEL_FIELD_NUMBER: _ClassVar[int]
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    PROFESSIONAL_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    starts_at: _timestamp_pb2.Timestamp
    ends_at: _timestamp_pb2.Timestamp
    time_zone: str
    local_label: str
    service: str
    professional: str
    place: str
    def __init__(self, starts_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., ends_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., time_zone: _Optional[str] = ..., local_label: _Optional[str] = ..., service: _Optional[str] = ..., professional: _Optional[str] = ..., place: _Optional[str] = ...) -> None: ...

class ToolEvidence(_message.Message):
    __slots__ = ("tool_name", "result_text")
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    RESULT_TEXT_FIELD_NUMBER: _ClassVar[int]
    tool_name: str
    result_text: str
    def __init__(self, tool_name: _Optional[str] = ..., result_text: _Optional[str] = ...) -> None: ...

class ScreenInboundRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "turn_id", "texts")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    turn_id: str
    texts: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., texts: _Optional[_Iterable[str]] = ...) -> None: ...

class ScreenInboundResponse(_message.Message):
    __slots__ = ("verdict", "level", "matched_rule", "matched_text_index", "classifier")
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MATCHED_RULE_FIELD_NUMBER: _ClassVar[int]
    MATCHED_TEXT_INDEX_FIELD_NUMBER: _ClassVar[int]
    CLASSIFIER_FIELD_NUMBER: _ClassVar[int]
    verdict: ScreenVerdict
    level: ThreatLevel
    matched_rule: str
    matched_text_index: int
    classifier: ClassifierResult
    def __init__(self, verdict: _Optional[_Union[ScreenVerdict, str]] = ..., level: _Optional[_Union[ThreatLevel, str]] = ..., matched_rule: _Optional[str] = ..., matched_text_index: _Optional[int] = ..., classifier: _Optional[_Union[ClassifierResult, _Mapping]] = ...) -> None: ...

class ClassifierResult(_message.Message):
    __slots__ = ("ran", "level", "failed")
    RAN_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    ran: bool
    level: ThreatLevel
    failed: bool
    def __init__(self, ran: _Optional[bool] = ..., level: _Optional[_Union[ThreatLevel, str]] = ..., failed: _Optional[bool] = ...) -> None: ...

class GetGateChainRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class GetGateChainResponse(_message.Message):
    __slots__ = ("chain_version", "gates", "inbound")
    CHAIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    GATES_FIELD_NUMBER: _ClassVar[int]
    INBOUND_FIELD_NUMBER: _ClassVar[int]
    chain_version: int
    gates: _containers.RepeatedCompositeFieldContainer[GateInfo]
    inbound: InboundScreeningInfo
    def __init__(self, chain_version: _Optional[int] = ..., gates: _Optional[_Iterable[_Union[GateInfo, _Mapping]]] = ..., inbound: _Optional[_Union[InboundScreeningInfo, _Mapping]] = ...) -> None: ...

class GateInfo(_message.Message):
    __slots__ = ("gate", "position", "name", "label_pt", "explanation_pt", "switchable", "enabled", "uses_model")
    GATE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    LABEL_PT_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_PT_FIELD_NUMBER: _ClassVar[int]
    SWITCHABLE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    USES_MODEL_FIELD_NUMBER: _ClassVar[int]
    gate: Gate
    position: int
    name: str
    label_pt: str
    explanation_pt: str
    switchable: bool
    enabled: bool
    uses_model: bool
    def __init__(self, gate: _Optional[_Union[Gate, str]] = ..., position: _Optional[int] = ..., name: _Optional[str] = ..., label_pt: _Optional[str] = ..., explanation_pt: _Optional[str] = ..., switchable: _Optional[bool] = ..., enabled: _Optional[bool] = ..., uses_model: _Optional[bool] = ...) -> None: ...

class InboundScreeningInfo(_message.Message):
    __slots__ = ("heuristic_enabled", "classifier_enabled")
    HEURISTIC_ENABLED_FIELD_NUMBER: _ClassVar[int]
    CLASSIFIER_ENABLED_FIELD_NUMBER: _ClassVar[int]
    heuristic_enabled: bool
    classifier_enabled: bool
    def __init__(self, heuristic_enabled: _Optional[bool] = ..., classifier_enabled: _Optional[bool] = ...) -> None: ...
