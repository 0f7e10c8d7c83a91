"""Where an organisation's gate configuration comes from: its settings in crm.

`CrmOrganizations` reads `CrmReadService/GetOrganization` for a review unless the caller says
which revision of the organisation it works with (`organization_updated_at`, the gateway's copy)
and Segurança already holds that one or a newer one: a switch the owner flips applies to the next
message whose caller has seen it, and a caller that names no revision always gets crm's latest.
`config_from_organization` turns crm's raw `Organization` into the frozen `OrganizationConfig` the chain takes. A static
source serves tests and the benchmark.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, time
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import grpc

from balcao.crm.v1 import crm_read_pb2, crm_read_pb2_grpc, crm_resources_pb2
from services.seguranca.chain import GATE_NAMES
from services.seguranca.facts import (
    AuthorisedFacts,
    DisclosureMode,
    OrganizationConfig,
    PacingRules,
    PublicContacts,
)

# How long a settings read may take before the review fails (never approves).
READ_TIMEOUT_SECONDS = 5.0
_CLOCK = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


class OrganizationNotFound(Exception):
    """crm does not know the organisation."""


class OrganizationsUnavailable(Exception):
    """crm could not be read; the review fails rather than approve without configuration."""


class InvalidSettings(Exception):
    """The organisation's settings cannot be used as they are (a clock time that is not HH:MM, …)."""


class OrganizationSource(Protocol):
    async def get(
        self, organization_id: str, now: datetime, seen: datetime | None = None
    ) -> OrganizationConfig: ...


def _clock(value: str, field: str) -> time | None:
    if not value.strip():
        return None
    match = _CLOCK.match(value.strip())
    if match is None:
        raise InvalidSettings(f"pacing.{field} must be HH:MM, got {value!r}")
    return time(int(match.group(1)), int(match.group(2)))


def _authorised(commercial: crm_resources_pb2.CommercialFacts, now: datetime) -> AuthorisedFacts:
    prices = {
        p.price.amount_minor for p in commercial.prices if p.HasField("price") and p.price.currency in ("", "BRL")
    }
    discount_cents: set[int] = set()
    discount_percents: set[int] = set()
    texts: list[str] = []
    any_offer = False
    for offer in commercial.offers:
        if offer.HasField("valid_until") and offer.valid_until.ToDatetime(tzinfo=UTC) < now:
            continue  # an expired offer authorises nothing
        any_offer = True
        if offer.discount_percent:
            discount_percents.add(offer.discount_percent)
        if offer.HasField("discount_amount") and offer.discount_amount.amount_minor:
            discount_cents.add(offer.discount_amount.amount_minor)
        if offer.description:
            texts.append(offer.description)
    return AuthorisedFacts(
        price_cents=frozenset(prices),
        discount_cents=frozenset(discount_cents),
        discount_percents=frozenset(discount_percents),
        max_instalments=max((p.max_instalments for p in commercial.prices), default=0),
        any_discount=any_offer,
        free_items=tuple(commercial.free_items),
        guarantees=tuple(commercial.guarantees),
        texts=tuple(texts),
    )


def _switches(gates_enabled: Mapping[str, bool]) -> tuple[tuple[str, bool], ...]:
    # A name the chain does not know (a gate of a newer version) is ignored, not an error:
    # settings outlive chain versions.
    return tuple(sorted((name, bool(on)) for name, on in gates_enabled.items() if name in GATE_NAMES))


def config_from_organization(organization: crm_resources_pb2.Organization, now: datetime) -> OrganizationConfig:
    settings = organization.settings
    seguranca = settings.seguranca
    pacing = settings.pacing
    business = settings.business
    if organization.time_zone:
        try:
            ZoneInfo(organization.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise InvalidSettings(f"time_zone {organization.time_zone!r} is not an IANA zone") from None
    veto = seguranca.disclosure_mode == crm_resources_pb2.DISCLOSURE_MODE_VETO
    return OrganizationConfig(
        gates_enabled=_switches(seguranca.gates_enabled),
        business_name=business.display_name or organization.name,
        time_zone=organization.time_zone,
        disclosure_mode=DisclosureMode.VETO if veto else DisclosureMode.INJECT,
        disclosure_text=seguranca.disclosure_text,
        pacing=PacingRules(
            quiet_start=_clock(pacing.quiet_hours_start, "quiet_hours_start"),
            quiet_end=_clock(pacing.quiet_hours_end, "quiet_hours_end"),
            daily_cap=max(0, pacing.daily_cap_per_number),
            warmup_initial_cap=max(0, pacing.warmup_initial_daily_cap),
            warmup_days=max(0, pacing.warmup_days),
            per_contact_min_interval_seconds=max(0, pacing.per_contact_min_interval_seconds),
        ),
        vocabulary_additions=tuple(t for t in settings.internal_vocabulary_additions if t.strip()),
        public_contacts=PublicContacts(
            phones=tuple(business.public_phones),
            emails=tuple(business.public_emails),
            documents=tuple(business.public_documents),
        ),
        authorised=_authorised(settings.commercial, now),
        inbound_classifier_enabled=seguranca.inbound_classifier_enabled,
    )


class CrmOrganizations:
    """Reads the organisation from crm, or reuses the last copy read when the caller's is not newer.

    Only crm's raw `Organization` is kept: the configuration is built for every review, because it
    depends on the moment (an offer past its `valid_until` authorises nothing).
    """

    # Organisations kept at most; beyond, the copies are dropped and read again when needed.
    MAX_KEPT = 4096

    def __init__(self, channel: grpc.aio.Channel) -> None:
        self._stub = crm_read_pb2_grpc.CrmReadServiceStub(channel)
        # organisation → (its `updated_at`, the organisation as crm answered).
        self._kept: dict[str, tuple[datetime, crm_resources_pb2.Organization]] = {}

    async def get(self, organization_id: str, now: datetime, seen: datetime | None = None) -> OrganizationConfig:
        kept = self._kept.get(organization_id)
        if seen is not None and kept is not None and kept[0] >= seen:
            return config_from_organization(kept[1], now)
        try:
            response = await self._stub.GetOrganization(
                crm_read_pb2.GetOrganizationRequest(organization_id=organization_id), timeout=READ_TIMEOUT_SECONDS
            )
        except grpc.aio.AioRpcError as exc:
            if exc.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
                raise OrganizationNotFound(organization_id) from None
            raise OrganizationsUnavailable(f"crm answered {exc.code().name}: {exc.details()}") from None
        organization = response.organization
        config = config_from_organization(organization, now)  # invalid settings are never kept
        if organization.HasField("updated_at"):
            revision = organization.updated_at.ToDatetime(tzinfo=UTC)
            kept = self._kept.get(organization_id)
            if kept is None or kept[0] <= revision:  # a slower read of an older copy never wins
                if len(self._kept) >= self.MAX_KEPT:
                    self._kept.clear()
                self._kept[organization_id] = (revision, organization)
        return config


class StaticOrganizations:
    """A fixed set of configurations (tests, the benchmark)."""

    def __init__(self, configs: Mapping[str, OrganizationConfig]) -> None:
        self._configs = dict(configs)

    async def get(self, organization_id: str, now: datetime, seen: datetime | None = None) -> OrganizationConfig:
        try:
            return self._configs[organization_id]
        except KeyError:
            raise OrganizationNotFound(organization_id) from None
