"""`unbacked_claim`: a claim that an action happened, without the evidence that it did.

"Está confirmado", "agendado para", "marcado", "registrei", "cancelei", "já remarquei": the
customer believes it is done. What backs a claim:
- about a booking: a CONFIRMED booking of the contact (pending ones never reach the evidence:
  pending proves nothing) whose start, in the booking's own zone, matches every date and time
  the claim names (weekday, day, month, year, "hoje"/"amanhã", hour and minute). The instant is
  converted with the zone's rules for that date, so a booking after a DST change is compared at
  its real local hour;
- about a record (cancelled, registered, noted, saved): a read result of this turn that reports
  that state (a record that exists).
Questions, offers and negations are not claims ("Quer que fique agendado para terça?", "ainda não
está confirmado"). Also the stall: "vou verificar a agenda" in a turn that could read the agenda
and did not — it can look now, so it must not make the customer wait.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from services.seguranca.context import Context
from services.seguranca.facts import ConfirmedBooking
from services.seguranca.text import Sentence, fold, for_folded, holds_word, negated, words, words_before
from services.seguranca.verdict import PASSED, GateResult, not_applicable, vetoed

NAME = "unbacked_claim"

# Every pattern of this gate reads folded (ASCII) text: `for_folded` compiles them in ASCII mode.

_BOOKING_STEMS = r"(?:confirmad|agendad|marcad|remarcad|reservad)"
_RECORD_STEMS = r"(?:cancelad|registrad|anotad|salv|cadastrad)"
_BE = r"(?:esta|estao|ta|tao|fica|ficou|ficaram|foi|foram|tudo)"
CLAIMS = for_folded(
    rf"\b{_BE}\s+(?:\w+\s+)?(?:{_BOOKING_STEMS}|{_RECORD_STEMS})[oa]s?\b"
    rf"|\b{_BOOKING_STEMS}[oa]s?\s+(?:para|pra|p/|no dia|na|no|as|com sucesso)\b"
    rf"|\bcancelad[oa]s?\s+com sucesso\b"
    r"|\b(?:confirmei|agendei|marquei|remarquei|reservei|cancelei|registrei|anotei|salvei|cadastrei|atualizei)\b"
    r"|\bja\s+(?:confirmamos|agendamos|marcamos|remarcamos|reservamos|cancelamos|registramos|anotamos)\b"
    r"|\b(?:confirmamos|agendamos|marcamos|remarcamos|reservamos|cancelamos)\s+(?:a sua|o seu|sua|seu|voce|te|lhe)\b"
    r"|\b(?:sua vaga|seu horario|seu lugar|sua reserva)\s+(?:esta|ficou|ta|fica)\s+garantid[oa]\b"
)
# A participle opening the sentence, alone: "Agendado!", "Prontinho, confirmado."
_OPENING = for_folded(rf"^\W*(?:(?:pronto|prontinho|feito|ok|certo|perfeito)\W+)?{_BOOKING_STEMS}[oa]s?\b")
# Words before the claim in its sentence that make it an offer, a condition or a future.
_HEDGES = frozenset(
    {
        "posso",
        "podemos",
        "poderia",
        "poderiamos",
        "quer",
        "queira",
        "gostaria",
        "prefere",
        "caso",
        "se",
        "quando",
        "vou",
        "vamos",
        "irei",
        "iremos",
        "deixar",
        "deixo",
        "fique",
    }
)
# Right before the claim: "pode ser agendado", "pode ficar marcado".
_HEDGES_NEAR = frozenset({"pode", "ser", "ficar"})
_BOOKING_NOUNS = for_folded(
    r"\b(?:consulta|horario|agendamento|sessao|reserva|visita|aula|exame|atendimento|avaliacao|procedimento"
    r"|retorno|encontro|compromisso|vaga|reuniao)"
)
# The words a claim cannot be made without; a message with none of them is not read further.
_PARTICIPLES = (
    "confirmad",
    "agendad",
    "marcad",
    "remarcad",
    "reservad",
    "cancelad",
    "registrad",
    "anotad",
    "cadastrad",
    "garantid",
    "salv",
)
CLAIM_WORDS = frozenset(
    {p + end for p in _PARTICIPLES for end in ("o", "a", "os", "as")}
    | {
        "confirmei",
        "agendei",
        "marquei",
        "remarquei",
        "reservei",
        "cancelei",
        "registrei",
        "anotei",
        "salvei",
        "cadastrei",
        "atualizei",
        "confirmamos",
        "agendamos",
        "marcamos",
        "remarcamos",
        "reservamos",
        "cancelamos",
        "registramos",
        "anotamos",
    }
)
_STALL_VERBS = frozenset(
    {"verificar", "consultar", "checar", "olhar", "ver", "conferir", "olhada", "retorno", "digo", "falo", "passo"}
)
_STALL_OBJECTS = frozenset({"agenda", "horarios", "disponibilidade", "vagas"})
STALL = for_folded(
    r"\b(?:vou|vamos|deixa eu|deixe-me|deixe eu|irei|preciso|ja vou)\s+(?:so\s+)?"
    r"(?:verificar|consultar|checar|olhar|ver|conferir|dar uma olhada)\s+(?:\w+\s+)?"
    r"(?:a agenda|na agenda|os horarios|a disponibilidade|horarios disponiveis|as vagas|a nossa agenda)"
    r"|\bja te (?:retorno|digo|falo|passo) (?:com )?os horarios\b"
)

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro".split()
    )
}
_WEEKDAYS = {"segunda": 0, "terca": 1, "quarta": 2, "quinta": 3, "sexta": 4, "sabado": 5, "domingo": 6}
_TIME = for_folded(
    r"\b([01]?\d|2[0-3])\s*h\s*([0-5]\d)?\b|\b([01]?\d|2[0-3]):([0-5]\d)\b"
    r"|\b(?:as|a partir das|pras|para as)\s+([01]?\d|2[0-3])\b(?:\s*horas?)?(?!\s*(?:/|de\s+(?:"
    + "|".join(_MONTHS)
    + r")))"
)
# The longest words a time may open with before its spaces and digits ("a partir das").
_LONGEST_TIME_LEAD = len("a partir das")
# Matched at the end of a time (`match` at an offset: no "^").
_PERIOD = for_folded(r"\s*(?:horas?\s+)?da (tarde|noite)")
_DURATION_BEFORE = frozenset({"dura", "duracao", "durante", "por", "cerca", "leva", "mais", "menos"})
_DATE_NUMERIC = for_folded(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?\b")
_DATE_WORDS = for_folded(r"\b(?:dia\s+)?(\d{1,2})(?:\s+de|/)\s+(" + "|".join(_MONTHS) + r")(?:\s+de\s+(\d{4}))?\b")
_DAY_ONLY = for_folded(r"\bdia\s+(\d{1,2})\b(?!\s*(?:/|de\s+(?:" + "|".join(_MONTHS) + r")))")
_WEEKDAY = for_folded(r"\b(" + "|".join(_WEEKDAYS) + r")(?:[- ]feira)?\b")
_DIGIT = for_folded(r"\d")
_MONTH_WORDS = frozenset(_MONTHS)
_WEEKDAY_WORDS = frozenset(_WEEKDAYS)
_RELATIVE_WORDS = frozenset({"hoje", "amanha"})
_DIA = frozenset({"dia"})
_RELATIVE = for_folded(r"\b(depois de amanha|amanha|hoje)\b")
# Every word this gate looks for among a message's words (`Context.notable_words`).
NOTABLE_WORDS = CLAIM_WORDS | _STALL_VERBS | _STALL_OBJECTS | _MONTH_WORDS | _WEEKDAY_WORDS | _RELATIVE_WORDS | _DIA

NO_BOOKING = (
    "Não diga que o horário está confirmado, marcado ou agendado: não há nenhuma reserva confirmada "
    "deste cliente, e ele iria contar com um horário que não existe. Diga que o pedido de horário foi "
    "recebido e que ele terá a confirmação assim que ela acontecer."
)
MISMATCH = (
    "A data ou a hora citada não é a da reserva confirmada do cliente: ele poderia ir no dia ou no "
    "horário errado. Use exatamente a data e a hora da reserva confirmada, ou não cite horário."
)
NO_RECORD = (
    "Não diga que algo já foi cancelado, registrado ou anotado: nada neste atendimento mostra que "
    "isso aconteceu, e o cliente acharia que está resolvido. Diga o que vai acontecer em seguida, "
    "sem afirmar que já foi feito."
)
STALLED = (
    "A agenda pode ser consultada agora: consulte os horários e responda com o que encontrar, em vez "
    "de pedir que o cliente espere por um retorno."
)


@dataclass(slots=True, unsafe_hash=True)  # not frozen: cheaper to build, and nothing mutates it
class Claimed:
    """The date and time a claim names; None means it does not name that part."""

    hour: int | None = None
    minute: int | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    weekday: int | None = None
    days_from_today: int | None = None

    @property
    def empty(self) -> bool:
        # Field by field rather than `== _NOTHING`: a claim usually names its hour, and this stops there.
        return (
            self.hour is None
            and self.minute is None
            and self.day is None
            and self.month is None
            and self.year is None
            and self.weekday is None
            and self.days_from_today is None
        )

    def matches(self, local: datetime, today: date | None) -> bool:
        """Whether the booking's local start has every part the claim names (`today` is only read,
        and only needed, when the claim is relative: "hoje", "amanhã")."""
        # Field by field, the common case (an hour, a day) decided without building anything.
        if self.hour is not None and self.hour != local.hour:
            return False
        if self.minute is not None and self.minute != local.minute:
            return False
        if self.day is not None and self.day != local.day:
            return False
        if self.month is not None and self.month != local.month:
            return False
        if self.year is not None and self.year != local.year:
            return False
        if self.weekday is not None and self.weekday != local.weekday():
            return False
        return self.days_from_today is None or local.date() == today + timedelta(days=self.days_from_today)


_NOTHING = Claimed()


def _first_look(folded_sentence: str, candidates: frozenset[str], plain: bool) -> int:
    """Where to start looking for a pattern that needs one of `candidates` (words of the message)
    as a word of the sentence, or -1 when it cannot match.

    In a plain message (`Folded.plain`) the patterns that read these words begin and end at word
    boundaries, which fall exactly where `words` splits: a pattern that matches has found one of
    the words, so it matches at or after the first occurrence of one (-1 when none occurs).
    Otherwise the sentence is searched for the words themselves and, when one is there, read
    from its start.
    """
    if not candidates:
        return -1
    if plain:
        # A plain loop: the usual set holds one to three words, too few to pay for a list and `min`.
        first = -1
        for word in candidates:
            at = folded_sentence.find(word)
            if at != -1 and (first == -1 or at < first):
                first = at
        return first
    return 0 if any(holds_word(folded_sentence, word) for word in candidates) else -1


# The stems of `_DURATION_BEFORE`: a window holding none of them holds none of its words.
_DURATION_STEMS = ("dura", "por", "cerca", "leva", "mais", "menos")
if not all(any(stem in word for stem in _DURATION_STEMS) for word in _DURATION_BEFORE):
    raise RuntimeError("a duration word has no stem in _DURATION_STEMS")
_DURATION_STEM = re.compile("|".join(_DURATION_STEMS))


def _after_duration_word(folded_sentence: str, at: int) -> bool:
    """Whether the word right before `at` says a duration ("dura 2h", "por 1h"), not a time."""
    window = folded_sentence[at - 12 if at > 12 else 0 : at]  # the window `words_before` reads
    if _DURATION_STEM.search(window) is None:  # one search, not a generator over the stems
        return False
    return not _DURATION_BEFORE.isdisjoint(words_before(folded_sentence, at, 1))


def claimed_moment(folded_sentence: str, message_words: frozenset[str], plain: bool) -> Claimed:
    """The date and time named in one (folded) sentence of a message.

    `message_words` holds the message's words among `NOTABLE_WORDS` (or all of them); `plain`
    is `Folded.plain` of the message. Sentences never cut a word, so the sentence's words are
    among the message's: a month, weekday or "hoje" the message lacks is not looked for at all
    (see `_first_look` for one it has).
    """
    # Plain locals and one positional construction: this runs for every claim of every review.
    hour = minute = day = month = year = weekday = days_from_today = None
    first_digit = _DIGIT.search(folded_sentence)
    if first_digit is not None:
        # Every time names a digit, at most "a partir das" and some spaces after its start: the
        # scan starts there rather than at the sentence's start (`\b` still sees the text before).
        start = first_digit.start()
        while start and folded_sentence[start - 1].isspace():
            start -= 1
        # `search` from the end of the last match: what `finditer` would do, without its iterator.
        m = _TIME.search(folded_sentence, max(0, start - _LONGEST_TIME_LEAD))
        while m is not None and _after_duration_word(folded_sentence, m.start()):
            m = _TIME.search(folded_sentence, m.end())
        if m is not None:
            hour = int(m.group(1) or m.group(3) or m.group(5))
            minute = int(m.group(2) or m.group(4) or 0)
            # "da tarde" needs its "da ": without one the period is not even looked for.
            if hour < 12 and "da " in folded_sentence and _PERIOD.match(folded_sentence, m.end()):
                hour += 12
        # A numeric date has its "/" one or two digits after its start: the search starts there.
        slash = folded_sentence.find("/")
        numeric = _DATE_NUMERIC.search(folded_sentence, slash - 2 if slash > 2 else 0) if slash != -1 else None
        if numeric and 1 <= int(numeric.group(1)) <= 31 and 1 <= int(numeric.group(2)) <= 12:
            day, month = int(numeric.group(1)), int(numeric.group(2))
            if numeric.group(3):
                year = int(numeric.group(3))
                year = year + 2000 if year < 100 else year
        else:
            # The day and the words before a month have no fixed length: read from the sentence's start.
            named = (
                _DATE_WORDS.search(folded_sentence)
                if _first_look(folded_sentence, message_words & _MONTH_WORDS, plain) != -1
                else None
            )
            if named and 1 <= int(named.group(1)) <= 31:
                day, month = int(named.group(1)), _MONTHS[named.group(2)]
                if named.group(3):
                    year = int(named.group(3))
            else:
                at = _first_look(folded_sentence, message_words & _DIA, plain)
                found_day = _DAY_ONLY.search(folded_sentence, at) if at != -1 else None
                if found_day and 1 <= int(found_day.group(1)) <= 31:
                    day = int(found_day.group(1))
    at = _first_look(folded_sentence, message_words & _WEEKDAY_WORDS, plain)
    found_weekday = _WEEKDAY.search(folded_sentence, at) if at != -1 else None
    if found_weekday:
        weekday = _WEEKDAYS[found_weekday.group(1)]
    at = _first_look(folded_sentence, message_words & _RELATIVE_WORDS, plain)
    # "depois de amanhã" starts ten characters before its "amanhã".
    relative = _RELATIVE.search(folded_sentence, max(0, at - len("depois de "))) if at != -1 else None
    if relative:
        days_from_today = {"hoje": 0, "amanha": 1, "depois de amanha": 2}[relative.group(1)]
    if hour is None and day is None and month is None and year is None and weekday is None and days_from_today is None:
        return _NOTHING
    return Claimed(hour, minute, day, month, year, weekday, days_from_today)


def _zone(booking: ConfirmedBooking, fallback: ZoneInfo) -> ZoneInfo:
    try:
        return ZoneInfo(booking.time_zone) if booking.time_zone else fallback
    except (ZoneInfoNotFoundError, ValueError):
        return fallback


def booking_backs(claimed: Claimed, bookings: tuple[ConfirmedBooking, ...], now: datetime, fallback: ZoneInfo) -> bool:
    for booking in bookings:
        zone = _zone(booking, fallback)
        # Today's date in the zone only for a relative claim: most name a date, and it costs a conversion.
        today = now.astimezone(zone).date() if claimed.days_from_today is not None else None
        if claimed.matches(booking.starts_at.astimezone(zone), today):
            return True
    return False


def _is_claim(folded: str, sentence: Sentence, start: int) -> bool:
    if sentence.is_question or negated(folded, start, 3):
        return False
    before = folded[sentence.start : start]
    before_words = words(before)
    if not _HEDGES.isdisjoint(before_words) or "assim que" in before:
        return False
    return _HEDGES_NEAR.isdisjoint(before_words[-2:])


_BOOKING_FAMILY = for_folded(r"confirm|agend|marc|marq|reserv|garant")
_CANCEL_FAMILY = for_folded(r"cancel")
_RECORD_STEMS_FOUND = ("registr", "anot", "salv", "cadastr", "atualiz")
_RECORD_FAMILY = for_folded("|".join(_RECORD_STEMS_FOUND))

GUIDANCE = {
    "no_confirmed_booking": NO_BOOKING,
    "booking_mismatch": MISMATCH,
    "no_record": NO_RECORD,
    "agenda_stall": STALLED,
}


def _reported(family: re.Pattern[str], ctx: Context) -> bool:
    """A read result of this turn reports that state (a record that exists)."""
    return any(family.search(fold(t.result_text)) for t in ctx.outbound.evidence.tool_results)


def _judge_claim(ctx: Context, sentence: Sentence, claim: str) -> str | None:
    """The problem with one claim, or None when the evidence backs it."""
    bookings = ctx.outbound.evidence.bookings
    words, plain = ctx.notable_words, ctx.text.plain
    claimed = claimed_moment(sentence.text, words, plain)
    if claimed.empty:
        # "Prontinho, está confirmado! Te espero na terça às 10h.": the moment may follow.
        following = ctx.text.sentence_after(sentence)
        if following is not None and not following.is_question:
            claimed = claimed_moment(following.text, words, plain)
    # The claim is a few words: substring tests say what `_CANCEL_FAMILY` and `_RECORD_FAMILY` would.
    if "cancel" in claim:
        return None if _reported(_CANCEL_FAMILY, ctx) else "no_record"
    if any(stem in claim for stem in _RECORD_STEMS_FOUND):
        return None if _reported(_RECORD_FAMILY, ctx) else "no_record"
    # "Está confirmado" about no booking, no date and no time may be about a record ("seu
    # pagamento foi confirmado"): a confirmed booking or a read result reporting it backs it.
    about_booking = not claimed.empty or bool(_BOOKING_NOUNS.search(sentence.text)) or "confirm" not in claim
    if not about_booking:
        return None if bookings or _reported(_BOOKING_FAMILY, ctx) else "no_record"
    if not bookings:
        return "no_confirmed_booking"
    if not booking_backs(claimed, bookings, ctx.now, ctx.zone):
        return "booking_mismatch"
    return None


def _stalls(ctx: Context) -> bool:
    evidence = ctx.outbound.evidence
    if not evidence.agenda_readable or evidence.agenda_consulted:
        return False
    tokens = ctx.notable_words
    if tokens.isdisjoint(_STALL_VERBS) or tokens.isdisjoint(_STALL_OBJECTS):
        return False
    return any(
        not sentence.is_question and STALL.search(sentence.text)
        for sentence in ctx.text.sentences_with(tokens & _STALL_OBJECTS)
    )


def _claims(ctx: Context) -> list[tuple[Sentence, int, str]]:
    """Every claim-shaped phrase: its sentence, its offset in the folded text and its words.

    A claim is local (a few words around the participle or verb), so each occurrence of a
    claim word is read in a small window of its sentence rather than the whole text.
    """
    text = ctx.text
    hits = ctx.notable_words & CLAIM_WORDS
    if not hits:
        return []
    folded = text.folded
    found: dict[int, tuple[Sentence, int, str]] = {}
    for word in hits:
        at = folded.find(word)
        while at != -1:
            sentence = text.sentence_around(at)
            low, high = max(sentence.start, at - 30), min(sentence.end, at + len(word) + 20)
            match = CLAIMS.search(folded, low, high)
            if match is not None:
                found[match.start()] = (sentence, match.start(), match.group(0))
            else:
                opening = _OPENING.match(folded[sentence.start : at + len(word) + 1])
                if opening:
                    found[at] = (sentence, at, opening.group(0))
            at = folded.find(word, at + len(word))
    return [found[k] for k in sorted(found)]


def check(ctx: Context) -> GateResult:
    if ctx.catalog_text:
        return not_applicable(f"{NAME}:catalog_text")
    folded = ctx.text.folded
    problems: list[str] = []
    for sentence, start, claim in _claims(ctx):
        if _is_claim(folded, sentence, start):
            problem = _judge_claim(ctx, sentence, claim)
            if problem:
                problems.append(problem)
    if _stalls(ctx):
        problems.append("agenda_stall")
    if not problems:
        return PASSED
    ordered = list(dict.fromkeys(problems))
    counts = {p: problems.count(p) for p in ordered}
    return vetoed(NAME, ordered[0], " ".join(GUIDANCE[p] for p in ordered), counts=counts)
