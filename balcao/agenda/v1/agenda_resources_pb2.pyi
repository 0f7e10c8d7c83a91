import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LocalTimeFold(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LOCAL_TIME_FOLD_UNSPECIFIED: _ClassVar[LocalTimeFold]
    LOCAL_TIME_FOLD_EARLIER: _ClassVar[LocalTimeFold]
    LOCAL_TIME_FOLD_LATER: _ClassVar[LocalTimeFold]

class Weekday(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WEEKDAY_UNSPECIFIED: _ClassVar[Weekday]
    WEEKDAY_MONDAY: _ClassVar[Weekday]
    WEEKDAY_TUESDAY: _ClassVar[Weekday]
    WEEKDAY_WEDNESDAY: _ClassVar[Weekday]
    WEEKDAY_THURSDAY: _ClassVar[Weekday]
    WEEKDAY_FRIDAY: _ClassVar[Weekday]
    WEEKDAY_SATURDAY: _ClassVar[Weekday]
    WEEKDAY_SUNDAY: _ClassVar[Weekday]

class ResourceKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESOURCE_KIND_UNSPECIFIED: _ClassVar[ResourceKind]
    RESOURCE_KIND_PERSON: _ClassVar[ResourceKind]
    RESOURCE_KIND_ROOM: _ClassVar[ResourceKind]
    RESOURCE_KIND_GROUP_CLASS: _ClassVar[ResourceKind]
    RESOURCE_KIND_EQUIPMENT: _ClassVar[ResourceKind]

class PlaceKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLACE_KIND_UNSPECIFIED: _ClassVar[PlaceKind]
    PLACE_KIND_IN_PERSON: _ClassVar[PlaceKind]
    PLACE_KIND_ONLINE: _ClassVar[PlaceKind]
    PLACE_KIND_PHONE: _ClassVar[PlaceKind]
    PLACE_KIND_AT_CUSTOMER: _ClassVar[PlaceKind]

class VideoCallPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VIDEO_CALL_POLICY_UNSPECIFIED: _ClassVar[VideoCallPolicy]
    VIDEO_CALL_POLICY_NEVER: _ClassVar[VideoCallPolicy]
    VIDEO_CALL_POLICY_OPTIONAL: _ClassVar[VideoCallPolicy]
    VIDEO_CALL_POLICY_ALWAYS: _ClassVar[VideoCallPolicy]

class AppointmentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    APPOINTMENT_STATUS_UNSPECIFIED: _ClassVar[AppointmentStatus]
    APPOINTMENT_STATUS_PENDING: _ClassVar[AppointmentStatus]
    APPOINTMENT_STATUS_CONFIRMED: _ClassVar[AppointmentStatus]
    APPOINTMENT_STATUS_CANCELLED: _ClassVar[AppointmentStatus]

class VideoCallStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VIDEO_CALL_STATUS_UNSPECIFIED: _ClassVar[VideoCallStatus]
    VIDEO_CALL_STATUS_NONE: _ClassVar[VideoCallStatus]
    VIDEO_CALL_STATUS_PENDING: _ClassVar[VideoCallStatus]
    VIDEO_CALL_STATUS_READY: _ClassVar[VideoCallStatus]
    VIDEO_CALL_STATUS_FAILED: _ClassVar[VideoCallStatus]

class RefusalCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REFUSAL_CODE_UNSPECIFIED: _ClassVar[RefusalCode]
    REFUSAL_CODE_SLOT_TAKEN: _ClassVar[RefusalCode]
    REFUSAL_CODE_OUTSIDE_BUSINESS_HOURS: _ClassVar[RefusalCode]
    REFUSAL_CODE_IN_THE_PAST: _ClassVar[RefusalCode]
    REFUSAL_CODE_UNKNOWN_RESOURCE: _ClassVar[RefusalCode]
    REFUSAL_CODE_NONEXISTENT_LOCAL_TIME: _ClassVar[RefusalCode]
    REFUSAL_CODE_AMBIGUOUS_LOCAL_TIME: _ClassVar[RefusalCode]
    REFUSAL_CODE_UNKNOWN_SERVICE: _ClassVar[RefusalCode]
    REFUSAL_CODE_RESOURCE_INACTIVE: _ClassVar[RefusalCode]
    REFUSAL_CODE_TOO_SHORT_NOTICE: _ClassVar[RefusalCode]
    REFUSAL_CODE_BEYOND_BOOKING_HORIZON: _ClassVar[RefusalCode]
    REFUSAL_CODE_MISALIGNED_START: _ClassVar[RefusalCode]
    REFUSAL_CODE_UNKNOWN_APPOINTMENT: _ClassVar[RefusalCode]
    REFUSAL_CODE_ALREADY_CANCELLED: _ClassVar[RefusalCode]
    REFUSAL_CODE_CONTACT_ALREADY_BOOKED: _ClassVar[RefusalCode]
    REFUSAL_CODE_RANGE_TOO_LONG: _ClassVar[RefusalCode]
LOCAL_TIME_FOLD_UNSPECIFIED: LocalTimeFold
LOCAL_TIME_FOLD_EARLIER: LocalTimeFold
LOCAL_TIME_FOLD_LATER: LocalTimeFold
WEEKDAY_UNSPECIFIED: Weekday
WEEKDAY_MONDAY: Weekday
WEEKDAY_TUESDAY: Weekday
WEEKDAY_WEDNESDAY: Weekday
WEEKDAY_THURSDAY: Weekday
WEEKDAY_FRIDAY: Weekday
WEEKDAY_SATURDAY: Weekday
WEEKDAY_SUNDAY: Weekday
RESOURCE_KIND_UNSPECIFIED: ResourceKind
RESOURCE_KIND_PERSON: ResourceKind
RESOURCE_KIND_ROOM: ResourceKind
RESOURCE_KIND_GROUP_CLASS: ResourceKind
RESOURCE_KIND_EQUIPMENT: ResourceKind
PLACE_KIND_UNSPECIFIED: PlaceKind
PLACE_KIND_IN_PERSON: PlaceKind
PLACE_KIND_ONLINE: PlaceKind
PLACE_KIND_PHONE: PlaceKind
PLACE_KIND_AT_CUSTOMER: PlaceKind
VIDEO_CALL_POLICY_UNSPECIFIED: VideoCallPolicy
VIDEO_CALL_POLICY_NEVER: VideoCallPolicy
VIDEO_CALL_POLICY_OPTIONAL: VideoCallPolicy
VIDEO_CALL_POLICY_ALWAYS: VideoCallPolicy
APPOINTMENT_STATUS_UNSPECIFIED: AppointmentStatus
APPOINTMENT_STATUS_PENDING: AppointmentStatus
APPOINTMENT_STATUS_CONFIRMED: AppointmentStatus
APPOINTMENT_STATUS_CANCELLED: AppointmentStatus
VIDEO_CALL_STATUS_UNSPECIFIED: VideoCallStatus
VIDEO_CALL_STATUS_NONE: VideoCallStatus
VIDEO_CALL_STATUS_PENDING: VideoCallStatus
VIDEO_CALL_STATUS_READY: VideoCallStatus
VIDEO_CALL_STATUS_FAILED: VideoCallStatus
REFUSAL_CODE_UNSPECIFIED: RefusalCode
REFUSAL_CODE_SLOT_TAKEN: RefusalCode
REFUSAL_CODE_OUTSIDE_BUSINESS_HOURS: RefusalCode
REFUSAL_CODE_IN_THE_PAST: RefusalCode
REFUSAL_CODE_UNKNOWN_RESOURCE: RefusalCode
REFUSAL_CODE_NONEXISTENT_LOCAL_TIME: RefusalCode
REFUSAL_CODE_AMBIGUOUS_LOCAL_TIME: RefusalCode
REFUSAL_CODE_UNKNOWN_SERVICE: RefusalCode
REFUSAL_CODE_RESOURCE_INACTIVE: RefusalCode
REFUSAL_CODE_TOO_SHORT_NOTICE: RefusalCode
REFUSAL_CODE_BEYOND_BOOKING_HORIZON: RefusalCode
REFUSAL_CODE_MISALIGNED_START: RefusalCode
REFUSAL_CODE_UNKNOWN_APPOINTMENT: RefusalCode
REFUSAL_CODE_ALREADY_CANCELLED: RefusalCode
REFUSAL_CODE_CONTACT_ALREADY_BOOKED: RefusalCode
REFUSAL_CODE_RANGE_TOO_LONG: RefusalCode

class LocalTimeLabels(_message.Message):
    __slots__ = ("time_zone", "start_label", "end_label", "date_label", "time_range_label", "zone_label", "start_iso", "end_iso")
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    START_LABEL_FIELD_NUMBER: _ClassVar[int]
    END_LABEL_FIELD_NUMBER: _ClassVar[int]
    DATE_LABEL_FIELD_NUMBER: _ClassVar[int]
    TIME_RANGE_LABEL_FIELD_NUMBER: _ClassVar[int]
    ZONE_LABEL_FIELD_NUMBER: _ClassVar[int]
    START_ISO_FIELD_NUMBER: _ClassVar[int]
    END_ISO_FIELD_NUMBER: _ClassVar[int]
    time_zone: str
    start_label: str
    end_label: str
    date_label: str
    time_range_label: str
    zone_label: str
    start_iso: str
    end_iso: str
    def __init__(self, time_zone: _Optional[str] = ..., start_label: _Optional[str] = ..., end_label: _Optional[str] = ..., date_label: _Optional[str] = ..., time_range_label: _Optional[str] = ..., zone_label: _Optional[str] = ..., start_iso: _Optional[str] = ..., end_iso: _Optional[str] = ...) -> None: ...

class LocalDateTime(_message.Message):
    __slots__ = ("local_date_time", "time_zone", "fold")
    LOCAL_DATE_TIME_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    FOLD_FIELD_NUMBER: _ClassVar[int]
    local_date_time: str
    time_zone: str
    fold: LocalTimeFold
    def __init__(self, local_date_time: _Optional[str] = ..., time_zone: _Optional[str] = ..., fold: _Optional[_Union[LocalTimeFold, str]] = ...) -> None: ...

class TimePoint(_message.Message):
    __slots__ = ("instant", "local")
    INSTANT_FIELD_NUMBER: _ClassVar[int]
    LOCAL_FIELD_NUMBER: _ClassVar[int]
    instant: _timestamp_pb2.Timestamp
    local: LocalDateTime
    def __init__(self, instant: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., local: _Optional[_Union[LocalDateTime, _Mapping]] = ...) -> None: ...

class TimeRange(_message.Message):
    __slots__ = ("start_time", "end_time")
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    def __init__(self, start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class LocalDateRange(_message.Message):
    __slots__ = ("first_date", "last_date", "time_zone")
    FIRST_DATE_FIELD_NUMBER: _ClassVar[int]
    LAST_DATE_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    first_date: str
    last_date: str
    time_zone: str
    def __init__(self, first_date: _Optional[str] = ..., last_date: _Optional[str] = ..., time_zone: _Optional[str] = ...) -> None: ...

class Resource(_message.Message):
    __slots__ = ("resource_id", "organization_id", "name", "kind", "time_zone", "business_hours", "slot_minutes", "capacity", "place", "video_call", "min_notice_minutes", "booking_horizon_days", "service_ids", "active", "created_at", "updated_at")
    RESOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    BUSINESS_HOURS_FIELD_NUMBER: _ClassVar[int]
    SLOT_MINUTES_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    VIDEO_CALL_FIELD_NUMBER: _ClassVar[int]
    MIN_NOTICE_MINUTES_FIELD_NUMBER: _ClassVar[int]
    BOOKING_HORIZON_DAYS_FIELD_NUMBER: _ClassVar[int]
    SERVICE_IDS_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    resource_id: str
    organization_id: str
    name: str
    kind: ResourceKind
    time_zone: str
    business_hours: BusinessHours
    slot_minutes: int
    capacity: int
    place: Place
    video_call: VideoCallPolicy
    min_notice_minutes: int
    booking_horizon_days: int
    service_ids: _containers.RepeatedScalarFieldContainer[str]
    active: bool
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, resource_id: _Optional[str] = ..., organization_id: _Optional[str] = ..., name: _Optional[str] = ..., kind: _Optional[_Union[ResourceKind, str]] = ..., time_zone: _Optional[str] = ..., business_hours: _Optional[_Union[BusinessHours, _Mapping]] = ..., slot_minutes: _Optional[int] = ..., capacity: _Optional[int] = ..., place: _Optional[_Union[Place, _Mapping]] = ..., video_call: _Optional[_Union[VideoCallPolicy, str]] = ..., min_notice_minutes: _Optional[int] = ..., booking_horizon_days: _Optional[int] = ..., service_ids: _Optional[_Iterable[str]] = ..., active: _Optional[bool] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class BusinessHours(_message.Message):
    __slots__ = ("weekly", "overrides")
    WEEKLY_FIELD_NUMBER: _ClassVar[int]
    OVERRIDES_FIELD_NUMBER: _ClassVar[int]
    weekly: _containers.RepeatedCompositeFieldContainer[WeeklyInterval]
    overrides: _containers.RepeatedCompositeFieldContainer[DateOverride]
    def __init__(self, weekly: _Optional[_Iterable[_Union[WeeklyInterval, _Mapping]]] = ..., overrides: _Optional[_Iterable[_Union[DateOverride, _Mapping]]] = ...) -> None: ...

class WeeklyInterval(_message.Message):
    __slots__ = ("weekday", "opens", "closes")
    WEEKDAY_FIELD_NUMBER: _ClassVar[int]
    OPENS_FIELD_NUMBER: _ClassVar[int]
    CLOSES_FIELD_NUMBER: _ClassVar[int]
    weekday: Weekday
    opens: str
    closes: str
    def __init__(self, weekday: _Optional[_Union[Weekday, str]] = ..., opens: _Optional[str] = ..., closes: _Optional[str] = ...) -> None: ...

class DateOverride(_message.Message):
    __slots__ = ("date", "closed", "intervals")
    DATE_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    INTERVALS_FIELD_NUMBER: _ClassVar[int]
    date: str
    closed: bool
    intervals: _containers.RepeatedCompositeFieldContainer[TimeOfDayInterval]
    def __init__(self, date: _Optional[str] = ..., closed: _Optional[bool] = ..., intervals: _Optional[_Iterable[_Union[TimeOfDayInterval, _Mapping]]] = ...) -> None: ...

class TimeOfDayInterval(_message.Message):
    __slots__ = ("opens", "closes")
    OPENS_FIELD_NUMBER: _ClassVar[int]
    CLOSES_FIELD_NUMBER: _ClassVar[int]
    opens: str
    closes: str
    def __init__(self, opens: _Optional[str] = ..., closes: _Optional[str] = ...) -> None: ...

class Place(_message.Message):
    __slots__ = ("kind", "name", "address", "instructions")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    kind: PlaceKind
    name: str
    address: str
    instructions: str
    def __init__(self, kind: _Optional[_Union[PlaceKind, str]] = ..., name: _Optional[str] = ..., address: _Optional[str] = ..., instructions: _Optional[str] = ...) -> None: ...

class BookableService(_message.Message):
    __slots__ = ("service_id", "organization_id", "name", "description", "duration_minutes", "place", "video_call", "active")
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DURATION_MINUTES_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    VIDEO_CALL_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    service_id: str
    organization_id: str
    name: str
    description: str
    duration_minutes: int
    place: Place
    video_call: VideoCallPolicy
    active: bool
    def __init__(self, service_id: _Optional[str] = ..., organization_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., duration_minutes: _Optional[int] = ..., place: _Optional[_Union[Place, _Mapping]] = ..., video_call: _Optional[_Union[VideoCallPolicy, str]] = ..., active: _Optional[bool] = ...) -> None: ...

class Appointment(_message.Message):
    __slots__ = ("appointment_id", "organization_id", "contact_id", "resource_id", "resource_name", "service_id", "service_name", "start_time", "end_time", "time_zone", "labels", "status", "place", "video_call_status", "video_call_url", "notes", "cancellation_reason", "source_turn_id", "booked_by", "created_at", "updated_at")
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_NAME_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_NAME_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    VIDEO_CALL_STATUS_FIELD_NUMBER: _ClassVar[int]
    VIDEO_CALL_URL_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    CANCELLATION_REASON_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TURN_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    appointment_id: str
    organization_id: str
    contact_id: str
    resource_id: str
    resource_name: str
    service_id: str
    service_name: str
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    time_zone: str
    labels: LocalTimeLabels
    status: AppointmentStatus
    place: Place
    video_call_status: VideoCallStatus
    video_call_url: str
    notes: str
    cancellation_reason: str
    source_turn_id: str
    booked_by: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, appointment_id: _Optional[str] = ..., organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., resource_id: _Optional[str] = ..., resource_name: _Optional[str] = ..., service_id: _Optional[str] = ..., service_name: _Optional[str] = ..., start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., time_zone: _Optional[str] = ..., labels: _Optional[_Union[LocalTimeLabels, _Mapping]] = ..., status: _Optional[_Union[AppointmentStatus, str]] = ..., place: _Optional[_Union[Place, _Mapping]] = ..., video_call_status: _Optional[_Union[VideoCallStatus, str]] = ..., video_call_url: _Optional[str] = ..., notes: _Optional[str] = ..., cancellation_reason: _Optional[str] = ..., source_turn_id: _Optional[str] = ..., booked_by: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Slot(_message.Message):
    __slots__ = ("resource_id", "resource_name", "service_id", "start_time", "end_time", "labels", "remaining_capacity")
    RESOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_NAME_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    REMAINING_CAPACITY_FIELD_NUMBER: _ClassVar[int]
    resource_id: str
    resource_name: str
    service_id: str
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    labels: LocalTimeLabels
    remaining_capacity: int
    def __init__(self, resource_id: _Optional[str] = ..., resource_name: _Optional[str] = ..., service_id: _Optional[str] = ..., start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., labels: _Optional[_Union[LocalTimeLabels, _Mapping]] = ..., remaining_capacity: _Optional[int] = ...) -> None: ...

class Refusal(_message.Message):
    __slots__ = ("code", "message_pt", "alternatives")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_PT_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    code: RefusalCode
    message_pt: str
    alternatives: _containers.RepeatedCompositeFieldContainer[Slot]
    def __init__(self, code: _Optional[_Union[RefusalCode, str]] = ..., message_pt: _Optional[str] = ..., alternatives: _Optional[_Iterable[_Union[Slot, _Mapping]]] = ...) -> None: ...
