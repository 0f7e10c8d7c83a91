"""`commercial_promise`: prices compared by value, discounts, instalments, gratuity, guarantees."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.seguranca.facts import (
    AuthorisedFacts,
    ConfirmedBooking,
    OrganizationConfig,
    OutboundKind,
    ToolResult,
)
from services.seguranca.gates import commercial_promise
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate, with_evidence

CLINIC = OrganizationConfig(
    authorised=AuthorisedFacts(
        price_cents=frozenset({28000, 128050}),
        discount_percents=frozenset({10}),
        max_instalments=3,
        any_discount=True,
        free_items=("avaliação gratuita",),
        texts=("10% na primeira consulta",),
    )
)
NOTHING = OrganizationConfig()


def _check(draft: str, config: OrganizationConfig = CLINIC, **fields: object) -> str:
    result = gate(commercial_promise.check, draft, config=config, **fields)
    return result.code if result.status is Status.VETOED else "passed"


@pytest.mark.parametrize(
    "draft",
    [
        "A consulta custa R$ 280.",
        "A consulta custa R$ 280,00.",
        "A consulta custa R$280,00 à vista.",
        "São 280 reais a consulta.",
        "A consulta sai por 280,00 reais.",
        "O tratamento completo fica em R$ 1.280,50.",
        "Você tem 10% de desconto na primeira consulta.",
        "Dá para parcelar em até 3x no cartão.",
        "A avaliação é gratuita.",
        "Infelizmente não temos desconto e não parcelamos.",
        "A consulta não é gratuita.",
        "Seu horário está garantido.",
        "Para garantir seu horário, confirme até amanhã.",
        "As sessões são 2 vezes por semana.",
        "Posso te ajudar com mais alguma coisa?",
    ],
)
def test_authorised_or_ordinary_statements_pass(draft: str) -> None:
    assert _check(draft) == "passed"


@pytest.mark.parametrize(
    ("draft", "code"),
    [
        ("A consulta custa R$ 250.", "commercial_promise:price_not_authorised"),
        ("A consulta custa R$ 280,01.", "commercial_promise:price_not_authorised"),
        ("São 300 reais.", "commercial_promise:price_not_authorised"),
        ("Consigo R$ 2 mil no pacote.", "commercial_promise:price_not_authorised"),
        ("Te dou 15% de desconto.", "commercial_promise:discount_not_authorised"),
        ("Tem R$ 50 de desconto no Pix.", "commercial_promise:discount_not_authorised"),
        ("Parcelamos em 10x sem juros.", "commercial_promise:instalments_not_authorised"),
        ("A consulta é grátis.", "commercial_promise:gratuity_not_authorised"),
        ("O retorno é sem custo.", "commercial_promise:gratuity_not_authorised"),
        ("Garantimos o resultado em 30 dias.", "commercial_promise:guarantee_not_authorised"),
        ("O clareamento funciona 100%.", "commercial_promise:guarantee_not_authorised"),
    ],
)
def test_statements_the_owner_did_not_authorise_are_vetoed(draft: str, code: str) -> None:
    assert _check(draft) == code


def test_with_no_authorised_facts_any_commercial_statement_is_vetoed() -> None:
    assert _check("Temos uma promoção especial!", NOTHING) == "commercial_promise:discount_not_authorised"
    assert _check("Dá para parcelar, sim.", NOTHING) == "commercial_promise:instalments_not_authorised"
    assert _check("A avaliação é gratuita.", NOTHING) == "commercial_promise:gratuity_not_authorised"


def test_several_kinds_at_once_are_counted_each() -> None:
    result = gate(commercial_promise.check, "É grátis e ainda te dou 20% de desconto.", config=CLINIC)
    assert result.code == "commercial_promise:not_authorised"
    assert dict(result.counts) == {"gratuity": 1, "discount": 1}


def test_no_booking_authorises_a_price_or_a_gratuity() -> None:
    booking = ConfirmedBooking(datetime(2026, 3, 10, 13, 0, tzinfo=UTC), "America/Sao_Paulo", service="Limpeza")
    evidence = with_evidence(bookings=(booking,))
    assert _check("Sua limpeza de terça custa R$ 199.", evidence=evidence) == "commercial_promise:price_not_authorised"
    assert _check("Sua limpeza de terça é grátis.", evidence=evidence) == "commercial_promise:gratuity_not_authorised"


def test_an_amount_a_read_tool_returned_is_a_record_not_a_promise() -> None:
    evidence = with_evidence(tool_results=(ToolResult("get_lead_context", "Pedido 4412: total R$ 403,00, pago."),))
    assert _check("O total do seu pedido foi R$ 403,00.", evidence=evidence) == "passed"
    assert _check("O total do seu pedido foi R$ 403,00.") == "commercial_promise:price_not_authorised"


def test_an_expired_or_unrelated_free_item_does_not_back_another_gratuity() -> None:
    assert _check("A consulta é gratuita.") == "commercial_promise:gratuity_not_authorised"


def test_catalog_texts_are_the_owners_own_words() -> None:
    result = gate(commercial_promise.check, "Consulta: R$ 999", config=CLINIC, kind=OutboundKind.FIXED_REPLY)
    assert result.status is Status.NOT_APPLICABLE
