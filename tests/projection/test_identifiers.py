"""Rule 2, second barrier: the shape scan after projection drops, logs and counts."""

from __future__ import annotations

import logging

import pytest

from balcao.projection.v1 import projection_pb2 as out
from services.projection import findings as findings_module
from services.projection.findings import Findings
from services.projection.identifiers import identifier_shape, scrub

IDENTIFIERS = {
    "3f2a9c1e-7b4d-4e8a-9c2d-1a2b3c4d5e6f": "uuid",
    "ref 3F2A9C1E7B4D4E8A9C2D1A2B3C4D5E6F": "uuid",
    "5519987654321@s.whatsapp.net": "jid",
    "grupo 120363025346127@g.us": "jid",
    "129384756102938@lid": "jid",
    "3EB0C767D26A1D8E5A2F": "hex_id",
    "cliente 19987654321 ligou": "numeric_id",
    "contato 4815162342": "numeric_id",
    "wamid.HBgMNTUxOTk4NzY1NDMyMRUCABIYFjNF": "external_id",
    "01ARZ3NDEKTSV4RRFFQ69G5FAV": "external_id",
    "deu erro: unsafe_url:https_required": "error_code",
    "operador:book:retry": "error_code",
    "stage_key": "snake_key",
    "etapa qualifying_lead": "snake_key",
    "REFUSAL_CODE_SLOT_TAKEN": "snake_key",
}

BUSINESS_TEXT = [
    "terça-feira, 5 de novembro de 2024, 14:30 (horário de Brasília)",
    "domingo, 3 de novembro de 2024, 01:30 (horário do Leste)",
    "2024-11-05T14:30:00-03:00",
    "2018-11-04T01:30:00-02:00",
    "Consulta de avaliação: R$ 280,00 (à vista)",
    "Clareamento: R$ 1.500,00, em até 6x",
    "+55 19 3234-5678",
    "contato@clinicasorriso.com.br",
    "https://clinicasorriso.com.br/agenda",
    "Rua Barão de Jaguara, 1200 - CEP 13015-001",
    "CNPJ 12.345.678/0001-90",
    "Aguardando pagamento",
    "Obs: ligar depois das 18h",
    "10% de desconto na primeira consulta",
    "14:30–15:20",
    "K7Q2-M9XD",
]


@pytest.mark.parametrize("text", sorted(IDENTIFIERS))
def test_each_identifier_shape_is_caught(text: str) -> None:
    assert identifier_shape(text) == IDENTIFIERS[text]


@pytest.mark.parametrize("text", BUSINESS_TEXT)
def test_business_text_passes(text: str) -> None:
    assert identifier_shape(text) is None


def test_a_field_carrying_an_identifier_is_dropped_logged_and_counted(caplog: pytest.LogCaptureFixture) -> None:
    uuid_text = "Ana (3f2a9c1e-7b4d-4e8a-9c2d-1a2b3c4d5e6f) quer clarear os dentes"
    memory = out.LeadMemory(
        rolling_summary=uuid_text,
        commitments=["enviar os horários de quinta", "retorno para 5519987654321@s.whatsapp.net"],
        next_action="oferecer a avaliação",
    )
    lead = out.LeadContext(memory=memory)
    before = findings_module.DROPPED_TOTAL["uuid"]
    found = Findings()
    with caplog.at_level(logging.WARNING, logger="services.projection.identifiers"):
        scrub(lead, found)
    assert lead.memory.rolling_summary == ""
    assert list(lead.memory.commitments) == ["enviar os horários de quinta"]
    assert lead.memory.next_action == "oferecer a avaliação"
    assert found.dropped == {"uuid": 1, "jid": 1}
    assert findings_module.DROPPED_TOTAL["uuid"] == before + 1
    fields = sorted(r.field for r in caplog.records)  # type: ignore[attr-defined]
    assert fields == ["memory.commitments", "memory.rolling_summary"]
    # The log names the field and the shape, never the value.
    assert all("3f2a9c1e" not in r.getMessage() and "3f2a9c1e" not in str(r.__dict__) for r in caplog.records)


def test_repeated_messages_are_scanned_each() -> None:
    view = out.AppointmentsView(
        appointments=[out.Appointment(local_label="quinta", place="sala 2"), out.Appointment(place="sala stage_key")]
    )
    found = Findings()
    scrub(view, found)
    assert [a.place for a in view.appointments] == ["sala 2", ""]
    assert view.appointments[0].local_label == "quinta"
