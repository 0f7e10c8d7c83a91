import datetime

from balcao.agenda.v1 import agenda_resources_pb2 as _agenda_resources_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BookRequest(_message.Message):
    __slots__ = ("organization_id", "idempotency_key", "contact_id", "resource_id", "service_id", "start", "duration_minutes", "time_zone", "confirm", "video_call", "notes", "source_turn_id", "booked_by")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    DURATION_MINUTES_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_FIELD_NUMBER: _ClassVar[int]
    VIDEO_CALL_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKED_BY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    idempotency_key: str
    contact_id: str
    resource_id: str
    service_id: str
    start: _agenda_resources_pb2.TimePoint
    duration_minutes: int
    time_zone: str
    confirm: bool
    video_call: bool
    notes: str
    source_turn_id: str
    booked_by: str
    def __init__(self, organization_id: _Optional[str] = ..., idempotency_key: _Optional[str] = ..., contact_id: _Optional[str] = ..., resource_id: _Optional[str] = ..., service_id: _Optional[str] = ..., start: _Optional[_Union[_agenda_resources_pb2.TimePoint, _Mapping]] = ..., duration_minutes: _Optional[int] = ..., time_zone: _Optional[str] = ..., confirm: _Optional[bool] = ..., video_call: _Optional[bool] = ..., notes: _Optional[str] = ..., source_turn_id: _Optional[str] = ..., booked_by: _Optional[str] = ...) -> None: ...

class BookResponse(_message.Message):
    __slots__ = ("appointment", "refusal", "replayed")
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    appointment: _agenda_resources_pb2.Appointment
    refusal: _agenda_resources_pb2.Refusal
    replayed: bool
    def __init__(self, appointment: _Optional[_Union[_agenda_resources_pb2.Appointment, _Mapping]] = ..., refusal: _Optional[_Union[_agenda_resources_pb2.Refusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class RescheduleRequest(_message.Message):
    __slots__ = ("organization_id", "idempotency_key", "appointment_id", "contact_id", "new_start", "duration_minutes", "resource_id", "time_zone", "confirm", "reason", "rescheduled_by", "source_turn_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    NEW_START_FIELD_NUMBER: _ClassVar[int]
    DURATION_MINUTES_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RESCHEDULED_BY_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    idempotency_key: str
    appointment_id: str
    contact_id: str
    new_start: _agenda_resources_pb2.TimePoint
    duration_minutes: int
    resource_id: str
    time_zone: str
    confirm: bool
    reason: str
    rescheduled_by: str
    source_turn_id: str
    def __init__(self, organization_id: _Optional[str] = ..., idempotency_key: _Optional[str] = ..., appointment_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., new_start: _Optional[_Union[_agenda_resources_pb2.TimePoint, _Mapping]] = ..., duration_minutes: _Optional[int] = ..., resource_id: _Optional[str] = ..., time_zone: _Optional[str] = ..., confirm: _Optional[bool] = ..., reason: _Optional[str] = ..., rescheduled_by: _Optional[str] = ..., source_turn_id: _Optional[str] = ...) -> None: ...

class RescheduleResponse(_message.Message):
    __slots__ = ("appointment", "refusal", "previous", "replayed")
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    appointment: _agenda_resources_pb2.Appointment
    refusal: _agenda_resources_pb2.Refusal
    previous: ExecutedInterval
    replayed: bool
    def __init__(self, appointment: _Optional[_Union[_agenda_resources_pb2.Appointment, _Mapping]] = ..., refusal: _Optional[_Union[_agenda_resources_pb2.Refusal, _Mapping]] = ..., previous: _Optional[_Union[ExecutedInterval, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class ExecutedInterval(_message.Message):
    __slots__ = ("start_time", "end_time", "labels")
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    labels: _agenda_resources_pb2.LocalTimeLabels
    def __init__(self, start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., labels: _Optional[_Union[_agenda_resources_pb2.LocalTimeLabels, _Mapping]] = ...) -> None: ...

class CancelRequest(_message.Message):
    __slots__ = ("organization_id", "idempotency_key", "appointment_id", "contact_id", "reason", "cancelled_by", "source_turn_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_BY_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    idempotency_key: str
    appointment_id: str
    contact_id: str
    reason: str
    cancelled_by: str
    source_turn_id: str
    def __init__(self, organization_id: _Optional[str] = ..., idempotency_key: _Optional[str] = ..., appointment_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., reason: _Optional[str] = ..., cancelled_by: _Optional[str] = ..., source_turn_id: _Optional[str] = ...) -> None: ...

class CancelResponse(_message.Message):
    __slots__ = ("appointment", "refusal", "replayed")
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    appointment: _agenda_resources_pb2.Appointment
    refusal: _agenda_resources_pb2.Refusal
    replayed: bool
    def __init__(self, appointment: _Optional[_Union[_agenda_resources_pb2.Appointment, _Mapping]] = ..., refusal: _Optional[_Union[_agenda_resources_pb2.Refusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class ConfirmRequest(_message.Message):
    __slots__ = ("organization_id", "idempotency_key", "appointment_id", "contact_id", "confirmed_by", "source_turn_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIRMED_BY_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    idempotency_key: str
    appointment_id: str
    contact_id: str
    confirmed_by: str
    source_turn_id: str
    def __init__(self, organization_id: _Optional[str] = ..., idempotency_key: _Optional[str] = ..., appointment_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., confirmed_by: _Optional[str] = ..., source_turn_id: _Optional[str] = ...) -> None: ...

class ConfirmResponse(_message.Message):
    __slots__ = ("appointment", "refusal", "replayed")
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    appointment: _agenda_resources_pb2.Appointment
    refusal: _agenda_resources_pb2.Refusal
    replayed: bool
    def __init__(self, appointment: _Optional[_Union[_agenda_resources_pb2.Appointment, _Mapping]] = ..., refusal: _Optional[_Union[_agenda_resources_pb2.Refusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class SetVideoCallStatusRequest(_message.Message):
    __slots__ = ("organization_id", "idempotency_key", "appointment_id", "status", "url")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    idempotency_key: str
    appointment_id: str
    status: _agenda_resources_pb2.VideoCallStatus
    url: str
    def __init__(self, organization_id: _Optional[str] = ..., idempotency_key: _Optional[str] = ..., appointment_id: _Optional[str] = ..., status: _Optional[_Union[_agenda_resources_pb2.VideoCallStatus, str]] = ..., url: _Optional[str] = ...) -> None: ...

class SetVideoCallStatusResponse(_message.Message):
    __slots__ = ("appointment", "refusal", "replayed")
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    appointment: _agenda_resources_pb2.Appointment
    refusal: _agenda_resources_pb2.Refusal
    replayed: bool
    def __init__(self, appointment: _Optional[_Union[_agenda_resources_pb2.Appointment, _Mapping]] = ..., refusal: _Optional[_Union[_agenda_resources_pb2.Refusal, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class UpsertResourceRequest(_message.Message):
    __slots__ = ("organization_id", "resource")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    resource: _agenda_resources_pb2.Resource
    def __init__(self, organization_id: _Optional[str] = ..., resource: _Optional[_Union[_agenda_resources_pb2.Resource, _Mapping]] = ...) -> None: ...

class UpsertResourceResponse(_message.Message):
    __slots__ = ("resource", "created")
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    resource: _agenda_resources_pb2.Resource
    created: bool
    def __init__(self, resource: _Optional[_Union[_agenda_resources_pb2.Resource, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...

class UpsertServiceRequest(_message.Message):
    __slots__ = ("organization_id", "service")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    service: _agenda_resources_pb2.BookableService
    def __init__(self, organization_id: _Optional[str] = ..., service: _Optional[_Union[_agenda_resources_pb2.BookableService, _Mapping]] = ...) -> None: ...

class UpsertServiceResponse(_message.Message):
    __slots__ = ("service", "created")
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    service: _agenda_resources_pb2.BookableService
    created: bool
    def __init__(self, service: _Optional[_Union[_agenda_resources_pb2.BookableService, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...
