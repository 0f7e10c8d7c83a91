"""`internal_vocabulary`: the leak detector. It hunts FORM, not business meaning.

What leaks is how the machine writes, not what the business says: snake_case and CONSTANT_CASE
tokens, names from the contracts (`VocabularyIndex`), schema-qualified tables, architecture words,
role words next to a permission word, UUIDs, WhatsApp JIDs, long internal ids and keys, error
codes (`unsafe_url:https_required`, SQLSTATEs next to an error word, HTTP status lines, gRPC
status names), raw exceptions and stack frames, template placeholders and internal addresses.

E-mails, URLs and hashtags are masked before the form rules run (a URL's path or a hashtag is
not a leak by being snake_case); a URL pointing inside the mesh is one. Ordinary Portuguese
passes: "o status do seu pedido", "sua agenda", "R$ 403,00", an order number the customer gave.
The trace keeps categories and counts, never the matched terms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from services.seguranca.context import Context
from services.seguranca.text import Folded, fold, words
from services.seguranca.verdict import PASSED, GateResult, vetoed
from services.seguranca.vocabulary import (
    ARCHITECTURE_WORDS,
    KNOWN_TABLES,
    PERMISSION_WORDS,
    ROLE_WORDS,
    TABLE_SCHEMAS,
    VocabularyIndex,
)

NAME = "internal_vocabulary"

GUIDANCE = (
    "A mensagem traz termos técnicos do sistema que o cliente não entende e não deveria ver "
    "(nomes internos, códigos ou identificadores). Reescreva só com palavras do dia a dia do "
    "negócio, dizendo o que aquilo significa para o cliente."
)

_JID = re.compile(r"[\d-]{8,40}(?::\d+)?@(?:s\.whatsapp\.net|g\.us|c\.us|lid|broadcast|newsletter)\b", re.I)
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"']+", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_HASHTAG = re.compile(r"(?<![\w#])#\w+")
_INTERNAL_HOST = re.compile(
    r"^(?:https?://)?(?:[^/@]*@)?(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+"
    r"|172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+|[\w.-]+\.(?:svc|internal|local)(?:\.cluster\.local)?)(?::\d+)?(?:[/?#]|$)"
    r"|^(?:https?://)?[\w.-]+:50\d\d\d(?:[/?#]|$)",
    re.I,
)

_UNDERSCORED = re.compile(r"(?<![\w])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w])")
_CAMEL_CANDIDATE = re.compile(r"\b[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b")
_QUALIFIED = re.compile(r"\b(?:balcao|services|grpc|google\.protobuf)\.[A-Za-z_][\w.]*[\w]")
_SCHEMA_PREFIXES = tuple(f"{schema}." for schema in TABLE_SCHEMAS)
if _SCHEMA_PREFIXES != ("crm.", "agenda.", "gateway."):
    raise RuntimeError("the table schemas changed: update the unrolled prefix test in scan()")
_TABLE = re.compile(r"\b(" + "|".join(TABLE_SCHEMAS) + r")\.([a-z_]+)\b")
_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_HEX_ID = re.compile(r"\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{16,}\b")
_PIX_CODE = re.compile(r"^000201", re.I)
# A Pix payment code ("copia e cola") and a random Pix key (UUID-shaped) are the business's
# public payment data, not internal ids.
_PIX_PAYLOAD = re.compile(r"000201\S*BR\.GOV\.BCB\.PIX\S*", re.I)
_PIX_KEY = re.compile(
    r"(?i:pix)\W{0,3}(?:[^\W\d_]+\W{1,3}){0,4}([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
)
_ERROR_CODE = re.compile(r"\b[a-z][a-z0-9_]*:[a-z][a-z0-9_]*\b")
_GRPC_STATUS = re.compile(
    r"\b(?:StatusCode\.\w+|UNAVAILABLE|UNIMPLEMENTED|UNAUTHENTICATED|DEADLINE_EXCEEDED|PERMISSION_DENIED"
    r"|FAILED_PRECONDITION|INVALID_ARGUMENT|RESOURCE_EXHAUSTED)\b"
)
_SQLSTATE_LABELLED = re.compile(
    r"\b(?i:sqlstate|erro|error)\s*(?:(?i:n)[oº°.]*\s*)?[:#]?\s*(?=[0-9A-Z]{5}\b)(?=[A-Z]*\d)[0-9A-Z]{5}\b"
)
_SQLSTATE_ALNUM = re.compile(
    r"\b(?=[0-9A-Z]{5}\b)(?=[0-9A-Z]*[A-Z])(?=[0-9A-Z]*\d)(?:0[1-9A]|2[0-9BDF]|3[BDF]|4[02]|5[3-8]|[FHP]0|XX)[0-9A-Z]{3}\b"
)
_ERROR_NEARBY = re.compile(r"(?i:sqlstate|erro|error|falha|exce[cç][aã]o|exception)")
_HTTP_STATUS = re.compile(
    r"\bHTTP/\d(?:\.\d)?\s+\d{3}\b|\bHTTP\s+[1-5]\d\d\b|(?i:status\s+code)\s*[:=]?\s*\d{3}\b"
    r"|\b[1-5]\d\d\s+(?:Internal Server Error|Not Found|Bad Request|Unauthorized|Forbidden|Service Unavailable"
    r"|Bad Gateway|Gateway Timeout|Too Many Requests|Unprocessable Entity|Conflict|Method Not Allowed)\b"
)
_EXCEPTION = re.compile(
    r"\b[A-Z][A-Za-z0-9]*[a-z0-9](?:Error|Exception)\b|Traceback \(most recent call last\)"
    r"|\bFile \"[^\"]+\", line \d+|\bat [\w$.<>]+\([\w.$]*:\d+(?::\d+)?\)|\bat [\w$.<>]+ \([^()\s]+:\d+:\d+\)"
)
_PLACEHOLDER = re.compile(r"\{\{[^{}]{0,60}\}\}|\$\{[^{}]{0,60}\}|(?<!\{)\{[a-z][a-z0-9_]*\}(?!\})|<%=?[^%]{0,60}%>")


def _looks_generated(token: str) -> bool:
    """A long token mixing letters and digits like a generated key (a Pix code is not one)."""
    numbers = sum(c.isdigit() for c in token)
    return (
        numbers >= 3 and len(token) - numbers - token.count("-") - token.count("_") >= 3 and not _PIX_CODE.match(token)
    )


def _mask(text: str, pattern: re.Pattern[str], found: Counter[str] | None = None, category: str = "") -> str:
    def blank(m: re.Match[str]) -> str:
        if found is not None:
            if category == "url":
                if _INTERNAL_HOST.search(m.group(0)):
                    found["internal_address"] += 1
            else:
                found[category] += 1
        return " " * (m.end() - m.start())

    return pattern.sub(blank, text)


@lru_cache(maxsize=256)
def _folded_terms(additions: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted({fold(t).strip() for t in additions if t.strip()}, key=len, reverse=True))


def _permission_context(folded: str, tokens: frozenset[str]) -> int:
    """Role words within eight words of a permission word."""
    if tokens.isdisjoint(ROLE_WORDS) or tokens.isdisjoint(PERMISSION_WORDS):
        return 0
    sequence = words(folded)
    permission_at = [i for i, w in enumerate(sequence) if w in PERMISSION_WORDS]
    return sum(1 for i, w in enumerate(sequence) if w in ROLE_WORDS and any(abs(i - j) <= 8 for j in permission_at))


_GRPC_WORDS = frozenset({"unavailable", "unimplemented", "unauthenticated", "statuscode"})
_ERROR_WORDS = frozenset({"sqlstate", "erro", "error", "falha", "excecao", "exception"})
_HTTP_WORDS = frozenset(
    {
        "http",
        "status",
        "error",
        "found",
        "request",
        "unauthorized",
        "forbidden",
        "unavailable",
        "gateway",
        "timeout",
        "requests",
        "entity",
        "conflict",
        "allowed",
    }
)
_LONG_RUN = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{15,}")
# Every word this gate looks for among a message's words (`Context.notable_words`), besides the
# index's CamelCase names (`VocabularyIndex.camel_folded`).
NOTABLE_WORDS = (
    ARCHITECTURE_WORDS
    | ROLE_WORDS
    | PERMISSION_WORDS
    | _GRPC_WORDS
    | _ERROR_WORDS
    | _HTTP_WORDS
    | {"traceback", "file"}
)


def _additions(folded: str, additions: tuple[str, ...]) -> int:
    """Occurrences of the organisation's own terms as whole words (found by `str.find`, not a regex)."""
    count = 0
    for term in _folded_terms(additions):
        at = folded.find(term)
        while at != -1:
            end = at + len(term)
            if (at == 0 or not folded[at - 1].isalnum()) and (end == len(folded) or not folded[end].isalnum()):
                count += 1
            at = folded.find(term, end)
    return count


def _ids(masked: str, found: Counter[str]) -> None:
    """UUIDs, long hexadecimal ids and generated keys, among the long runs of the text."""
    for m in _LONG_RUN.finditer(masked):
        run = m.group(0)
        for uuid in _UUID.findall(run):
            found["uuid"] += 1
            run = run.replace(uuid, " ")
        for piece in run.split():
            if _HEX_ID.fullmatch(piece) or (len(piece) >= 20 and _looks_generated(piece)):
                found["internal_id"] += 1


def scan(
    text: str,
    index: VocabularyIndex,
    additions: Iterable[str] = (),
    *,
    public: Iterable[str] = (),
    analysed: Folded | None = None,
    message_words: frozenset[str] | None = None,
) -> Counter[str]:
    """Categories and counts of internal terms in `text` (never the terms themselves).

    `analysed` is `text` already folded and split (the review's shared analysis), when there is one;
    `message_words` its words, or those among `NOTABLE_WORDS` and the index's CamelCase names (the review's
    `Context.notable_words`): the word rules only ask whether the text says one of those.
    Each family of rules first looks for the characters or words it cannot match without (an
    underscore, an "@", an error word), so an ordinary message costs a few set lookups.
    """
    # `Counter.__new__` makes the same empty Counter without `Counter.__init__`, whose Python-level
    # `update` call costs more than the rest of an ordinary message's scan of some families.
    found: Counter[str] = Counter.__new__(Counter)
    if analysed is None:
        analysed = Folded(text)
    folded = analysed.folded
    tokens = message_words if message_words is not None else analysed.token_set
    additions = tuple(additions)
    if additions:
        terms = _additions(folded, additions)
        if terms:
            found["organization_term"] += terms

    # Mask what may legitimately contain identifier-looking text (the organisation's public
    # contacts and documents, Pix data, e-mails, URLs, hashtags), counting JIDs (a leak by
    # themselves) and internal addresses on the way.
    masked = text
    for value in public:
        if value and value in masked:
            masked = masked.replace(value, " " * len(value))
    if "000201" in masked:
        masked = _mask(masked, _PIX_PAYLOAD)
    # Counting the hyphens reads the whole text, and the ids below ask again: the count is kept for
    # as long as nothing was masked in between (masking only turns characters into spaces).
    dashes, dashes_of = -1, None
    if "pix" in folded:
        dashes, dashes_of = masked.count("-"), masked
    if dashes >= 4:
        masked = _PIX_KEY.sub(lambda m: m.group(0)[: m.start(1) - m.start()] + " " * len(m.group(1)), masked)
    if "@" in masked:
        masked = _mask(masked, _JID, found, "jid")
        masked = _mask(masked, _EMAIL)
    # "w" and "<" first: one `memchr` each, where the two-character searches read the whole text.
    if "://" in masked or ("w" in masked and "www." in masked):
        masked = _mask(masked, _URL, found, "url")
    if "#" in masked:
        masked = _mask(masked, _HASHTAG)
    if "{" in masked or ("<" in masked and "<%" in masked):
        for _ in _PLACEHOLDER.finditer(masked):
            found["template_placeholder"] += 1
        masked = _mask(masked, _PLACEHOLDER)

    if "_" in masked:
        for m in _UNDERSCORED.finditer(masked):
            token = m.group(0)
            if token in index.underscore_names:
                found["contract_name"] += 1
            elif token.isupper():
                found["constant_case"] += 1
            else:
                found["snake_case"] += 1
        if ":" in masked:
            found["error_code"] += sum(1 for m in _ERROR_CODE.finditer(masked) if "_" in m.group(0))
    if not tokens.isdisjoint(index.camel_folded):
        found["contract_name"] += sum(1 for m in _CAMEL_CANDIDATE.finditer(masked) if m.group(0) in index.camel_names)
    # A qualified name and a schema-qualified table both have a letter, a digit or "_" right after a
    # period (their patterns need it), so a text whose shape never has a "." before an "x" holds
    # neither: one search of the shape instead of seven over the text for ordinary prose. (Masking
    # only blanks characters, and a lowercase ASCII name sits at the same offset in the folded text.)
    dotted = b".x" in analysed.shape
    if dotted and ("balcao." in masked or "services." in masked or "grpc." in masked or "google.protobuf" in masked):
        found["qualified_name"] += len(_QUALIFIED.findall(masked))
    if dotted and ("crm." in folded or "agenda." in folded or "gateway." in folded):  # _SCHEMA_PREFIXES, unrolled
        for m in _TABLE.finditer(masked):
            if m.group(2) in KNOWN_TABLES or "_" in m.group(2):
                found["table_name"] += 1
    architecture = tokens & ARCHITECTURE_WORDS
    if architecture:
        found["architecture_word"] += sum(1 for w in words(fold(masked)) if w in architecture)
    roles = _permission_context(folded, tokens)
    if roles:
        found["permission_word"] += roles
    if (dashes if masked is dashes_of else masked.count("-")) >= 4 or analysed.has_word_of(16):
        _ids(masked, found)
    if not tokens.isdisjoint(_GRPC_WORDS):
        found["error_code"] += len(_GRPC_STATUS.findall(masked))
    if not tokens.isdisjoint(_ERROR_WORDS):
        found["error_code"] += len(_SQLSTATE_LABELLED.findall(masked))
        for m in _SQLSTATE_ALNUM.finditer(masked):
            window = masked[max(0, m.start() - 40) : m.end() + 40]
            if _ERROR_NEARBY.search(window) and not _SQLSTATE_LABELLED.search(window):
                found["error_code"] += 1
    if not tokens.isdisjoint(_HTTP_WORDS):
        found["http_status"] += len(_HTTP_STATUS.findall(masked))
    if "error" in folded or "exception" in folded or "traceback" in tokens or " at " in folded or "file" in tokens:
        found["exception"] += len(_EXCEPTION.findall(masked))
    return +found if found else found  # `+` drops zero counts


def check(ctx: Context) -> GateResult:
    text = ctx.text
    public = ctx.public_contacts
    found = scan(
        text.original,
        ctx.vocabulary,
        ctx.config.vocabulary_additions,
        public=(*public.phones, *public.emails, *public.documents),
        analysed=text,
        message_words=ctx.notable_words,
    )
    if not found:
        return PASSED
    return vetoed(NAME, "leak", GUIDANCE, counts=dict(found))
