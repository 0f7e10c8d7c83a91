"""Rule 4: the tenant's label wins; the internal key never passes."""

from __future__ import annotations

from google.protobuf.json_format import MessageToJson

from balcao.crm.v1 import crm_read_pb2
from services.projection.findings import Findings
from services.projection.lead import project_lead_context
from services.projection.stages import GENERIC_OPEN, GENERIC_TERMINAL, NOT_PLACED
from tests.projection import samples


def _stage(state: crm_read_pb2.GetLeadStateResponse):  # type: ignore[no-untyped-def]
    response = project_lead_context(samples.raw_lead(state=state), Findings())
    return response.lead.stage, MessageToJson(response, ensure_ascii=False)


def test_a_tenant_label_passes_whole() -> None:
    stage, whole = _stage(samples.lead_state("qualifying", "Aguardando pagamento"))
    assert stage.label == "Aguardando pagamento"
    assert not stage.generic
    assert "qualifying" not in whole


def test_the_key_never_passes_even_without_a_label() -> None:
    stage, whole = _stage(samples.lead_state("qualifying", ""))
    # The organisation's stage definition has the label, so it is used.
    assert stage.label == "Aguardando pagamento"
    stage, whole = _stage(samples.lead_state("new_lead", ""))
    assert stage.label == GENERIC_OPEN and stage.generic
    assert "new_lead" not in whole


def test_a_terminal_stage_without_a_label_is_described_as_concluded() -> None:
    stage, whole = _stage(samples.lead_state("won", ""))
    assert stage.label == GENERIC_TERMINAL and stage.generic
    assert '"won"' not in whole


def test_a_label_that_is_only_the_key_counts_as_no_label() -> None:
    stage, whole = _stage(samples.lead_state("new_lead", "new_lead"))
    assert stage.label == GENERIC_OPEN and stage.generic
    assert "new_lead" not in whole


def test_an_unknown_stage_key_without_label_is_generic() -> None:
    stage, whole = _stage(samples.lead_state("negotiating", ""))
    assert stage.generic
    assert "negotiating" not in whole


def test_a_label_written_as_a_key_is_generic() -> None:
    stage, _ = _stage(samples.lead_state("x", "aguardando_pagamento"))
    assert stage.generic


def test_a_lead_never_placed_says_so() -> None:
    stage, _ = _stage(crm_read_pb2.GetLeadStateResponse(found=False))
    assert stage.label == NOT_PLACED and stage.generic


def test_a_tenant_label_in_the_stage_definitions_wins_over_an_empty_state_label() -> None:
    lead = samples.raw_lead(state=samples.lead_state("paying", ""))
    lead.organization.settings.stages.add(key="paying", label="Pagamento em análise", position=3)
    stage = project_lead_context(lead, Findings()).lead.stage
    assert stage.label == "Pagamento em análise"
