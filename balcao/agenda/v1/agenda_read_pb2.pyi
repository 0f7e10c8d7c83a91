import datetime

from balcao.agenda.v1 import agenda_resources_pb2 as _agenda_resources_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListContactAppointmentsRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "limit", "as_of")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    limit: int
    as_of: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., limit: _Optional[int] = ..., as_of: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListContactAppointmentsResponse(_message.Message):
    __slots__ = ("appointments", "truncated", "total_count", "as_of")
    APPOINTMENTS_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_COUNT_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    appointments: _containers.RepeatedCompositeFieldContainer[_agenda_resources_pb2.Appointment]
    truncated: bool
    total_count: int
    as_of: _timestamp_pb2.Timestamp
    def __init__(self, appointments: _Optional[_Iterable[_Union[_agenda_resources_pb2.Appointment, _Mapping]]] = ..., truncated: _Optional[bool] = ..., total_count: _Optional[int] = ..., as_of: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListConfirmedFutureBookingsRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "as_of")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    as_of: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., as_of: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListConfirmedFutureBookingsResponse(_message.Message):
    __slots__ = ("bookings", "as_of")
    BOOKINGS_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    bookings: _containers.RepeatedCompositeFieldContainer[_agenda_resources_pb2.Appointment]
    as_of: _timestamp_pb2.Timestamp
    def __init__(self, bookings: _Optional[_Iterable[_Union[_agenda_resources_pb2.Appointment, _Mapping]]] = ..., as_of: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CheckAvailabilityRequest(_message.Message):
    __slots__ = ("organization_id", "resource_ids", "service_id", "instants", "local_dates", "label_time_zone", "max_slots", "as_of", "time_of_day")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_IDS_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    INSTANTS_FIELD_NUMBER: _ClassVar[int]
    LOCAL_DATES_FIELD_NUMBER: _ClassVar[int]
    LABEL_TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    MAX_SLOTS_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    TIME_OF_DAY_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    resource_ids: _containers.RepeatedScalarFieldContainer[str]
    service_id: str
    instants: _agenda_resources_pb2.TimeRange
    local_dates: _agenda_resources_pb2.LocalDateRange
    label_time_zone: str
    max_slots: int
    as_of: _timestamp_pb2.Timestamp
    time_of_day: _agenda_resources_pb2.TimeOfDayInterval
    def __init__(self, organization_id: _Optional[str] = ..., resource_ids: _Optional[_Iterable[str]] = ..., service_id: _Optional[str] = ..., instants: _Optional[_Union[_agenda_resources_pb2.TimeRange, _Mapping]] = ..., local_dates: _Optional[_Union[_agenda_resources_pb2.LocalDateRange, _Mapping]] = ..., label_time_zone: _Optional[str] = ..., max_slots: _Optional[int] = ..., as_of: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., time_of_day: _Optional[_Union[_agenda_resources_pb2.TimeOfDayInterval, _Mapping]] = ...) -> None: ...

class CheckAvailabilityResponse(_message.Message):
    __slots__ = ("slots", "truncated", "refusal")
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    slots: _containers.RepeatedCompositeFieldContainer[_agenda_resources_pb2.Slot]
    truncated: bool
    refusal: _agenda_resources_pb2.Refusal
    def __init__(self, slots: _Optional[_Iterable[_Union[_agenda_resources_pb2.Slot, _Mapping]]] = ..., truncated: _Optional[bool] = ..., refusal: _Optional[_Union[_agenda_resources_pb2.Refusal, _Mapping]] = ...) -> None: ...

class GetAppointmentRequest(_message.Message):
    __slots__ = ("organization_id", "appointment_id", "contact_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    appointment_id: str
    contact_id: str
    def __init__(self, organization_id: _Optional[str] = ..., appointment_id: _Optional[str] = ..., contact_id: _Optional[str] = ...) -> None: ...

class GetAppointmentResponse(_message.Message):
    __slots__ = ("appointment",)
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    appointment: _agenda_resources_pb2.Appointment
    def __init__(self, appointment: _Optional[_Union[_agenda_resources_pb2.Appointment, _Mapping]] = ...) -> None: ...

class ListAppointmentsRequest(_message.Message):
    __slots__ = ("organization_id", "resource_id", "contact_id", "statuses", "overlapping", "page_size", "page_token")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    OVERLAPPING_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    resource_id: str
    contact_id: str
    statuses: _containers.RepeatedScalarFieldContainer[_agenda_resources_pb2.AppointmentStatus]
    overlapping: _agenda_resources_pb2.TimeRange
    page_size: int
    page_token: str
    def __init__(self, organization_id: _Optional[str] = ..., resource_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[_agenda_resources_pb2.AppointmentStatus, str]]] = ..., overlapping: _Optional[_Union[_agenda_resources_pb2.TimeRange, _Mapping]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListAppointmentsResponse(_message.Message):
    __slots__ = ("appointments", "next_page_token")
    APPOINTMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    appointments: _containers.RepeatedCompositeFieldContainer[_agenda_resources_pb2.Appointment]
    next_page_token: str
    def __init__(self, appointments: _Optional[_Iterable[_Union[_agenda_resources_pb2.Appointment, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetResourceRequest(_message.Message):
    __slots__ = ("organization_id", "resource_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    resource_id: str
    def __init__(self, organization_id: _Optional[str] = ..., resource_id: _Optional[str] = ...) -> None: ...

class GetResourceResponse(_message.Message):
    __slots__ = ("resource",)
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    resource: _agenda_resources_pb2.Resource
    def __init__(self, resource: _Optional[_Union[_agenda_resources_pb2.Resource, _Mapping]] = ...) -> None: ...

class ListResourcesRequest(_message.Message):
    __slots__ = ("organization_id", "include_inactive")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_INACTIVE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    include_inactive: bool
    def __init__(self, organization_id: _Optional[str] = ..., include_inactive: _Optional[bool] = ...) -> None: ...

class ListResourcesResponse(_message.Message):
    __slots__ = ("resources",)
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    resources: _containers.RepeatedCompositeFieldContainer[_agenda_resources_pb2.Resource]
    def __init__(self, resources: _Optional[_Iterable[_Union[_agenda_resources_pb2.Resource, _Mapping]]] = ...) -> None: ...

class ListServicesRequest(_message.Message):
    __slots__ = ("organization_id", "include_inactive")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_INACTIVE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    include_inactive: bool
    def __init__(self, organization_id: _Optional[str] = ..., include_inactive: _Optional[bool] = ...) -> None: ...

class ListServicesResponse(_message.Message):
    __slots__ = ("services",)
    SERVICES_FIELD_NUMBER: _ClassVar[int]
    services: _containers.RepeatedCompositeFieldContainer[_agenda_resources_pb2.BookableService]
    def __init__(self, services: _Optional[_Iterable[_Union[_agenda_resources_pb2.BookableService, _Mapping]]] = ...) -> None: ...
