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


def _abbreviation_before(text: str, at: int) -> bool:
    """Whether the period at `at` closes an abbreviation ("Dra.") rather than a sentence."""
    before = text[at - 5 if at > 5 else 0 : at].split()
    return bool(before) and before[-1] in _ABBREVIATIONS


# A folded text (ASCII) reduced to six symbols, made once per message and read by several helpers:
# "." a sentence-ending character (.!?), "\n" a line break, " " other whitespace (as `str.isspace`
# sees it), "p" the other punctuation `words` drops, "c" a control character that is not whitespace,
# "x" any other character. Candidate sentence ends are then one `bytes.find` away, whether a run of
# punctuation is followed by whitespace is a byte compare (whitespace is <= " "), and in a text
# without "c" a word of n characters is n "x" in a row.
def _shape_of(char: str) -> int:
    if char in ".!?":
        return ord(".")
    if char == "\n":
        return ord("\n")
    if char.isspace():
        return ord(" ")
    if char in _PUNCTUATION_CHARS:
        return ord("p")
    return ord("c") if not char.isprintable() and char.isascii() else ord("x")


_SHAPE = bytes(_shape_of(chr(b)) for b in range(256))
_DOT, _SPACE = ord("."), ord(" ")


def _ends_sentence(text: str, shape: bytes, at: int) -> bool:
    """Whether the .!? at `at` ends a sentence: its run of .!? is followed by whitespace or the end,
    and a lone period does not close an abbreviation ("Dra.")."""
    size = len(shape)
    after = at + 1
    while after < size and shape[after] == _DOT:
        after += 1
    if after < size and shape[after] > _SPACE:
        return False
    if text[at] == "." and (at == 0 or text[at - 1] != "."):
        before = text[at - 5 if at > 5 else 0 : at].split()
        if before and before[-1] in _ABBREVIATIONS:
            return False
    return True


def _last_end_before(text: str, shape: bytes, offset: int) -> int:
    """The offset just after the sentence end before `offset` (0 when none)."""
    if offset <= 0:
        return 0
    rfind = shape.rfind
    # Candidates from the nearest back: the .!? and the line break before `offset` (a line break
    # always ends a sentence); a .!? that does not end one sends the search further back.
    dot, line = rfind(b".", 0, offset), rfind(b"\n", 0, offset)
    while True:
        if line > dot:
            at = line
        elif dot < 0:
            return 0
        elif _ends_sentence(text, shape, dot):
            at = dot
        else:
            dot = rfind(b".", 0, dot)
            continue
        end = at + 1
        while end < offset and shape[end] == _DOT:
            end += 1
        return end


def _next_end_from(text: str, shape: bytes, offset: int) -> int:
    """The offset just after the first sentence end at or after `offset` (the end of the text when none)."""
    size = len(shape)
    find = shape.find
    dot, line = find(b".", offset), find(b"\n", offset)
    while True:
        if line != -1 and (dot == -1 or line < dot):
            at = line
        elif dot == -1:
            return size
        elif _ends_sentence(text, shape, dot):
            at = dot
        else:
            dot = find(b".", dot + 1)
            continue
        end = at + 1
        while end < size and shape[end] == _DOT:
            end += 1
        return end


def _with_ascii_whitespace(pattern: str) -> str:
    """`pattern` with `\\s` spelled out as the whitespace Unicode sees in ASCII text (ASCII mode
    leaves out the separators \\x1c-\\x1f)."""
    out: list[str] = []
    in_class = first_in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            escape = pattern[i : i + 2]
            if escape == r"\s":
                out.append(r"\s\x1c-\x1f" if in_class else r"[\s\x1c-\x1f]")
            elif escape == r"\S":
                if in_class:
                    raise ValueError(f"\\S inside a class is not supported: {pattern}")
                out.append(r"[^\s\x1c-\x1f]")
            else:
                out.append(escape)
            i += 2
            first_in_class = False
            continue
        if in_class:
            if char == "]" and not first_in_class:
                in_class = False
            first_in_class = first_in_class and char == "^"
        elif char == "[":
            in_class = first_in_class = True
        out.append(char)
        i += 1
    return "".join(out)


def for_folded(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`pattern` compiled for folded text, which is ASCII.

    In ASCII mode the regex engine tests `\\b`, `\\w` and `\\d` with a table instead of the
    Unicode database, several times cheaper; on ASCII text they match the same characters, and
    `\\s` is given back the separators \\x1c-\\x1f Unicode counts as whitespace.
    """
    return re.compile(_with_ascii_whitespace(pattern), flags | re.ASCII)


_WORD = re.compile(r"\w+")
# ASCII bytes that are not `\w` (a letter, a digit or "_"), as spaces: in an ASCII text the runs `\w+`
# finds are then exactly what `split` returns, without starting the regex engine.
_NOT_WORD_TO_SPACE = bytes(b if chr(b).isalnum() or chr(b) == "_" else ord(" ") for b in range(128)) + bytes(128)


def words_before(folded: str, offset: int, count: int) -> list[str]:
    """The `count` words (runs of `\\w`) right before `offset` (folded text), nearest last."""
    window = folded[max(0, offset - 12 * count) : offset]
    if window.isascii():
        return window.encode().translate(_NOT_WORD_TO_SPACE).decode().split()[-count:]
    return _WORD.findall(window)[-count:]


def is_separator(char: str) -> bool:
    """Whether `words` splits at `char` (whitespace or the punctuation it drops)."""
    return char in _PUNCTUATION_CHARS or char.isspace()


def holds_word(text: str, word: str) -> bool:
    """Whether `word` (itself free of separators) is one of the words of `text`, found without splitting it."""
    size = len(word)
    at = text.find(word)
    while at != -1:
        end = at + size
        if (at == 0 or is_separator(text[at - 1])) and (end == len(text) or is_separator(text[end])):
            return True
        at = text.find(word, at + 1)
    return False


_NEGATIONS = frozenset({"nao", "nunca", "nem", "sem", "jamais"})


def negated(folded: str, offset: int, window: int = 3) -> bool:
    """A negation among the few words before `offset` ("ainda não está confirmado")."""
    before = folded[max(0, offset - 12 * window) : offset]
    # A negation word is a substring of where it stands: most windows hold none and are not split.
    if not ("nao" in before or "nunca" in before or "nem" in before or "sem" in before or "jamais" in before):
        return False
    return not _NEGATIONS.isdisjoint(words_before(folded, offset, window))


class Folded:
    """One message, folded once; its words and its sentences computed on demand, once.

    The chain builds one per review and every gate reads it, so the text is folded, split into
    words and into sentences once, not once per gate.
    """

    __slots__ = ("_around", "_plain", "_shape", "_tokens", "folded", "original")

    def __init__(self, original: str) -> None:
        self.original = original
        self.folded = fold(original)
        self._around: dict[int, Sentence] = {}
        self._tokens: frozenset[str] | None = None
        self._shape: bytes | None = None
        self._plain: bool | None = None

    @property
    def token_set(self) -> frozenset[str]:
        if self._tokens is None:
            self._tokens = frozenset(words(self.folded))
        return self._tokens

    @property
    def shape(self) -> bytes:
        """The folded text in five symbols (see `_SHAPE`), offset for offset."""
        if self._shape is None:
            self._shape = self.folded.encode("ascii").translate(_SHAPE)
        return self._shape

    @property
    def plain(self) -> bool:
        """No control character in the text (other than whitespace).

        Then a regex word boundary (`\\b`) falls exactly where `words` splits: a control
        character is neither a word character for the regex engine nor a separator for `words`.
        """
        if self._plain is None:  # asked by more than one gate; each asking reads the whole shape
            self._plain = b"c" not in self.shape
        return self._plain

    def has_word_of(self, length: int) -> bool:
        """Whether a word (as `words` splits them) has at least `length` characters.

        One substring search in the shape, far cheaper than measuring every word (a control
        character, part of a word but not an "x", sends it the long way).
        """
        if self.plain:
            return b"x" * length in self.shape
        return max(map(len, self.token_set), default=0) >= length

    def sentence_around(self, offset: int) -> Sentence:
        """The sentence holding `offset`, found from there (no need to split the whole text)."""
        cached = self._around.get(offset)
        if cached is None:
            folded, shape = self.folded, self.shape
            start = _last_end_before(folded, shape, offset)
            end = _next_end_from(folded, shape, offset if offset > start else start)
            cached = Sentence(start, end, folded[start:end])
            self._around[offset] = cached
        return cached

    def sentence_after(self, sentence: Sentence) -> Sentence | None:
        rest = self.folded[sentence.end :]
        stripped = rest.lstrip()
        if not stripped:
            return None
        return self.sentence_around(sentence.end + len(rest) - len(stripped))

    def occurrences(self, found: Iterable[str]) -> list[int]:
        """Where each of `found` occurs in the folded text (one after the other, as `sentences_with`
        finds them), in order."""
        folded = self.folded
        at_all: list[int] = []
        for word in found:
            at = folded.find(word)
            while at != -1:
                at_all.append(at)
                at = folded.find(word, at + len(word))
        at_all.sort()
        return at_all

    def same_sentence(self, first: int, second: int) -> bool:
        """Whether the word characters at `first` <= `second` are in one sentence: no sentence ends
        between them. (Half a `sentence_around`: only the end after `first` is looked for.)"""
        return _next_end_from(self.folded, self.shape, first) > second

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
