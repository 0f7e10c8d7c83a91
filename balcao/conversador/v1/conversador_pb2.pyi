import datetime

from balcao.common.v1 import declaracao_pb2 as _declaracao_pb2
from balcao.projection.v1 import projection_pb2 as _projection_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Author(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AUTHOR_UNSPECIFIED: _ClassVar[Author]
    AUTHOR_CUSTOMER: _ClassVar[Author]
    AUTHOR_AGENT: _ClassVar[Author]
    AUTHOR_TEAM: _ClassVar[Author]

class ProactiveKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROACTIVE_KIND_UNSPECIFIED: _ClassVar[ProactiveKind]
    PROACTIVE_KIND_FOLLOWUP_DUE: _ClassVar[ProactiveKind]
    PROACTIVE_KIND_OBLIGATION_FULFILLED: _ClassVar[ProactiveKind]
    PROACTIVE_KIND_OBLIGATION_FAILED: _ClassVar[ProactiveKind]
    PROACTIVE_KIND_SCHEDULED: _ClassVar[ProactiveKind]

class TapeRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TAPE_ROLE_UNSPECIFIED: _ClassVar[TapeRole]
    TAPE_ROLE_USER: _ClassVar[TapeRole]
    TAPE_ROLE_ASSISTANT: _ClassVar[TapeRole]
    TAPE_ROLE_TOOL: _ClassVar[TapeRole]

class ModelCallPurpose(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MODEL_CALL_PURPOSE_UNSPECIFIED: _ClassVar[ModelCallPurpose]
    MODEL_CALL_PURPOSE_DRAFT: _ClassVar[ModelCallPurpose]
    MODEL_CALL_PURPOSE_DECLARACAO_REPAIR: _ClassVar[ModelCallPurpose]
    MODEL_CALL_PURPOSE_REVISION: _ClassVar[ModelCallPurpose]
    MODEL_CALL_PURPOSE_CLOSING: _ClassVar[ModelCallPurpose]
    MODEL_CALL_PURPOSE_CLOSING_CORRECTION: _ClassVar[ModelCallPurpose]
    MODEL_CALL_PURPOSE_SUMMARY_CONDENSATION: _ClassVar[ModelCallPurpose]
AUTHOR_UNSPECIFIED: Author
AUTHOR_CUSTOMER: Author
AUTHOR_AGENT: Author
AUTHOR_TEAM: Author
PROACTIVE_KIND_UNSPECIFIED: ProactiveKind
PROACTIVE_KIND_FOLLOWUP_DUE: ProactiveKind
PROACTIVE_KIND_OBLIGATION_FULFILLED: ProactiveKind
PROACTIVE_KIND_OBLIGATION_FAILED: ProactiveKind
PROACTIVE_KIND_SCHEDULED: ProactiveKind
TAPE_ROLE_UNSPECIFIED: TapeRole
TAPE_ROLE_USER: TapeRole
TAPE_ROLE_ASSISTANT: TapeRole
TAPE_ROLE_TOOL: TapeRole
MODEL_CALL_PURPOSE_UNSPECIFIED: ModelCallPurpose
MODEL_CALL_PURPOSE_DRAFT: ModelCallPurpose
MODEL_CALL_PURPOSE_DECLARACAO_REPAIR: ModelCallPurpose
MODEL_CALL_PURPOSE_REVISION: ModelCallPurpose
MODEL_CALL_PURPOSE_CLOSING: ModelCallPurpose
MODEL_CALL_PURPOSE_CLOSING_CORRECTION: ModelCallPurpose
MODEL_CALL_PURPOSE_SUMMARY_CONDENSATION: ModelCallPurpose

class DraftRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "unit_id", "turn_id", "context", "new_messages", "history", "proactive", "agent_version_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    NEW_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    PROACTIVE_FIELD_NUMBER: _ClassVar[int]
    AGENT_VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    unit_id: str
    turn_id: str
    context: _projection_pb2.TurnContext
    new_messages: _containers.RepeatedCompositeFieldContainer[ConversationMessage]
    history: _containers.RepeatedCompositeFieldContainer[ConversationMessage]
    proactive: ProactiveReason
    agent_version_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., context: _Optional[_Union[_projection_pb2.TurnContext, _Mapping]] = ..., new_messages: _Optional[_Iterable[_Union[ConversationMessage, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[ConversationMessage, _Mapping]]] = ..., proactive: _Optional[_Union[ProactiveReason, _Mapping]] = ..., agent_version_id: _Optional[str] = ...) -> None: ...

class DraftResponse(_message.Message):
    __slots__ = ("reply", "failure", "tape", "usage")
    REPLY_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    TAPE_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    reply: DraftedReply
    failure: DraftFailure
    tape: Tape
    usage: _containers.RepeatedCompositeFieldContainer[ModelUsage]
    def __init__(self, reply: _Optional[_Union[DraftedReply, _Mapping]] = ..., failure: _Optional[_Union[DraftFailure, _Mapping]] = ..., tape: _Optional[_Union[Tape, _Mapping]] = ..., usage: _Optional[_Iterable[_Union[ModelUsage, _Mapping]]] = ...) -> None: ...

class ReviseRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "unit_id", "turn_id", "context", "new_messages", "history", "proactive", "previous_draft", "previous_tape", "vetoes", "revision", "agent_version_id")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    UNIT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    NEW_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    PROACTIVE_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_DRAFT_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_TAPE_FIELD_NUMBER: _ClassVar[int]
    VETOES_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    AGENT_VERSION_ID_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    unit_id: str
    turn_id: str
    context: _projection_pb2.TurnContext
    new_messages: _containers.RepeatedCompositeFieldContainer[ConversationMessage]
    history: _containers.RepeatedCompositeFieldContainer[ConversationMessage]
    proactive: ProactiveReason
    previous_draft: DraftedReply
    previous_tape: Tape
    vetoes: _containers.RepeatedCompositeFieldContainer[VetoGuidance]
    revision: int
    agent_version_id: str
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., unit_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., context: _Optional[_Union[_projection_pb2.TurnContext, _Mapping]] = ..., new_messages: _Optional[_Iterable[_Union[ConversationMessage, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[ConversationMessage, _Mapping]]] = ..., proactive: _Optional[_Union[ProactiveReason, _Mapping]] = ..., previous_draft: _Optional[_Union[DraftedReply, _Mapping]] = ..., previous_tape: _Optional[_Union[Tape, _Mapping]] = ..., vetoes: _Optional[_Iterable[_Union[VetoGuidance, _Mapping]]] = ..., revision: _Optional[int] = ..., agent_version_id: _Optional[str] = ...) -> None: ...

class ReviseResponse(_message.Message):
    __slots__ = ("reply", "failure", "tape", "usage")
    REPLY_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    TAPE_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    reply: DraftedReply
    failure: DraftFailure
    tape: Tape
    usage: _containers.RepeatedCompositeFieldContainer[ModelUsage]
    def __init__(self, reply: _Optional[_Union[DraftedReply, _Mapping]] = ..., failure: _Optional[_Union[DraftFailure, _Mapping]] = ..., tape: _Optional[_Union[Tape, _Mapping]] = ..., usage: _Optional[_Iterable[_Union[ModelUsage, _Mapping]]] = ...) -> None: ...

class DraftedReply(_message.Message):
    __slots__ = ("message", "declaracao", "used_agenda_tool", "declaracao_repaired")
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    USED_AGENDA_TOOL_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_REPAIRED_FIELD_NUMBER: _ClassVar[int]
    message: str
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    used_agenda_tool: bool
    declaracao_repaired: bool
    def __init__(self, message: _Optional[str] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., used_agenda_tool: _Optional[bool] = ..., declaracao_repaired: _Optional[bool] = ...) -> None: ...

class DraftFailure(_message.Message):
    __slots__ = ("reason", "validation_error")
    REASON_FIELD_NUMBER: _ClassVar[int]
    VALIDATION_ERROR_FIELD_NUMBER: _ClassVar[int]
    reason: str
    validation_error: str
    def __init__(self, reason: _Optional[str] = ..., validation_error: _Optional[str] = ...) -> None: ...

class VetoGuidance(_message.Message):
    __slots__ = ("gate", "guidance")
    GATE_FIELD_NUMBER: _ClassVar[int]
    GUIDANCE_FIELD_NUMBER: _ClassVar[int]
    gate: str
    guidance: str
    def __init__(self, gate: _Optional[str] = ..., guidance: _Optional[str] = ...) -> None: ...

class ConversationMessage(_message.Message):
    __slots__ = ("author", "text", "attachment_note", "sent_at")
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ATTACHMENT_NOTE_FIELD_NUMBER: _ClassVar[int]
    SENT_AT_FIELD_NUMBER: _ClassVar[int]
    author: Author
    text: str
    attachment_note: str
    sent_at: _timestamp_pb2.Timestamp
    def __init__(self, author: _Optional[_Union[Author, str]] = ..., text: _Optional[str] = ..., attachment_note: _Optional[str] = ..., sent_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ProactiveReason(_message.Message):
    __slots__ = ("kind", "reason")
    KIND_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    kind: ProactiveKind
    reason: str
    def __init__(self, kind: _Optional[_Union[ProactiveKind, str]] = ..., reason: _Optional[str] = ...) -> None: ...

class Tape(_message.Message):
    __slots__ = ("steps",)
    STEPS_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[TapeStep]
    def __init__(self, steps: _Optional[_Iterable[_Union[TapeStep, _Mapping]]] = ...) -> None: ...

class TapeStep(_message.Message):
    __slots__ = ("attempt", "index", "messages")
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    index: int
    messages: _containers.RepeatedCompositeFieldContainer[TapeMessage]
    def __init__(self, attempt: _Optional[int] = ..., index: _Optional[int] = ..., messages: _Optional[_Iterable[_Union[TapeMessage, _Mapping]]] = ...) -> None: ...

class TapeMessage(_message.Message):
    __slots__ = ("role", "parts")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    PARTS_FIELD_NUMBER: _ClassVar[int]
    role: TapeRole
    parts: _containers.RepeatedCompositeFieldContainer[TapePart]
    def __init__(self, role: _Optional[_Union[TapeRole, str]] = ..., parts: _Optional[_Iterable[_Union[TapePart, _Mapping]]] = ...) -> None: ...

class TapePart(_message.Message):
    __slots__ = ("text", "tool_call", "tool_result")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    text: str
    tool_call: ToolCall
    tool_result: ToolResult
    def __init__(self, text: _Optional[str] = ..., tool_call: _Optional[_Union[ToolCall, _Mapping]] = ..., tool_result: _Optional[_Union[ToolResult, _Mapping]] = ...) -> None: ...

class ToolCall(_message.Message):
    __slots__ = ("call_id", "tool_name", "arguments_json")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    tool_name: str
    arguments_json: str
    def __init__(self, call_id: _Optional[str] = ..., tool_name: _Optional[str] = ..., arguments_json: _Optional[str] = ...) -> None: ...

class ToolResult(_message.Message):
    __slots__ = ("call_id", "tool_name", "content", "is_error")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    IS_ERROR_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    tool_name: str
    content: str
    is_error: bool
    def __init__(self, call_id: _Optional[str] = ..., tool_name: _Optional[str] = ..., content: _Optional[str] = ..., is_error: _Optional[bool] = ...) -> None: ...

class ModelUsage(_message.Message):
    __slots__ = ("purpose", "provider", "model", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_READ_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_WRITE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    purpose: ModelCallPurpose
    provider: str
    model: str
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    def __init__(self, purpose: _Optional[_Union[ModelCallPurpose, str]] = ..., provider: _Optional[str] = ..., model: _Optional[str] = ..., input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cache_read_tokens: _Optional[int] = ..., cache_write_tokens: _Optional[int] = ...) -> None: ...

class CloseRequest(_message.Message):
    __slots__ = ("organization_id", "contact_id", "turn_id", "new_messages", "tape", "sent", "declaracao", "previous_checkpoint", "agenda", "agenda_unknown")
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CONTACT_ID_FIELD_NUMBER: _ClassVar[int]
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    NEW_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    TAPE_FIELD_NUMBER: _ClassVar[int]
    SENT_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    AGENDA_FIELD_NUMBER: _ClassVar[int]
    AGENDA_UNKNOWN_FIELD_NUMBER: _ClassVar[int]
    organization_id: str
    contact_id: str
    turn_id: str
    new_messages: _containers.RepeatedCompositeFieldContainer[ConversationMessage]
    tape: Tape
    sent: SentReply
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    previous_checkpoint: CheckpointContent
    agenda: _projection_pb2.AppointmentsView
    agenda_unknown: AgendaUnknown
    def __init__(self, organization_id: _Optional[str] = ..., contact_id: _Optional[str] = ..., turn_id: _Optional[str] = ..., new_messages: _Optional[_Iterable[_Union[ConversationMessage, _Mapping]]] = ..., tape: _Optional[_Union[Tape, _Mapping]] = ..., sent: _Optional[_Union[SentReply, _Mapping]] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ..., previous_checkpoint: _Optional[_Union[CheckpointContent, _Mapping]] = ..., agenda: _Optional[_Union[_projection_pb2.AppointmentsView, _Mapping]] = ..., agenda_unknown: _Optional[_Union[AgendaUnknown, _Mapping]] = ...) -> None: ...

class CloseResponse(_message.Message):
    __slots__ = ("checkpoint", "failure", "usage", "corrected", "summary_condensed")
    CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    CORRECTED_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_CONDENSED_FIELD_NUMBER: _ClassVar[int]
    checkpoint: CheckpointContent
    failure: CloseFailure
    usage: _containers.RepeatedCompositeFieldContainer[ModelUsage]
    corrected: bool
    summary_condensed: bool
    def __init__(self, checkpoint: _Optional[_Union[CheckpointContent, _Mapping]] = ..., failure: _Optional[_Union[CloseFailure, _Mapping]] = ..., usage: _Optional[_Iterable[_Union[ModelUsage, _Mapping]]] = ..., corrected: _Optional[bool] = ..., summary_condensed: _Optional[bool] = ...) -> None: ...

class CheckpointContent(_message.Message):
    __slots__ = ("rolling_summary", "commitments", "objections", "next_action", "declaracao")
    ROLLING_SUMMARY_FIELD_NUMBER: _ClassVar[int]
    COMMITMENTS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_ACTION_FIELD_NUMBER: _ClassVar[int]
    DECLARACAO_FIELD_NUMBER: _ClassVar[int]
    rolling_summary: str
    commitments: _containers.RepeatedScalarFieldContainer[str]
    objections: _containers.RepeatedScalarFieldContainer[str]
    next_action: str
    declaracao: _declaracao_pb2.DeclaracaoDoTurno
    def __init__(self, rolling_summary: _Optional[str] = ..., commitments: _Optional[_Iterable[str]] = ..., objections: _Optional[_Iterable[str]] = ..., next_action: _Optional[str] = ..., declaracao: _Optional[_Union[_declaracao_pb2.DeclaracaoDoTurno, _Mapping]] = ...) -> None: ...

class SentReply(_message.Message):
    __slots__ = ("text", "delivered", "holding_reply")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DELIVERED_FIELD_NUMBER: _ClassVar[int]
    HOLDING_REPLY_FIELD_NUMBER: _ClassVar[int]
    text: str
    delivered: bool
    holding_reply: bool
    def __init__(self, text: _Optional[str] = ..., delivered: _Optional[bool] = ..., holding_reply: _Optional[bool] = ...) -> None: ...

class AgendaUnknown(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class CloseFailure(_message.Message):
    __slots__ = ("reason", "validation_error")
    REASON_FIELD_NUMBER: _ClassVar[int]
    VALIDATION_ERROR_FIELD_NUMBER: _ClassVar[int]
    reason: str
    validation_error: str
    def __init__(self, reason: _Optional[str] = ..., validation_error: _Optional[str] = ...) -> None: ...
