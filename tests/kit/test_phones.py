"""One phone rule for every service: what it accepts, what it stores, and that nothing stored moves.

The oracle for "nothing moves" is `tests/kit/legacy_phones.py`, frozen copies of the three rules
the edge, the gateway's SubmitInbound and the crm applied before: every number all three accepted
must still be accepted and give the very value they stored (contacts' `phone_e164`, the
conversations' `phone`, the delivery keys).
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balcao.kit.phones import InvalidPhone, is_lid, is_phone_jid, jid_user, normalize_phone
from tests.gateway.edge.evolution_fixtures import fixture_paths
from tests.kit import legacy_phones

_JID = re.compile(r"[0-9:]+@(?:s\.whatsapp\.net|c\.us)")


def _legacy(raw: str) -> list[str | None]:
    values: list[str | None] = []
    for rule in (legacy_phones.edge, legacy_phones.gateway, legacy_phones.crm):
        try:
            values.append(rule(raw))
        except ValueError:
            values.append(None)
    return values


def _fixture_jids() -> list[str]:
    found: set[str] = set()
    for path in fixture_paths():
        found.update(_JID.findall(json.dumps(json.loads(path.read_text(encoding="utf-8")))))
    return sorted(found)


# Every number the existing tests, the demo and the benches send, in the spellings they use, with
# the value stored for it. (The `+55119…` generators of the suites are covered by the property test.)
KNOWN = {
    "+5511987654321": "+5511987654321",
    "+55 11 98765-4321": "+5511987654321",
    "+55 11 8765-4321": "+5511987654321",
    "+5511 8765-4321": "+5511987654321",
    "(11) 98765-4321": "+5511987654321",
    "(11) 8765-4321": "+5511987654321",
    "11 8765-4321": "+5511987654321",
    "5511987654321": "+5511987654321",
    "551187654321": "+5511987654321",
    "551187654321@s.whatsapp.net": "+5511987654321",
    "5511987654321:17@s.whatsapp.net": "+5511987654321",
    "+5511912345678": "+5511912345678",
    "5511912345678@s.whatsapp.net": "+5511912345678",
    "5521998765432@s.whatsapp.net": "+5521998765432",
    "5519987654321@s.whatsapp.net": "+5519987654321",
    "553188887777@s.whatsapp.net": "+5531988887777",
    "5531988887777@s.whatsapp.net": "+5531988887777",
    "551133334444@s.whatsapp.net": "+551133334444",
    "(11) 3333-4444": "+551133334444",
    "+551134567890": "+551134567890",
    "+551130000000": "+551130000000",
    "+558130000000": "+558130000000",
    "+551932345678": "+551932345678",
    "+551933334444": "+551933334444",
    "+5511987650000": "+5511987650000",
    "+5511933334444": "+5511933334444",
    "+5519998877665": "+5519998877665",
    "+5511999990000": "+5511999990000",
    "+12125550100": "+12125550100",
    "+1 212 555 0100": "+12125550100",
    "+14155550123": "+14155550123",
    "+12015550100": "+12015550100",  # a "Testar" customer (+1 NXX 555-01XX)
}


@pytest.mark.parametrize(("raw", "stored"), sorted(KNOWN.items()))
def test_every_number_in_use_keeps_its_stored_value(raw: str, stored: str) -> None:
    assert normalize_phone(raw) == stored
    assert set(_legacy(raw)) == {stored}, "the table must only hold numbers all three old rules stored alike"


@pytest.mark.parametrize("jid", _fixture_jids())
def test_every_phone_jid_of_the_evolution_fixtures_keeps_its_stored_value(jid: str) -> None:
    (stored,) = set(_legacy(jid))
    assert stored is not None
    assert normalize_phone(jid) == stored


def test_the_fixtures_hold_phone_jids() -> None:
    assert len(_fixture_jids()) >= 4  # the parametrised test above is not vacuous


_ddd = st.integers(min_value=11, max_value=99).map(str)
_subscriber = st.one_of(
    st.integers(min_value=10**8, max_value=10**9 - 1),  # nine digits (a mobile today)
    st.integers(min_value=10**7, max_value=10**8 - 1),  # eight (a landline, or a mobile before the 9)
).map(str)
_brazilian = st.builds(
    lambda ddd, sub, spelling, dash: spelling.format(d=ddd, s=(f"{sub[:-4]}-{sub[-4:]}" if dash else sub)),
    _ddd,
    _subscriber,
    st.sampled_from(
        ["+55 {d} {s}", "({d}) {s}", "55{d}{s}", "{d} {s}", "{d}{s}", "+55{d}{s}", "0{d} {s}", "0XX{d} {s}"]
    ),
    st.booleans(),
) | st.builds(lambda ddd, sub, device: f"55{ddd}{sub}{device}@s.whatsapp.net", _ddd, _subscriber,
              st.sampled_from(["", ":3", ":17"]))
_digits = st.builds(
    lambda plus, d: plus + d, st.sampled_from(["", "+"]), st.text("0123456789", min_size=6, max_size=16)
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_brazilian, _digits))
def test_what_all_three_old_rules_accepted_is_accepted_and_stored_the_same(raw: str) -> None:
    old = _legacy(raw)
    if None in old:
        return  # refused by at least one: a contact could not have been stored under it
    assert len(set(old)) == 1
    assert normalize_phone(raw) == old[0]


@settings(max_examples=200, deadline=None)
@given(_brazilian)
def test_the_stored_form_and_its_jid_give_the_same_number_again(raw: str) -> None:
    try:
        stored = normalize_phone(raw)
    except InvalidPhone:
        return
    assert normalize_phone(stored) == stored
    assert normalize_phone(stored.removeprefix("+") + "@s.whatsapp.net") == stored
    # …and crm, before, accepted every number the rule accepts now in Brazil (no new kind of key).
    assert legacy_phones.crm(stored) == stored


def test_a_foreign_jid_keeps_its_country_code() -> None:
    # The old rules disagreed here: SubmitInbound read these digits as a Brazilian number
    # (+55 14 15555-0123), crm refused them, the edge took the JID's country code. The edge was right.
    assert _legacy("14155550123@s.whatsapp.net") == ["+14155550123", "+5514155550123", None]
    assert normalize_phone("14155550123@s.whatsapp.net") == "+14155550123"


def test_the_ninth_digit_is_restored_for_old_mobiles_only() -> None:
    assert normalize_phone("553188887777@s.whatsapp.net") == "+5531988887777"
    assert normalize_phone("(31) 3888-7777") == "+553138887777"  # a landline keeps its eight digits


def test_the_default_region_reads_national_numbers() -> None:
    assert normalize_phone("(212) 555-0100", "US") == "+12125550100"
    assert normalize_phone("(212) 555-0100", "us") == "+12125550100"
    assert normalize_phone("(21) 2555-0100") == "+552125550100"
    assert normalize_phone("+55 21 2555-0100", "US") == "+552125550100"  # a country code wins


def test_a_possible_but_invalid_number_is_refused() -> None:
    # What the edge and SubmitInbound used to accept and crm refused: no area code 20 in Brazil,
    # and no subscriber number starting with 1 in São Paulo.
    for raw in ("+5520987654321", "5520987654321@s.whatsapp.net", "+551112345678", "(11) 1234-5678"):
        with pytest.raises(InvalidPhone, match="not a valid phone number"):
            normalize_phone(raw)


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("", "is empty"),
        ("   ", "is empty"),
        ("abc", "not a phone number"),
        ("11 98765-4321 ramal 2", "not a phone number"),
        ("123", "it has 3 digits"),
        ("+55 11 98765-4321 0000000", "it has 20 digits"),
        ("103899771998284@lid", "not a phone-number JID"),
        ("120363042534567890@g.us", "not a phone-number JID"),
        ("5511987654321", None),
    ],
)
def test_bad_input_says_what_is_wrong(raw: str, why: str | None) -> None:
    if why is None:
        assert normalize_phone(raw) == "+5511987654321"
        return
    with pytest.raises(InvalidPhone, match=why) as caught:
        normalize_phone(raw)
    assert caught.value.naming("message.phone").startswith(f"message.phone {raw!r}")


def test_a_long_input_is_not_echoed_whole() -> None:
    with pytest.raises(InvalidPhone) as caught:
        normalize_phone("9" * 5000)
    assert len(str(caught.value)) < 200


def test_jids() -> None:
    assert is_phone_jid("5511987654321:12@s.whatsapp.net") and is_phone_jid("5511987654321@c.us")
    assert not is_phone_jid("103899771998284@lid") and not is_phone_jid("120363042534567890@g.us")
    assert is_lid("103899771998284@lid") and not is_lid("5511987654321@s.whatsapp.net")
    assert jid_user("5511987654321:12@s.whatsapp.net") == "5511987654321"
