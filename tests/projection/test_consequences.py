"""Rule 3: an error becomes a consequence, never a code. One test per entry of the map."""

from __future__ import annotations

import re

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from balcao.agenda.v1 import agenda_read_pb2, agenda_resources_pb2
from balcao.crm.v1 import crm_resources_pb2
from services.projection import consequences
from services.projection.availability import project_availability
from services.projection.consequences import CONSEQUENCES, GENERIC
from services.projection.findings import Findings
from services.projection.handles import handle_key
from services.projection.identifiers import identifier_shape
from services.projection.knowledge import search_failed
from services.projection.lead import project_lead_context
from tests.projection import samples

KEY = handle_key(b"a-mesh-secret-for-tests")


def values(message: Message) -> str:
    """Every string the message carries (what a reader of it sees), one per line."""
    found: list[str] = []
    for field, value in message.ListFields():
        if field.type == FieldDescriptor.TYPE_STRING:
            found.extend(value if field.is_repeated else [value])
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            found.extend(values(v) for v in (value if field.is_repeated else [value]))
    return "\n".join(found)


def _through_agenda_refusal(code: str, findings: Findings) -> tuple[str, str]:
    """An agenda refusal as CheckAvailability returns it (the enum on the wire)."""
    name = "REFUSAL_CODE_" + code.removeprefix("agenda:").upper()
    raw = agenda_read_pb2.CheckAvailabilityResponse(
        refusal=agenda_resources_pb2.Refusal(
            code=agenda_resources_pb2.RefusalCode.Value(name), message_pt=f"recusado ({name})"
        )
    )
    response = project_availability(
        raw,
        places={},
        handle_key=KEY,
        organization_id=samples.ORG,
        contact_id=samples.CONTACT,
        now=samples.NOW,
        max_slots=0,
        findings=findings,
    )
    return response.consequence.text, values(response)


def _through_activity(code: str, findings: Findings) -> tuple[str, str]:
    """An error the Operador recorded on the timeline (crm refusals as their enum name)."""
    recorded = code
    if code.startswith("crm:"):
        recorded = "CRM_REFUSAL_CODE_" + code.removeprefix("crm:").upper()
    activity = samples.activity(
        f"Não deu certo: {recorded}", crm_resources_pb2.ACTIVITY_KIND_COULD_NOT_ACT, code=recorded
    )
    response = project_lead_context(samples.raw_lead(activities=[activity]), findings)
    text = response.lead.recent_activities[0].text
    return text, values(response)


def _through_failed_read(code: str, findings: Findings) -> tuple[str, str]:
    """A raw read that failed with a gRPC status, as a read tool reports it."""
    status = grpc.StatusCode[code.removeprefix("grpc:").upper()]
    response = search_failed(status, findings)
    return response.consequence.text, values(response)


def _path(code: str):  # type: ignore[no-untyped-def]
    if code.startswith("agenda:"):
        return _through_agenda_refusal
    if code.startswith("grpc:"):
        return _through_failed_read
    return _through_activity


@pytest.mark.parametrize("code", sorted(CONSEQUENCES))
def test_each_code_reaches_the_conversador_as_its_consequence(code: str) -> None:
    findings = Findings()
    text, whole = _path(code)(code, findings)
    expected = CONSEQUENCES[code]
    assert expected in text
    assert findings.unmapped_codes == set()
    # Neither the code nor any word of it is in what the Conversador receives ("agenda", the
    # family of the agenda's codes, is also the pt-BR word for it and may stay).
    assert code not in whole
    for word in re.split(r"[:_]", code):
        if len(word) >= 4 and word != "agenda":
            assert not re.search(rf"\b{re.escape(word)}\b", whole), word
    # The sentence itself is business pt-BR: no identifier shape, nothing internal.
    assert identifier_shape(expected) is None
    assert expected == expected.strip() and expected[0].islower()


def test_the_integration_case_of_the_seed_reads_as_the_seed_says() -> None:
    findings = Findings()
    text, whole = _through_activity("unsafe_url:https_required", findings)
    assert "a integração está configurada com um endereço que não é seguro" in text
    assert "unsafe_url" not in whole and "https_required" not in whole


def test_every_agenda_refusal_code_has_an_entry() -> None:
    names = [n for n in agenda_resources_pb2.RefusalCode.keys() if not n.endswith("UNSPECIFIED")]
    assert names
    codes = [consequences.agenda_code(agenda_resources_pb2.RefusalCode.Value(n)) for n in names]
    missing = [c for c in codes if c not in CONSEQUENCES]
    assert missing == []


def test_every_crm_refusal_code_has_an_entry() -> None:
    names = [n for n in crm_resources_pb2.CrmRefusalCode.keys() if not n.endswith("UNSPECIFIED")]
    assert names
    codes = [consequences.crm_code(crm_resources_pb2.CrmRefusalCode.Value(n)) for n in names]
    missing = [c for c in codes if c not in CONSEQUENCES]
    assert missing == []


def test_every_failed_read_status_has_an_entry() -> None:
    codes = [consequences.status_code(s) for s in grpc.StatusCode if s != grpc.StatusCode.OK]
    missing = [c for c in codes if c not in CONSEQUENCES]
    assert missing == []


def test_an_unknown_code_yields_the_generic_consequence_and_a_finding() -> None:
    findings = Findings()
    text, whole = _through_activity("payments:card_declined_by_acquirer", findings)
    assert GENERIC in text
    assert findings.unmapped_codes == {"payments:card_declined_by_acquirer"}
    assert "card_declined" not in whole


def test_a_refusal_without_a_code_is_an_unknown_code_too() -> None:
    findings = Findings()
    raw = agenda_read_pb2.CheckAvailabilityResponse(refusal=agenda_resources_pb2.Refusal(message_pt="não"))
    response = project_availability(
        raw,
        places={},
        handle_key=KEY,
        organization_id=samples.ORG,
        contact_id=samples.CONTACT,
        now=samples.NOW,
        max_slots=0,
        findings=findings,
    )
    assert response.consequence.text == GENERIC
    assert findings.unmapped_codes == {"agenda:unspecified"}


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("REFUSAL_CODE_SLOT_TAKEN", "agenda:slot_taken"),
        ("CRM_REFUSAL_CODE_CASE_CLOSED", "crm:case_closed"),
        ("PERMISSION_DENIED", "grpc:permission_denied"),
        ("StatusCode.UNAVAILABLE", "grpc:unavailable"),
        (" unsafe_url:https_required ", "unsafe_url:https_required"),
        ("UNSAFE_URL:HTTPS_REQUIRED", "unsafe_url:https_required"),
    ],
)
def test_codes_are_recognised_in_the_forms_the_system_writes_them(written: str, canonical: str) -> None:
    assert consequences.canonical(written) == canonical
    assert consequences.consequence(written, Findings()) == CONSEQUENCES[canonical]
