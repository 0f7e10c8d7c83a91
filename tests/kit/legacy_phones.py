"""The three phone rules as they were before `balcao.kit.phones` (frozen copies, test oracle only).

`tests/kit/test_phones.py` checks that every number all three accepted is still accepted and
normalises to the value they stored, so no contact, conversation or delivery key changes. Each
function returns the E.164 string or raises `ValueError`. Do not "fix" these: they are history.
"""

from __future__ import annotations

import re

import phonenumbers


def _is_phone_jid(jid: str) -> bool:
    server = jid.rsplit("@", 1)[1].lower() if "@" in jid else ""
    return server in ("s.whatsapp.net", "c.us") and jid.split("@", 1)[0].split(":", 1)[0].isdigit()


def edge(raw: str) -> str:
    """services/gateway/edge/phones.py `normalize_phone` (is_possible_number)."""
    text = raw.strip()
    from_jid = "@" in text
    if from_jid:
        if not _is_phone_jid(text):
            raise ValueError(raw)
        text = text.split("@", 1)[0].split(":", 1)[0]
    if not text or len(text) > 40:
        raise ValueError(raw)
    digits = "".join(ch for ch in text if ch.isdigit())
    if not digits or any(not (ch.isdigit() or ch in " +-().") for ch in text):
        raise ValueError(raw)
    if from_jid or text.startswith("+") or (text.isdigit() and digits.startswith("55") and len(digits) >= 12):
        candidate = "+" + digits
    else:
        candidate = digits
    try:
        number = phonenumbers.parse(candidate, "BR")
    except phonenumbers.NumberParseException:
        raise ValueError(raw) from None
    national = str(number.national_number)
    if number.country_code == 55 and len(national) == 10 and national[2] in "6789":
        number = phonenumbers.parse(f"+55{national[:2]}9{national[2:]}", None)
    if not phonenumbers.is_possible_number(number):
        raise ValueError(raw)
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def gateway(raw: str) -> str:
    """services/gateway/inbound.py `normalise_phone` (SubmitInbound; is_possible_number)."""
    text = raw.strip()
    if "@" in text:
        text = text.split("@", 1)[0].split(":", 1)[0]
    digits = "".join(ch for ch in text if ch.isdigit())
    if not digits:
        raise ValueError(raw)
    if text.startswith("+"):
        candidate = "+" + digits
    elif digits.startswith("55") and len(digits) >= 12:
        candidate = "+" + digits
    else:
        candidate = digits
    try:
        number = phonenumbers.parse(candidate, "BR")
    except phonenumbers.NumberParseException:
        raise ValueError(raw) from None
    national = str(number.national_number)
    if number.country_code == 55 and len(national) == 10 and national[2] in "6789":
        number = phonenumbers.parse(f"+55{national[:2]}9{national[2:]}", None)
    if not phonenumbers.is_possible_number(number):
        raise ValueError(raw)
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


_NON_DIGITS = re.compile(r"\D")


def crm(raw: str, default_region: str = "") -> str:
    """services/crm/phones.py `normalize_phone` (UpsertContact, FindContactByPhone; is_valid_number)."""
    region = (default_region or "BR").upper()
    text = raw.strip()
    if not text:
        raise ValueError(raw)
    if "@" in text:
        text = text.split("@", 1)[0].split(":", 1)[0]
    digits = _NON_DIGITS.sub("", text)
    if len(digits) < 8 or len(digits) > 15:
        raise ValueError(raw)
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        raise ValueError(raw) from None
    if not phonenumbers.is_possible_number(number) and not text.startswith("+"):
        try:
            number = phonenumbers.parse(f"+{digits}")
        except phonenumbers.NumberParseException:
            pass
    if number.country_code == 55:
        national = str(number.national_number)
        if len(national) == 10 and national[2] in "6789":
            number = phonenumbers.parse(f"+55{national[:2]}9{national[2:]}")
    if not phonenumbers.is_valid_number(number):
        raise ValueError(raw)
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
