"""Phone numbers in E.164, as the crm stores them.

Normalised with `phonenumbers`. Brazilian mobiles gained a ninth digit (a leading 9 after the
area code) between 2012 and 2016, and WhatsApp still reports many old accounts without it:
`+55 11 8765-4321` and `+55 11 98765-4321` are the same person. Any Brazilian number with an
area code and eight digits starting with 6–9 (the old mobile ranges; landlines start with 2–5)
gets the 9, so both spellings meet on one contact.
"""

from __future__ import annotations

import re

import phonenumbers

from services.crm.errors import InvalidArgument

_BRAZIL = 55
_NON_DIGITS = re.compile(r"\D")


def normalize_phone(raw: str, default_region: str = "", field: str = "phone") -> str:
    """`raw` in any common format (a JID's user part too) → E.164, or InvalidArgument."""
    region = (default_region or "BR").upper()
    text = raw.strip()
    if not text:
        raise InvalidArgument(f"{field} is required")
    if "@" in text:  # a WhatsApp JID such as 5511987654321:12@s.whatsapp.net
        text = text.split("@", 1)[0].split(":", 1)[0]
    number = _parse(text, region, field)
    if number.country_code == _BRAZIL:
        national = str(number.national_number)
        if len(national) == 10 and national[2] in "6789":
            number = phonenumbers.parse(f"+55{national[:2]}9{national[2:]}")
    if not phonenumbers.is_valid_number(number):
        raise InvalidArgument(
            f"{field} {raw!r} is not a valid phone number (expected e.g. +5511987654321 or (11) 98765-4321)"
        )
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _parse(text: str, region: str, field: str) -> phonenumbers.PhoneNumber:
    digits = _NON_DIGITS.sub("", text)
    if len(digits) < 8 or len(digits) > 15:
        raise InvalidArgument(f"{field} {text!r} is not a phone number (it has {len(digits)} digits)")
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException as exc:
        raise InvalidArgument(f"{field} {text!r} is not a phone number: {exc}") from None
    if not phonenumbers.is_possible_number(number) and not text.startswith("+"):
        # Digits only with the country code in front ("5511987654321", a JID's user part).
        try:
            number = phonenumbers.parse(f"+{digits}")
        except phonenumbers.NumberParseException:
            pass
    return number


def phone_from_jid(jid: str) -> str | None:
    """The phone a phone JID (`…@s.whatsapp.net`) carries; None for LIDs and groups."""
    if not jid.endswith("@s.whatsapp.net"):
        return None
    return jid.split("@", 1)[0].split(":", 1)[0]
