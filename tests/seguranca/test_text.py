"""The text helpers: folding keeps offsets, sentences are found locally, money is read by value."""

from __future__ import annotations

import pytest

from services.seguranca.text import Folded, fold, money, percents, sentences, words

TEXTS = [
    "Olá! Com a Dra. Ana às 10h. R$ 2,80 ok?\nNova linha sem ponto\n\nOutra... Fim",
    "Sem ponto nenhum",
    "Oi!! Tudo bem?? Sim. Fim.",
    "Temos horário na terça, 10/03, às 10h, com a Dra. Ana. Ok.",
]


def test_folding_lowercases_strips_accents_and_keeps_every_offset() -> None:
    original = "AÇÃO: Confirmado✅ às 10h — São Paulo 😊"
    folded = fold(original)
    assert len(folded) == len(original)
    assert folded.startswith("acao: confirmado  as 10h")
    assert "sao paulo" in folded
    assert "confirmado" in words(folded)


@pytest.mark.parametrize("text", TEXTS)
def test_the_sentence_around_an_offset_is_the_one_the_full_split_finds(text: str) -> None:
    folded = Folded(text)
    full = sentences(folded.folded)
    for offset, char in enumerate(folded.folded):
        if char in ".!?":
            continue
        expected = [s for s in full if s.start <= offset < s.end]
        if expected:
            found = folded.sentence_around(offset)
            assert (found.start, found.end) == (expected[0].start, expected[0].end), offset


def test_an_abbreviation_does_not_end_a_sentence() -> None:
    folded = Folded("Sua consulta é com a Dra. Ana às 10h. Até lá!")
    sentence = folded.sentence_around(folded.folded.index("ana"))
    assert "sua consulta" in sentence.text and "10h" in sentence.text
    following = folded.sentence_after(sentence)
    assert following is not None and "ate la" in following.text


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("R$ 280", [28000]),
        ("R$ 280,00", [28000]),
        ("R$280.00", [28000]),
        ("280 reais", [28000]),
        ("R$ 1.280,50", [128050]),
        ("R$ 2 mil", [200000]),
        ("2,5 mil reais", [250000]),
        ("custa R$ 280 reais", [28000]),
        ("vamos realizar", []),
        ("um real a menos", []),
    ],
)
def test_money_is_read_by_value(text: str, cents: list[int]) -> None:
    assert [a.cents for a in money(fold(text))] == cents


def test_percentages() -> None:
    assert [str(p.value) for p in percents(fold("10% ou 12,5 por cento"))] == ["10", "12.5"]
