"""The second barrier: after projection, every text is scanned by shape (DESIGN.md §3 rule 2).

The allowlist already keeps id fields out; this scan catches an identifier that rode inside a
text the allowlist lets through (a summary quoting a UUID, a note with a JID, a timeline line
carrying an error code). It fails closed: a string field that carries one is dropped whole (a
repeated element is removed), the event is logged with the field's path and the shape, never
the value, and counted.

Shapes, each chosen so that pt-BR business text does not match it:
- uuid:        8-4-4-4-12 hex, with or without hyphens;
- hex_id:      12+ hex characters mixing digits and letters (hashes, provider ids);
- numeric_id:  a run of 7+ digits (phones, CPFs, database ids, epoch seconds); shorter numbers
               are prices, years and quantities, indistinguishable by shape from an id;
- jid:         a WhatsApp JID (…@s.whatsapp.net, …@g.us, …@lid, …@c.us, …@broadcast);
- external_id: a 12+ character letters-and-digits token with at least two of each
               (message ids, ULIDs, base64 keys);
- error_code:  `word:word` without spaces, any case (`unsafe_url:https_required`, `operador:book`);
- snake_key:   a token joined by underscores (`stage_key`, `REFUSAL_CODE_SLOT_TAKEN`).
Idempotency keys are built from these parts (an event id and an action) and match one of them.
"""

from __future__ import annotations

import logging
import re

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from services.projection.findings import Findings

log = logging.getLogger(__name__)

_SUSPECT = re.compile(r"[0-9@:_]")
_DIGIT = re.compile(r"[0-9]")
# The shapes that need digits, in one scan: a UUID, a 7+ digit run, a 12+ hex run.
_DIGITAL = re.compile(
    r"(?P<uuid>(?<![0-9A-Za-z])[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12})"
    r"|(?P<numeric_id>[0-9]{7,})"
    r"|(?P<hex_id>(?<![0-9A-Za-z])[0-9a-fA-F]{12,}(?![0-9A-Za-z]))"
)
_JID = re.compile(r"[^@]@(?:s\.whatsapp\.net|g\.us|lid|c\.us|broadcast|newsletter)(?![A-Za-z0-9.])")
_CODE = re.compile(r"(?<!\w)[A-Za-z][A-Za-z0-9_]*:[A-Za-z0-9_]")
_SNAKE = re.compile(r"[0-9A-Za-z]_[0-9A-Za-z]")
_TOKEN = re.compile(r"[A-Za-z0-9]{12,}")
_ISO_8601 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,6})?)?(?:Z|[+-][0-9]{2}:[0-9]{2})?"
)
# Punctuation around a word ("(horário", "Brasília).", "2024,"), stripped before looking at it.
_EDGES = "()[]{}<>.,;:!?\"'«»“”‘’…*"
# An error code written inside a text: canonical (`unsafe_url:https_required`) or an enum name.
ERROR_CODE = re.compile(
    r"(?<!\w)[a-z][a-z0-9_]*:[a-z0-9_][a-z0-9_.:-]*|\b(?:CRM_)?REFUSAL_CODE_[A-Z0-9_]+\b"
)


def _mixed(token: str, letters: int, digits: int) -> bool:
    found = sum(c.isdigit() for c in token)
    return found >= digits and len(token) - found >= letters


def identifier_shape(text: str) -> str | None:
    """The shape of the first identifier found in `text`, or None when it carries none.

    Every shape needs a digit, an '@', a ':' or an '_' (a UUID or a hex id without a single
    digit is not one the scan claims to see), so a text without them is clean. No shape
    contains whitespace, so the rest is looked at word by word: a word of letters only can
    carry none, and the others are short, cheap to check.
    """
    if _SUSPECT.search(text) is None:
        return None
    for word in text.split():
        if word.isalpha():
            continue
        word = word.strip(_EDGES)
        if not word or word.isalpha():
            continue
        shape = _word_shape(word)
        if shape is not None:
            return shape
    return None


def _word_shape(word: str) -> str | None:
    marks = "@" in word or ":" in word or "_" in word
    if len(word) < 7 and not marks:
        return None  # "2024", "R$", "10%": too short for any shape without a mark
    if ":" in word and _ISO_8601.fullmatch(word):
        return None  # an instant as agenda writes it ("2024-11-05T14:30:00-03:00")
    digits = _DIGIT.search(word) is not None
    if not digits and not marks:
        return None  # "terça-feira", "e-mail"
    if "@" in word and _JID.search(word):
        return "jid"
    if digits and len(word) >= 7:
        for found in _DIGITAL.finditer(word):
            # A hex run of one kind of character only is a word or a number, not an id.
            if found.lastgroup != "hex_id" or _mixed(found.group(0), 1, 1):
                return found.lastgroup
    if ":" in word and _CODE.search(word):
        return "error_code"
    if "_" in word and _SNAKE.search(word):
        return "snake_key"
    if digits and len(word) >= 12 and any(_mixed(token, 2, 2) for token in _TOKEN.findall(word)):
        return "external_id"
    return None


def carries_identifier(text: str) -> bool:
    return identifier_shape(text) is not None


def scrub(message: Message, findings: Findings) -> None:
    """Drop, in place, every string of a projected message that carries an identifier.

    The strings are first gathered and scanned in one pass; only a message where one of them
    matches is walked field by field to find and drop the culprits (and log their paths).
    """
    texts: list[str] = []
    _collect(message, texts)
    if any(identifier_shape(text) is not None for text in texts):
        _scrub_fields(message, findings, "")


def _collect(message: Message, texts: list[str]) -> None:
    for field, value in message.ListFields():
        if field.type == FieldDescriptor.TYPE_STRING:
            if field.is_repeated:
                texts.extend(value)
            else:
                texts.append(value)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.is_repeated:
                for item in value:
                    _collect(item, texts)
            else:
                _collect(value, texts)


def _scrub_fields(message: Message, findings: Findings, path: str) -> None:
    for field, value in message.ListFields():
        where = f"{path}.{field.name}" if path else field.name
        if field.type == FieldDescriptor.TYPE_STRING:
            if field.is_repeated:
                kept = [item for item in value if _verdict(item, where, findings)]
                if len(kept) != len(value):
                    del value[:]
                    value.extend(kept)
            elif not _verdict(value, where, findings):
                message.ClearField(field.name)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.is_repeated:
                for index, item in enumerate(value):
                    _scrub_fields(item, findings, f"{where}[{index}]")
            else:
                _scrub_fields(value, findings, where)


def _verdict(text: str, where: str, findings: Findings) -> bool:
    shape = identifier_shape(text)
    if shape is None:
        return True
    findings.drop(shape)
    log.warning("identifier dropped from a projected field", extra={"field": where, "shape": shape})
    return False
