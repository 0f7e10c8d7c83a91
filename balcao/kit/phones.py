"""Customers' phone numbers: the one rule every service applies, and which part of a JID is a phone.

A number is accepted when `phonenumbers` finds it *valid* (not merely possible): the crm stored
contacts under that rule from the start, so taking it everywhere changes no stored value, and a
number the edge or the gateway accepts is always one the crm accepts too. The result is E.164:

- written with a `+`, or a WhatsApp phone JID's user part (`5511…@s.whatsapp.net`, `:device`
  suffix dropped): the digits carry their country code;
- otherwise the digits are read the national way for `default_region` (Brazil unless told), and
  when that is not even a possible national number, as digits with the country code in front
  (`5511987654321` is how JIDs and many spreadsheets write it);
- a Brazilian number with an area code and eight digits starting 6–9 is a mobile from before the
  ninth digit (2012–2016; WhatsApp still reports old accounts that way, a 12-digit JID): it gets
  its 9, so `+55 11 8765-4321` and `+55 11 98765-4321` are one customer. Landlines (2–5) stay.

Letters, extensions and anything but digits, spaces and `+ - ( ) . /` are refused, as are JIDs on
other servers (`@lid` is a hidden-number identity, `@g.us` a group). `InvalidPhone` says what was
wrong; the caller prefixes the name of its own field (`phone`, `message.phone`, …).
"""

from __future__ import annotations

from functools import lru_cache

import phonenumbers

DEFAULT_REGION = "BR"
PHONE_SERVERS = ("s.whatsapp.net", "c.us")
LID_SERVERS = ("lid", "hosted.lid")
EXAMPLE = "+5511987654321 or (11) 98765-4321"

_SEPARATORS = frozenset("+-()./\u2010\u2011\u2012\u2013\u2014\u2212")  # the dashes word processors type
_MAX_CHARS = 40
_MIN_DIGITS, _MAX_DIGITS = 8, 15  # E.164 allows 15; nothing shorter than 8 is a customer's number
_BRAZIL = 55


class InvalidPhone(ValueError):
    """Not a phone number a customer can have; `str()` is `'<raw>' <why>`, ready for a field name."""

    def __init__(self, raw: str, why: str) -> None:
        shown = raw if len(raw) <= _MAX_CHARS else raw[:_MAX_CHARS] + "…"
        super().__init__(f"{shown!r} {why}")
        self.raw = raw

    def naming(self, field: str) -> str:
        """The sentence for an error about `field`: `phone '123' is not a phone number (…)`."""
        return f"{field} {self}"


def jid_server(jid: str) -> str:
    return jid.rsplit("@", 1)[1].lower() if "@" in jid else ""


def jid_user(jid: str) -> str:
    """The user part without the device suffix (`5511…:12@s.whatsapp.net` → `5511…`)."""
    return jid.split("@", 1)[0].split(":", 1)[0]


def is_phone_jid(jid: str) -> bool:
    return jid_server(jid) in PHONE_SERVERS and jid_user(jid).isdigit()


def is_lid(jid: str) -> bool:
    return jid_server(jid) in LID_SERVERS


def _first_digit(text: str) -> int:
    return next(i for i, ch in enumerate(text) if ch.isdigit())


@lru_cache(maxsize=65_536)  # a conversation is many messages from one number; parsing is the costly part
def normalize_phone(raw: str, default_region: str = DEFAULT_REGION) -> str:
    """`raw` (any common spelling, or a phone JID) → E.164; `InvalidPhone` otherwise."""
    text = raw.strip()
    if not text:
        raise InvalidPhone(raw, "is empty")
    from_jid = "@" in text
    if from_jid:
        if not is_phone_jid(text):
            raise InvalidPhone(raw, "is not a phone-number JID (expected e.g. 5511987654321@s.whatsapp.net)")
        text = jid_user(text)
    if len(text) > _MAX_CHARS or any(not (ch.isdigit() or ch.isspace() or ch in _SEPARATORS) for ch in text):
        raise InvalidPhone(raw, f"is not a phone number (expected e.g. {EXAMPLE})")
    digits = "".join(ch for ch in text if ch.isdigit())
    if not _MIN_DIGITS <= len(digits) <= _MAX_DIGITS:
        raise InvalidPhone(raw, f"is not a phone number (it has {len(digits)} digits; expected e.g. {EXAMPLE})")
    region = (default_region.strip() or DEFAULT_REGION).upper()
    try:
        if from_jid or "+" in text[: _first_digit(text)]:
            number = phonenumbers.parse("+" + digits, region)
        else:
            number = phonenumbers.parse(digits, region)
            if not phonenumbers.is_possible_number(number):
                number = phonenumbers.parse("+" + digits, region)  # the country code written without its +
    except phonenumbers.NumberParseException:
        raise InvalidPhone(raw, f"is not a phone number (expected e.g. {EXAMPLE})") from None
    national = str(number.national_number)
    if number.country_code == _BRAZIL and len(national) == 10 and national[2] in "6789":
        number = phonenumbers.parse(f"+55{national[:2]}9{national[2:]}", None)
    if not phonenumbers.is_valid_number(number):
        raise InvalidPhone(raw, f"is not a valid phone number (expected e.g. {EXAMPLE})")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
