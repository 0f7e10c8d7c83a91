import datetime

from balcao.crm.v1 import crm_resources_pb2 as _crm_resources_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetOrganizationRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class GetOrganizationResponse(_message.Message):
    __slots__ = ("organization",)
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    organization: _crm_resources_pb2.Organization
    def __init__(self, organization: _Optional[_Union[_crm_resources_pb2.Organization, _Mapping]] = ...) -> None: ...

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
    organizations: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.Organization]
    next_page_token: str
    def __init__(self, organizations: _Optional[_Iterable[_Union[_crm_resources_pb2.Organization, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetContactRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ...) -> None: ...

class GetContactResponse(_message.Message):
    __slots__ = ("contact",)
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    contact: _crm_resources_pb2.Contact
    def __init__(self, contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ...) -> None: ...

class FindContactByPhoneRequest(_message.Message):
    __slots__ = ("organization_id", "phone", "default_region")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_REGION_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    phone: str
    default_region: str
    def __init__(self, organization_id: _Optional[str] = ..., phone: _Optional[str] = ..., default_region: _Optional[str] = ...) -> None: ...

class FindContactByPhoneResponse(_message.Message):
    __slots__ = ("found", "contact", "phone_e164")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    PHONE_E164_FIELD_NUMBER: _ClassVar[int]
    found: bool
    contact: _crm_resources_pb2.Contact
    phone_e164: str
    def __init__(self, found: _Optional[bool] = ..., contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ..., phone_e164: _Optional[str] = ...) -> None: ...

class ListContactsRequest(_message.Message):
    __slots__ = ("organization_id", "query", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    query: str
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., query: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListContactsResponse(_message.Message):
    __slots__ = ("contacts", "next_page_token")
    CONTACTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    contacts: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.Contact]
    next_page_token: str
    def __init__(self, contacts: _Optional[_Iterable[_Union[_crm_resources_pb2.Contact, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetLeadStateRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ...) -> None: ...

class GetLeadStateResponse(_message.Message):
    __slots__ = ("found", "lead_state")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    LEAD_STATE_FIELD_NUMBER: _ClassVar[int]
    found: bool
    lead_state: _crm_resources_pb2.LeadState
    def __init__(self, found: _Optional[bool] = ..., lead_state: _Optional[_Union[_crm_resources_pb2.LeadState, _Mapping]] = ...) -> None: ...

class LatestCheckpointRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ...) -> None: ...

class LatestCheckpointResponse(_message.Message):
    __slots__ = ("found", "checkpoint")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    found: bool
    checkpoint: _crm_resources_pb2.LeadCheckpoint
    def __init__(self, found: _Optional[bool] = ..., checkpoint: _Optional[_Union[_crm_resources_pb2.LeadCheckpoint, _Mapping]] = ...) -> None: ...

class GetCheckpointRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "turn_id", "seq")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    turn_id: str
    seq: int
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., seq: _Optional[int] = ...) -> None: ...

class GetCheckpointResponse(_message.Message):
    __slots__ = ("checkpoint",)
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    checkpoint: _crm_resources_pb2.LeadCheckpoint
    def __init__(self, checkpoint: _Optional[_Union[_crm_resources_pb2.LeadCheckpoint, _Mapping]] = ...) -> None: ...

class ListCheckpointsRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListCheckpointsResponse(_message.Message):
    __slots__ = ("checkpoints", "next_page_token")
    CHECKPOINTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    checkpoints: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.LeadCheckpoint]
    next_page_token: str
    def __init__(self, checkpoints: _Optional[_Iterable[_Union[_crm_resources_pb2.LeadCheckpoint, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetRollingSummaryStatsRequest(_message.Message):
    __slots__ = ("organization_id", "threshold_chars")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_CHARS_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    threshold_chars: int
    def __init__(self, organization_id: _Optional[str] = ..., threshold_chars: _Optional[int] = ...) -> None: ...

class GetRollingSummaryStatsResponse(_message.Message):
    __slots__ = ("contacts", "p95_chars", "max_chars", "threshold_chars", "triggered")
    CONTACTS_FIELD_NUMBER: _ClassVar[int]
    P95_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_CHARS_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_CHARS_FIELD_NUMBER: _ClassVar[int]
    TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    contacts: int
    p95_chars: float
    max_chars: int
    threshold_chars: int
    triggered: bool
    def __init__(self, contacts: _Optional[int] = ..., p95_chars: _Optional[float] = ..., max_chars: _Optional[int] = ..., threshold_chars: _Optional[int] = ..., triggered: _Optional[bool] = ...) -> None: ...

class ListLeadNotesRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListLeadNotesResponse(_message.Message):
    __slots__ = ("notes", "next_page_token")
    NOTES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    notes: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.LeadNote]
    next_page_token: str
    def __init__(self, notes: _Optional[_Iterable[_Union[_crm_resources_pb2.LeadNote, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetLeadNoteRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "note_id", "key")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    NOTE_ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    note_id: str
    key: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., note_id: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class GetLeadNoteResponse(_message.Message):
    __slots__ = ("found", "note")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    found: bool
    note: _crm_resources_pb2.LeadNote
    def __init__(self, found: _Optional[bool] = ..., note: _Optional[_Union[_crm_resources_pb2.LeadNote, _Mapping]] = ...) -> None: ...

class ListActivitiesRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "kinds", "turn_id", "since", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    kinds: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.ActivityKind]
    turn_id: str
    since: _timestamp_pb2.Timestamp
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., kinds: _Optional[_Iterable[_Union[_crm_resources_pb2.ActivityKind, str]]] = ..., turn_id: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListActivitiesResponse(_message.Message):
    __slots__ = ("activities", "next_page_token")
    ACTIVITIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    activities: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.LeadActivity]
    next_page_token: str
    def __init__(self, activities: _Optional[_Iterable[_Union[_crm_resources_pb2.LeadActivity, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListHumanCasesRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "statuses", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    statuses: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.HumanCaseStatus]
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[_crm_resources_pb2.HumanCaseStatus, str]]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListHumanCasesResponse(_message.Message):
    __slots__ = ("cases", "next_page_token")
    CASES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    cases: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.HumanCase]
    next_page_token: str
    def __init__(self, cases: _Optional[_Iterable[_Union[_crm_resources_pb2.HumanCase, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetHumanCaseRequest(_message.Message):
    __slots__ = ("organization_id", "case_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    case_id: str
    def __init__(self, organization_id: _Optional[str] = ..., case_id: _Optional[str] = ...) -> None: ...

class GetHumanCaseResponse(_message.Message):
    __slots__ = ("human_case",)
    HUMAN_CASE_FIELD_NUMBER: _ClassVar[int]
    human_case: _crm_resources_pb2.HumanCase
    def __init__(self, human_case: _Optional[_Union[_crm_resources_pb2.HumanCase, _Mapping]] = ...) -> None: ...

class ListFollowUpsRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "statuses", "due_before", "callbacks_only", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    DUE_BEFORE_FIELD_NUMBER: _ClassVar[int]
    CALLBACKS_ONLY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    statuses: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.FollowUpStatus]
    due_before: _timestamp_pb2.Timestamp
    callbacks_only: bool
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[_crm_resources_pb2.FollowUpStatus, str]]] = ..., due_before: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., callbacks_only: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListFollowUpsResponse(_message.Message):
    __slots__ = ("follow_ups", "next_page_token")
    FOLLOW_UPS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    follow_ups: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.FollowUp]
    next_page_token: str
    def __init__(self, follow_ups: _Optional[_Iterable[_Union[_crm_resources_pb2.FollowUp, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetFollowUpRequest(_message.Message):
    __slots__ = ("organization_id", "follow_up_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_UP_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    follow_up_id: str
    def __init__(self, organization_id: _Optional[str] = ..., follow_up_id: _Optional[str] = ...) -> None: ...

class GetFollowUpResponse(_message.Message):
    __slots__ = ("follow_up",)
    FOLLOW_UP_FIELD_NUMBER: _ClassVar[int]
    follow_up: _crm_resources_pb2.FollowUp
    def __init__(self, follow_up: _Optional[_Union[_crm_resources_pb2.FollowUp, _Mapping]] = ...) -> None: ...

class ListObligationsRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "turn_id", "statuses", "due_before", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    DUE_BEFORE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    turn_id: str
    statuses: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.ObligationStatus]
    due_before: _timestamp_pb2.Timestamp
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[_crm_resources_pb2.ObligationStatus, str]]] = ..., due_before: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListObligationsResponse(_message.Message):
    __slots__ = ("obligations", "next_page_token")
    OBLIGATIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    obligations: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.Obligation]
    next_page_token: str
    def __init__(self, obligations: _Optional[_Iterable[_Union[_crm_resources_pb2.Obligation, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetObligationStatsRequest(_message.Message):
    __slots__ = ("organization_id", "since")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    since: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetObligationStatsResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _crm_resources_pb2.ObligationStats
    def __init__(self, stats: _Optional[_Union[_crm_resources_pb2.ObligationStats, _Mapping]] = ...) -> None: ...

class ListCentralItemsRequest(_message.Message):
    __slots__ = ("organization_id", "statuses", "severities", "kinds", "contact_id", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    SEVERITIES_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    statuses: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.CentralItemStatus]
    severities: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.CentralItemSeverity]
    kinds: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.CentralItemKind]
    contact_id: str
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[_crm_resources_pb2.CentralItemStatus, str]]] = ..., severities: _Optional[_Iterable[_Union[_crm_resources_pb2.CentralItemSeverity, str]]] = ..., kinds: _Optional[_Iterable[_Union[_crm_resources_pb2.CentralItemKind, str]]] = ..., contact_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListCentralItemsResponse(_message.Message):
    __slots__ = ("items", "next_page_token")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.CentralItem]
    next_page_token: str
    def __init__(self, items: _Optional[_Iterable[_Union[_crm_resources_pb2.CentralItem, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetCentralItemRequest(_message.Message):
    __slots__ = ("organization_id", "central_item_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CENTRAL_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    central_item_id: str
    def __init__(self, organization_id: _Optional[str] = ..., central_item_id: _Optional[str] = ...) -> None: ...

class GetCentralItemResponse(_message.Message):
    __slots__ = ("item",)
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item: _crm_resources_pb2.CentralItem
    def __init__(self, item: _Optional[_Union[_crm_resources_pb2.CentralItem, _Mapping]] = ...) -> None: ...

class SearchKnowledgeRequest(_message.Message):
    __slots__ = ("organization_id", "query", "unit_id", "limit")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    query: str
    unit_id: str
    limit: int
    def __init__(self, organization_id: _Optional[str] = ..., query: _Optional[str] = ..., unit_id: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class SearchKnowledgeResponse(_message.Message):
    __slots__ = ("hits",)
    HITS_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.KnowledgeHit]
    def __init__(self, hits: _Optional[_Iterable[_Union[_crm_resources_pb2.KnowledgeHit, _Mapping]]] = ...) -> None: ...

class ListKnowledgeArticlesRequest(_message.Message):
    __slots__ = ("organization_id", "include_unpublished", "kinds", "page_size", "page_token", "unit_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_UNPUBLISHED_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    include_unpublished: bool
    kinds: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.KnowledgeKind]
    page_size: int
    page_token: str
    unit_id: str
    def __init__(self, organization_id: _Optional[str] = ..., include_unpublished: _Optional[bool] = ..., kinds: _Optional[_Iterable[_Union[_crm_resources_pb2.KnowledgeKind, str]]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., unit_id: _Optional[str] = ...) -> None: ...

class ListKnowledgeArticlesResponse(_message.Message):
    __slots__ = ("articles", "next_page_token")
    ARTICLES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    articles: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.KnowledgeArticle]
    next_page_token: str
    def __init__(self, articles: _Optional[_Iterable[_Union[_crm_resources_pb2.KnowledgeArticle, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetKnowledgeArticleRequest(_message.Message):
    __slots__ = ("organization_id", "article_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ARTICLE_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    article_id: str
    def __init__(self, organization_id: _Optional[str] = ..., article_id: _Optional[str] = ...) -> None: ...

class GetKnowledgeArticleResponse(_message.Message):
    __slots__ = ("article",)
    ARTICLE_FIELD_NUMBER: _ClassVar[int]
    article: _crm_resources_pb2.KnowledgeArticle
    def __init__(self, article: _Optional[_Union[_crm_resources_pb2.KnowledgeArticle, _Mapping]] = ...) -> None: ...

class GetSkillReferenceRequest(_message.Message):
    __slots__ = ("organization_id", "unit_id", "title")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    unit_id: str
    title: str
    def __init__(self, organization_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., title: _Optional[str] = ...) -> None: ...

class GetSkillReferenceResponse(_message.Message):
    __slots__ = ("found", "reference")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    REFERENCE_FIELD_NUMBER: _ClassVar[int]
    found: bool
    reference: _crm_resources_pb2.KnowledgeArticle
    def __init__(self, found: _Optional[bool] = ..., reference: _Optional[_Union[_crm_resources_pb2.KnowledgeArticle, _Mapping]] = ...) -> None: ...

class GetTurnExecutionRequest(_message.Message):
    __slots__ = ("organization_id", "turn_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    turn_id: str
    def __init__(self, organization_id: _Optional[str] = ..., turn_id: _Optional[str] = ...) -> None: ...

class GetTurnExecutionResponse(_message.Message):
    __slots__ = ("execution",)
    EXECUTION_FIELD_NUMBER: _ClassVar[int]
    execution: _crm_resources_pb2.TurnExecution
    def __init__(self, execution: _Optional[_Union[_crm_resources_pb2.TurnExecution, _Mapping]] = ...) -> None: ...

class ListTurnExecutionsRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "outcomes", "include_tests", "since", "until", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_TESTS_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    outcomes: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.TurnOutcome]
    include_tests: bool
    since: _timestamp_pb2.Timestamp
    until: _timestamp_pb2.Timestamp
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., outcomes: _Optional[_Iterable[_Union[_crm_resources_pb2.TurnOutcome, str]]] = ..., include_tests: _Optional[bool] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTurnExecutionsResponse(_message.Message):
    __slots__ = ("executions", "next_page_token")
    EXECUTIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    executions: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.TurnExecutionSummary]
    next_page_token: str
    def __init__(self, executions: _Optional[_Iterable[_Union[_crm_resources_pb2.TurnExecutionSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetTurnStatsRequest(_message.Message):
    __slots__ = ("organization_id", "since")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    since: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetTurnStatsResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _crm_resources_pb2.TurnStats
    def __init__(self, stats: _Optional[_Union[_crm_resources_pb2.TurnStats, _Mapping]] = ...) -> None: ...

class GetAgentConfigurationRequest(_message.Message):
    __slots__ = ("organization_id", "which", "version_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    WHICH_FIELD_NUMBER: _ClassVar[int]
    VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    which: _crm_resources_pb2.AgentVersionStatus
    version_id: str
    def __init__(self, organization_id: _Optional[str] = ..., which: _Optional[_Union[_crm_resources_pb2.AgentVersionStatus, str]] = ..., version_id: _Optional[str] = ...) -> None: ...

class GetAgentConfigurationResponse(_message.Message):
    __slots__ = ("found", "version")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    found: bool
    version: _crm_resources_pb2.AgentVersion
    def __init__(self, found: _Optional[bool] = ..., version: _Optional[_Union[_crm_resources_pb2.AgentVersion, _Mapping]] = ...) -> None: ...

class ListAgentVersionsRequest(_message.Message):
    __slots__ = ("organization_id", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListAgentVersionsResponse(_message.Message):
    __slots__ = ("versions", "next_page_token")
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    versions: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.AgentVersion]
    next_page_token: str
    def __init__(self, versions: _Optional[_Iterable[_Union[_crm_resources_pb2.AgentVersion, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class BatchGetClosedTurnsRequest(_message.Message):
    __slots__ = ("turns",)
    TURNS_FIELD_NUMBER: _ClassVar[int]
    turns: _containers.RepeatedCompositeFieldContainer[ClosedTurnRef]
    def __init__(self, turns: _Optional[_Iterable[_Union[ClosedTurnRef, _Mapping]]] = ...) -> None: ...

class ClosedTurnRef(_message.Message):
    __slots__ = ("organization_id", "contact_id", "turn_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    turn_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ...) -> None: ...

class BatchGetClosedTurnsResponse(_message.Message):
    __slots__ = ("turns",)
    TURNS_FIELD_NUMBER: _ClassVar[int]
    turns: _containers.RepeatedCompositeFieldContainer[ClosedTurn]
    def __init__(self, turns: _Optional[_Iterable[_Union[ClosedTurn, _Mapping]]] = ...) -> None: ...

class ClosedTurn(_message.Message):
    __slots__ = ("ref", "contact", "checkpoint", "obligations")
    REF_FIELD_NUMBER: _ClassVar[int]
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    OBLIGATIONS_FIELD_NUMBER: _ClassVar[int]
    ref: ClosedTurnRef
    contact: _crm_resources_pb2.Contact
    checkpoint: _crm_resources_pb2.LeadCheckpoint
    obligations: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.Obligation]
    def __init__(self, ref: _Optional[_Union[ClosedTurnRef, _Mapping]] = ..., contact: _Optional[_Union[_crm_resources_pb2.Contact, _Mapping]] = ..., checkpoint: _Optional[_Union[_crm_resources_pb2.LeadCheckpoint, _Mapping]] = ..., obligations: _Optional[_Iterable[_Union[_crm_resources_pb2.Obligation, _Mapping]]] = ...) -> None: ...

class GetOperadorStatsRequest(_message.Message):
    __slots__ = ("organization_id", "since")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    since: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetOperadorStatsResponse(_message.Message):
    __slots__ = ("stats",)
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: OperadorStats
    def __init__(self, stats: _Optional[_Union[OperadorStats, _Mapping]] = ...) -> None: ...

class OperadorStats(_message.Message):
    __slots__ = ("turns_processed", "actions_taken", "turns_nothing_to_do", "turns_could_not_act", "turns_human_owned", "turns_with_model", "turns_basic", "obligations", "events_dead")
    TURNS_PROCESSED_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    TURNS_NOTHING_TO_DO_FIELD_NUMBER: _ClassVar[int]
    TURNS_COULD_NOT_ACT_FIELD_NUMBER: _ClassVar[int]
    TURNS_HUMAN_OWNED_FIELD_NUMBER: _ClassVar[int]
    TURNS_WITH_MODEL_FIELD_NUMBER: _ClassVar[int]
    TURNS_BASIC_FIELD_NUMBER: _ClassVar[int]
    OBLIGATIONS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_DEAD_FIELD_NUMBER: _ClassVar[int]
    turns_processed: int
    actions_taken: int
    turns_nothing_to_do: int
    turns_could_not_act: int
    turns_human_owned: int
    turns_with_model: int
    turns_basic: int
    obligations: _crm_resources_pb2.ObligationStats
    events_dead: int
    def __init__(self, turns_processed: _Optional[int] = ..., actions_taken: _Optional[int] = ..., turns_nothing_to_do: _Optional[int] = ..., turns_could_not_act: _Optional[int] = ..., turns_human_owned: _Optional[int] = ..., turns_with_model: _Optional[int] = ..., turns_basic: _Optional[int] = ..., obligations: _Optional[_Union[_crm_resources_pb2.ObligationStats, _Mapping]] = ..., events_dead: _Optional[int] = ...) -> None: ...

class GetLeadSnapshotRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "activities_page_size", "knowledge_articles")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    ACTIVITIES_PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_ARTICLES_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    activities_page_size: int
    knowledge_articles: LeadSnapshotKnowledge
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., activities_page_size: _Optional[int] = ..., knowledge_articles: _Optional[_Union[LeadSnapshotKnowledge, _Mapping]] = ...) -> None: ...

class LeadSnapshotKnowledge(_message.Message):
    __slots__ = ("kinds", "unit_id")
    KINDS_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    kinds: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.KnowledgeKind]
    unit_id: str
    def __init__(self, kinds: _Optional[_Iterable[_Union[_crm_resources_pb2.KnowledgeKind, str]]] = ..., unit_id: _Optional[str] = ...) -> None: ...

class GetLeadSnapshotResponse(_message.Message):
    __slots__ = ("contact", "lead_state", "latest_checkpoint", "human_cases", "pending_follow_ups", "activities", "knowledge_articles")
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    LEAD_STATE_FIELD_NUMBER: _ClassVar[int]
    LATEST_CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    HUMAN_CASES_FIELD_NUMBER: _ClassVar[int]
    PENDING_FOLLOW_UPS_FIELD_NUMBER: _ClassVar[int]
    ACTIVITIES_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_ARTICLES_FIELD_NUMBER: _ClassVar[int]
    contact: GetContactResponse
    lead_state: GetLeadStateResponse
    latest_checkpoint: LatestCheckpointResponse
    human_cases: ListHumanCasesResponse
    pending_follow_ups: ListFollowUpsResponse
    activities: ListActivitiesResponse
    knowledge_articles: ListKnowledgeArticlesResponse
    def __init__(self, contact: _Optional[_Union[GetContactResponse, _Mapping]] = ..., lead_state: _Optional[_Union[GetLeadStateResponse, _Mapping]] = ..., latest_checkpoint: _Optional[_Union[LatestCheckpointResponse, _Mapping]] = ..., human_cases: _Optional[_Union[ListHumanCasesResponse, _Mapping]] = ..., pending_follow_ups: _Optional[_Union[ListFollowUpsResponse, _Mapping]] = ..., activities: _Optional[_Union[ListActivitiesResponse, _Mapping]] = ..., knowledge_articles: _Optional[_Union[ListKnowledgeArticlesResponse, _Mapping]] = ...) -> None: ...
