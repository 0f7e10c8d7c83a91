import datetime

from balcao.crm.v1 import crm_resources_pb2 as _crm_resources_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LeaseOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEASE_OUTCOME_UNSPECIFIED: _ClassVar[LeaseOutcome]
    LEASE_OUTCOME_COMPLETED: _ClassVar[LeaseOutcome]
    LEASE_OUTCOME_ALREADY_COMPLETED: _ClassVar[LeaseOutcome]
    LEASE_OUTCOME_RETRY_SCHEDULED: _ClassVar[LeaseOutcome]
    LEASE_OUTCOME_DEAD: _ClassVar[LeaseOutcome]
    LEASE_OUTCOME_EXTENDED: _ClassVar[LeaseOutcome]
    LEASE_OUTCOME_LEASE_LOST: _ClassVar[LeaseOutcome]

class WakeReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WAKE_REASON_UNSPECIFIED: _ClassVar[WakeReason]
    WAKE_REASON_INITIAL: _ClassVar[WakeReason]
    WAKE_REASON_NOTIFY: _ClassVar[WakeReason]
    WAKE_REASON_POLL: _ClassVar[WakeReason]
LEASE_OUTCOME_UNSPECIFIED: LeaseOutcome
LEASE_OUTCOME_COMPLETED: LeaseOutcome
LEASE_OUTCOME_ALREADY_COMPLETED: LeaseOutcome
LEASE_OUTCOME_RETRY_SCHEDULED: LeaseOutcome
LEASE_OUTCOME_DEAD: LeaseOutcome
LEASE_OUTCOME_EXTENDED: LeaseOutcome
LEASE_OUTCOME_LEASE_LOST: LeaseOutcome
WAKE_REASON_UNSPECIFIED: WakeReason
WAKE_REASON_INITIAL: WakeReason
WAKE_REASON_NOTIFY: WakeReason
WAKE_REASON_POLL: WakeReason

class PublishRequest(_message.Message):
    __slots__ = ("organization_id", "kind", "contact_id", "payload", "dedup_key", "available_at", "max_attempts", "traceparent")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    DEDUP_KEY_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_AT_FIELD_NUMBER: _ClassVar[int]
    MAX_ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    TRACEPARENT_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    kind: str
    contact_id: str
    payload: _struct_pb2.Struct
    dedup_key: str
    available_at: _timestamp_pb2.Timestamp
    max_attempts: int
    traceparent: str
    def __init__(self, organization_id: _Optional[str] = ..., kind: _Optional[str] = ..., contact_id: _Optional[str] = ..., payload: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., dedup_key: _Optional[str] = ..., available_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., max_attempts: _Optional[int] = ..., traceparent: _Optional[str] = ...) -> None: ...

class PublishResponse(_message.Message):
    __slots__ = ("event", "deduplicated")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    DEDUPLICATED_FIELD_NUMBER: _ClassVar[int]
    event: _crm_resources_pb2.Event
    deduplicated: bool
    def __init__(self, event: _Optional[_Union[_crm_resources_pb2.Event, _Mapping]] = ..., deduplicated: _Optional[bool] = ...) -> None: ...

class ClaimRequest(_message.Message):
    __slots__ = ("organization_id", "consumer", "kinds", "batch_size", "lease_duration")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    BATCH_SIZE_FIELD_NUMBER: _ClassVar[int]
    LEASE_DURATION_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    consumer: str
    kinds: _containers.RepeatedScalarFieldContainer[str]
    batch_size: int
    lease_duration: _duration_pb2.Duration
    def __init__(self, organization_id: _Optional[str] = ..., consumer: _Optional[str] = ..., kinds: _Optional[_Iterable[str]] = ..., batch_size: _Optional[int] = ..., lease_duration: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class ClaimResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.Event]
    def __init__(self, events: _Optional[_Iterable[_Union[_crm_resources_pb2.Event, _Mapping]]] = ...) -> None: ...

class CompleteRequest(_message.Message):
    __slots__ = ("organization_id", "event_id", "lease_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    LEASE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    event_id: str
    lease_token: str
    def __init__(self, organization_id: _Optional[str] = ..., event_id: _Optional[str] = ..., lease_token: _Optional[str] = ...) -> None: ...

class CompleteResponse(_message.Message):
    __slots__ = ("outcome",)
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    outcome: LeaseOutcome
    def __init__(self, outcome: _Optional[_Union[LeaseOutcome, str]] = ...) -> None: ...

class CompleteBatchRequest(_message.Message):
    __slots__ = ("completions",)
    COMPLETIONS_FIELD_NUMBER: _ClassVar[int]
    completions: _containers.RepeatedCompositeFieldContainer[CompleteRequest]
    def __init__(self, completions: _Optional[_Iterable[_Union[CompleteRequest, _Mapping]]] = ...) -> None: ...

class CompleteBatchResponse(_message.Message):
    __slots__ = ("outcomes",)
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    outcomes: _containers.RepeatedScalarFieldContainer[LeaseOutcome]
    def __init__(self, outcomes: _Optional[_Iterable[_Union[LeaseOutcome, str]]] = ...) -> None: ...

class FailRequest(_message.Message):
    __slots__ = ("organization_id", "event_id", "lease_token", "error", "retryable", "retry_after")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    LEASE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    RETRYABLE_FIELD_NUMBER: _ClassVar[int]
    RETRY_AFTER_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    event_id: str
    lease_token: str
    error: str
    retryable: bool
    retry_after: _duration_pb2.Duration
    def __init__(self, organization_id: _Optional[str] = ..., event_id: _Optional[str] = ..., lease_token: _Optional[str] = ..., error: _Optional[str] = ..., retryable: _Optional[bool] = ..., retry_after: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class FailResponse(_message.Message):
    __slots__ = ("outcome", "next_attempt_at", "central_item_id")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_AT_FIELD_NUMBER: _ClassVar[int]
    CENTRAL_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    outcome: LeaseOutcome
    next_attempt_at: _timestamp_pb2.Timestamp
    central_item_id: str
    def __init__(self, outcome: _Optional[_Union[LeaseOutcome, str]] = ..., next_attempt_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., central_item_id: _Optional[str] = ...) -> None: ...

class ExtendLeaseRequest(_message.Message):
    __slots__ = ("organization_id", "event_id", "lease_token", "extension")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    LEASE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    event_id: str
    lease_token: str
    extension: _duration_pb2.Duration
    def __init__(self, organization_id: _Optional[str] = ..., event_id: _Optional[str] = ..., lease_token: _Optional[str] = ..., extension: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class ExtendLeaseResponse(_message.Message):
    __slots__ = ("outcome", "lease_expires_at")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    LEASE_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    outcome: LeaseOutcome
    lease_expires_at: _timestamp_pb2.Timestamp
    def __init__(self, outcome: _Optional[_Union[LeaseOutcome, str]] = ..., lease_expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SubscribeRequest(_message.Message):
    __slots__ = ("organization_id", "consumer", "kinds", "poll_interval")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    POLL_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    consumer: str
    kinds: _containers.RepeatedScalarFieldContainer[str]
    poll_interval: _duration_pb2.Duration
    def __init__(self, organization_id: _Optional[str] = ..., consumer: _Optional[str] = ..., kinds: _Optional[_Iterable[str]] = ..., poll_interval: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class SubscribeResponse(_message.Message):
    __slots__ = ("reason", "kind", "organization_id", "sent_at")
    REASON_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SENT_AT_FIELD_NUMBER: _ClassVar[int]
    reason: WakeReason
    kind: str
    organization_id: str
    sent_at: _timestamp_pb2.Timestamp
    def __init__(self, reason: _Optional[_Union[WakeReason, str]] = ..., kind: _Optional[str] = ..., organization_id: _Optional[str] = ..., sent_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetEventRequest(_message.Message):
    __slots__ = ("organization_id", "event_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    event_id: str
    def __init__(self, organization_id: _Optional[str] = ..., event_id: _Optional[str] = ...) -> None: ...

class GetEventResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _crm_resources_pb2.Event
    def __init__(self, event: _Optional[_Union[_crm_resources_pb2.Event, _Mapping]] = ...) -> None: ...

class ListEventsRequest(_message.Message):
    __slots__ = ("organization_id", "statuses", "kinds", "contact_id", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    statuses: _containers.RepeatedScalarFieldContainer[_crm_resources_pb2.EventStatus]
    kinds: _containers.RepeatedScalarFieldContainer[str]
    contact_id: str
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[_crm_resources_pb2.EventStatus, str]]] = ..., kinds: _Optional[_Iterable[str]] = ..., contact_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListEventsResponse(_message.Message):
    __slots__ = ("events", "next_page_token")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_crm_resources_pb2.Event]
    next_page_token: str
    def __init__(self, events: _Optional[_Iterable[_Union[_crm_resources_pb2.Event, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RequeueEventRequest(_message.Message):
    __slots__ = ("organization_id", "event_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    event_id: str
    def __init__(self, organization_id: _Optional[str] = ..., event_id: _Optional[str] = ...) -> None: ...

class RequeueEventResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _crm_resources_pb2.Event
    def __init__(self, event: _Optional[_Union[_crm_resources_pb2.Event, _Mapping]] = ...) -> None: ...

class GetQueueStatsRequest(_message.Message):
    __slots__ = ("organization_id",)
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    def __init__(self, organization_id: _Optional[str] = ...) -> None: ...

class GetQueueStatsResponse(_message.Message):
    __slots__ = ("counts",)
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    counts: _containers.RepeatedCompositeFieldContainer[QueueCount]
    def __init__(self, counts: _Optional[_Iterable[_Union[QueueCount, _Mapping]]] = ...) -> None: ...

class QueueCount(_message.Message):
    __slots__ = ("kind", "status", "count", "oldest_created_at")
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    OLDEST_CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    status: _crm_resources_pb2.EventStatus
    count: int
    oldest_created_at: _timestamp_pb2.Timestamp
    def __init__(self, kind: _Optional[str] = ..., status: _Optional[_Union[_crm_resources_pb2.EventStatus, str]] = ..., count: _Optional[int] = ..., oldest_created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
