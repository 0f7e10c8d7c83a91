"""`internal_vocabulary`: the leak detector hunts form, not meaning; ordinary Portuguese passes."""

from __future__ import annotations

import pytest

from services.seguranca.facts import OrganizationConfig
from services.seguranca.gates import internal_vocabulary
from services.seguranca.verdict import Status
from services.seguranca.vocabulary import contract_index
from tests.seguranca.helpers import gate

INDEX = contract_index()


def _scan(text: str, additions: tuple[str, ...] = ()) -> dict[str, int]:
    return dict(internal_vocabulary.scan(text, INDEX, additions))


ORDINARY = [
    "O status do seu pedido é: enviado.",
    "Vou conferir sua agenda para a semana que vem.",
    "O valor fica em R$ 403,00.",
    "Seu pedido 4827361 já saiu para entrega.",
    "O pedido nº 98765432100 foi entregue ontem.",
    "Seu nome está certo? E o status da entrega?",
    "Pode mandar para contato@clinicasorriso.com.br ou ver em https://clinicasorriso.com.br/horarios_especiais",
    "Siga a gente: #clinica_sorriso #sorriso",
    "Fale com o administrador da sua empresa para liberar o acesso ao estacionamento.",
    "O operador de caixa vai te dar o recibo.",
    "Nosso horário: seg a sex, 8h às 18h. Endereço: Av. Paulista, 1000 — sala 12.",
    "Para sua segurança, não compartilhe sua senha de acesso com ninguém.",
    "A consulta com a Dra. Ana é às 10:30, na unidade Centro.",
    "Pague pelo WhatsApp, iFood ou PayPal, como preferir.",
    "Deu erro no pagamento do cartão? Tente de novo, por favor.",
    "O código do seu cupom é VERAO2026.",
    "Seu protocolo de atendimento é 2026-0305-4412.",
    "Olá! 😊 Tudo certo por aqui, te esperamos.",
    "A Pix copia e cola: 00020126580014BR.GOV.BCB.PIX0136a629532e-7693-4846-852d-1bbff817b5a8",
    "Nossa chave Pix aleatória: a629532e-7693-4846-852d-1bbff817b5a8",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_portuguese_passes(text: str) -> None:
    assert _scan(text) == {}


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Não consegui: deu erro na ação de webhook: unsafe_url:https_required.", "error_code"),
        ("Atualizei o campo lead_checkpoints do seu cadastro.", "snake_case"),
        ("O seu organization_id está certo.", "contract_name"),
        ("Chamei o GetOrganization e ele respondeu.", "contract_name"),
        ("O campo organizationId veio vazio.", "contract_name"),
        ("Olhei na tabela crm.contacts e você está lá.", "table_name"),
        ("Deu falha no endpoint de pagamento.", "architecture_word"),
        ("O payload veio incompleto.", "architecture_word"),
        ("Seu usuário não tem permissão: falta a role admin.", "permission_word"),
        ("Seu id é 3f2a1b4c-1234-4abc-8def-0123456789ab.", "uuid"),
        ("Mandei para 5511912345678@s.whatsapp.net.", "jid"),
        ("A chave é 9f86d081884c7d659a2feaa0c55ad015.", "internal_id"),
        ("Use a chave evt_01HX8Z2K7Q9W4TNPB3R6YV5M2C para reenviar.", "internal_id"),
        ("Recebi SQLSTATE 23505 ao salvar.", "error_code"),
        ("Deu erro 40001 no sistema.", "error_code"),
        ("O banco respondeu com erro 42P01.", "error_code"),
        ("A resposta foi HTTP/1.1 500 Internal Server Error.", "http_status"),
        ("Retornou 404 Not Found.", "http_status"),
        ("Deu UNAVAILABLE no serviço.", "error_code"),
        ("Tive um IntegrityError ao gravar.", "exception"),
        ('Traceback (most recent call last): File "app.py", line 3', "exception"),
        ("Olá {{nome}}, sua consulta é às {horario}.", "template_placeholder"),
        ("Tente em http://localhost:50053/api.", "internal_address"),
        ("Veja em balcao.crm.v1.CrmReadService.", "qualified_name"),
        ("O status é GATE_STATUS_PASSED.", "contract_name"),
    ],
)
def test_internal_terms_are_caught_by_their_form(text: str, category: str) -> None:
    found = _scan(text)
    assert category in found, found


def test_the_organisations_public_documents_are_not_internal_ids() -> None:
    key = "PIXKEY2026ABCDEF123456"
    assert "internal_id" in _scan(f"Deposite usando {key}.")
    assert dict(internal_vocabulary.scan(f"Deposite usando {key}.", INDEX, public=(key,))) == {}


def test_the_organisations_own_terms_are_leaks_too() -> None:
    assert _scan("Vou lançar no Sistema Vega agora.", ("Sistema Vega",)) == {"organization_term": 1}
    assert _scan("Vou lançar no sistema agora.", ("Sistema Vega",)) == {}


def test_the_trace_keeps_categories_and_counts_never_the_terms() -> None:
    text = "Erro unsafe_url:https_required no webhook 3f2a1b4c-1234-4abc-8def-0123456789ab"
    result = gate(internal_vocabulary.check, text)
    assert result.status is Status.VETOED
    assert set(result.counts) <= {
        "snake_case",
        "constant_case",
        "contract_name",
        "qualified_name",
        "table_name",
        "architecture_word",
        "permission_word",
        "uuid",
        "jid",
        "internal_id",
        "error_code",
        "http_status",
        "exception",
        "template_placeholder",
        "internal_address",
        "organization_term",
    }
    rendered = repr(result)
    for term in ("unsafe_url", "https_required", "webhook", "3f2a1b4c"):
        assert term not in rendered


def test_the_gate_reads_the_organisations_additions() -> None:
    config = OrganizationConfig(vocabulary_additions=("Sistema Vega",))
    assert gate(internal_vocabulary.check, "Lancei no Sistema Vega.", config=config).status is Status.VETOED
    assert gate(internal_vocabulary.check, "Lancei no Sistema Vega.").status is Status.PASSED
