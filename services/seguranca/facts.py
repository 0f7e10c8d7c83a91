"""What the chain judges: one outgoing message and the facts of that one send, as plain data.

Frozen dataclasses with no gRPC in them, so the chain is pure domain code and unit tests build
these directly. `service.py` fills them from the request; `organizations.py` fills the
organisation's configuration (`OrganizationConfig`) from crm's settings.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime, time


class OutboundKind(enum.Enum):
    """What kind of outgoing message is judged; some gates judge only some kinds."""

    REPLY = "reply"
    FOLLOWUP = "followup"
    PROACTIVE = "proactive"
    HANDOFF = "handoff"
    HOLDING_REPLY = "holding_reply"
    FIXED_REPLY = "fixed_reply"
    SAFE_REPLY = "safe_reply"
    OPT_OUT_CONFIRMATION = "opt_out_confirmation"


# Messages the agent starts itself (nobody just wrote): quiet hours, caps and the per-contact
# interval apply to them, and a first one to a stranger needs a legal basis.
INITIATED_KINDS = frozenset({OutboundKind.FOLLOWUP, OutboundKind.PROACTIVE})
# Texts the owner wrote once in the reply catalog (menu, expired plan, safe reply, opt-out
# confirmation): the gates that judge what a model wrote (promises, claims, repetition) do not
# apply to them; the leak, data, disclosure and format gates still do.
CATALOG_KINDS = frozenset({OutboundKind.FIXED_REPLY, OutboundKind.SAFE_REPLY, OutboundKind.OPT_OUT_CONFIRMATION})


class DisclosureMode(enum.Enum):
    """How the first message to a contact is made to say it comes from a virtual assistant."""

    INJECT = "inject"
    VETO = "veto"


@dataclass(frozen=True, slots=True)
class Contact:
    """The recipient, as the runtime read it right before the review."""

    phone: str = ""
    name: str = ""
    email: str = ""
    cpf: str = ""
    opted_out: bool = False
    blocked: bool = False
    human_owned: bool = False
    anonymised: bool = False
    first_contact: bool = False
    legal_basis_recorded: bool = False
    human_case_open: bool = False
    opt_out_confirmation_sent: bool = False
    last_inbound_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Channel:
    name: str = ""
    has_service_window: bool = False
    # 0 means no limit.
    max_text_chars: int = 0
    sender: str = ""


@dataclass(frozen=True, slots=True)
class SentMessage:
    text: str
    sent_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class History:
    # Newest first.
    from_sender: tuple[SentMessage, ...] = ()
    to_contact: tuple[SentMessage, ...] = ()
    sent_today_from_sender: int = 0
    sender_active_since: datetime | None = None


@dataclass(frozen=True, slots=True)
class ConfirmedBooking:
    """A confirmed, future booking of the contact (pending ones never get here)."""

    starts_at: datetime
    time_zone: str
    ends_at: datetime | None = None
    local_label: str = ""
    service: str = ""
    professional: str = ""
    place: str = ""


@dataclass(frozen=True, slots=True)
class ToolResult:
    tool_name: str
    result_text: str


@dataclass(frozen=True, slots=True)
class Evidence:
    bookings: tuple[ConfirmedBooking, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()
    agenda_readable: bool = False
    agenda_consulted: bool = False


@dataclass(frozen=True, slots=True)
class Declaracao:
    """The part of the turn's declaração the gates read."""

    # The customer asked for a person in this turn (categoria PEDE_HUMANO).
    pede_humano: bool = False
    # What the agent declared it promised, in business language.
    promessas: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AuthorisedFacts:
    """The commercial statements the owner authorises, reduced to the values the gate compares."""

    price_cents: frozenset[int] = frozenset()
    discount_cents: frozenset[int] = frozenset()
    discount_percents: frozenset[int] = frozenset()
    # Most instalments authorised anywhere; 0 or 1 means none.
    max_instalments: int = 0
    # True when any discount is authorised at all (lets a discount mentioned without a value pass).
    any_discount: bool = False
    # What is authorised as free / guaranteed, as the owner wrote it.
    free_items: tuple[str, ...] = ()
    guarantees: tuple[str, ...] = ()
    # Free text of authorised offers (values in them are parsed too).
    texts: tuple[str, ...] = ()

    def merged(self, other: AuthorisedFacts) -> AuthorisedFacts:
        if not (
            other.price_cents
            or other.discount_cents
            or other.discount_percents
            or other.max_instalments
            or other.any_discount
            or other.free_items
            or other.guarantees
            or other.texts
        ):
            return self  # the usual request brings nothing: the organisation's facts stand alone
        return AuthorisedFacts(
            price_cents=self.price_cents | other.price_cents,
            discount_cents=self.discount_cents | other.discount_cents,
            discount_percents=self.discount_percents | other.discount_percents,
            max_instalments=max(self.max_instalments, other.max_instalments),
            any_discount=self.any_discount or other.any_discount,
            free_items=self.free_items + other.free_items,
            guarantees=self.guarantees + other.guarantees,
            texts=self.texts + other.texts,
        )


@dataclass(frozen=True, slots=True)
class PublicContacts:
    phones: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    documents: tuple[str, ...] = ()

    def merged(self, other: PublicContacts) -> PublicContacts:
        if not (other.phones or other.emails or other.documents):
            return self
        return PublicContacts(self.phones + other.phones, self.emails + other.emails, self.documents + other.documents)


@dataclass(frozen=True, slots=True)
class Outbound:
    """One outgoing message and every fact of this one send."""

    draft: str
    kind: OutboundKind = OutboundKind.REPLY
    attempt: int = 1
    declaracao: Declaracao | None = None
    contact: Contact = field(default_factory=Contact)
    channel: Channel = field(default_factory=Channel)
    # The organisation's zone as the request states it; the configured zone wins when set.
    time_zone: str = ""
    public_contacts: PublicContacts = field(default_factory=PublicContacts)
    authorised: AuthorisedFacts = field(default_factory=AuthorisedFacts)
    history: History = field(default_factory=History)
    evidence: Evidence = field(default_factory=Evidence)


@dataclass(frozen=True, slots=True)
class PacingRules:
    quiet_start: time | None = None
    quiet_end: time | None = None
    daily_cap: int = 0
    warmup_initial_cap: int = 0
    warmup_days: int = 0
    per_contact_min_interval_seconds: int = 0


DEFAULT_TIME_ZONE = "America/Sao_Paulo"


@dataclass(frozen=True, slots=True)
class OrganizationConfig:
    """One organisation's configuration of the chain, read from its settings in crm.

    `gates_enabled` holds only what the owner set; a gate absent from it runs with its default
    (the model reviewer off, the rest on). `stop` is always on whatever the map says.
    """

    gates_enabled: tuple[tuple[str, bool], ...] = ()
    business_name: str = ""
    time_zone: str = ""
    disclosure_mode: DisclosureMode = DisclosureMode.INJECT
    disclosure_text: str = ""
    pacing: PacingRules = field(default_factory=PacingRules)
    vocabulary_additions: tuple[str, ...] = ()
    public_contacts: PublicContacts = field(default_factory=PublicContacts)
    authorised: AuthorisedFacts = field(default_factory=AuthorisedFacts)
    inbound_classifier_enabled: bool = False

    @classmethod
    def with_gates(cls, **switches: bool) -> OrganizationConfig:
        """A default configuration with some gates switched (tests, the bench)."""
        return cls(gates_enabled=tuple(sorted(switches.items())))
