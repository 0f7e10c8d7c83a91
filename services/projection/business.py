"""The organisation's business facts and the answering unit, as the owner wrote them.

BusinessFacts come from the organisation's public profile and the commercial facts the owner
authorised (prices, offers, free items, guarantees), one sentence each. The unit view is the
published agent configuration's unit (the one the controller chose, or the default) with the
titles of the skill references it may read.
"""

from __future__ import annotations

import functools
import re

import phonenumbers

from balcao.crm.v1 import crm_read_pb2, crm_resources_pb2
from balcao.projection.v1 import projection_pb2 as out
from services.projection.allowlist import allowed
from services.projection.labels import MONTHS, instant, zone, zone_label


def money_text(money: crm_resources_pb2.Money) -> str:
    """R$ 1.234,56 (other currencies as '<code> 1.234,56'); '' when the currency is not ISO-4217."""
    currency = money.currency.strip().upper() or "BRL"
    if not re.fullmatch(r"[A-Z]{3}", currency):
        return ""
    units, cents = divmod(abs(money.amount_minor), 100)
    number = f"{units:,}".replace(",", ".") + f",{cents:02d}"
    sign = "-" if money.amount_minor < 0 else ""
    return f"{sign}R$ {number}" if currency == "BRL" else f"{sign}{currency} {number}"


@functools.lru_cache(maxsize=1024)
def _phone(e164: str) -> str:
    try:
        number = phonenumbers.parse(e164, "BR")
    except phonenumbers.NumberParseException:
        return ""
    if not phonenumbers.is_possible_number(number):
        return ""
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


def _price(entry: crm_resources_pb2.PriceEntry) -> str:
    amount = money_text(entry.price)
    if not amount:
        return ""
    text = f"{entry.item.strip()}: {amount}"
    if entry.conditions.strip():
        text += f" ({entry.conditions.strip()})"
    if entry.max_instalments > 1:
        text += f", em até {entry.max_instalments}x"
    return text


def _offer(offer: crm_resources_pb2.Offer, zone_name: str) -> str:
    text = offer.description.strip()
    if offer.subject.strip():
        text = f"{offer.subject.strip()}: {text}"
    ends = instant(offer.valid_until)
    if ends is not None:
        local = ends.astimezone(zone(zone_name))
        text += f" (válida até {local.day} de {MONTHS[local.month - 1]} de {local.year})"
    return text


def project_business(organization: crm_resources_pb2.Organization) -> out.BusinessFacts:
    return business_facts(allowed(organization))


def business_facts(organization: crm_resources_pb2.Organization) -> out.BusinessFacts:
    """BusinessFacts of an organisation that already went through the allowlist."""
    profile = organization.settings.business
    commercial = organization.settings.commercial
    zone_name = organization.time_zone
    phones = [p for p in (_phone(x) for x in profile.public_phones) if p]
    return out.BusinessFacts(
        organization_name=profile.display_name.strip() or organization.name.strip(),
        opening_hours=profile.opening_hours_text.strip(),
        addresses=[profile.address.strip()] if profile.address.strip() else [],
        public_contacts=[*phones, *profile.public_emails, *profile.websites],
        authorised_commercial_facts=[
            *(price for price in (_price(p) for p in commercial.prices if p.item.strip()) if price),
            *(_offer(o, zone_name) for o in commercial.offers if o.description.strip()),
            *(f"Gratuito: {item}" for item in commercial.free_items if item.strip()),
            *(f"Garantia autorizada: {g}" for g in commercial.guarantees if g.strip()),
        ],
        facts=[f for f in (profile.description.strip(), *profile.public_documents) if f],
        time_zone_label=zone_label(zone_name),
    )


def project_unit(
    agent: crm_read_pb2.GetAgentConfigurationResponse,
    unit_id: str,
    references: crm_read_pb2.ListKnowledgeArticlesResponse,
) -> out.UnitView:
    agent = allowed(agent)
    view = out.UnitView()
    if agent.found:
        configuration = agent.version.configuration
        wanted = unit_id or configuration.default_unit_id
        unit = next((u for u in configuration.units if u.unit_id == wanted), None)
        if unit is not None:
            view.name = unit.name
            view.voice = unit.conversador.voice
            view.instructions = unit.conversador.instructions
            unit_id = unit.unit_id
    for article in allowed(references).articles:
        visible = article.published and article.unit_id in ("", unit_id)
        if visible and article.kind == crm_resources_pb2.KNOWLEDGE_KIND_SKILL_REFERENCE and article.title.strip():
            view.skill_references.add(title=article.title.strip(), when_useful=article.when_useful.strip())
    return view
