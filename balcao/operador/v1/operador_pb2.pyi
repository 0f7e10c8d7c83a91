import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WorkerState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WORKER_STATE_UNSPECIFIED: _ClassVar[WorkerState]
    WORKER_STATE_STARTING: _ClassVar[WorkerState]
    WORKER_STATE_RUNNING: _ClassVar[WorkerState]
    WORKER_STATE_DEGRADED: _ClassVar[WorkerState]
    WORKER_STATE_DRAINING: _ClassVar[WorkerState]

class EventRunOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_RUN_OUTCOME_UNSPECIFIED: _ClassVar[EventRunOutcome]
    EVENT_RUN_OUTCOME_ACTED: _ClassVar[EventRunOutcome]
    EVENT_RUN_OUTCOME_NOTHING_TO_DO: _ClassVar[EventRunOutcome]
    EVENT_RUN_OUTCOME_HUMAN_OWNS: _ClassVar[EventRunOutcome]
    EVENT_RUN_OUTCOME_COULD_NOT_ACT: _ClassVar[EventRunOutcome]
    EVENT_RUN_OUTCOME_FAILED: _ClassVar[EventRunOutcome]
    EVENT_RUN_OUTCOME_NOT_RUN: _ClassVar[EventRunOutcome]

class RoleMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROLE_MODE_UNSPECIFIED: _ClassVar[RoleMode]
    ROLE_MODE_MODEL: _ClassVar[RoleMode]
    ROLE_MODE_BASIC: _ClassVar[RoleMode]

class ActionStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_STATUS_UNSPECIFIED: _ClassVar[ActionStatus]
    ACTION_STATUS_DONE: _ClassVar[ActionStatus]
    ACTION_STATUS_ALREADY_DONE: _ClassVar[ActionStatus]
    ACTION_STATUS_REFUSED: _ClassVar[ActionStatus]
    ACTION_STATUS_FAILED: _ClassVar[ActionStatus]

class ObligationStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OBLIGATION_STATUS_UNSPECIFIED: _ClassVar[ObligationStatus]
    OBLIGATION_STATUS_OPEN: _ClassVar[ObligationStatus]
    OBLIGATION_STATUS_FULFILLED: _ClassVar[ObligationStatus]
    OBLIGATION_STATUS_FAILED: _ClassVar[ObligationStatus]

class RiskLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RISK_LEVEL_UNSPECIFIED: _ClassVar[RiskLevel]
    RISK_LEVEL_SAFE: _ClassVar[RiskLevel]
    RISK_LEVEL_ATTENTION: _ClassVar[RiskLevel]
    RISK_LEVEL_CRITICAL: _ClassVar[RiskLevel]

class CapabilityPackage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CAPABILITY_PACKAGE_UNSPECIFIED: _ClassVar[CapabilityPackage]
    CAPABILITY_PACKAGE_AGENDA: _ClassVar[CapabilityPackage]
    CAPABILITY_PACKAGE_VENDER: _ClassVar[CapabilityPackage]
    CAPABILITY_PACKAGE_RETER: _ClassVar[CapabilityPackage]
    CAPABILITY_PACKAGE_ESCALAR: _ClassVar[CapabilityPackage]
    CAPABILITY_PACKAGE_ORGANIZAR: _ClassVar[CapabilityPackage]
WORKER_STATE_UNSPECIFIED: WorkerState
WORKER_STATE_STARTING: WorkerState
WORKER_STATE_RUNNING: WorkerState
WORKER_STATE_DEGRADED: WorkerState
WORKER_STATE_DRAINING: WorkerState
EVENT_RUN_OUTCOME_UNSPECIFIED: EventRunOutcome
EVENT_RUN_OUTCOME_ACTED: EventRunOutcome
EVENT_RUN_OUTCOME_NOTHING_TO_DO: EventRunOutcome
EVENT_RUN_OUTCOME_HUMAN_OWNS: EventRunOutcome
EVENT_RUN_OUTCOME_COULD_NOT_ACT: EventRunOutcome
EVENT_RUN_OUTCOME_FAILED: EventRunOutcome
EVENT_RUN_OUTCOME_NOT_RUN: EventRunOutcome
ROLE_MODE_UNSPECIFIED: RoleMode
ROLE_MODE_MODEL: RoleMode
ROLE_MODE_BASIC: RoleMode
ACTION_STATUS_UNSPECIFIED: ActionStatus
ACTION_STATUS_DONE: ActionStatus
ACTION_STATUS_ALREADY_DONE: ActionStatus
ACTION_STATUS_REFUSED: ActionStatus
ACTION_STATUS_FAILED: ActionStatus
OBLIGATION_STATUS_UNSPECIFIED: ObligationStatus
OBLIGATION_STATUS_OPEN: ObligationStatus
OBLIGATION_STATUS_FULFILLED: ObligationStatus
OBLIGATION_STATUS_FAILED: ObligationStatus
RISK_LEVEL_UNSPECIFIED: RiskLevel
RISK_LEVEL_SAFE: RiskLevel
RISK_LEVEL_ATTENTION: RiskLevel
RISK_LEVEL_CRITICAL: RiskLevel
CAPABILITY_PACKAGE_UNSPECIFIED: CapabilityPackage
CAPABILITY_PACKAGE_AGENDA: CapabilityPackage
CAPABILITY_PACKAGE_VENDER: CapabilityPackage
CAPABILITY_PACKAGE_RETER: CapabilityPackage
CAPABILITY_PACKAGE_ESCALAR: CapabilityPackage
CAPABILITY_PACKAGE_ORGANIZAR: CapabilityPackage

class GetStatusRequest(_message.Message):
    __slots__ = ("organization_id", "since")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    since: _timestamp_pb2.Timestamp
    def __init__(self, organization_id: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetStatusResponse(_message.Message):
    __slots__ = ("worker", "metrics")
    WORKER_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    worker: WorkerStatus
    metrics: OperadorMetrics
    def __init__(self, worker: _Optional[_Union[WorkerStatus, _Mapping]] = ..., metrics: _Optional[_Union[OperadorMetrics, _Mapping]] = ...) -> None: ...

class WorkerStatus(_message.Message):
    __slots__ = ("state", "replica", "events_in_flight", "started_at", "last_claim_at", "last_completed_at", "subscribed")
    STATE_FIELD_NUMBER: _ClassVar[int]
    REPLICA_FIELD_NUMBER: _ClassVar[int]
    EVENTS_IN_FLIGHT_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_CLAIM_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_COMPLETED_AT_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBED_FIELD_NUMBER: _ClassVar[int]
    state: WorkerState
    replica: str
    events_in_flight: int
    started_at: _timestamp_pb2.Timestamp
    last_claim_at: _timestamp_pb2.Timestamp
    last_completed_at: _timestamp_pb2.Timestamp
    subscribed: bool
    def __init__(self, state: _Optional[_Union[WorkerState, str]] = ..., replica: _Optional[str] = ..., events_in_flight: _Optional[int] = ..., started_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_claim_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_completed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., subscribed: _Optional[bool] = ...) -> None: ...

class OperadorMetrics(_message.Message):
    __slots__ = ("since", "turns_processed", "actions_taken", "actions_per_turn", "turns_nothing_to_do", "promises_declared", "promises_fulfilled", "promises_failed", "promises_open", "turns_could_not_act", "events_dead", "turns_with_model", "turns_basic")
    SINCE_FIELD_NUMBER: _ClassVar[int]
    TURNS_PROCESSED_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_PER_TURN_FIELD_NUMBER: _ClassVar[int]
    TURNS_NOTHING_TO_DO_FIELD_NUMBER: _ClassVar[int]
    PROMISES_DECLARED_FIELD_NUMBER: _ClassVar[int]
    PROMISES_FULFILLED_FIELD_NUMBER: _ClassVar[int]
    PROMISES_FAILED_FIELD_NUMBER: _ClassVar[int]
    PROMISES_OPEN_FIELD_NUMBER: _ClassVar[int]
    TURNS_COULD_NOT_ACT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_DEAD_FIELD_NUMBER: _ClassVar[int]
    TURNS_WITH_MODEL_FIELD_NUMBER: _ClassVar[int]
    TURNS_BASIC_FIELD_NUMBER: _ClassVar[int]
    since: _timestamp_pb2.Timestamp
    turns_processed: int
    actions_taken: int
    actions_per_turn: float
    turns_nothing_to_do: int
    promises_declared: int
    promises_fulfilled: int
    promises_failed: int
    promises_open: int
    turns_could_not_act: int
    events_dead: int
    turns_with_model: int
    turns_basic: int
    def __init__(self, since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., turns_processed: _Optional[int] = ..., actions_taken: _Optional[int] = ..., actions_per_turn: _Optional[float] = ..., turns_nothing_to_do: _Optional[int] = ..., promises_declared: _Optional[int] = ..., promises_fulfilled: _Optional[int] = ..., promises_failed: _Optional[int] = ..., promises_open: _Optional[int] = ..., turns_could_not_act: _Optional[int] = ..., events_dead: _Optional[int] = ..., turns_with_model: _Optional[int] = ..., turns_basic: _Optional[int] = ...) -> None: ...

class RunEventRequest(_message.Message):
    __slots__ = ("organization_id", "event_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    event_id: str
    def __init__(self, organization_id: _Optional[str] = ..., event_id: _Optional[str] = ...) -> None: ...

class RunEventResponse(_message.Message):
    __slots__ = ("outcome", "mode", "actions", "obligations", "proactive_turn_requested", "summary_pt", "not_run_reason_pt")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    OBLIGATIONS_FIELD_NUMBER: _ClassVar[int]
    PROACTIVE_TURN_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_PT_FIELD_NUMBER: _ClassVar[int]
    NOT_RUN_REASON_PT_FIELD_NUMBER: _ClassVar[int]
    outcome: EventRunOutcome
    mode: RoleMode
    actions: _containers.RepeatedCompositeFieldContainer[ActionResult]
    obligations: _containers.RepeatedCompositeFieldContainer[ObligationResult]
    proactive_turn_requested: bool
    summary_pt: str
    not_run_reason_pt: str
    def __init__(self, outcome: _Optional[_Union[EventRunOutcome, str]] = ..., mode: _Optional[_Union[RoleMode, str]] = ..., actions: _Optional[_Iterable[_Union[ActionResult, _Mapping]]] = ..., obligations: _Optional[_Iterable[_Union[ObligationResult, _Mapping]]] = ..., proactive_turn_requested: _Optional[bool] = ..., summary_pt: _Optional[str] = ..., not_run_reason_pt: _Optional[str] = ...) -> None: ...

class ActionResult(_message.Message):
    __slots__ = ("capability", "status", "detail_pt", "idempotency_key")
    CAPABILITY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_PT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    capability: str
    status: ActionStatus
    detail_pt: str
    idempotency_key: str
    def __init__(self, capability: _Optional[str] = ..., status: _Optional[_Union[ActionStatus, str]] = ..., detail_pt: _Optional[str] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class ObligationResult(_message.Message):
    __slots__ = ("o_que", "status", "resolution_pt")
    O_QUE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_PT_FIELD_NUMBER: _ClassVar[int]
    o_que: str
    status: ObligationStatus
    resolution_pt: str
    def __init__(self, o_que: _Optional[str] = ..., status: _Optional[_Union[ObligationStatus, str]] = ..., resolution_pt: _Optional[str] = ...) -> None: ...

class ListCapabilitiesRequest(_message.Message):
    __slots__ = ("organization_id", "unit_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    unit_id: str
    def __init__(self, organization_id: _Optional[str] = ..., unit_id: _Optional[str] = ...) -> None: ...

class ListCapabilitiesResponse(_message.Message):
    __slots__ = ("capabilities", "packages", "max_enabled_per_agent", "enabled_count")
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    PACKAGES_FIELD_NUMBER: _ClassVar[int]
    MAX_ENABLED_PER_AGENT_FIELD_NUMBER: _ClassVar[int]
    ENABLED_COUNT_FIELD_NUMBER: _ClassVar[int]
    capabilities: _containers.RepeatedCompositeFieldContainer[Capability]
    packages: _containers.RepeatedCompositeFieldContainer[PackageInfo]
    max_enabled_per_agent: int
    enabled_count: int
    def __init__(self, capabilities: _Optional[_Iterable[_Union[Capability, _Mapping]]] = ..., packages: _Optional[_Iterable[_Union[PackageInfo, _Mapping]]] = ..., max_enabled_per_agent: _Optional[int] = ..., enabled_count: _Optional[int] = ...) -> None: ...

class Capability(_message.Message):
    __slots__ = ("name", "label_pt", "explanation_pt", "risk", "package", "enabled", "method", "description", "input_schema_json", "hidden_reason_pt")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LABEL_PT_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_PT_FIELD_NUMBER: _ClassVar[int]
    RISK_FIELD_NUMBER: _ClassVar[int]
    PACKAGE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    INPUT_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_REASON_PT_FIELD_NUMBER: _ClassVar[int]
    name: str
    label_pt: str
    explanation_pt: str
    risk: RiskLevel
    package: CapabilityPackage
    enabled: bool
    method: str
    description: str
    input_schema_json: str
    hidden_reason_pt: str
    def __init__(self, name: _Optional[str] = ..., label_pt: _Optional[str] = ..., explanation_pt: _Optional[str] = ..., risk: _Optional[_Union[RiskLevel, str]] = ..., package: _Optional[_Union[CapabilityPackage, str]] = ..., enabled: _Optional[bool] = ..., method: _Optional[str] = ..., description: _Optional[str] = ..., input_schema_json: _Optional[str] = ..., hidden_reason_pt: _Optional[str] = ...) -> None: ...

class PackageInfo(_message.Message):
    __slots__ = ("package", "label_pt", "explanation_pt", "selected")
    PACKAGE_FIELD_NUMBER: _ClassVar[int]
    LABEL_PT_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_PT_FIELD_NUMBER: _ClassVar[int]
    SELECTED_FIELD_NUMBER: _ClassVar[int]
    package: CapabilityPackage
    label_pt: str
    explanation_pt: str
    selected: bool
    def __init__(self, package: _Optional[_Union[CapabilityPackage, str]] = ..., label_pt: _Optional[str] = ..., explanation_pt: _Optional[str] = ..., selected: _Optional[bool] = ...) -> None: ...
