"""pt-BR contractions before a business's name."""

from __future__ import annotations

import pytest

from balcao.kit.ptbr import de, em


@pytest.mark.parametrize(
    ("name", "of", "in_"),
    [
        ("Clínica Sorriso", "da Clínica Sorriso", "na Clínica Sorriso"),
        ("Fazenda Boa Vista", "da Fazenda Boa Vista", "na Fazenda Boa Vista"),
        ("Consultório Vida", "do Consultório Vida", "no Consultório Vida"),
        ("estúdio k", "do estúdio k", "no estúdio k"),
        ("Sorriso & Cia", "de Sorriso & Cia", "em Sorriso & Cia"),
        ("Dona Ana Doces", "de Dona Ana Doces", "em Dona Ana Doces"),
    ],
)
def test_the_preposition_takes_the_article_of_the_name(name: str, of: str, in_: str) -> None:
    assert de(name) == of
    assert em(name) == in_
