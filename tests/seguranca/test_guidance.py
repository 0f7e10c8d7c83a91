"""Every veto teaches: non-empty pt-BR guidance about the customer, naming no internal term itself."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.seguranca.chain import Chain
from services.seguranca.facts import (
    Channel,
    ConfirmedBooking,
    DisclosureMode,
    History,
    OrganizationConfig,
    OutboundKind,
    SentMessage,
)
from services.seguranca.gates import internal_vocabulary
from services.seguranca.reviewers import SemanticPromiseReviewer
from services.seguranca.verdict import Veto
from services.seguranca.vocabulary import contract_index
from tests.seguranca.helpers import CLINIC, NOW, review, with_contact, with_evidence

PORTUGUESE = {"não", "que", "de", "o", "a", "cliente", "ele", "para", "mensagem", "uma", "um", "é"}


async def _always_vetoes(prompt: str) -> str:
    return '{"promessa_sem_evidencia": true, "explicacao": "O cliente acharia que o desconto vale para sempre."}'


SCENARIOS: dict[str, dict[str, object]] = {
    "stop:blocked": {"contact": with_contact(blocked=True)},
    "stop:opted_out": {"contact": with_contact(opted_out=True)},
    "stop:human_owned": {"contact": with_contact(human_owned=True)},
    "stop:opt_out_confirmation_already_sent": {
        "kind": OutboundKind.OPT_OUT_CONFIRMATION,
        "contact": with_contact(opted_out=True, opt_out_confirmation_sent=True),
    },
    "lgpd:anonymised": {"contact": with_contact(anonymised=True)},
    "lgpd:no_legal_basis": {"kind": OutboundKind.PROACTIVE, "contact": with_contact(first_contact=True)},
    "messaging_window:window_closed": {"channel": Channel(name="whatsapp_cloud", has_service_window=True)},
    "repetition:near_duplicate": {
        "draft": "Temos horários na terça à tarde.",
        "history": History(from_sender=(SentMessage("Temos horários na terça à tarde."),)),
    },
    "commercial_promise:gratuity_not_authorised": {"draft": "A consulta é grátis."},
    "commercial_promise:price_not_authorised": {"draft": "A consulta custa R$ 150."},
    "semantic_promise:promise_without_evidence": {"draft": "O desconto vale para sempre.", "semantic": True},
    "case_promise:no_human_case": {"draft": "Vou passar para um atendente agora."},
    "unbacked_claim:no_confirmed_booking": {"draft": "Sua consulta está confirmada para terça às 10h."},
    "unbacked_claim:booking_mismatch": {
        "draft": "Sua consulta está confirmada para terça às 9h.",
        "evidence": with_evidence(
            bookings=(ConfirmedBooking(datetime(2026, 3, 10, 13, 0, tzinfo=UTC), "America/Sao_Paulo"),)
        ),
    },
    "unbacked_claim:no_record": {"draft": "Já cancelei o seu pedido."},
    "unbacked_claim:agenda_stall": {
        "draft": "Vou verificar a agenda e já te retorno.",
        "evidence": with_evidence(agenda_readable=True),
    },
    "internal_vocabulary:leak": {"draft": "Deu erro unsafe_url:https_required no webhook."},
    "third_party_data:personal_data": {"draft": "Fale com a Ana no (21) 98765-4321."},
    "disclosure:missing": {"contact": with_contact(first_contact=True), "disclosure": DisclosureMode.VETO},
    "format:empty": {"draft": "   "},
    "format:unsplittable": {"draft": "x" * 50, "channel": Channel(max_text_chars=20)},
}


async def _veto(code: str) -> Veto:
    scenario = dict(SCENARIOS[code])
    draft = str(scenario.pop("draft", "Olá! Temos horários na quinta."))
    config = CLINIC
    chain = None
    if scenario.pop("semantic", False):
        config = OrganizationConfig.with_gates(semantic_promise=True)
        chain = Chain(vocabulary=contract_index(), semantic_reviewer=SemanticPromiseReviewer(_always_vetoes))
    mode = scenario.pop("disclosure", None)
    if mode is not None:
        config = OrganizationConfig(disclosure_mode=mode)
    kwargs = {"chain": chain} if chain is not None else {}
    verdict = await review(draft, config=config, now=NOW, **kwargs, **scenario)
    matching = [v for v in verdict.vetoes if v.code == code]
    assert matching, f"{code} did not veto: {[v.code for v in verdict.vetoes]}"
    return matching[0]


@pytest.mark.parametrize("code", sorted(SCENARIOS))
async def test_every_veto_carries_portuguese_guidance_free_of_internal_terms(code: str) -> None:
    veto = await _veto(code)
    guidance = veto.guidance_pt
    assert guidance.strip()
    assert set(guidance.lower().replace(",", " ").replace(".", " ").split()) & PORTUGUESE
    found = internal_vocabulary.scan(guidance, contract_index())
    assert not found, f"{code}'s guidance names internal terms: {dict(found)}"
    if veto.central_item_pt:
        assert not internal_vocabulary.scan(veto.central_item_pt, contract_index())


def test_every_gate_that_can_veto_has_a_scenario_here() -> None:
    gates = {code.split(":")[0] for code in SCENARIOS}
    # pacing waits, it never vetoes.
    assert gates == {
        "stop",
        "lgpd",
        "messaging_window",
        "repetition",
        "commercial_promise",
        "semantic_promise",
        "case_promise",
        "unbacked_claim",
        "internal_vocabulary",
        "third_party_data",
        "disclosure",
        "format",
    }
