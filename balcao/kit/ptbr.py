"""Small pt-BR grammar helpers for sentences that name a business.

"a assistente virtual de Clínica Sorriso" reads wrong to a Brazilian: Portuguese contracts the
preposition with the article the business's name takes ("da Clínica Sorriso", "do Consultório
Vida"). The article follows the first word of the name; a name whose first word is not a
common noun of the trade ("Sorriso & Cia") keeps the plain "de".
"""

from __future__ import annotations

import unicodedata

# First words of business names and the article they take.
_FEMININE = frozenset(
    "clinica fazenda loja padaria farmacia drogaria academia escola oficina barbearia pizzaria livraria casa "
    "doceria confeitaria sorveteria otica imobiliaria distribuidora agropecuaria veterinaria papelaria "
    "lanchonete pousada chacara granja cooperativa associacao igreja policlinica odontoclinica empresa "
    "floricultura lavanderia autoescola mercearia adega hamburgueria churrascaria cafeteria estetica".split()
)
_MASCULINE = frozenset(
    "consultorio estudio studio salao restaurante mercado supermercado hotel escritorio centro instituto "
    "laboratorio sitio rancho haras bar cafe atelie emporio armazem acougue hospital espaco grupo "
    "petshop pet sacolao hortifruti posto".split()
)


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()


def de(name: str) -> str:
    """ "de" contracted with the article the name takes: "da Clínica Sorriso", "do Estúdio K", "de Ana"."""
    name = name.strip()
    first = _fold(name.split()[0]) if name else ""
    if first in _FEMININE:
        return f"da {name}"
    if first in _MASCULINE:
        return f"do {name}"
    return f"de {name}"


def em(name: str) -> str:
    """ "em" contracted the same way: "na Clínica Sorriso", "no Estúdio K", "em Ana"."""
    contracted = de(name)
    return {"da": "na", "do": "no"}.get(contracted[:2], "em") + contracted[2:]
