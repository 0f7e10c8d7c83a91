"""The gateway's own records, as plain data: what the repository reads and the runtime uses.

No gRPC and no SQL here. Status and outcome names are the lower-case forms stored in the
`gateway` schema; `service.py` maps them to the proto enums.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

# Turn statuses (gateway.turns.status).
QUEUED = "queued"
RUNNING = "running"
WAITING = "waiting"
RETRYING = "retrying"
DONE = "done"
FAILED = "failed"
UNFINISHED = (QUEUED, RUNNING, WAITING, RETRYING)

# Turn stages: how far an attempt got; a retry resumes from the stage.
STAGE_NEW = "new"
STAGE_DRAFTED = "drafted"  # a reviewed-or-waiting candidate is kept in `progress`
STAGE_SENT = "sent"  # the reply left (or failed for good): never sent again, only closed

# Turn outcomes (gateway.turns.outcome), named after the gateway proto's TurnOutcome.
REPLIED = "replied"
HOLDING_REPLY = "holding_reply"
FIXED_REPLY = "fixed_reply"
PLAN_EXPIRED = "plan_expired"
HANDOFF = "handoff"
OPT_OUT_CONFIRMED = "opt_out_confirmed"
SAFE_REPLY = "safe_reply"
SILENT = "silent"
NOT_DELIVERED = "not_delivered"

# Ledger statuses (gateway.outbound_parts.status).
PART_SENDING = "sending"
PART_SENT = "sent"
PART_FAILED = "failed"


@dataclass(frozen=True, slots=True)
class NewInbound:
    """A normalised inbound message, ready to store."""

    organization_id: UUID
    channel: str
    channel_instance: str
    sender_key: str
    phone: str
    message_id: str
    jid: str
    message_type: str
    text: str
    attachment_note: str
    details: dict[str, Any]
    sender_name: str
    from_business: bool
    sent_at: datetime | None

    @property
    def reply_to(self) -> str:
        return self.jid or self.phone or self.sender_key


@dataclass(frozen=True, slots=True)
class Inbound:
    """A stored inbound message."""

    inbound_id: UUID
    contact_id: UUID
    seq: int
    channel: str
    text: str
    attachment_note: str
    message_type: str
    from_business: bool
    sent_at: datetime | None
    received_at: datetime
    turn_id: UUID | None
    # A fixed pt-BR reply the edge chose for content the agent cannot take (an audio without a
    # transcript, an unsupported type): sent, reviewed, instead of a draft.
    auto_reply_pt: str = ""


@dataclass(slots=True)
class Conversation:
    """A contact's conversation state, as the controller and the worker see it."""

    organization_id: UUID
    contact_id: UUID
    channel: str
    channel_instance: str
    reply_to: str
    phone: str
    route: str
    reply_key: str
    requirements: dict[str, Any]
    pending: dict[str, Any] | None
    payload: dict[str, Any]
    transient: dict[str, Any]
    last_seq: int
    watermark: int
    due_at: datetime | None
    opt_out_confirmed_at: datetime | None
    last_inbound_at: datetime | None


@dataclass(slots=True)
class Turn:
    """One turn, inbound or proactive, with its attempts and what GetTurn reports."""

    organization_id: UUID
    turn_id: UUID
    contact_id: UUID
    trigger: str
    trigger_detail: dict[str, Any]
    idempotency_key: str | None
    status: str
    outcome: str
    stage: str
    attempts: int
    next_attempt_at: datetime | None
    last_error: str
    trace_id: str
    unit_id: str
    inbound_upto: int
    waiting_until: datetime | None
    detail_pt: str
    result: dict[str, Any]
    progress: dict[str, Any]
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None

    @property
    def finished(self) -> bool:
        return self.status in (DONE, FAILED)


@dataclass(frozen=True, slots=True)
class Part:
    """One row of the send ledger."""

    turn_id: UUID
    part_index: int
    kind: str
    body: str
    body_sha256: str
    status: str
    attempts: int
    provider_message_id: str
    sent_at: datetime | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Claim:
    """A replica's lease on one contact's turns."""

    organization_id: UUID
    contact_id: UUID
    token: UUID


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One earlier message of the conversation, for the Conversador."""

    author: str  # "customer", "agent", "team"
    text: str
    note: str
    at: datetime | None


@dataclass(frozen=True, slots=True)
class SendingStats:
    """What the ledger knows about recent sends, for Segurança's `pacing` and `repetition`."""

    from_sender: list[tuple[str, datetime]] = field(default_factory=list)
    to_contact: list[tuple[str, datetime]] = field(default_factory=list)
    sent_today_from_sender: int = 0
    sender_active_since: datetime | None = None
    ever_sent_to_contact: bool = False


# The channel instance of "Testar" (RunTestTurn) conversations: the test channel records instead
# of sending, and their turns write no memory and raise no `turn_closed` (the Operador never acts).
# Suffixes say how the test runs: `+rascunho` on the draft configuration, `+operador` with the
# real closing, so the Operador processes the turn's `turn_closed` event as in production.
TESTAR_INSTANCE = "testar"
TESTAR_DRAFT = "+rascunho"
TESTAR_OPERADOR = "+operador"


def testar_instance(*, draft: bool, operador: bool) -> str:
    return TESTAR_INSTANCE + (TESTAR_DRAFT if draft else "") + (TESTAR_OPERADOR if operador else "")


def testar_flags(instance: str) -> tuple[bool, bool]:
    """(draft, operador) of a "Testar" instance name."""
    rest = instance.removeprefix(TESTAR_INSTANCE)
    return TESTAR_DRAFT in rest, TESTAR_OPERADOR in rest

