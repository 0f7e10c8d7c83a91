"""Builders for the seguranca tests: one outgoing message with sensible defaults, reviewed."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

from services.seguranca.chain import Chain
from services.seguranca.context import Context
from services.seguranca.facts import (
    AuthorisedFacts,
    Channel,
    Contact,
    Evidence,
    OrganizationConfig,
    Outbound,
)
from services.seguranca.verdict import GateResult, Verdict
from services.seguranca.vocabulary import contract_index

# A Thursday afternoon in São Paulo (15:00 local).
NOW = datetime(2026, 3, 5, 18, 0, tzinfo=UTC)
CLINIC = OrganizationConfig(
    business_name="Clínica Sorriso",
    time_zone="America/Sao_Paulo",
    authorised=AuthorisedFacts(price_cents=frozenset({28000})),
)
CHAIN = Chain(vocabulary=contract_index())


def outbound(draft: str, **fields: Any) -> Outbound:
    fields.setdefault("contact", Contact(phone="+5511912345678"))
    fields.setdefault("channel", Channel(name="whatsapp_evolution", max_text_chars=4096, sender="+551130000000"))
    return Outbound(draft=draft, **fields)


async def review(
    draft: str,
    config: OrganizationConfig = CLINIC,
    now: datetime = NOW,
    chain: Chain = CHAIN,
    **fields: Any,
) -> Verdict:
    return await chain.review(config, outbound(draft, **fields), now)


def gate(check: Any, draft: str, config: OrganizationConfig = CLINIC, now: datetime = NOW, **fields: Any) -> GateResult:
    """Run one gate alone on one message."""
    return check(Context(config, outbound(draft, **fields), now, contract_index()))


def with_contact(**changes: Any) -> Contact:
    return dataclasses.replace(Contact(phone="+5511912345678"), **changes)


def with_evidence(**changes: Any) -> Evidence:
    return dataclasses.replace(Evidence(), **changes)
