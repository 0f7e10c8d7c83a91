"""The context one review gives every gate: the message, the organisation's configuration, now.

Built once per review so that folding the text, merging the organisation's authorised facts with
the request's and resolving the time zone happen once, not once per gate. (Plain lazy attributes
rather than `functools.cached_property`, which takes a lock on every first access in 3.11: the
chain's whole budget is a couple hundred microseconds.)
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from services.seguranca.facts import (
    CATALOG_KINDS,
    DEFAULT_TIME_ZONE,
    INITIATED_KINDS,
    AuthorisedFacts,
    OrganizationConfig,
    Outbound,
    PublicContacts,
)
from services.seguranca.text import Folded
from services.seguranca.vocabulary import VocabularyIndex

_CATALOG_KINDS = tuple(CATALOG_KINDS)
_INITIATED_KINDS = tuple(INITIATED_KINDS)


class Context:
    __slots__ = (
        "_authorised",
        "_notable",
        "_notable_words",
        "_public_contacts",
        "_text",
        "_zone",
        "body",
        "catalog_text",
        "config",
        "initiated",
        "now",
        "outbound",
        "vocabulary",
    )

    def __init__(
        self,
        config: OrganizationConfig,
        outbound: Outbound,
        now: datetime,
        vocabulary: VocabularyIndex,
        notable: frozenset[str] | None = None,
    ):
        """`notable`: every word some gate looks for in a message (the chain's `NOTABLE_WORDS` and
        the contract names); None means all of a message's words are kept."""
        if now.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        self.config = config
        self.outbound = outbound
        self.now = now
        self.vocabulary = vocabulary
        # The body as the gates so far left it (disclosure may inject into it).
        self.body = outbound.draft
        # Texts the owner wrote for the reply catalog; messages the agent starts itself. (Tuples: a
        # member is found by identity, where a set would call the enum's Python-level __hash__.)
        self.catalog_text = outbound.kind in _CATALOG_KINDS
        self.initiated = outbound.kind in _INITIATED_KINDS
        self._text: Folded | None = None
        self._notable = notable
        self._notable_words: frozenset[str] | None = None
        self._zone: ZoneInfo | None = None
        self._authorised: AuthorisedFacts | None = None
        self._public_contacts: PublicContacts | None = None

    @property
    def text(self) -> Folded:
        if self._text is None:
            self._text = Folded(self.outbound.draft)
        return self._text

    @property
    def notable_words(self) -> frozenset[str]:
        """The message's words that some gate looks for: one set intersection per message, after
        which every gate's "does the message say any of these words?" reads a handful of words
        instead of the whole message's. (Gates intersect it only with word sets inside `notable`.)"""
        if self._notable_words is None:
            words = self.text.token_set
            self._notable_words = words & self._notable if self._notable is not None else words
        return self._notable_words

    @property
    def zone(self) -> ZoneInfo:
        if self._zone is None:
            self._zone = ZoneInfo(self.config.time_zone or self.outbound.time_zone or DEFAULT_TIME_ZONE)
        return self._zone

    @property
    def authorised(self) -> AuthorisedFacts:
        if self._authorised is None:
            self._authorised = self.config.authorised.merged(self.outbound.authorised)
        return self._authorised

    @property
    def public_contacts(self) -> PublicContacts:
        if self._public_contacts is None:
            self._public_contacts = self.config.public_contacts.merged(self.outbound.public_contacts)
        return self._public_contacts
