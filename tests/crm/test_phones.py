"""Phone normalisation (E.164, the Brazilian ninth digit), CPF and time zone validation, as units."""

from __future__ import annotations

import pytest

from services.crm.cpf import normalize_cpf
from services.crm.errors import InvalidArgument
from services.crm.phones import normalize_phone, phone_from_jid
from services.crm.timezones import validate_time_zone


@pytest.mark.parametrize(
    "raw",
    [
        "+55 11 98765-4321",
        "+55 11 8765-4321",  # the same mobile before the ninth digit
        "(11) 98765-4321",
        "11 8765-4321",
        "5511987654321",  # a JID's user part: digits with the country code
        "551187654321",  # the same, as old WhatsApp accounts report it
        "5511987654321:17@s.whatsapp.net",
    ],
)
def test_every_spelling_of_one_mobile_meets_on_one_number(raw: str) -> None:
    assert normalize_phone(raw) == "+5511987654321"


def test_a_landline_keeps_its_eight_digits() -> None:
    assert normalize_phone("(11) 3333-4444") == "+551133334444"


def test_a_foreign_number_with_its_country_code() -> None:
    assert normalize_phone("+1 212 555 0100") == "+12125550100"


def test_the_default_region_applies_to_numbers_without_a_country_code() -> None:
    assert normalize_phone("212 555 0100", "US") == "+12125550100"


@pytest.mark.parametrize(
    "raw", ["abc", "123", "+55 11 1234", "99999999999999", "   ", "+55 20 98765-4321", "5511987654321@lid"]
)
def test_a_malformed_phone_is_refused_with_a_message_naming_it(raw: str) -> None:
    with pytest.raises(InvalidArgument, match="phone"):
        normalize_phone(raw)


def test_only_phone_jids_carry_a_phone() -> None:
    assert phone_from_jid("5511987654321@s.whatsapp.net") == "5511987654321"
    assert phone_from_jid("5511987654321:3@c.us") == "5511987654321"  # the legacy server, as the edge reads it
    assert phone_from_jid("123456789012345@lid") is None
    assert phone_from_jid("120363025246125486@g.us") is None


def test_cpf_is_stored_as_digits_and_its_check_digits_are_verified() -> None:
    assert normalize_cpf("529.982.247-25") == "52998224725"
    for bad in ("529.982.247-24", "111.111.111-11", "1234"):
        with pytest.raises(InvalidArgument, match="CPF"):
            normalize_cpf(bad)


def test_only_iana_time_zones_are_accepted() -> None:
    assert validate_time_zone("America/Sao_Paulo") == "America/Sao_Paulo"
    for bad in ("Mars/Olympus", "GMT-3 Brasília", "america/sao_paulo", ""):
        with pytest.raises(InvalidArgument, match="IANA"):
            validate_time_zone(bad)
