"""`third_party_data`: other people's phones, e-mails and valid CPFs; the contact's own and public ones pass."""

from __future__ import annotations

import pytest

from services.seguranca.facts import OrganizationConfig, PublicContacts
from services.seguranca.gates import third_party_data
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate, with_contact

CONTACT = with_contact(phone="+5511912345678", email="maria@exemplo.com.br", cpf="52998224725")
CLINIC = OrganizationConfig(
    public_contacts=PublicContacts(phones=("+551134567890",), emails=("contato@clinicasorriso.com.br",))
)


def _found(draft: str) -> dict[str, int]:
    result = gate(third_party_data.check, draft, config=CLINIC, contact=CONTACT)
    return dict(result.counts) if result.status is Status.VETOED else {}


@pytest.mark.parametrize(
    "draft",
    [
        "Confirmamos o seu número (11) 91234-5678.",
        "Seu WhatsApp é 11 1234-5678, certo?",  # the contact's own, without the ninth digit
        "Ligue para a clínica: (11) 3456-7890.",
        "Ou escreva para contato@clinicasorriso.com.br.",
        "Enviamos para maria@exemplo.com.br.",
        "O CPF cadastrado é 529.982.247-25.",
        "Seu pedido 1234567890 foi enviado.",
        "O protocolo é 98765432109.",
        "O valor é R$ 1.234.567,00.",
        "Consulta em 10/03/2026 às 10:30.",
        "O CPF 111.111.111-11 não é válido.",
        "O número 123.456.789-00 não é um CPF válido.",
    ],
)
def test_own_public_and_non_personal_numbers_pass(draft: str) -> None:
    assert _found(draft) == {}


@pytest.mark.parametrize(
    ("draft", "category"),
    [
        ("Fale com a Ana no (21) 98765-4321.", "phone"),
        ("O celular do doutor é 21987654321.", "phone"),
        ("Pode ligar no +55 31 3222-1100.", "phone"),
        ("Manda para joao.silva@gmail.com que ele responde.", "email"),
        ("O CPF do titular é 390.533.447-05.", "cpf"),
        ("CPF 39053344705 confirmado.", "cpf"),
    ],
)
def test_someone_elses_data_is_vetoed(draft: str, category: str) -> None:
    assert category in _found(draft)


def test_cpf_check_digits() -> None:
    assert third_party_data.valid_cpf("529.982.247-25")
    assert not third_party_data.valid_cpf("529.982.247-26")
    assert not third_party_data.valid_cpf("000.000.000-00")
