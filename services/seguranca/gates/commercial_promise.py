"""`commercial_promise`: prices, discounts, instalments, gratuity and guarantees the owner did not authorise.

Compared BY VALUE: "R$ 280", "R$ 280,00" and "280 reais" are the same 28000 centavos, so an
authorised price passes however it is written and a price off by a centavo does not. What backs
a statement:
- a price: an authorised price or discount amount, a value in an authorised offer's text, or an
  amount this turn's read tools actually returned (a record, e.g. an order's total);
- a discount or percentage: an authorised discount of that value (a discount named without a
  value: any authorised offer);
- instalments: at most the authorised number;
- gratuity ("grátis", "sem custo"): an authorised free item named in the same sentence;
- a guarantee ("garantimos", "100%"): an authorised guarantee named in the same sentence.
No booking authorises any of them. Negated statements ("não é gratuito", "não parcelamos") are
not promises. Texts from the owner's reply catalog are not judged.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from functools import lru_cache

from services.seguranca.context import Context
from services.seguranca.facts import AuthorisedFacts
from services.seguranca.text import fold, money, negated, percents
from services.seguranca.verdict import PASSED, GateResult, not_applicable, vetoed

NAME = "commercial_promise"

_DISCOUNT = re.compile(r"\b(?:descontos?|abatimento|promocao|promocional|cashback|cupom|off)\b")
_DISCOUNT_NEAR = re.compile(r"\b(?:descontos?|abatimento|off|a menos|mais barat[oa])\b")
_INSTALMENT_N = re.compile(
    r"\b(?:em\s+(?:ate\s+)?|ate\s+)?(\d{1,2})\s*(?:x|vezes)\b(?!\s*(?:por|ao|na|no|a cada|cada|mais|menos|maior|menor))"
    r"|\b(\d{1,2})\s+(?:parcelas|prestacoes)\b"
)
_INSTALMENT_CONTEXT = re.compile(r"parcel|dividi|divide|cartao|credito|sem juros|prestac")
_INSTALMENT_WORD = re.compile(r"\b(?:parcelamos|parcelad[oa]s?|parcelar|parcelamento|dividimos|sem juros)\b")
_GRATUITY = re.compile(
    r"\b(?:gratis|gratuit[oa]s?|gratuitamente|de graca|sem (?:nenhum )?custo|sem cobranca|nao cobramos"
    r"|cortesia|free)\b"
)
_GUARANTEE = re.compile(
    r"\b(?:garantimos|garanto|garantid[oa]s?|garantia de (?:resultado|sucesso|satisfacao|cura|eficacia)"
    r"|sem (?:nenhum )?risco|resultado certo)\b"
)
# Words without which a kind of statement cannot be made: a message with none is not read further.
DISCOUNT_WORDS = frozenset(
    {"desconto", "descontos", "abatimento", "promocao", "promocional", "cashback", "cupom", "off"}
)
INSTALMENT_WORDS = frozenset(
    {
        "vezes",
        "parcelas",
        "prestacoes",
        "parcelamos",
        "parcelado",
        "parcelada",
        "parcelados",
        "parceladas",
        "parcelar",
        "parcelamento",
        "dividimos",
        "juros",
    }
    | {f"{n}x" for n in range(2, 100)}
)
GRATUITY_WORDS = frozenset(
    {
        "gratis",
        "gratuito",
        "gratuita",
        "gratuitos",
        "gratuitas",
        "gratuitamente",
        "graca",
        "custo",
        "cobranca",
        "cobramos",
        "cortesia",
        "free",
    }
)
GUARANTEE_WORDS = frozenset(
    {"garantimos", "garanto", "garantido", "garantida", "garantidos", "garantidas", "garantia", "risco", "certo"}
)
# Every word this gate looks for among a message's words (`Context.notable_words`).
NOTABLE_WORDS = DISCOUNT_WORDS | INSTALMENT_WORDS | GRATUITY_WORDS | GUARANTEE_WORDS
# "Seu horário está garantido" is about a booking (unbacked_claim judges it), not a guarantee.
_BOOKING_NOUNS = frozenset({"horario", "vaga", "lugar", "reserva", "agendamento", "data", "consulta", "sessao"})
_STOPWORDS = frozenset(
    {"para", "com", "sem", "uma", "um", "de", "da", "do", "das", "dos", "na", "no", "em", "por", "que", "sua", "seu"}
)

_GUIDANCE = {
    "price": (
        "um valor que não está na tabela de preços autorizada (o cliente poderia cobrar um preço que ninguém aprovou)"
    ),
    "discount": "um desconto ou percentual que a empresa não autorizou",
    "instalments": "um parcelamento além do que a empresa aceita",
    "gratuity": "algo oferecido de graça sem autorização da empresa",
    "guarantee": "uma garantia de resultado que a empresa não assume",
}


@lru_cache(maxsize=512)
def _values_in(texts: tuple[str, ...]) -> tuple[frozenset[int], frozenset[Decimal], int]:
    cents: set[int] = set()
    pcts: set[Decimal] = set()
    most = 0
    for text in texts:
        folded = fold(text)
        cents.update(a.cents for a in money(folded))
        pcts.update(p.value for p in percents(folded))
        for m in _INSTALMENT_N.finditer(folded):
            most = max(most, int(m.group(1) or m.group(2)))
    return frozenset(cents), frozenset(pcts), most


def _content_words(text: str) -> frozenset[str]:
    words = re.findall(r"\w+", fold(text))
    return frozenset(w for w in words if len(w) >= 4 and w not in _STOPWORDS and not _GRATUITY.fullmatch(w))


def _named_in(subjects: tuple[str, ...], sentence: str) -> bool:
    words = frozenset(re.findall(r"\w+", sentence))
    return any((_content_words(s) & words) or not _content_words(s) for s in subjects)


class _Judge:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.facts: AuthorisedFacts = ctx.authorised
        self.text_cents, self.text_percents, self.text_instalments = _values_in(self.facts.texts)
        # An empty Counter without `Counter.__init__` and its Python-level `update` (one per review).
        self.found: Counter[str] = Counter.__new__(Counter)

    def _tool_cents(self) -> frozenset[int]:
        texts = tuple(t.result_text for t in self.ctx.outbound.evidence.tool_results)
        return _values_in(texts)[0] if texts else frozenset()

    def _near_discount(self, folded: str, start: int, end: int) -> bool:
        window = folded[max(0, start - 30) : end + 25]
        # Each alternative of _DISCOUNT_NEAR holds one of these substrings (keep them in step): a window
        # with none of them (most) is answered without the regex. Searching the ~60 characters around
        # each amount costs less than searching the whole message once for all five.
        if not (
            "descont" in window
            or "abatimento" in window
            or "off" in window
            or "a menos" in window
            or "mais barat" in window
        ):
            return False
        return bool(_DISCOUNT_NEAR.search(window))

    def money(self, folded: str) -> set[tuple[int, int]]:
        spans: set[tuple[int, int]] = set()
        tool_cents: frozenset[int] | None = None
        for amount in money(folded):
            spans.add((amount.start, amount.end))
            if self._near_discount(folded, amount.start, amount.end):
                if amount.cents not in self.facts.discount_cents | self.text_cents:
                    self.found["discount"] += 1
                continue
            if amount.cents in self.facts.price_cents or amount.cents in self.facts.discount_cents:
                continue
            if amount.cents in self.text_cents:
                continue
            if tool_cents is None:
                tool_cents = self._tool_cents()
            if amount.cents not in tool_cents:
                self.found["price"] += 1
        return spans

    def percents(self, folded: str) -> set[tuple[int, int]]:
        spans: set[tuple[int, int]] = set()
        allowed = {Decimal(p) for p in self.facts.discount_percents} | self.text_percents
        for pct in percents(folded):
            spans.add((pct.start, pct.end))
            if pct.value in allowed:
                continue
            if pct.value == 100 and not self._near_discount(folded, pct.start, pct.end):
                sentence = self.ctx.text.sentence_around(pct.start).text
                if not (self.facts.guarantees and _named_in(self.facts.guarantees, sentence)):
                    self.found["guarantee"] += 1
                continue
            self.found["discount"] += 1
        return spans

    def discount_words(self, folded: str, valued: set[tuple[int, int]]) -> None:
        any_offer = bool(self.facts.any_discount or self.facts.discount_percents or self.facts.discount_cents)
        for m in _DISCOUNT.finditer(folded):
            if negated(folded, m.start(), 4) or any_offer:
                continue
            # "R$ 50 de desconto", "10% de desconto": the value itself was judged.
            if any(abs(m.start() - end) <= 12 or abs(start - m.end()) <= 12 for start, end in valued):
                continue
            self.found["discount"] += 1

    def instalments(self, folded: str) -> None:
        most = max(self.facts.max_instalments, self.text_instalments)
        counted = False
        for m in _INSTALMENT_N.finditer(folded):
            window = folded[max(0, m.start() - 40) : m.end() + 30]
            number = int(m.group(1) or m.group(2))
            is_payment = m.group(2) is not None or bool(_INSTALMENT_CONTEXT.search(window)) or "em" in m.group(0)
            if not is_payment or number <= 1 or negated(folded, m.start(), 4):
                continue
            counted = True
            if number > most:
                self.found["instalments"] += 1
        if counted:
            return
        for m in _INSTALMENT_WORD.finditer(folded):
            if not negated(folded, m.start(), 4) and most <= 1:
                self.found["instalments"] += 1

    def gratuity(self, folded: str) -> None:
        for m in _GRATUITY.finditer(folded):
            if negated(folded, m.start(), 3) and not m.group(0).startswith(("sem", "nao")):
                continue
            sentence = self.ctx.text.sentence_around(m.start()).text
            if not (self.facts.free_items and _named_in(self.facts.free_items, sentence)):
                self.found["gratuity"] += 1

    def guarantees(self, folded: str) -> None:
        for m in _GUARANTEE.finditer(folded):
            before = re.findall(r"\w+", folded[max(0, m.start() - 40) : m.start()])[-4:]
            if m.group(0).startswith("garantid") and _BOOKING_NOUNS & set(before):
                continue
            if negated(folded, m.start(), 3) and not m.group(0).startswith("sem"):
                continue
            sentence = self.ctx.text.sentence_around(m.start()).text
            if not (self.facts.guarantees and _named_in(self.facts.guarantees, sentence)):
                self.found["guarantee"] += 1


def check(ctx: Context) -> GateResult:
    if ctx.catalog_text:
        return not_applicable(f"{NAME}:catalog_text")
    text = ctx.text
    folded = text.folded
    words = ctx.notable_words
    has_money = "r$" in folded or "rea" in folded
    has_percent = "%" in folded or "por cento" in folded
    has_discount = not words.isdisjoint(DISCOUNT_WORDS)
    has_instalments = not words.isdisjoint(INSTALMENT_WORDS)
    has_gratuity = not words.isdisjoint(GRATUITY_WORDS)
    has_guarantee = not words.isdisjoint(GUARANTEE_WORDS)
    if not (has_money or has_percent or has_discount or has_instalments or has_gratuity or has_guarantee):
        return PASSED
    judge = _Judge(ctx)
    valued: set[tuple[int, int]] = set()
    if has_money:
        valued |= judge.money(folded)
    if has_percent:
        valued |= judge.percents(folded)
    if has_discount:
        judge.discount_words(folded, valued)
    if has_instalments:
        judge.instalments(folded)
    if has_gratuity:
        judge.gratuity(folded)
    if has_guarantee:
        judge.guarantees(folded)
    if not judge.found:
        return PASSED
    kinds = [k for k in _GUIDANCE if judge.found[k]]
    code = f"{kinds[0]}_not_authorised" if len(kinds) == 1 else "not_authorised"
    guidance = (
        "A mensagem promete " + "; e ".join(_GUIDANCE[k] for k in kinds) + ". Não prometa isso: use só "
        "os preços e condições que a empresa autorizou ou diga ao cliente que vai confirmar essa condição "
        "com a equipe."
    )
    return vetoed(NAME, code, guidance, counts=dict(judge.found))
