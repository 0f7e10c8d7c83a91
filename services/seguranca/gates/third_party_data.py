"""`third_party_data`: phones, e-mails and CPFs of someone who is neither the contact nor the business.

- phones are read with `phonenumbers` (region BR) and compared in E.164, the Brazilian ninth
  digit both ways; a bare run of digits counts as a phone only when it is written like one
  ("(11) 91234-5678", "+55 …"), is a mobile number by shape (DDD + 9 + eight digits), or sits
  next to a phone word — so an order number the customer gave is not a phone;
- e-mails by form (WhatsApp JIDs are the leak detector's business, not an e-mail);
- CPFs by their check digits: an invalid CPF-shaped number is not a CPF.
The contact's own phone, e-mail and CPF pass, and so do the organisation's public contacts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

import phonenumbers

from services.seguranca.context import Context
from services.seguranca.text import digits
from services.seguranca.verdict import PASSED, GateResult, vetoed

NAME = "third_party_data"

GUIDANCE = (
    "A mensagem traz telefone, e-mail ou CPF de outra pessoa: passar dados de quem não autorizou "
    "expõe essa pessoa. Retire esses dados; se o cliente precisar de um contato, ofereça só os "
    "canais públicos da empresa."
)

_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b")
_JID_DOMAINS = ("s.whatsapp.net", "g.us", "c.us", "lid", "broadcast")
# Runs of digits with the separators phones and CPFs are written with; each run is then judged.
_DIGIT_RUN = re.compile(r"\d[\d\s().-]{6,22}\d")
# The same runs in Latin-1 text (nearly every pt-BR message), where `\d` can only be 0-9: with a
# plain class first, the regex engine skips the rest of a long message several times faster.
# Every class is spelled with 0-9 (Latin-1 holds no other decimal digit), which the engine tests
# faster than the `\d` category.
_DIGIT_RUN_LATIN1 = re.compile(r"[0-9][0-9\s().-]{6,22}[0-9]")
_CPF = re.compile(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}")
_CPF_WRITTEN = re.compile(r"\d{3}\.\d{3}\.\d{3}-\d{2}")
_PHONE = re.compile(r"(?:\+\s?\d{1,3}[\s.-]?)?(?:\(\s?\d{2,3}\s?\)\s?|\d{2,3}[\s.-]?)?\d{4,5}[\s.-]?\d{4}(?!\d)")
_PHONE_WORDS = re.compile(r"(?i)\b(?:tel|telefone|fone|celular|cel|whats|whatsapp|zap|ligue|ligar|liga|contato)\b")
_ORDER_WORDS = re.compile(
    r"(?i)\b(?:pedido|protocolo|n[º°]|n\.|nota|nf|ordem|c[oó]digo|rastreio|cpf|cnpj|boleto|conta|ag[eê]ncia|"
    r"matr[ií]cula|cart[aã]o)\W*$"
)
_DDD = frozenset(
    {
        11,
        12,
        13,
        14,
        15,
        16,
        17,
        18,
        19,
        21,
        22,
        24,
        27,
        28,
        31,
        32,
        33,
        34,
        35,
        37,
        38,
        41,
        42,
        43,
        44,
        45,
        46,
        47,
        48,
        49,
        51,
        53,
        54,
        55,
        61,
        62,
        63,
        64,
        65,
        66,
        67,
        68,
        69,
        71,
        73,
        74,
        75,
        77,
        79,
        81,
        82,
        83,
        84,
        85,
        86,
        87,
        88,
        89,
        91,
        92,
        93,
        94,
        95,
        96,
        97,
        98,
        99,
    }
)


def valid_cpf(value: str) -> bool:
    """True for an 11-digit number whose two check digits are right (and not all one digit)."""
    numbers = [int(c) for c in digits(value)]
    if len(numbers) != 11 or len(set(numbers)) == 1:
        return False
    for size in (9, 10):
        total = sum(n * w for n, w in zip(numbers[:size], range(size + 1, 1, -1), strict=True))
        check = (total * 10) % 11 % 10
        if check != numbers[size]:
            return False
    return True


def _national_variants(national: str) -> set[str]:
    """A Brazilian national number with and without the mobile ninth digit."""
    keys = {national}
    if len(national) == 11 and national[2] == "9":
        keys.add(national[:2] + national[3:])
    elif len(national) == 10 and national[2] in "6789":
        keys.add(national[:2] + "9" + national[2:])
    return keys


@lru_cache(maxsize=1024)
def phone_keys(value: str) -> frozenset[str]:
    """Every digit string under which `value` (a phone in any format) is recognised."""
    raw = digits(value)
    if not raw:
        return frozenset()
    keys = {raw}
    try:
        number = phonenumbers.parse(value, "BR")
    except phonenumbers.NumberParseException:
        return frozenset(keys)
    national = str(number.national_number)
    country = str(number.country_code)
    if country == "55":
        for variant in _national_variants(national):
            keys.update({variant, "55" + variant, "0" + variant})
    else:
        keys.update({country + national, national})
    return frozenset(keys)


def _is_phone_shaped(candidate: str, before: str) -> bool:
    raw = digits(candidate)
    formatted = any(c in candidate for c in "()+-. ")
    if formatted:
        return len(raw) >= 10 or bool(_PHONE_WORDS.search(before[-30:]))
    if len(raw) == 11 and int(raw[:2]) in _DDD and raw[2] == "9":
        return True
    if len(raw) in (12, 13) and raw.startswith("55"):
        return True
    return bool(_PHONE_WORDS.search(before[-30:]))


def _phone_is_valid(candidate: str) -> bool:
    try:
        number = phonenumbers.parse(candidate, "BR")
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(number) or phonenumbers.is_possible_number(number)


# Which Latin-1 characters a digit run is made of ("c": the class of `_DIGIT_RUN_LATIN1`, asked of the
# pattern itself) and which end one ("x"). In that shape the stretches where a run of eight or more
# characters can be are found by `bytes.find`, and the pattern only reads those stretches.
_RUN_CHAR = re.compile(r"[0-9\s().-]")
_RUN_SHAPE = bytes(ord("c") if _RUN_CHAR.fullmatch(chr(b)) else ord("x") for b in range(256))
_SHORTEST_RUN = b"c" * 8  # the pattern's shortest match


def _latin1_digit_runs(text: str, latin1: bytes) -> Iterator[re.Match[str]]:
    """`_DIGIT_RUN_LATIN1.finditer(text)`, reading only the stretches of run characters long enough.

    A match is made of run characters only, so it lies inside one maximal stretch of them, and
    the pattern has no look-around: searching each stretch long enough, in order, finds the same
    matches as searching the whole text.
    """
    shape = latin1.translate(_RUN_SHAPE)
    at = shape.find(_SHORTEST_RUN)
    while at != -1:
        end = shape.find(b"x", at + len(_SHORTEST_RUN))
        if end == -1:
            end = len(shape)
        yield from _DIGIT_RUN_LATIN1.finditer(text, at, end)
        at = shape.find(_SHORTEST_RUN, end)


def _candidates(text: str) -> list[tuple[int, str]]:
    """Digit runs that may be a CPF or a phone, with a "+" or "(" right before them included."""
    out: list[tuple[int, str]] = []
    try:
        runs = _latin1_digit_runs(text, text.encode("latin-1"))
    except UnicodeEncodeError:
        runs = _DIGIT_RUN.finditer(text)
    for m in runs:
        start = m.start()
        if start and text[start - 1] in "+(":
            start -= 1
            if start and text[start - 1] == "+":
                start -= 1
        run = text[start : m.end()]
        if start and (text[start - 1].isalnum() or text[start - 1] in ",.$"):
            continue  # part of a word, an amount or an id
        out.append((start, run.rstrip(" .-(")))
    return out


def check(ctx: Context) -> GateResult:
    text = ctx.outbound.draft
    contact = ctx.outbound.contact
    public = ctx.public_contacts
    found: dict[str, int] = {}

    if "@" in text:
        own = {contact.email.lower()} | {e.lower() for e in public.emails}
        for m in _EMAIL.finditer(text):
            address = m.group(0).lower()
            if address.endswith(_JID_DOMAINS) or address in own:
                continue
            found["email"] = found.get("email", 0) + 1

    candidates = _candidates(text)
    if candidates:
        own_documents = _own_documents(contact.cpf, public.documents)
        allowed = _allowed_phones(contact.phone, public.phones)
        for start, run in candidates:
            for piece in _pieces(run):
                kind = _judge(piece, text[max(0, start - 40) : start], allowed, own_documents)
                if kind:
                    found[kind] = found.get(kind, 0) + 1

    if not found:
        return PASSED
    return vetoed(NAME, "personal_data", GUIDANCE, counts=found)


@lru_cache(maxsize=1024)
def _allowed_phones(phone: str, public_phones: tuple[str, ...]) -> frozenset[str]:
    """Every key of the contact's phone and the organisation's public phones (the same every review)."""
    allowed: set[str] = set()
    for value in (phone, *public_phones):
        allowed |= phone_keys(value)
    return frozenset(allowed)


@lru_cache(maxsize=1024)
def _own_documents(cpf: str, documents: tuple[str, ...]) -> frozenset[str]:
    """The contact's CPF and the organisation's public documents, as digits (the same every review)."""
    return frozenset({digits(cpf)} | {digits(d) for d in documents})


def _pieces(run: str) -> list[str]:
    """A run may hold two numbers ("(11) 3456-7890 / 91234-5678"): the phone- and CPF-shaped parts."""
    if _CPF.fullmatch(run.strip()):
        return [run.strip()]
    return [m.group(0) for m in _PHONE.finditer(run)] or ([run] if _CPF.search(run) else [])


def _judge(piece: str, before: str, allowed: frozenset[str], own_documents: frozenset[str]) -> str | None:
    """ "cpf", "phone" or None (not personal data, or the contact's own, or public)."""
    raw = digits(piece)
    if len(raw) == 11 and _CPF.fullmatch(piece.strip()) and valid_cpf(raw):
        return None if raw in own_documents else "cpf"
    if _CPF_WRITTEN.fullmatch(piece.strip()):
        return None  # written as a CPF but its check digits are wrong: not a CPF, and not a phone
    if raw in allowed or (raw.startswith("55") and raw[2:] in allowed):
        return None
    if _ORDER_WORDS.search(before) or not _is_phone_shaped(piece, before):
        return None
    if not _phone_is_valid(piece) or phone_keys(piece) & allowed:
        return None
    return "phone"
