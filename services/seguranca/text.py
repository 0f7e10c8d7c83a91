"""Text helpers the gates share: accent folding that keeps offsets, sentences, money and percentages.

`fold` lowercases and strips accents character by character, so an offset in the folded text is
the same offset in the original: a gate matches on the folded text and still knows where it is.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal


def _fold_table() -> dict[str, str]:
    """Lowercase non-ASCII letters to their unaccented ASCII letter ("ã" → "a")."""
    table: dict[str, str] = {}
    for code in range(0x80, 0x250):
        char = chr(code)
        base = "".join(c for c in unicodedata.normalize("NFKD", char.lower()) if not unicodedata.combining(c))
        if len(base) == 1 and base.isascii() and base.isalnum():
            table[char] = base
    return table


_FOLD = _fold_table()
# The Latin-1 part as a byte table: `bytes.translate` folds a pt-BR message in one C loop.
_LATIN1 = bytes(ord(_FOLD.get(chr(b), " ")) if b >= 0x80 else b for b in range(256))


def _beyond_latin1(error: UnicodeError) -> tuple[str, int]:
    """Characters past Latin-1: a letter from the table, anything else (emoji, dashes, quotes) a space."""
    assert isinstance(error, UnicodeEncodeError)
    chunk = error.object[error.start : error.end]
    return "".join(_FOLD.get(c, " ") for c in chunk), error.end


codecs.register_error("seguranca.fold", _beyond_latin1)


def _general_fold(char: str) -> str:
    lowered = char.lower()
    if lowered.isascii():
        return lowered
    return lowered.encode("latin-1", "seguranca.fold").translate(_LATIN1).decode("ascii")


# Every Latin-1 character lowercased and folded (its lowercase is one Latin-1 character too).
_LATIN1_LOWER = bytes(ord(_general_fold(chr(b))) for b in range(256))


def fold(text: str) -> str:
    """Lowercase without accents, one character for one character ("Ação" → "acao").

    Emoji, symbols and letters of other scripts become spaces, so offsets in the folded text are
    offsets in the original, and "confirmado✅" is the word "confirmado".
    """
    if text.isascii():
        return text.lower()
    try:
        # Most pt-BR messages are Latin-1: one table lowercases and folds them in a single C loop.
        return text.encode("latin-1").translate(_LATIN1_LOWER).decode("ascii")
    except UnicodeEncodeError:
        pass  # emoji, curly quotes, other scripts: the general path below
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lowercase is longer ("İ"): go one by one
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    if lowered.isascii():
        return lowered
    return lowered.encode("latin-1", "seguranca.fold").translate(_LATIN1).decode("ascii")


_PUNCTUATION_CHARS = ".,!?;:()[]{}\"'/\\-$%*#@+=<>|~`^&"
_PUNCTUATION = str.maketrans({c: " " for c in _PUNCTUATION_CHARS})
# The same table for bytes: a folded text is ASCII, and `bytes.translate` is several times faster
# than `str.translate` with a mapping (words are taken from every message, often more than once).
_PUNCTUATION_BYTES = bytes.maketrans(_PUNCTUATION_CHARS.encode(), b" " * len(_PUNCTUATION_CHARS))


def words(folded: str) -> list[str]:
    """The words of a folded text (numbers included, punctuation dropped; `_` kept)."""
    if folded.isascii():
        return folded.encode().translate(_PUNCTUATION_BYTES).decode().split()
    return folded.translate(_PUNCTUATION).split()


_SENTENCE_END = re.compile(r"[.!?\n][.!?]*")
# Abbreviations whose period does not end a sentence ("com a Dra. Ana").
_ABBREVIATIONS = frozenset(
    {"dr", "dra", "sr", "sra", "srta", "prof", "profa", "av", "n", "no", "tel", "ex", "obs", "aprox"}
)


# Not frozen: a frozen dataclass sets each field through object.__setattr__, and sentences, amounts
# and percentages are made on every review. Nothing mutates them; `unsafe_hash` keeps them hashable.
@dataclass(slots=True, unsafe_hash=True)
class Sentence:
    start: int
    end: int
    text: str

    @property
    def is_question(self) -> bool:
        return self.text.rstrip().endswith("?")


def sentences(text: str) -> list[Sentence]:
    """Sentences of a folded text with their offsets (ending punctuation included).

    A sentence ends at `.`, `!` or `?` followed by a space or the end, and at every line break.
    """
    out: list[Sentence] = []
    start = 0
    size = len(text)
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if match.group()[0] != "\n":
            if end < size and not text[end].isspace():
                continue
            if match.group() == ".":
                before = text[max(0, match.start() - 5) : match.start()].split()
                if before and before[-1] in _ABBREVIATIONS:
                    continue
        if text[start:end].strip():
            out.append(Sentence(start, end, text[start:end]))
        start = end
    if text[start:].strip():
        out.append(Sentence(start, size, text[start:]))
    return out


def _ends_sentence(text: str, at: int) -> bool:
    """Whether the punctuation or line break at `at` ends a sentence (the rule of `sentences`)."""
    char = text[at]
    if char == "\n":
        return True
    size = len(text)
    after = at + 1
    while after < size and text[after] in ".!?":
        after += 1
    if after < size and not text[after].isspace():
        return False
    if char == "." and (at == 0 or text[at - 1] != "."):
        before = text[at - 5 if at > 5 else 0 : at].split()
        if before and before[-1] in _ABBREVIATIONS:
            return False
    return True


def _last_end_before(text: str, offset: int) -> int:
    """The offset just after the sentence end before `offset` (0 when none)."""
    # Each end character is searched once; only the one whose hit did not end a sentence is searched
    # again, further back (an absent character is not rescanned over the whole prefix).
    if offset <= 0:
        return 0
    rfind = text.rfind
    dot, bang, ask, line = rfind(".", 0, offset), rfind("!", 0, offset), rfind("?", 0, offset), rfind("\n", 0, offset)
    while True:
        at = dot
        if bang > at:
            at = bang
        if ask > at:
            at = ask
        if line > at:
            at = line
        if at < 0:
            return 0
        if _ends_sentence(text, at):
            end = at + 1
            while end < offset and text[end] in ".!?":
                end += 1
            return end
        char = text[at]
        if char == ".":
            dot = rfind(".", 0, at)
        elif char == "!":
            bang = rfind("!", 0, at)
        elif char == "?":
            ask = rfind("?", 0, at)
        else:
            line = rfind("\n", 0, at)


def _next_end_from(text: str, offset: int) -> int:
    """The offset just after the first sentence end at or after `offset` (the end of the text when none)."""
    size = len(text)
    # `str.find` per end character costs less than a regex search for the class; each is searched
    # again only when its hit turns out not to end a sentence.
    find = text.find
    dot, bang, ask, line = find(".", offset), find("!", offset), find("?", offset), find("\n", offset)
    while True:
        at = size
        for candidate in (dot, bang, ask, line):
            if -1 < candidate < at:
                at = candidate
        if at == size:
            return size
        if _ends_sentence(text, at):
            end = at + 1
            while end < size and text[end] in ".!?":
                end += 1
            return end
        char = text[at]
        if char == ".":
            dot = text.find(".", at + 1)
        elif char == "!":
            bang = text.find("!", at + 1)
        elif char == "?":
            ask = text.find("?", at + 1)
        else:
            line = text.find("\n", at + 1)


_WORD = re.compile(r"\w+")


def words_before(folded: str, offset: int, count: int) -> list[str]:
    """The `count` words right before `offset` (folded text), nearest last."""
    window = folded[max(0, offset - 12 * count) : offset]
    return _WORD.findall(window)[-count:]


_NEGATIONS = frozenset({"nao", "nunca", "nem", "sem", "jamais"})


def negated(folded: str, offset: int, window: int = 3) -> bool:
    """A negation among the few words before `offset` ("ainda não está confirmado")."""
    return not _NEGATIONS.isdisjoint(words_before(folded, offset, window))


class Folded:
    """One message, folded once; its words and the sentences around an offset computed on demand.

    The chain builds one per review and every gate reads it, so the text is folded, split into
    words and measured once, not once per gate.
    """

    __slots__ = ("_around", "_longest_word", "_tokens", "folded", "original")

    def __init__(self, original: str) -> None:
        self.original = original
        self.folded = fold(original)
        self._around: dict[int, Sentence] = {}
        self._tokens: frozenset[str] | None = None
        self._longest_word: int | None = None

    @property
    def token_set(self) -> frozenset[str]:
        if self._tokens is None:
            self._tokens = frozenset(words(self.folded))
        return self._tokens

    @property
    def longest_word(self) -> int:
        """The length of the longest word (0 for a text without words)."""
        if self._longest_word is None:
            self._longest_word = max(map(len, self.token_set), default=0)
        return self._longest_word

    def sentence_around(self, offset: int) -> Sentence:
        """The sentence holding `offset`, found from there (no need to split the whole text)."""
        cached = self._around.get(offset)
        if cached is None:
            start = _last_end_before(self.folded, offset)
            end = _next_end_from(self.folded, max(offset, start))
            cached = Sentence(start, end, self.folded[start:end])
            self._around[offset] = cached
        return cached

    def sentence_after(self, sentence: Sentence) -> Sentence | None:
        rest = self.folded[sentence.end :]
        stripped = rest.lstrip()
        if not stripped:
            return None
        return self.sentence_around(sentence.end + len(rest) - len(stripped))

    def sentences_with(self, found: Iterable[str]) -> list[Sentence]:
        """The sentences where any of `found` (substrings of the folded text) occurs, in order."""
        hit: dict[int, Sentence] = {}
        for word in found:
            at = self.folded.find(word)
            while at != -1:
                sentence = self.sentence_around(at)
                hit[sentence.start] = sentence
                at = self.folded.find(word, at + len(word))
        return [hit[k] for k in sorted(hit)]


# ---------------------------------------------------------------------------------------------
# Money and percentages, compared by value ("R$ 280" == "R$ 280,00" == "280 reais")
# ---------------------------------------------------------------------------------------------

_NUMBER = r"(\d{1,3}(?:\.\d{3})+|\d+)(?:[,.](\d{1,2}))?(?!\d)"
# Two patterns, each found from a literal ("r$", "reais"): a pattern that must try every
# position of the text costs fifty times more.
MONEY_SIGN = re.compile(rf"r\$\s*{_NUMBER}(\s*mil\b)?")
MONEY_WORD = re.compile(r"(?<![\d,.$])(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?(\s*mil)?\s*(?:reais|real)")
PERCENT = re.compile(r"(?<![\d,.])(\d{1,3}(?:[,.]\d{1,2})?)\s*(?:%|por\s*cento\b)")


@dataclass(slots=True, unsafe_hash=True)
class Amount:
    cents: int
    start: int
    end: int


def _cents(whole: str, fraction: str | None, thousands: bool) -> int:
    # Integer arithmetic is exact here: the patterns allow at most two decimal digits.
    cents = int(whole.replace(".", "")) * 100
    if fraction:
        cents += int(fraction) * 10 ** (2 - len(fraction))
    return cents * 1000 if thousands else cents


def _start(amount: Amount) -> int:
    return amount.start


def money(folded: str) -> list[Amount]:
    """Every money amount in a folded text, in centavos, in order."""
    found: list[Amount] = []
    at = folded.find("r$")
    while at != -1:
        m = MONEY_SIGN.match(folded, at)
        if m:
            found.append(Amount(_cents(m.group(1), m.group(2), bool(m.group(3))), m.start(), m.end()))
        at = folded.find("r$", at + 2)
    for word in ("reais", "real"):
        at = folded.find(word)
        while at != -1:
            end = at + len(word)
            if end == len(folded) or not folded[end].isalnum():
                for m in MONEY_WORD.finditer(folded, max(0, at - 30), end):
                    if m.end() == end and not any(a.start <= m.start() < a.end for a in found):
                        found.append(Amount(_cents(m.group(1), m.group(2), bool(m.group(3))), m.start(), m.end()))
            at = folded.find(word, end)
    if len(found) > 1:
        found.sort(key=_start)
    return found


@dataclass(slots=True, unsafe_hash=True)
class Percent:
    value: Decimal
    start: int
    end: int


def percents(folded: str) -> Iterator[Percent]:
    if "%" not in folded and "por" not in folded:
        return
    for m in PERCENT.finditer(folded):
        yield Percent(Decimal(m.group(1).replace(",", ".")), m.start(), m.end())


_NOT_DIGITS = bytes(b for b in range(128) if not chr(b).isdigit())


def digits(value: str) -> str:
    if value.isascii():  # one C call: drop every byte but 0-9
        return value.encode().translate(None, _NOT_DIGITS).decode()
    return "".join(filter(str.isdigit, value))
