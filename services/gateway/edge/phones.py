"""Phones and WhatsApp JIDs: which part of a JID is a phone, and the one E.164 form of a number.

A JID's user part is a phone only on the phone-number servers (`@s.whatsapp.net`, legacy
`@c.us`); a `@lid` is a hidden-number identity and never a phone. Brazilian mobiles may still be
registered without the ninth digit (a 12-digit JID); the canonical form restores it so the same
customer has one key whichever form WhatsApp used. The JID itself is kept as received for
replying (the reference's §6: WhatsApp's own form is the one that delivers).
"""

from __future__ import annotations

from functools import lru_cache

import phonenumbers

PHONE_SERVERS = ("s.whatsapp.net", "c.us")
LID_SERVERS = ("lid", "hosted.lid")


class InvalidPhone(ValueError):
    """Not a phone number (the text says what was given)."""


def jid_server(jid: str) -> str:
    return jid.rsplit("@", 1)[1].lower() if "@" in jid else ""


def jid_user(jid: str) -> str:
    """The user part without the device suffix (`5511…:12@s.whatsapp.net` → `5511…`)."""
    return jid.split("@", 1)[0].split(":", 1)[0]


def is_phone_jid(jid: str) -> bool:
    return jid_server(jid) in PHONE_SERVERS and jid_user(jid).isdigit()


def is_lid(jid: str) -> bool:
    return jid_server(jid) in LID_SERVERS


@lru_cache(maxsize=65_536)  # a conversation is many messages from one number; parsing is the costly part
def normalize_phone(raw: str) -> str:
    """E.164, Brazil by default, the mobile ninth digit restored; `InvalidPhone` otherwise."""
    text = raw.strip()
    from_jid = "@" in text
    if from_jid:
        if not is_phone_jid(text):
            raise InvalidPhone(f"{raw!r} is not a phone-number JID")
        text = jid_user(text)
    if not text or len(text) > 40:
        raise InvalidPhone(f"{raw!r} is not a phone number")
    digits = "".join(ch for ch in text if ch.isdigit())
    if not digits or any(not (ch.isdigit() or ch in " +-().") for ch in text):
        raise InvalidPhone(f"{raw!r} is not a phone number")
    if from_jid or text.startswith("+") or (text.isdigit() and digits.startswith("55") and len(digits) >= 12):
        candidate = "+" + digits  # written with the country code (a JID's user part always is)
    else:
        candidate = digits  # a Brazilian number written the national way
    try:
        number = phonenumbers.parse(candidate, "BR")
    except phonenumbers.NumberParseException:
        raise InvalidPhone(f"{raw!r} is not a phone number") from None
    national = str(number.national_number)
    if number.country_code == 55 and len(national) == 10 and national[2] in "6789":
        # An old-style mobile (area code + 8 digits starting 6-9): WhatsApp still delivers such
        # JIDs for accounts registered before the ninth digit.
        number = phonenumbers.parse(f"+55{national[:2]}9{national[2:]}", None)
    if not phonenumbers.is_possible_number(number):
        raise InvalidPhone(f"{raw!r} is not a possible phone number")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
