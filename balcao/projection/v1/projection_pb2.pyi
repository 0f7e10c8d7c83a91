import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AgendaKnowledge(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AGENDA_KNOWLEDGE_UNSPECIFIED: _ClassVar[AgendaKnowledge]
    AGENDA_KNOWLEDGE_KNOWN: _ClassVar[AgendaKnowledge]
    AGENDA_KNOWLEDGE_UNKNOWN: _ClassVar[AgendaKnowledge]

class PartOfDay(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PART_OF_DAY_UNSPECIFIED: _ClassVar[PartOfDay]
    PART_OF_DAY_MORNING: _ClassVar[PartOfDay]
    PART_OF_DAY_AFTERNOON: _ClassVar[PartOfDay]
    PART_OF_DAY_EVENING: _ClassVar[PartOfDay]
AGENDA_KNOWLEDGE_UNSPECIFIED: AgendaKnowledge
AGENDA_KNOWLEDGE_KNOWN: AgendaKnowledge
AGENDA_KNOWLEDGE_UNKNOWN: AgendaKnowledge
PART_OF_DAY_UNSPECIFIED: PartOfDay
PART_OF_DAY_MORNING: PartOfDay
PART_OF_DAY_AFTERNOON: PartOfDay
PART_OF_DAY_EVENING: PartOfDay

class GetTurnContextRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "unit_id", "agent_version_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    unit_id: str
    agent_version_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., agent_version_id: _Optional[str] = ...) -> None: ...

class GetTurnContextResponse(_message.Message):
    __slots__ = ("context",)
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    context: TurnContext
    def __init__(self, context: _Optional[_Union[TurnContext, _Mapping]] = ...) -> None: ...

class GetLeadContextRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ...) -> None: ...

class GetLeadContextResponse(_message.Message):
    __slots__ = ("lead",)
    LEAD_FIELD_NUMBER: _ClassVar[int]
    lead: LeadContext
    def __init__(self, lead: _Optional[_Union[LeadContext, _Mapping]] = ...) -> None: ...

class SearchKnowledgeRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "unit_id", "query", "max_results")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    MAX_RESULTS_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    unit_id: str
    query: str
    max_results: int
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., query: _Optional[str] = ..., max_results: _Optional[int] = ...) -> None: ...

class SearchKnowledgeResponse(_message.Message):
    __slots__ = ("hits", "notice", "consequence")
    HITS_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[KnowledgeHit]
    notice: str
    consequence: Consequence
    def __init__(self, hits: _Optional[_Iterable[_Union[KnowledgeHit, _Mapping]]] = ..., notice: _Optional[str] = ..., consequence: _Optional[_Union[Consequence, _Mapping]] = ...) -> None: ...

class GetLeadNoteRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "topic")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TOPIC_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    topic: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., topic: _Optional[str] = ...) -> None: ...

class GetLeadNoteResponse(_message.Message):
    __slots__ = ("notes", "more_exist", "notice", "consequence")
    NOTES_FIELD_NUMBER: _ClassVar[int]
    MORE_EXIST_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_FIELD_NUMBER: _ClassVar[int]
    notes: _containers.RepeatedCompositeFieldContainer[LeadNote]
    more_exist: bool
    notice: str
    consequence: Consequence
    def __init__(self, notes: _Optional[_Iterable[_Union[LeadNote, _Mapping]]] = ..., more_exist: _Optional[bool] = ..., notice: _Optional[str] = ..., consequence: _Optional[_Union[Consequence, _Mapping]] = ...) -> None: ...

class ReadSkillReferenceRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "unit_id", "title")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    unit_id: str
    title: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., title: _Optional[str] = ...) -> None: ...

class ReadSkillReferenceResponse(_message.Message):
    __slots__ = ("reference", "notice", "consequence")
    REFERENCE_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_FIELD_NUMBER: _ClassVar[int]
    reference: SkillReference
    notice: str
    consequence: Consequence
    def __init__(self, reference: _Optional[_Union[SkillReference, _Mapping]] = ..., notice: _Optional[str] = ..., consequence: _Optional[_Union[Consequence, _Mapping]] = ...) -> None: ...

class ListMyAppointmentsRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ...) -> None: ...

class ListMyAppointmentsResponse(_message.Message):
    __slots__ = ("appointments",)
    APPOINTMENTS_FIELD_NUMBER: _ClassVar[int]
    appointments: AppointmentsView
    def __init__(self, appointments: _Optional[_Union[AppointmentsView, _Mapping]] = ...) -> None: ...

class CheckAvailabilityRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "unit_id", "service", "professional", "from_date", "to_date", "part_of_day", "max_slots", "agent_version_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    PROFESSIONAL_FIELD_NUMBER: _ClassVar[int]
    FROM_DATE_FIELD_NUMBER: _ClassVar[int]
    TO_DATE_FIELD_NUMBER: _ClassVar[int]
    PART_OF_DAY_FIELD_NUMBER: _ClassVar[int]
    MAX_SLOTS_FIELD_NUMBER: _ClassVar[int]
    AGENT_VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    unit_id: str
    service: str
    professional: str
    from_date: str
    to_date: str
    part_of_day: PartOfDay
    max_slots: int
    agent_version_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., service: _Optional[str] = ..., professional: _Optional[str] = ..., from_date: _Optional[str] = ..., to_date: _Optional[str] = ..., part_of_day: _Optional[_Union[PartOfDay, str]] = ..., max_slots: _Optional[int] = ..., agent_version_id: _Optional[str] = ...) -> None: ...

class CheckAvailabilityResponse(_message.Message):
    __slots__ = ("slots", "handles_valid_until", "notice", "consequence")
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    HANDLES_VALID_UNTIL_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_FIELD_NUMBER: _ClassVar[int]
    slots: _containers.RepeatedCompositeFieldContainer[Slot]
    handles_valid_until: _timestamp_pb2.Timestamp
    notice: str
    consequence: Consequence
    def __init__(self, slots: _Optional[_Iterable[_Union[Slot, _Mapping]]] = ..., handles_valid_until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., notice: _Optional[str] = ..., consequence: _Optional[_Union[Consequence, _Mapping]] = ...) -> None: ...

class TurnContext(_message.Message):
    __slots__ = ("lead", "appointments", "unit", "business", "now_label", "now_iso")
    LEAD_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENTS_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    BUSINESS_FIELD_NUMBER: _ClassVar[int]
    NOW_LABEL_FIELD_NUMBER: _ClassVar[int]
    NOW_ISO_FIELD_NUMBER: _ClassVar[int]
    lead: LeadContext
    appointments: AppointmentsView
    unit: UnitView
    business: BusinessFacts
    now_label: str
    now_iso: str
    def __init__(self, lead: _Optional[_Union[LeadContext, _Mapping]] = ..., appointments: _Optional[_Union[AppointmentsView, _Mapping]] = ..., unit: _Optional[_Union[UnitView, _Mapping]] = ..., business: _Optional[_Union[BusinessFacts, _Mapping]] = ..., now_label: _Optional[str] = ..., now_iso: _Optional[str] = ...) -> None: ...

class LeadContext(_message.Message):
    __slots__ = ("contact", "memory", "stage", "open_cases", "pending_followups", "recent_activities")
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    OPEN_CASES_FIELD_NUMBER: _ClassVar[int]
    PENDING_FOLLOWUPS_FIELD_NUMBER: _ClassVar[int]
    RECENT_ACTIVITIES_FIELD_NUMBER: _ClassVar[int]
    contact: ContactView
    memory: LeadMemory
    stage: LeadStage
    open_cases: _containers.RepeatedCompositeFieldContainer[HumanCaseView]
    pending_followups: _containers.RepeatedCompositeFieldContainer[FollowupView]
    recent_activities: _containers.RepeatedCompositeFieldContainer[TimelineEntry]
    def __init__(self, contact: _Optional[_Union[ContactView, _Mapping]] = ..., memory: _Optional[_Union[LeadMemory, _Mapping]] = ..., stage: _Optional[_Union[LeadStage, _Mapping]] = ..., open_cases: _Optional[_Iterable[_Union[HumanCaseView, _Mapping]]] = ..., pending_followups: _Optional[_Iterable[_Union[FollowupView, _Mapping]]] = ..., recent_activities: _Optional[_Iterable[_Union[TimelineEntry, _Mapping]]] = ...) -> None: ...

class ContactView(_message.Message):
    __slots__ = ("name", "first_contact", "channel_label")
    NAME_FIELD_NUMBER: _ClassVar[int]
    FIRST_CONTACT_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_LABEL_FIELD_NUMBER: _ClassVar[int]
    name: str
    first_contact: bool
    channel_label: str
    def __init__(self, name: _Optional[str] = ..., first_contact: _Optional[bool] = ..., channel_label: _Optional[str] = ...) -> None: ...

class LeadMemory(_message.Message):
    __slots__ = ("rolling_summary", "commitments", "objections", "next_action", "written_label")
    ROLLING_SUMMARY_FIELD_NUMBER: _ClassVar[int]
    COMMITMENTS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_ACTION_FIELD_NUMBER: _ClassVar[int]
    WRITTEN_LABEL_FIELD_NUMBER: _ClassVar[int]
    rolling_summary: str
    commitments: _containers.RepeatedScalarFieldContainer[str]
    objections: _containers.RepeatedScalarFieldContainer[str]
    next_action: str
    written_label: str
    def __init__(self, rolling_summary: _Optional[str] = ..., commitments: _Optional[_Iterable[str]] = ..., objections: _Optional[_Iterable[str]] = ..., next_action: _Optional[str] = ..., written_label: _Optional[str] = ...) -> None: ...

class LeadStage(_message.Message):
    __slots__ = ("label", "generic")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    GENERIC_FIELD_NUMBER: _ClassVar[int]
    label: str
    generic: bool
    def __init__(self, label: _Optional[str] = ..., generic: _Optional[bool] = ...) -> None: ...

class HumanCaseView(_message.Message):
    __slots__ = ("subject", "status", "opened_label", "last_update")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OPENED_LABEL_FIELD_NUMBER: _ClassVar[int]
    LAST_UPDATE_FIELD_NUMBER: _ClassVar[int]
    subject: str
    status: str
    opened_label: str
    last_update: str
    def __init__(self, subject: _Optional[str] = ..., status: _Optional[str] = ..., opened_label: _Optional[str] = ..., last_update: _Optional[str] = ...) -> None: ...

class FollowupView(_message.Message):
    __slots__ = ("reason", "due_label", "kind")
    REASON_FIELD_NUMBER: _ClassVar[int]
    DUE_LABEL_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    reason: str
    due_label: str
    kind: str
    def __init__(self, reason: _Optional[str] = ..., due_label: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class TimelineEntry(_message.Message):
    __slots__ = ("when_label", "text")
    WHEN_LABEL_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    when_label: str
    text: str
    def __init__(self, when_label: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class AppointmentsView(_message.Message):
    __slots__ = ("appointments_known", "appointments", "more_exist", "notice")
    APPOINTMENTS_KNOWN_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENTS_FIELD_NUMBER: _ClassVar[int]
    MORE_EXIST_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    appointments_known: AgendaKnowledge
    appointments: _containers.RepeatedCompositeFieldContainer[Appointment]
    more_exist: bool
    notice: str
    def __init__(self, appointments_known: _Optional[_Union[AgendaKnowledge, str]] = ..., appointments: _Optional[_Iterable[_Union[Appointment, _Mapping]]] = ..., more_exist: _Optional[bool] = ..., notice: _Optional[str] = ...) -> None: ...

class Appointment(_message.Message):
    __slots__ = ("local_label", "starts_at_iso", "ends_at_iso", "service", "professional", "place", "status", "meet_status")
    LOCAL_LABEL_FIELD_NUMBER: _ClassVar[int]
    STARTS_AT_ISO_FIELD_NUMBER: _ClassVar[int]
    ENDS_AT_ISO_FIELD_NUMBER: _ClassVar[int]
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    PROFESSIONAL_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MEET_STATUS_FIELD_NUMBER: _ClassVar[int]
    local_label: str
    starts_at_iso: str
    ends_at_iso: str
    service: str
    professional: str
    place: str
    status: str
    meet_status: str
    def __init__(self, local_label: _Optional[str] = ..., starts_at_iso: _Optional[str] = ..., ends_at_iso: _Optional[str] = ..., service: _Optional[str] = ..., professional: _Optional[str] = ..., place: _Optional[str] = ..., status: _Optional[str] = ..., meet_status: _Optional[str] = ...) -> None: ...

class Slot(_message.Message):
    __slots__ = ("local_label", "starts_at_iso", "duration_label", "professional", "place", "handle")
    LOCAL_LABEL_FIELD_NUMBER: _ClassVar[int]
    STARTS_AT_ISO_FIELD_NUMBER: _ClassVar[int]
    DURATION_LABEL_FIELD_NUMBER: _ClassVar[int]
    PROFESSIONAL_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    local_label: str
    starts_at_iso: str
    duration_label: str
    professional: str
    place: str
    handle: str
    def __init__(self, local_label: _Optional[str] = ..., starts_at_iso: _Optional[str] = ..., duration_label: _Optional[str] = ..., professional: _Optional[str] = ..., place: _Optional[str] = ..., handle: _Optional[str] = ...) -> None: ...

class UnitView(_message.Message):
    __slots__ = ("name", "voice", "instructions", "skill_references")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VOICE_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    SKILL_REFERENCES_FIELD_NUMBER: _ClassVar[int]
    name: str
    voice: str
    instructions: str
    skill_references: _containers.RepeatedCompositeFieldContainer[SkillReferenceEntry]
    def __init__(self, name: _Optional[str] = ..., voice: _Optional[str] = ..., instructions: _Optional[str] = ..., skill_references: _Optional[_Iterable[_Union[SkillReferenceEntry, _Mapping]]] = ...) -> None: ...

class SkillReferenceEntry(_message.Message):
    __slots__ = ("title", "when_useful")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    WHEN_USEFUL_FIELD_NUMBER: _ClassVar[int]
    title: str
    when_useful: str
    def __init__(self, title: _Optional[str] = ..., when_useful: _Optional[str] = ...) -> None: ...

class SkillReference(_message.Message):
    __slots__ = ("title", "content")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    title: str
    content: str
    def __init__(self, title: _Optional[str] = ..., content: _Optional[str] = ...) -> None: ...

class BusinessFacts(_message.Message):
    __slots__ = ("organization_name", "opening_hours", "addresses", "public_contacts", "authorised_commercial_facts", "facts", "time_zone_label")
    ORGANIZATION_NAME_FIELD_NUMBER: _ClassVar[int]
    OPENING_HOURS_FIELD_NUMBER: _ClassVar[int]
    ADDRESSES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_CONTACTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORISED_COMMERCIAL_FACTS_FIELD_NUMBER: _ClassVar[int]
    FACTS_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_LABEL_FIELD_NUMBER: _ClassVar[int]
    organization_name: str
    opening_hours: str
    addresses: _containers.RepeatedScalarFieldContainer[str]
    public_contacts: _containers.RepeatedScalarFieldContainer[str]
    authorised_commercial_facts: _containers.RepeatedScalarFieldContainer[str]
    facts: _containers.RepeatedScalarFieldContainer[str]
    time_zone_label: str
    def __init__(self, organization_name: _Optional[str] = ..., opening_hours: _Optional[str] = ..., addresses: _Optional[_Iterable[str]] = ..., public_contacts: _Optional[_Iterable[str]] = ..., authorised_commercial_facts: _Optional[_Iterable[str]] = ..., facts: _Optional[_Iterable[str]] = ..., time_zone_label: _Optional[str] = ...) -> None: ...

class KnowledgeHit(_message.Message):
    __slots__ = ("title", "excerpt")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    EXCERPT_FIELD_NUMBER: _ClassVar[int]
    title: str
    excerpt: str
    def __init__(self, title: _Optional[str] = ..., excerpt: _Optional[str] = ...) -> None: ...

class LeadNote(_message.Message):
    __slots__ = ("written_label", "author", "text")
    WRITTEN_LABEL_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    written_label: str
    author: str
    text: str
    def __init__(self, written_label: _Optional[str] = ..., author: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class Consequence(_message.Message):
    __slots__ = ("text",)
    TEXT_FIELD_NUMBER: _ClassVar[int]
    text: str
    def __init__(self, text: _Optional[str] = ...) -> None: ...
